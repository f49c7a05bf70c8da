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
