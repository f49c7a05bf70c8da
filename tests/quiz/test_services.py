"""Quiz services against PostgreSQL: starting, answering, idempotency, overrides and FSRS state."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from apps.content.models import Card, Deck, Distractor
from apps.content.services import card_save
from apps.quiz import memory, scheduling, services, shown
from apps.quiz.models import Answer, CardState, QuizSession, SessionItem, StudentCardStat
from apps.quiz.services import Submission
from tests.factories import make_card, make_deck
from tests.locks import waited_for_student_lock

pytestmark = pytest.mark.django_db


def _deck(size: int = 6) -> Deck:
    deck = make_deck()
    for i in range(size):
        make_card(deck=deck, question=f"Which tool does job {i}?", answer=f"Tool number {i}")
    return deck


def _state(user, card, due) -> CardState:
    return CardState.objects.create(user=user, card=card, deck=card.deck, due=due, reps=1)


def _start(user, deck, **options) -> QuizSession:
    options = {"size": 10, "mode": "mixed", "order": "new", **options}
    return services.session_start(user=user, deck=deck, **options)


def _answer_right(user, session: QuizSession, position: int, **extra):
    item = session.items.get(position=position)
    if item.mode == "choice":
        submission = Submission(option=item.correct_option, **extra)
    else:
        submission = Submission(response=item.card.short_answer or item.card.answer, **extra)
    return services.answer_submit(user=user, session_id=session.pk, position=position, submission=submission)


# --- starting ----------------------------------------------------------------------------


def test_start_fixes_questions_modes_and_options(student):
    deck = _deck(6)
    session = _start(student, deck, size=4, mode="mixed")
    items = list(session.items.order_by("position"))
    assert [item.position for item in items] == [1, 2, 3, 4]
    assert {item.mode for item in items} == {"choice", "recall"}
    assert [item.mode for item in items][::2] == [items[0].mode] * 2  # modes alternate
    for item in items:
        if item.mode == "choice":
            assert len(item.options) == 4
            assert item.options[item.correct_option]["text"] == item.card.short_answer


def test_syllabus_cards_offer_rendered_answers_as_options(student):
    deck = make_deck()
    for i in range(5):
        make_card(deck=deck, kind="syllabus", question=f"Why step {i}?", answer=f"Because **reason {i}** and $x_{i}$")
    for item in _start(student, deck, mode="choice", size=5).items.all():
        assert item.mode == "choice" and len(item.options) == 4
        right = item.options[item.correct_option]
        assert (
            right["html"] == item.card.answer_html
            and "<strong>reason" in right["html"]
            and 'class="katex"' in right["html"]
        )
        assert all("<strong>reason" in option["html"] for option in item.options)  # distractors: other cards' answers


def test_a_flashcards_right_option_is_typeset_like_its_distractors(student):
    """Shown as TeX source beside three typeset distractors, the right option stood out."""
    deck = make_deck()
    for i, complexity in enumerate(["O(n^2)", "O(n)", "O(1)", "O(\\log n)"]):
        card = make_card(deck=deck, question=f"Cost of step {i}?", answer=f"${complexity}$")
        card_save(card=card, distractors=["$O(n^3)$", "$O(2^n)$", "*Constant*"])
    for item in _start(student, deck, mode="choice", size=4).items.all():
        htmls = [option["html"] for option in item.options]
        assert "$" not in "".join(htmls), htmls
        assert all(html.startswith("<p>") for html in htmls)
        assert 'class="katex"' in item.options[item.correct_option]["html"]


def test_the_seed_flashcards_ask_with_their_shipped_distractors(student):
    call_command("load_content", verbosity=0)
    deck = Deck.objects.get(slug="technology-digital-tools-flashcards")
    job = next(item for item in _start(student, deck, mode="choice").items.all() if item.card.short_answer == "Job")
    assert sorted(option["text"] for option in job.options) == ["CronJob", "Deployment", "Job", "StatefulSet"]


def test_multiple_choice_only_and_recall_only(student):
    deck = _deck(5)
    assert set(_start(student, deck, mode="choice").items.values_list("mode", flat=True)) == {"choice"}
    assert set(_start(student, deck, mode="recall").items.values_list("mode", flat=True)) == {"recall"}


def test_authored_distractors_are_offered(student):
    deck = _deck(5)
    card = deck.cards.first()
    Distractor.objects.create(card=card, text="A *very* plausible tool")
    session = _start(student, deck, mode="choice")
    item = session.items.get(card=card)
    assert any("A <em>very</em> plausible tool" in option["html"] for option in item.options)


def test_a_card_without_enough_distractors_falls_back_to_free_recall(student):
    deck = _deck(2)
    session = _start(student, deck, mode="choice")
    assert set(session.items.values_list("mode", flat=True)) == {"recall"}


def test_new_cards_first_then_due_reviews(student):
    deck = _deck(4)
    cards = list(deck.cards.order_by("position"))
    now = timezone.now()
    _state(student, cards[0], now - timedelta(hours=1))
    _state(student, cards[1], now + timedelta(days=3))
    new_first = _start(student, deck, order="new")
    assert list(new_first.items.order_by("position").values_list("card", flat=True)) == [
        cards[2].pk, cards[3].pk, cards[0].pk, cards[1].pk,
    ]  # fmt: skip
    due_first = _start(student, deck, order="due")
    assert list(due_first.items.order_by("position").values_list("card", flat=True)) == [
        cards[0].pk, cards[2].pk, cards[3].pk, cards[1].pk,
    ]  # fmt: skip


def test_random_order_takes_the_requested_number(student):
    deck = _deck(8)
    session = _start(student, deck, order="random", size=5)
    assert session.items.count() == 5


def test_review_session_takes_only_due_cards_across_decks(student, other_student):
    first, second = _deck(3), _deck(3)
    now = timezone.now()
    due_a = first.cards.first()
    due_b = second.cards.last()
    _state(student, due_a, now - timedelta(minutes=5))
    _state(student, due_b, now - timedelta(days=1))
    _state(student, first.cards.last(), now + timedelta(days=1))
    _state(other_student, second.cards.first(), now - timedelta(days=1))
    session = services.session_start(user=student, deck=None, size=10, mode="recall", order="due")
    assert list(session.items.order_by("position").values_list("card", flat=True)) == [due_b.pk, due_a.pk]
    assert session.title == "Review due cards"


def test_nothing_due_is_a_clear_error(student):
    _deck(3)
    with pytest.raises(services.NothingToStudyError, match="No cards are due"):
        services.session_start(user=student, deck=None, size=10, mode="mixed", order="due")
    with pytest.raises(services.NothingToStudyError, match="no cards"):
        _start(student, make_deck())


# --- answering ---------------------------------------------------------------------------


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


# --- overrides ---------------------------------------------------------------------------


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
