"""Overrides against PostgreSQL: stored beside the automatic verdict, lowering or raising a partly right answer,
agreeing with the grader being no override, refused verdicts, users and answer kinds, and checking after all what
was typed before "Show answer".
"""

from __future__ import annotations

import pytest

from apps.quiz import scheduling, services, shown
from apps.quiz.models import Answer, CardState, QuizSession, StudentCardStat
from apps.quiz.services import Submission
from tests.quiz.services_support import _answer_right, _deck, _start

pytestmark = pytest.mark.django_db


def test_override_is_stored_beside_the_automatic_verdict(student):
    session = _start(student, _deck(3), mode="recall")
    services.answer_submit(
        user=student, session_id=session.pk, position=1, submission=Submission(response="no idea at all")
    )
    answer = services.answer_override(user=student, session_id=session.pk, position=1, verdict="correct")
    answer.refresh_from_db()
    assert (answer.auto_verdict, answer.override_verdict, answer.final_verdict) == ("incorrect", "correct", "correct")
    assert answer.auto_score < 0.4 and answer.final_score == 1.0 and answer.rating == 3
    state = CardState.objects.get(user=student, card=answer.card)
    assert state.state == CardState.State.LEARNING and state.stability > 1  # replayed as Good, not Again

    undone = services.answer_override(user=student, session_id=session.pk, position=1, verdict="")
    assert (undone.override_verdict, undone.final_verdict, undone.final_score) == ("", "incorrect", undone.auto_score)
    assert CardState.objects.get(user=student, card=answer.card).stability < 1


def test_i_was_wrong_lowers_the_final_score(student):
    session = _start(student, _deck(3), mode="recall")
    _answer_right(student, session, 1)
    answer = services.answer_override(user=student, session_id=session.pk, position=1, verdict="incorrect")
    assert (answer.auto_verdict, answer.final_verdict, answer.final_score, answer.rating) == (
        "correct", "incorrect", 0.0, 1,
    )  # fmt: skip


def _answer_partly(user, session: QuizSession, position: int) -> Answer:
    """Hedging between the right tool and something else: the grader gives half the credit."""
    item = session.items.get(position=position)
    hedge = Submission(response=f"{item.card.answer} or maybe a hammer")
    answer, _ = services.answer_submit(user=user, session_id=session.pk, position=position, submission=hedge)
    assert answer.auto_verdict == "partial" and 0 < answer.auto_score < 1, (answer.auto_verdict, answer.auto_score)
    return answer


@pytest.mark.parametrize(("verdict", "score", "rating"), [("correct", 1.0, 3), ("incorrect", 0.0, 1)])
def test_a_partly_right_answer_can_be_overridden_either_way(student, verdict, score, rating):
    session = _start(student, _deck(3), mode="recall")
    partly = _answer_partly(student, session, 1)
    partly_state = CardState.objects.get(user=student, card=partly.card)
    assert partly.rating == 2  # Hard

    answer = services.answer_override(user=student, session_id=session.pk, position=1, verdict=verdict)
    answer.refresh_from_db()
    assert (answer.auto_verdict, answer.override_verdict, answer.final_verdict) == ("partial", verdict, verdict)
    assert (answer.auto_score, answer.final_score, answer.rating) == (partly.auto_score, score, rating)
    session.refresh_from_db()
    assert session.score_sum == score
    stat = StudentCardStat.objects.get(user=student, card=answer.card)
    assert (stat.score_sum, stat.overrides) == (score, 1)
    # The card's memory state is replayed with the final verdict's rating, as if it had been answered so.
    state = CardState.objects.get(user=student, card=answer.card)
    replayed = CardState(user=student, card=answer.card, deck=answer.card.deck, due=answer.answered_at)
    scheduling.replay(replayed, [(rating, answer.answered_at)])
    assert (state.stability, state.due) == (replayed.stability, replayed.due)
    assert state.stability != partly_state.stability


