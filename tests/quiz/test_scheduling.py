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


def test_mastered_until_is_where_retrievability_falls_to_0_9():
    state = CardState(card_id=1, due=T0)
    scheduling.review(state, rating=fsrs.Rating.Easy, at=T0)
    assert state.state == CardState.State.REVIEW
    assert scheduling.retrievability(state, now=state.mastered_until) == pytest.approx(0.9)
    learning = CardState(card_id=1, due=T0)
    scheduling.review(learning, rating=fsrs.Rating.Good, at=T0)
    assert learning.mastered_until is None


@pytest.mark.django_db
@pytest.mark.parametrize("fraction", [0.1, 0.98, 1.02, 3.0])
def test_sql_mastery_agrees_with_python_retrievability(student, fraction):
    now = datetime.now(UTC)
    card = make_card()
    state = CardState(user=student, card=card, deck=card.deck, due=now)
    scheduling.review(state, rating=fsrs.Rating.Easy, at=now)
    elapsed = timedelta(days=state.stability * fraction)
    scheduling.review(state, rating=fsrs.Rating.Good, at=now - elapsed)  # graduated, reviewed `elapsed` ago
    state.save()
    recalled = scheduling.retrievability(state, now=now) >= 0.9
    assert recalled == (fraction < 1)
    expected = recalled and state.due > now  # a card due now is not mastered (FSRS rounds due dates to days)
    assert scheduling.is_mastered(state, now=now) == expected
    assert CardState.objects.filter(scheduling.mastered_q(now=now), pk=state.pk).exists() == expected


@pytest.mark.django_db
def test_cards_still_learning_are_not_mastered(student):
    now = datetime.now(UTC)
    card = make_card()
    state = CardState(user=student, card=card, deck=card.deck, due=now)
    scheduling.review(state, rating=fsrs.Rating.Good, at=now)
    state.save()
    assert scheduling.retrievability(state, now=now) >= 0.9
    assert not CardState.objects.filter(scheduling.mastered_q()).exists()
