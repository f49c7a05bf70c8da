"""Plain factory functions: each builds one valid row, overridable by keyword."""

from __future__ import annotations

import itertools

from apps.content.models import Card, Deck
from apps.content.services import card_save

_seq = itertools.count(1)


def make_deck(**fields) -> Deck:
    n = next(_seq)
    fields.setdefault("title", f"Deck {n}")
    fields.setdefault("slug", f"deck-{n}")
    return Deck.objects.create(**fields)


def make_card(*, deck: Deck | None = None, **fields) -> Card:
    deck = deck or make_deck()
    n = next(_seq)
    fields.setdefault(
        "position", (deck.cards.order_by("-position").values_list("position", flat=True).first() or 0) + 1
    )
    fields.setdefault("kind", Card.Kind.FLASHCARD)
    fields.setdefault("question", f"Question {n}?")
    fields.setdefault("answer", f"Answer {n}")
    if fields["kind"] == Card.Kind.FLASHCARD:
        fields.setdefault("short_answer", fields["answer"])
    return card_save(card=Card(deck=deck, **fields))


def make_exportable_deck(*, description: str, archived_question: str) -> Deck:
    """The "serving" deck of the export and import tests: a flashcard with TeX, code, aliases, distractors and key
    terms, and an archived syllabus card whose text needs quoting in CSV."""
    deck = make_deck(title="Serving", slug="serving", description=description)
    first = make_card(deck=deck, question="What is $\\frac{a}{b}$?", answer="A ratio, `a/b`.", short_answer="ratio",
                      explanation="Because.")  # fmt: skip
    card_save(card=first, aliases=["a quotient", "fraction"], distractors=["A sum", "A *product*"],
              key_terms=["ratio|quotient", "divide"])  # fmt: skip
    make_card(deck=deck, kind="syllabus", question=archived_question, answer="Yes,\n\nreally.", short_answer="",
              archived=True)  # fmt: skip
    return deck
