"""FSRS glue: the rating mapping, reviews, replays and retrievability in Python and SQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import fsrs
import pytest

from apps.quiz import scheduling
from apps.quiz.models import CardState
from tests.factories import make_card

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("verdict", "rating"),
    [("correct", fsrs.Rating.Good), ("partial", fsrs.Rating.Hard), ("incorrect", fsrs.Rating.Again)],
)
def test_verdict_to_rating(verdict, rating):
    assert scheduling.rating_for(verdict) == rating


def test_reviews_follow_fsrs_and_graduate_to_review():
    state = CardState(card_id=1, due=T0)
    scheduling.review(state, rating=fsrs.Rating.Good, at=T0)
    assert state.state == CardState.State.LEARNING
    assert state.due == T0 + timedelta(minutes=10)
    scheduling.review(state, rating=fsrs.Rating.Good, at=T0 + timedelta(minutes=10))
    assert state.state == CardState.State.REVIEW
    assert state.due > T0 + timedelta(days=1)
    assert state.reps == 2 and state.lapses == 0
    scheduling.review(state, rating=fsrs.Rating.Again, at=state.due)
    assert state.state == CardState.State.RELEARNING
    assert state.lapses == 1


def test_replay_equals_the_same_reviews_applied_one_by_one():
    reviews = [(3, T0), (1, T0 + timedelta(minutes=5)), (3, T0 + timedelta(hours=1)), (4, T0 + timedelta(days=2))]
    stepwise = CardState(card_id=1, due=T0)
    for rating, at in reviews:
        scheduling.review(stepwise, rating=rating, at=at)
    replayed = CardState(card_id=1, due=T0, reps=9, lapses=4, stability=99.0)
    scheduling.replay(replayed, reviews)
    fields = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses")
    assert [getattr(replayed, f) for f in fields] == [getattr(stepwise, f) for f in fields]


def test_retrievability_matches_fsrs_on_whole_days():
    state = CardState(card_id=1, due=T0)
    scheduling.review(state, rating=fsrs.Rating.Easy, at=T0)
    card = fsrs.Card(card_id=1, state=fsrs.State.Review, stability=state.stability, difficulty=state.difficulty,
                     due=state.due, last_review=T0)  # fmt: skip
    for days in (0, 1, 5, 30):
        now = T0 + timedelta(days=days)
        assert scheduling.retrievability(state, now=now) == pytest.approx(
            scheduling.SCHEDULER.get_card_retrievability(card, now)
        )


@pytest.mark.django_db
def test_sql_retrievability_and_mastery_agree_with_python(student):
    card = make_card()
    now = datetime.now(UTC)
    state = CardState(user=student, card=card, due=now)
    scheduling.review(state, rating=fsrs.Rating.Easy, at=now - timedelta(days=3))
    state.save()
    row = CardState.objects.annotate(r=scheduling.retrievability_sql()).get(pk=state.pk)
    assert row.r == pytest.approx(scheduling.retrievability(state, now=now), abs=1e-4)
    assert CardState.objects.filter(scheduling.mastered_q()).count() == (1 if row.r >= 0.9 else 0)

    learning = CardState.objects.create(user=student, card=make_card(), due=now, stability=5.0, last_review=now)
    assert not CardState.objects.filter(scheduling.mastered_q(), pk=learning.pk).exists()
    stale = CardState.objects.create(
        user=student, card=make_card(), due=now, state=2, stability=1.0, last_review=now - timedelta(days=30)
    )
    assert not CardState.objects.filter(scheduling.mastered_q(), pk=stale.pk).exists()
