"""FSRS state and quiz totals against PostgreSQL: rebuilding a card's state by replaying its answers across sessions,
an answer timed before the card's last review applied at that review, and many partial scores keeping the quiz total
in range.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.content.models import Card
from apps.quiz import memory, services
from apps.quiz.models import Answer, CardState
from apps.quiz.services import Submission
from tests.quiz.services_support import _answer_right, _deck, _start

pytestmark = pytest.mark.django_db


def test_state_rebuild_replays_answers_across_sessions(student):
    deck = _deck(3)
    card = deck.cards.first()
    first = _start(student, deck, mode="recall", size=3)
    _answer_right(student, first, first.items.get(card=card).position)
    second = _start(student, deck, mode="recall", size=3)
    services.answer_submit(
        user=student,
        session_id=second.pk,
        position=second.items.get(card=card).position,
        submission=Submission(response="wrong"),
    )
    incremental = CardState.objects.get(user=student, card=card)
    rebuilt = memory.card_state_rebuild(user=student, card=Card.objects.get(pk=card.pk))
    assert (rebuilt.reps, rebuilt.stability, rebuilt.due) == (incremental.reps, incremental.stability, incremental.due)


def test_an_answer_timed_before_the_cards_last_review_is_applied_at_that_review(student):
    """Two app servers' clocks can disagree: a review is never applied before the last one, as a replay would not."""
    deck = _deck(1)
    card = deck.cards.get()
    later, earlier = _start(student, deck, mode="recall"), _start(student, deck, mode="recall")
    at = timezone.now() + timedelta(minutes=1)  # after both quizzes started
    services.answer_submit(
        user=student, session_id=later.pk, position=1, submission=Submission(response="Tool number 0"), now=at
    )
    answer, _ = services.answer_submit(
        user=student, session_id=earlier.pk, position=1, submission=Submission(response="wrong"),
        now=at - timedelta(seconds=5),
    )  # fmt: skip
    assert answer.answered_at == at == Answer.objects.get(pk=answer.pk).answered_at
    stored = CardState.objects.get(user=student, card=card)
    assert stored.last_review == at and stored.reps == 2
    rebuilt = memory.card_state_rebuild(user=student, card=card)
    fields = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses")
    assert [getattr(stored, f) for f in fields] == [getattr(rebuilt, f) for f in fields]


def test_many_partial_scores_keep_the_quiz_total_in_range(student):
    """Adding scores in [0, 1] can round, but never past the number answered (rounding is monotonic): fifty
    answers the grader scores 1, 0.9 (a typo), 0.5 (a hedge) and 0, summed by PostgreSQL one at a time."""
    kinds = ["Tool number {i}", "Tol number {i}", "Tool number {i} or maybe a hammer", "a hammer"] * 13
    session = _start(student, _deck(50), mode="recall", size=50)
    scores = []
    for item in session.items.order_by("position"):
        number = item.card.answer.rsplit(" ", 1)[1]
        response = kinds[item.position].format(i=number)
        answer, _ = services.answer_submit(
            user=student, session_id=session.pk, position=item.position, submission=Submission(response=response)
        )
        scores.append(answer.final_score)
        session.refresh_from_db()
        assert 0 <= session.score_sum <= session.answered_count == item.position
    assert sorted(set(scores)) == [0.0, 0.5, 0.9, 1.0]
    assert session.score_sum == pytest.approx(sum(scores))