@pytest.mark.parametrize("verdict", ["correct", "incorrect"])
def test_agreeing_with_the_grader_is_no_override(student, verdict):
    """ "I was right" on a correct answer (a stale or hand-made form) undoes a correction and counts as none."""
    session = _start(student, _deck(3), mode="recall")
    if verdict == "correct":
        answer, _ = _answer_right(student, session, 1)
    else:
        submission = Submission(response="no idea at all")
        answer, _ = services.answer_submit(user=student, session_id=session.pk, position=1, submission=submission)
    assert answer.auto_verdict == verdict
    services.answer_override(
        user=student, session_id=session.pk, position=1, verdict={"correct": "incorrect"}.get(verdict, "correct")
    )
    again = services.answer_override(user=student, session_id=session.pk, position=1, verdict=verdict)
    again.refresh_from_db()
    assert (again.override_verdict, again.final_verdict, again.final_score) == ("", verdict, answer.auto_score)
    assert StudentCardStat.objects.get(user=student, card=answer.card).overrides == 0


def test_override_rejects_other_verdicts_and_other_users(student, other_student):
    session = _start(student, _deck(3), mode="recall")
    _answer_right(student, session, 1)
    with pytest.raises(services.InvalidSubmissionError):
        services.answer_override(user=student, session_id=session.pk, position=1, verdict="partial")
    with pytest.raises(Answer.DoesNotExist):
        services.answer_override(user=other_student, session_id=session.pk, position=1, verdict="correct")


def test_multiple_choice_and_revealed_answers_cannot_be_overridden(student):
    session = _start(student, _deck(5), mode="choice", size=2)
    _answer_right(student, session, 1)
    services.answer_submit(user=student, session_id=session.pk, position=2, submission=Submission(reveal=True))
    for position in (1, 2):
        with pytest.raises(services.InvalidSubmissionError, match="Only free-recall"):
            services.answer_override(user=student, session_id=session.pk, position=position, verdict="correct")


# --- checking what was typed before "Show answer" ----------------------------------------


def test_what_was_typed_before_show_answer_can_be_checked_after_all_as_if_sent_with_check_answer(student):
    session = _start(student, _deck(3), mode="recall")
    card = session.items.get(position=1).card
    reveal = Submission(response=card.answer, reveal=True)
    services.answer_submit(user=student, session_id=session.pk, position=1, submission=reveal)

    answer = shown.answer_check_typed(user=student, session_id=session.pk, position=1)
    answer.refresh_from_db()
    assert not answer.revealed and answer.response == card.answer
    assert (answer.auto_verdict, answer.final_verdict, answer.final_score, answer.rating) == ("correct",) * 2 + (1, 3)
    assert answer.response_key == services.response_key(card.answer) and not answer.override_verdict
    session.refresh_from_db()
    assert (session.answered_count, session.score_sum) == (1, 1.0)
    assert StudentCardStat.objects.get(user=student, card=card).score_sum == 1.0
    state = CardState.objects.get(user=student, card=card)
    replayed = CardState(user=student, card=card, deck=card.deck, due=answer.answered_at)
    scheduling.replay(replayed, [(3, answer.answered_at)])  # Good, as if checked at once, not Again
    assert (state.stability, state.due) == (replayed.stability, replayed.due)

    again = shown.answer_check_typed(user=student, session_id=session.pk, position=1)  # a double click
    assert (again.final_verdict, again.final_score) == ("correct", 1.0)
    assert StudentCardStat.objects.get(user=student, card=card).attempts == 1


def test_only_a_typed_answer_that_was_shown_can_be_checked(student, other_student):
    session = _start(student, _deck(5), mode="choice", size=3)
    services.answer_submit(user=student, session_id=session.pk, position=1, submission=Submission(reveal=True))
    recall = _start(student, _deck(3), mode="recall")
    services.answer_submit(user=student, session_id=recall.pk, position=1, submission=Submission(reveal=True))
    for quiz in (session, recall):
        with pytest.raises(services.NotOverridableError):
            shown.answer_check_typed(user=student, session_id=quiz.pk, position=1)
    with pytest.raises(Answer.DoesNotExist):
        shown.answer_check_typed(user=student, session_id=recall.pk, position=2)  # not answered yet
    with pytest.raises(QuizSession.DoesNotExist):
        shown.answer_check_typed(user=other_student, session_id=recall.pk, position=1)
    assert Answer.objects.filter(revealed=True, final_score=0).count() == 2
