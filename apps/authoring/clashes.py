"""A deck asks each question once (apps.content.selectors.cards_asking): what an import file's questions clash with,
one another or the deck's other cards, each problem named where the file has it, as its other problems are."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from apps.content.answers import normal_text
from apps.content.models import Deck
from apps.content.selectors import cards_asking

from .problems import Problem, Where

# What an author does about a question asked twice, whichever the two are.
_FIX = "a deck asks each question once, so keep one of the two or ask one differently"


def questions_repeated(cards: Sequence[tuple[int, Where, dict]]) -> list[tuple[int, Problem]]:
    """Each card (its place in the file, where its fields are, its fields) asking a question an earlier card of the
    file asks, with that place. Pure: the file alone, before any deck is read."""
    first: dict[str, str] = {}
    found = []
    for at, where, card in cards:
        if card["question"] is None:  # refused already
            continue
        question = normal_text(card["question"])
        if question in first:
            found.append((at, Problem(where("question"), f"is also the question of {first[question]}: {_FIX}")))
        first.setdefault(question, where(None))
    return found


def questions_taken(*, deck: Deck, data: dict, updated: Iterable[int]) -> list[Problem]:
    """Each card of the file (`data` as transfer.parse returns it) asking a question that a card of `deck` asks,
    other than the cards the file updates (ids `updated`: their questions become the file's, which
    questions_repeated compares)."""
    cards, places = data["cards"], data["places"]["cards"]
    taken = cards_asking(deck=deck, questions=[card["question"] for card in cards], other_than=updated)
    if not taken:
        return []
    holders = {normal_text(card.question): card for card in taken}
    problems = []
    for card, where in zip(cards, places, strict=True):
        if (holder := holders.get(normal_text(card["question"]))) is not None:
            # "The deck", not its title: the file may be renaming it.
            asks, which = ("has", "archived card") if holder.archived else ("asks", "card")
            said = (
                f"the deck {asks} this question already, in its {which} at position {holder.position}, which this "
                "file leaves out: ask this one differently, or give this card that card's uid so that the import "
                "updates it instead"
            )
            problems.append(Problem(where("question"), said))
    return problems
