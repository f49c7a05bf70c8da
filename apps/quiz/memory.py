"""A student's memory of each card they answered (FSRS states): rebuilt by replaying the answers when a verdict
changes, and set aside from quizzes and reviews, as Anki's "suspend", when the student wants it asked no more."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from apps.common.db import rows_update, student_lock
from apps.content.models import Card

from . import scheduling
from .models import Answer, CardState

_REPLAYED = ["state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses", "mastered_until"]


def card_state_rebuild(*, user: AbstractBaseUser, card: Card) -> CardState:
    """Replays every answer of `user` on `card`, e.g. after an override changed a rating.

    The caller holds the student's lock (apps.common.db.student_lock).
    """
    return card_states_rebuild(user_ids=[user.pk], card=card)[0]


def card_states_rebuild(*, user_ids: list[int], card: Card) -> list[CardState]:
    """card_state_rebuild for several students at once (a regrade): three queries, however many. The caller holds
    their locks."""
    states = {state.user_id: state for state in CardState.objects.filter(user_id__in=user_ids, card=card)}
    reviews: dict[int, list[tuple[int, datetime]]] = {user_id: [] for user_id in user_ids}
    answers = Answer.objects.filter(user_id__in=user_ids, card=card).order_by("answered_at", "pk")
    for user_id, rating, at in answers.values_list("user_id", "rating", "answered_at"):
        reviews[user_id].append((rating, at))
    stored = list(states.values())
    now = timezone.now()
    fresh = [CardState(user_id=user_id, card=card, deck_id=card.deck_id, due=now) for user_id in user_ids
             if user_id not in states]  # fmt: skip
    states.update((state.user_id, state) for state in fresh)
    for user_id in user_ids:
        scheduling.replay(states[user_id], reviews[user_id])
    rows_update(stored, _REPLAYED)
    CardState.objects.bulk_create(fresh)
    return [states[user_id] for user_id in user_ids]


def card_set_aside(*, user: AbstractBaseUser, card_id: int, aside: bool, now: datetime | None = None) -> CardState:
    """Sets a card the user has answered aside from their quizzes and reviews, or (not `aside`) brings it back,
    where its schedule left it. Setting aside again keeps the first date.

    Raises CardState.DoesNotExist for a card the user has not answered: a new card is simply not asked yet.
    """
    with transaction.atomic():
        # Under the student's lock: an answer in flight has read this state and saves it whole when done.
        student_lock(user.pk)
        state = CardState.objects.get(user=user, card_id=card_id)
        when = (state.set_aside_at or now or timezone.now()) if aside else None
        if when != state.set_aside_at:
            state.set_aside_at = when
            state.save(update_fields=["set_aside_at"])
    return state


def cards_set_aside(*, user: AbstractBaseUser) -> QuerySet[CardState]:
    """The user's cards set aside, with their cards and decks, the latest first; archived ones are asked nowhere
    anyway, and My progress counts them no more."""
    return (
        CardState.objects.filter(user=user, set_aside_at__isnull=False, card__archived=False)
        .select_related("card__deck")
        .order_by("-set_aside_at", "-pk")
    )


def card_set_aside_at(*, user_id: int) -> Subquery:
    """When the user set aside the card of each question annotated (its `card`), or None: in the question's own
    query, so that its feedback offers "Set this card aside" or "Bring it back" at no cost of a query."""
    return Subquery(CardState.objects.filter(user_id=user_id, card=OuterRef("card")).values("set_aside_at")[:1])
