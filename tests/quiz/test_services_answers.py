"""Answering against PostgreSQL: grading, storing and scheduling, wrong choices and revealed answers, idempotent and
concurrent submits, bad submissions and options changing nothing, sessions not the student's, finishing a session
and ending it early, and an override waiting for the student's other answer writes.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from apps.quiz import services
from apps.quiz.models import Answer, CardState, QuizSession, SessionItem
from apps.quiz.services import Submission
from tests.locks import waited_for_student_lock
from tests.quiz.services_support import _answer_right, _deck, _start

pytestmark = pytest.mark.django_db


def test_answer_is_graded_stored_and_schedules_the_card(student):
    session = _start(student, _deck(4), mode="recall")
    answer, created = _answer_right(student, session, 1, time_taken_ms=4200)
    assert created
    assert (answer.auto_verdict, answer.final_verdict, answer.final_score) == ("correct", "correct", answer.auto_score)
    assert answer.auto_score >= 0.75
    assert (answer.user, answer.mode, answer.time_taken_ms, answer.rating) == (student, "recall", 4200, 3)
    state = CardState.objects.get(user=student, card=answer.card)
    assert state.reps == 1 and state.due > answer.answered_at


def test_wrong_choice_is_incorrect_and_rated_again(student):
    session = _start(student, _deck(5), mode="choice")
    item = session.items.get(position=1)
    wrong = (item.correct_option + 1) % 4
    answer, _ = services.answer_submit(
        user=student, session_id=session.pk, position=1, submission=Submission(option=wrong)
    )
    assert (answer.final_verdict, answer.final_score, answer.rating) == ("incorrect", 0.0, 1)
    assert answer.response == item.options[wrong]["text"]
    assert answer.chosen_option == wrong


def test_revealing_counts_as_incorrect(student):
    session = _start(student, _deck(3), mode="recall")
    answer, _ = services.answer_submit(
        user=student, session_id=session.pk, position=1, submission=Submission(reveal=True)
    )
    assert answer.revealed and answer.final_verdict == "incorrect" and answer.rating == 1


def test_submitting_twice_stores_one_answer_and_returns_the_same(student):
    session = _start(student, _deck(3), mode="recall")
    first, created = _answer_right(student, session, 1)
    again, created_again = services.answer_submit(
        user=student, session_id=session.pk, position=1, submission=Submission(response="something else entirely")
    )
    assert created and not created_again
    assert again.pk == first.pk and again.response == first.response
    assert Answer.objects.count() == 1
    assert CardState.objects.get().reps == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_submits_store_exactly_one_answer(student):
    session = _start(student, _deck(3), mode="recall")
    results, errors = [], []
    barrier = threading.Barrier(6)

    def submit():
        try:
            barrier.wait()
            results.append(_answer_right(student, session, 1))
        except Exception as exc:  # collected and asserted below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sum(created for _, created in results) == 1
    assert len({answer.pk for answer, _ in results}) == 1
    # Every submit sees the quiz as it stands after the one answer, as the feedback shows it.
    assert {(a.item.session.answered_count, a.item.answer.pk) for a, _ in results} == {(1, results[0][0].pk)}
    assert Answer.objects.count() == 1
    assert CardState.objects.get().reps == 1


@pytest.mark.parametrize(
    ("submission", "message"),
    [
        (Submission(response="   "), "Type an answer"),
        (Submission(response="x" * 2001), "limited to 2,000"),
    ],
)
def test_bad_recall_submissions_change_nothing(student, submission, message):
    session = _start(student, _deck(3), mode="recall")
    with pytest.raises(services.InvalidSubmissionError, match=message):
        services.answer_submit(user=student, session_id=session.pk, position=1, submission=submission)
    assert Answer.objects.count() == 0 and CardState.objects.count() == 0


@pytest.mark.parametrize("option", [None, 4, 99])
def test_an_option_that_is_not_offered_changes_nothing(student, option):
    session = _start(student, _deck(5), mode="choice")
    with pytest.raises(services.InvalidSubmissionError, match="Choose one of the options"):
        services.answer_submit(user=student, session_id=session.pk, position=1, submission=Submission(option=option))
    assert Answer.objects.count() == 0


def test_someone_elses_session_or_a_card_not_in_it_is_not_found(student, other_student):
    session = _start(student, _deck(3), mode="recall")
    with pytest.raises(QuizSession.DoesNotExist):
        services.answer_submit(
            user=other_student, session_id=session.pk, position=1, submission=Submission(response="x")
        )
    with pytest.raises(SessionItem.DoesNotExist):
        services.answer_submit(user=student, session_id=session.pk, position=9, submission=Submission(response="x"))
    assert Answer.objects.count() == 0


def test_answering_the_last_question_finishes_the_session(student):
    session = _start(student, _deck(2), mode="recall")
    _answer_right(student, session, 1)
    session.refresh_from_db()
    assert session.finished_at is None
    _answer_right(student, session, 2)
    session.refresh_from_db()
    assert session.finished_at is not None


def test_a_session_ended_early_takes_no_more_answers(student):
    session = _start(student, _deck(3), mode="recall")
    _answer_right(student, session, 1)
    services.session_finish(user=student, session_id=session.pk)
    with pytest.raises(services.SessionFinishedError):
        _answer_right(student, session, 2)
    # The answer given before stays, and resubmitting it still returns it.
    assert _answer_right(student, session, 1)[1] is False
    assert Answer.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_override_waits_for_the_students_other_answer_writes(student):
    """An override replays the card's memory state, so a submit in another tab must not interleave with it."""
    session = _start(student, _deck(3), mode="recall")
    services.answer_submit(user=student, session_id=session.pk, position=1, submission=Submission(response="no idea"))

    def override():
        services.answer_override(user=student, session_id=session.pk, position=1, verdict="correct")

    assert waited_for_student_lock(student.pk, override)
    assert Answer.objects.get().override_verdict == "correct"
