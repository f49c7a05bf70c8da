from __future__ import annotations

import hashlib

from django.contrib.postgres.aggregates import StringAgg
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.shortcuts import get_object_or_404

from .models import Card, Deck, StyleRule


def deck_list(*, drafts: bool = False) -> QuerySet[Deck]:
    """The decks students see; `drafts` adds the unpublished ones (for those who author decks)."""
    decks = Deck.objects.all() if drafts else Deck.objects.filter(published=True)
    return decks.annotate(
        card_count=Count("cards", filter=Q(cards__archived=False)),
        flashcard_count=Count("cards", filter=Q(cards__kind=Card.Kind.FLASHCARD, cards__archived=False)),
    ).order_by("title")


def deck_get(*, slug: str, drafts: bool = False) -> Deck:
    return get_object_or_404(deck_list(drafts=drafts), slug=slug)


def sees_drafts(user) -> bool:
    """Whoever may change decks (in the admin, so staff) sees the unpublished ones too. A student is not staff:
    their pages ask no permission query."""
    return user.is_staff and user.has_perm("content.change_deck")


def deck_cards(*, deck: Deck) -> QuerySet[Card]:
    return deck.cards.filter(archived=False).order_by("position")


def card_get(*, slug: str, pk: int, drafts: bool = False) -> Card:
    """The card with its deck and the ids of its neighbours, in one query.

    The neighbours are the nearest cards that are not archived, so browsing a deck never lands on one. An
    archived card itself is still found by its URL: answers in students' quiz history link to it (its page
    says it is archived).
    """
    siblings = Card.objects.filter(deck=OuterRef("deck"), archived=False)
    previous_id = siblings.filter(position__lt=OuterRef("position")).order_by("-position").values("pk")[:1]
    next_id = siblings.filter(position__gt=OuterRef("position")).order_by("position").values("pk")[:1]
    cards = Card.objects if drafts else Card.objects.filter(deck__published=True)
    return get_object_or_404(
        cards.select_related("deck").annotate(previous_id=Subquery(previous_id), next_id=Subquery(next_id)),
        deck__slug=slug,
        pk=pk,
    )


def style_rules_version() -> str:
    """Names the current set of rules, from their names alone (each is a hash of its declarations).

    Not a count or a highest id: a database restored from a backup reuses ids, and a version that once
    named other rules would be served from a year-long browser cache.
    """
    names = StyleRule.objects.aggregate(names=StringAgg("name", delimiter=",", order_by="name"))["names"] or ""
    return hashlib.sha256(names.encode()).hexdigest()[:16]


def style_rules_css() -> str:
    rules = StyleRule.objects.order_by("pk").values_list("name", "declarations")
    return "\n".join(f".{name}{{{css}}}" for name, css in rules)
