"""FSRS glue: verdict -> rating, CardState <-> fsrs.Card, and retrievability in SQL.

Rating mapping (documented in the README):

    final verdict               rating
    correct                     Good (3)
    partial                     Hard (2)
    incorrect, or revealed      Again (1)
    override "I was right"      Good (3)   (the final verdict becomes correct)
    override "I was wrong"      Again (1)  (the final verdict becomes incorrect)
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

import fsrs
from django.db.models import DurationField, ExpressionWrapper, F, FloatField, Func, Q, Value
from django.db.models.functions import Greatest, Now, NullIf, Power

from .models import CardState, Verdict

# Fuzzing spreads due dates randomly; off, so a replay after an override is reproducible.
SCHEDULER = fsrs.Scheduler(enable_fuzzing=False)
MASTERED_RETRIEVABILITY = 0.9
# FSRS-6's forgetting curve R(t) = (1 + FACTOR * t / S) ** DECAY, t in days.
DECAY = -SCHEDULER.parameters[20]
FACTOR = 0.9 ** (1 / DECAY) - 1

_RATINGS = {Verdict.CORRECT: fsrs.Rating.Good, Verdict.PARTIAL: fsrs.Rating.Hard, Verdict.INCORRECT: fsrs.Rating.Again}


def rating_for(verdict: str) -> int:
    return int(_RATINGS[Verdict(verdict)])


def _to_fsrs(state: CardState) -> fsrs.Card:
    # card_id given: without it fsrs.Card sleeps 1 ms to make a unique id.
    card = fsrs.Card(card_id=state.card_id or 0)
    if state.reps:
        card.state = fsrs.State(state.state)
        card.step = state.step
        card.stability = state.stability
        card.difficulty = state.difficulty
        card.due = state.due
        card.last_review = state.last_review
    return card


def review(state: CardState, *, rating: int, at: datetime) -> None:
    """Applies one review to `state` in place (not saved)."""
    card, _log = SCHEDULER.review_card(_to_fsrs(state), fsrs.Rating(rating), review_datetime=at)
    state.state = int(card.state)
    state.step = card.step
    state.stability = card.stability
    state.difficulty = card.difficulty
    state.due = card.due
    state.last_review = card.last_review
    in_review = state.state == CardState.State.REVIEW and state.stability
    state.mastered_until = state.last_review + timedelta(days=state.stability) if in_review else None
    if rating == fsrs.Rating.Again and state.reps:
        state.lapses += 1
    state.reps += 1


def replay(state: CardState, reviews: Iterable[tuple[int, datetime]]) -> None:
    """Rebuilds `state` from scratch from (rating, time) pairs in time order."""
    state.state, state.step, state.stability, state.difficulty = CardState.State.LEARNING, 0, None, None
    state.last_review, state.reps, state.lapses, state.mastered_until = None, 0, 0, None
    for rating, at in reviews:
        review(state, rating=rating, at=at)


def retrievability(state: CardState, *, now: datetime) -> float:
    if not state.stability or state.last_review is None:
        return 0.0
    elapsed_days = max(0.0, (now - state.last_review).total_seconds() / 86400)
    return (1 + FACTOR * elapsed_days / state.stability) ** DECAY


def retrievability_sql(*, now: datetime) -> Func:
    """retrievability() of a CardState row, in SQL; NULL for a state with no review (no stability)."""
    elapsed = ExpressionWrapper(Value(now) - F("last_review"), output_field=DurationField())
    seconds = Func(elapsed, template="EXTRACT(EPOCH FROM %(expressions)s)", output_field=FloatField())
    days = Greatest(seconds / Value(86400.0), Value(0.0))
    return Power(Value(1.0) + Value(FACTOR) * days / NullIf(F("stability"), Value(0.0)), Value(DECAY))


def mastered_q(prefix: str = "", *, now: datetime | None = None) -> Q:
    """Mastered: graduated to review, retrievability still >= 0.9 (now <= mastered_until), and not due now.

    FSRS rounds a due date to whole days, so it can fall up to half a day before mastered_until: a card due
    now is due, not mastered, or a deck tile, a deck page or My progress would count it as both.
    """
    now = now or Now()
    return Q(**{f"{prefix}state": CardState.State.REVIEW, f"{prefix}mastered_until__gte": now, f"{prefix}due__gt": now})


def is_mastered(state: CardState | None, *, now: datetime) -> bool:
    """mastered_q for one state in hand."""
    return (
        state is not None
        and state.state == CardState.State.REVIEW
        and state.mastered_until is not None
        and state.mastered_until >= now
        and state.due > now
    )
