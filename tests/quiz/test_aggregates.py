"""The running totals the dashboards read always equal a recomputation from the raw answers."""

from __future__ import annotations

import random

import pytest

from apps.quiz import services, shown
from apps.quiz.aggregates import stats_rebuild
from apps.quiz.models import StudentCardStat, StudentDeckStat
from tests.conftest import make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _snapshot():
    cards = {
        (s.user_id, s.card_id): (s.deck_id, s.attempts, round(s.score_sum, 9), s.overrides, s.last_answered_at)
        for s in StudentCardStat.objects.all()
    }
    decks = {
        (s.user_id, s.deck_id): (s.cards_attempted, s.attempts, round(s.score_sum, 9), round(s.mean_sum, 9),
                                 s.last_answered_at)
        for s in StudentDeckStat.objects.all()
    }  # fmt: skip
    return cards, decks


def test_incremental_totals_equal_a_recomputation_from_answers():
    rng = random.Random(7)
    decks = [make_deck() for _ in range(2)]
    for deck in decks:
        for i in range(5):
            make_card(deck=deck, question=f"Which tool {i} in {deck.slug}?", answer=f"Tool {i}")
    students = [make_user(f"s{i}") for i in range(3)]
    for _ in range(3):
        for student in students:
            for deck in decks:
                session = services.session_start(user=student, deck=deck, size=4, mode="mixed", order="random")
                for item in session.items.all():
                    if item.mode == "choice":
                        submission = services.Submission(option=rng.randrange(4))
                    else:
                        guess = item.card.answer if rng.random() < 0.5 else "no idea at all"
                        submission = services.Submission(response=guess, reveal=rng.random() < 0.3)
                    services.answer_submit(
                        user=student, session_id=session.pk, position=item.position, submission=submission
                    )
                    checked = not submission.reveal
                    if submission.reveal and rng.random() < 0.7:  # "Show answer" tapped for "Check answer"
                        shown.answer_check_typed(user=student, session_id=session.pk, position=item.position)
                        checked = True
                    if item.mode == "recall" and checked and rng.random() < 0.3:
                        services.answer_override(
                            user=student, session_id=session.pk, position=item.position,
                            verdict=rng.choice(["correct", "incorrect", ""]),
                        )  # fmt: skip
    incremental = _snapshot()
    assert len(incremental[0]) > 10 and len(incremental[1]) == 6
    assert any(row[3] for row in incremental[0].values())  # some overrides were counted
    stats_rebuild()
    assert _snapshot() == incremental


def test_rebuild_for_one_student_leaves_others_alone(student, other_student):
    deck = make_deck()
    for i in range(3):
        make_card(deck=deck, answer=f"Tool {i}")
    for user in (student, other_student):
        session = services.session_start(user=user, deck=deck, size=3, mode="recall", order="new")
        services.answer_submit(
            user=user, session_id=session.pk, position=1, submission=services.Submission(response="x")
        )
    before = _snapshot()
    StudentCardStat.objects.filter(user=student).update(attempts=99)
    stats_rebuild(user_ids=[student.pk])
    assert _snapshot() == before
