"""What a new quiz asks: its cards in order, and each multiple-choice question's options."""

from __future__ import annotations

import random
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Case, Exists, F, FloatField, IntegerField, OuterRef, Subquery, Value, When

from apps.content.models import Card, Deck, Distractor

from .models import CardState, QuizSession
from .options import Option, Topics, options_build
from .scheduling import retrievability_sql

# What _option_for reads of a card: the quiz's cards and the pool of other answers load just these.
_OPTION_FIELDS = ("id", "deck_id", "kind", "question", "short_answer", "short_answer_html", "answer", "answer_html")


def cards_to_ask(*, user: AbstractBaseUser, deck: Deck | None, order: str, now: datetime, rng: random.Random):
    """A new quiz's cards in the order asked: a deck's by `order`, or every deck's cards due now. Cards the user set
    aside are not asked."""
    mine = CardState.objects.filter(user=user, card=OuterRef("pk"))
    cards = (
        Card.objects.filter(archived=False)
        .exclude(Exists(mine.filter(set_aside_at__isnull=False)))
        .annotate(state_due=Subquery(mine.values("due")[:1]))
        .only("position", *_OPTION_FIELDS)
    )
    if deck is None:  # a review: of the decks students see
        return cards.filter(state_due__lte=now, deck__published=True).order_by("state_due", "deck_id", "position")
    cards = cards.filter(deck=deck)
    if order == QuizSession.Order.RANDOM:
        return sorted(cards, key=lambda _card: rng.random())
    if order == QuizSession.Order.WEAKEST:
        # By the student's memory of each card (FSRS): the ones most likely forgotten by now first (the lowest
        # retrievability), then at equal retrievability the least stable, which fade the fastest. Cards never
        # answered come last: there is nothing of them to forget yet.
        recall = mine.annotate(recall=retrievability_sql(now=now)).values("recall")[:1]
        cards = cards.annotate(
            state_recall=Subquery(recall, output_field=FloatField()),
            state_stability=Subquery(mine.values("stability")[:1]),
        )
        return cards.order_by(
            F("state_recall").asc(nulls_last=True), F("state_stability").asc(nulls_last=True), "position"
        )
    if order == QuizSession.Order.DUE:
        due_first = Case(
            When(state_due__lte=now, then=Value(0)),
            When(state_due__isnull=True, then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        )
        return cards.order_by(due_first, F("state_due").asc(nulls_last=True), "position")
    return cards.order_by(F("state_due").asc(nulls_first=True), "position")


def _option_for(card: Card) -> Option:
    topic = f"{card.question}\n{card.answer}"
    if card.kind == Card.Kind.FLASHCARD and card.short_answer:
        return Option(text=card.short_answer, html=card.short_answer_html, topic=topic)
    return Option(text=card.answer, html=card.answer_html, topic=topic)


def choice_options(cards: list[Card], rng: random.Random) -> dict[int, tuple[list[Option], int]]:
    """Options for every card that can be asked as multiple choice; two queries."""
    authored: dict[int, list[Option]] = {}
    for distractor in Distractor.objects.filter(card__in=cards).order_by("position", "pk"):
        authored.setdefault(distractor.card_id, []).append(Option(text=distractor.text, html=distractor.text_html))
    pool_cards = Card.objects.filter(deck__in={card.deck_id for card in cards}, archived=False).only(*_OPTION_FIELDS)
    pools: dict[tuple[int, str], list[tuple[int, Option]]] = {}
    for other in pool_cards:
        pools.setdefault((other.deck_id, other.kind), []).append((other.pk, _option_for(other)))
    topics = {key: Topics([option for _, option in pool]) for key, pool in pools.items()}
    built = {}
    for card in cards:
        key = (card.deck_id, card.kind)
        pool = [option for pk, option in pools.get(key, []) if pk != card.pk]
        result = options_build(
            right=_option_for(card), authored=authored.get(card.pk, []), pool=pool, rng=rng, topics=topics.get(key)
        )
        if result is not None:
            built[card.pk] = result
    return built
