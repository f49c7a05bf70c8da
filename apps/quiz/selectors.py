"""Reads of the quiz. Every function runs a fixed number of queries, whatever the history size."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Avg, Count, Exists, OuterRef, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from apps.content.models import Card, Deck

from .models import Answer, CardState, QuizSession, SessionItem
from .scheduling import mastered_q


def sessions_with_totals() -> QuerySet[QuizSession]:
    """Quizzes with their deck; totals are counters on the row (QuizSession.total/answered/score)."""
    return QuizSession.objects.select_related("deck")


def session_get(*, user: AbstractBaseUser, pk: int) -> QuizSession:
    """The user's own session, with totals; anyone else's is a 404."""
    return get_object_or_404(sessions_with_totals(), pk=pk, user=user)


def _items() -> QuerySet[SessionItem]:
    return SessionItem.objects.select_related("card", "card__deck", "answer", "answer__card_version")


def session_next_item(*, session: QuizSession) -> SessionItem | None:
    """The first unanswered question: where a reload or a later visit resumes."""
    return _items().filter(session=session, answer__isnull=True).order_by("position").first()


def session_item(*, session: QuizSession, position: int) -> SessionItem:
    return get_object_or_404(_items(), session=session, position=position)


def session_items(*, session: QuizSession) -> list[SessionItem]:
    return list(_items().filter(session=session).order_by("position"))


def sessions_recent(*, user: AbstractBaseUser, limit: int = 10) -> list[QuizSession]:
    return list(sessions_with_totals().filter(user=user).order_by("-created_at")[:limit])


@dataclass
class DeckProgress:
    deck: Deck
    cards: int
    seen: int = 0
    accuracy: float | None = None
    due_now: int = 0
    due_week: int = 0
    mastered: int = 0

    @property
    def new(self) -> int:
        return self.cards - self.seen


def progress_by_deck(*, user: AbstractBaseUser, now: datetime | None = None) -> list[DeckProgress]:
    """Per deck: cards seen, accuracy (mean final score), due now / within a week, mastered. Three queries."""
    now = now or timezone.now()
    rows = {
        deck.pk: DeckProgress(deck=deck, cards=deck.card_count)
        for deck in Deck.objects.annotate(card_count=Count("cards"))
    }
    answers = (
        Answer.objects.filter(user=user)
        .values("card__deck")
        .annotate(seen=Count("card", distinct=True), accuracy=Avg("final_score"))
    )
    for row in answers:
        progress = rows[row["card__deck"]]
        progress.seen, progress.accuracy = row["seen"], row["accuracy"]
    states = (
        CardState.objects.filter(user=user)
        .values("card__deck")
        .annotate(
            due_now=Count("pk", filter=Q(due__lte=now)),
            due_week=Count("pk", filter=Q(due__gt=now, due__lte=now + timedelta(days=7))),
            mastered=Count("pk", filter=mastered_q()),
        )
    )
    for row in states:
        progress = rows[row["card__deck"]]
        progress.due_now, progress.due_week, progress.mastered = row["due_now"], row["due_week"], row["mastered"]
    return sorted(rows.values(), key=lambda progress: progress.deck.title)


def due_count(*, user: AbstractBaseUser, now: datetime | None = None) -> int:
    return CardState.objects.filter(user=user, due__lte=now or timezone.now()).count()


def deck_study_counts(*, user: AbstractBaseUser, deck: Deck, now: datetime | None = None) -> dict[str, int]:
    """How many of the deck's cards are new to the user and how many are due. One query."""
    now = now or timezone.now()
    mine = CardState.objects.filter(user=user, card=OuterRef("pk"))
    return Card.objects.filter(deck=deck).aggregate(
        total=Count("pk"),
        new=Count("pk", filter=~Exists(mine)),
        due=Count("pk", filter=Exists(mine.filter(due__lte=now))),
    )
