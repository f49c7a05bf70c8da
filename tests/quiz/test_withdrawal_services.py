"""Questions withdrawn from an open review or quiz (their deck made a draft, their card archived, or set aside by
the student, since it began), in the services: which questions are withdrawn and told apart, what a deck published
again takes back, answers to withdrawn questions refused and not stored, and the races held open by the student's
lock.
"""

from __future__ import annotations

from html import unescape

import pytest
from django.utils import timezone

from apps.content.models import Card, Deck
from apps.quiz import memory, services, withdrawal
from apps.quiz.models import Answer, CardState, QuizSession, SessionItem
from tests.factories import make_deck
from tests.locks import Background, holding, lock_waiters, wait_until
from tests.quiz.withdrawal_support import _answer, _cards, _draft, _post, _review

pytestmark = pytest.mark.django_db


# --- services ----------------------------------------------------------------------------


def test_resuming_a_review_withdraws_its_unanswered_questions_of_a_deck_made_a_draft(student, review):
    review.refresh_from_db()
    item, withdrawn = withdrawal.session_resume(user=student, session=review)
    assert withdrawn.note == "1 question was withdrawn: its deck is being revised."
    assert (item.position, item.number) == (4, 3)  # the withdrawn question's place is not counted
    assert (review.item_count, review.answered_count, review.finished_at) == (4, 2, None)
    assert dict(review.items.values_list("position", "withdrawn")) == {1: "", 2: "", 3: "draft", 4: "", 5: ""}
    # The answer given before the deck became a draft stays, with its score.
    answered = Answer.objects.get(session=review, item__position=2)
    assert answered.final_verdict == "incorrect"
    review.refresh_from_db()
    assert (review.item_count, review.answered_count, review.score) == (4, 2, 0.5)
    # Once withdrawn, a visit withdraws nothing more, and costs one query again.
    item, withdrawn = withdrawal.session_resume(user=student, session=review)
    assert not withdrawn and item.position == 4


def test_the_rest_of_a_review_withdrawn_ends_it_with_the_answers_as_they_were(student, decks):
    _kept, revised, kept_cards, revised_cards = decks
    quiz = _review(student, [kept_cards[0], *revised_cards])
    _answer(student, quiz, 1, "kept 0")
    _draft(revised)
    item, withdrawn = withdrawal.session_resume(user=student, session=quiz)
    assert item is None and withdrawn.note == "2 questions were withdrawn: their deck is being revised."
    quiz.refresh_from_db()
    assert quiz.finished_at is not None and (quiz.item_count, quiz.answered_count, quiz.score) == (1, 1, 1.0)


def test_questions_of_two_decks_made_drafts_and_an_archived_card_are_told_apart(student, decks):
    _kept, revised, kept_cards, revised_cards = decks
    other = make_deck(title="Other")
    quiz = _review(student, [kept_cards[0], revised_cards[0], *_cards(other, 1, "other"), kept_cards[1]])
    _draft(revised)
    _draft(other)
    Card.objects.filter(pk=kept_cards[1].pk).update(archived=True)
    _item, withdrawn = withdrawal.session_resume(user=student, session=quiz)
    assert withdrawn.note == (
        "2 questions were withdrawn: their decks are being revised. "
        "1 question was withdrawn: its card is no longer asked."
    )


def test_an_archived_card_is_withdrawn_from_a_deck_quiz_too(student, decks):
    kept, _revised, _kept_cards, _ = decks
    quiz = services.session_start(user=student, deck=kept, size=3, mode="recall", order="new")
    first = quiz.items.get(position=1).card
    Card.objects.filter(pk=first.pk).update(archived=True)
    item, withdrawn = withdrawal.session_resume(user=student, session=quiz)
    assert withdrawn.note == "1 question was withdrawn: its card is no longer asked."
    assert (item.position, item.number, quiz.item_count) == (2, 1, 2)


def _set_aside_in_quiz(student, decks) -> tuple[QuizSession, Card]:
    """A review asking the Kept cards, the second of which the student, having answered it before, sets aside."""
    _kept, _revised, kept_cards, _ = decks
    _answer(student, _review(student, [kept_cards[1]]), 1, "kept 1")
    quiz = _review(student, kept_cards)
    memory.card_set_aside(user=student, card_id=kept_cards[1].pk, aside=True)
    return quiz, kept_cards[1]


def test_a_card_set_aside_during_a_quiz_is_withdrawn_from_it_and_brought_back_before_takes_nothing(student, decks):
    """Set aside from its page during a quiz, a card was still asked by that quiz."""
    quiz, card = _set_aside_in_quiz(student, decks)
    _answer(student, quiz, 1)
    item, withdrawn = withdrawal.session_resume(user=student, session=quiz)
    assert withdrawn.note == "1 question was withdrawn: you set its card aside."
    assert (item.position, item.number, quiz.item_count) == (3, 2, 2)
    assert quiz.items.get(position=2).withdrawn == "aside"
    other, card = _set_aside_in_quiz(student, decks)
    memory.card_set_aside(user=student, card_id=card.pk, aside=False)  # brought back before the quiz goes on
    _item, withdrawn = withdrawal.session_resume(user=student, session=QuizSession.objects.get(pk=other.pk))
    assert not withdrawn


def test_an_answer_to_a_card_set_aside_in_another_tab_is_refused_and_given_back(student_client, student, decks):
    quiz, _card = _set_aside_in_quiz(student, decks)
    response = _post(student_client, quiz, 2, response="kept 1 again")
    page = unescape(response.content.decode())
    assert response.status_code == 409 and "This question was withdrawn: you set its card aside." in page
    assert "kept 1 again" in page and not Answer.objects.filter(item__session=quiz).exists()


def test_a_deck_published_again_before_the_student_resumes_takes_nothing_away(student, decks):
    _kept, revised, kept_cards, revised_cards = decks
    quiz = _review(student, [kept_cards[0], revised_cards[0]])
    _draft(revised)
    Deck.objects.filter(pk=revised.pk).update(published=True)
    item, withdrawn = withdrawal.session_resume(user=student, session=quiz)
    assert not withdrawn and item.position == 1 and quiz.item_count == 2


def test_a_question_withdrawn_stays_so_when_its_deck_is_published_again_and_comes_in_the_next_review(student, decks):
    _kept, revised, kept_cards, revised_cards = decks
    now = timezone.now()
    for card in (kept_cards[0], revised_cards[0]):
        CardState.objects.create(user=student, card=card, deck=card.deck, due=now, reps=1)
    quiz = services.session_start(user=student, deck=None, size=10, mode="recall", order="due")
    _draft(revised)
    withdrawal.session_resume(user=student, session=quiz)
    Deck.objects.filter(pk=revised.pk).update(published=True)
    item, withdrawn = withdrawal.session_resume(user=student, session=quiz)
    assert not withdrawn and item.card == kept_cards[0] and quiz.item_count == 1
    # Still due (its schedule untouched), it is asked by the next review.
    again = services.session_start(user=student, deck=None, size=10, mode="recall", order="due")
    assert revised_cards[0].pk in again.items.values_list("card", flat=True)


def test_an_author_trying_a_draft_decks_quiz_is_asked_its_cards_but_not_in_a_review(instructor, decks):
    _kept, revised, _, revised_cards = decks
    _draft(revised)
    quiz = services.session_start(user=instructor, deck=Deck.objects.get(pk=revised.pk), size=2, mode="recall",
                                  order="new")  # fmt: skip
    item, withdrawn = withdrawal.session_resume(user=instructor, session=quiz)
    assert not withdrawn and item.position == 1
    review = _review(instructor, revised_cards)
    item, withdrawn = withdrawal.session_resume(user=instructor, session=review)
    assert item is None and withdrawn.note == "2 questions were withdrawn: their deck is being revised."


def test_an_answer_to_a_withdrawn_question_is_not_stored(student, review):
    withdrawal.session_resume(user=student, session=QuizSession.objects.get(pk=review.pk))
    with pytest.raises(withdrawal.QuestionWithdrawnError):
        _answer(student, review, 3, "revised 1")
    review.refresh_from_db()
    assert not Answer.objects.filter(item__position=3).exists()
    assert (review.item_count, review.answered_count) == (4, 2)


def test_an_answer_read_before_its_question_was_withdrawn_is_refused_when_it_comes_to_be_stored(student, decks):
    """The interleaving of a race, step by step: the answer's request read its question, still asked, before the deck
    was made a draft; another tab then opened the review, withdrawing it; the answer is stored only after that."""
    _kept, revised, kept_cards, revised_cards = decks
    quiz = _review(student, [revised_cards[0], kept_cards[0]])
    Deck.objects.filter(pk=revised.pk).update(published=True)
    read = services.item_for_answer(user=student, session_id=quiz.pk, position=1)
    assert read.withdrawn == "" and read.card.deck.published
    _draft(revised)
    withdrawal.session_resume(user=student, session=QuizSession.objects.get(pk=quiz.pk))
    with pytest.raises(withdrawal.QuestionWithdrawnError):
        services.answer_record(user=student, item=read, submission=services.Submission(response="revised 0"))
    quiz.refresh_from_db()
    assert not Answer.objects.exists() and (quiz.item_count, quiz.answered_count, quiz.score_sum) == (1, 0, 0)
    # The other way round, an answer stored first is kept: the withdrawal passes over it.
    other = _review(student, [revised_cards[1], kept_cards[1]])
    Deck.objects.filter(pk=revised.pk).update(published=True)
    _answer(student, other, 1, "revised 1")
    _draft(revised)
    assert not withdrawal.session_resume(user=student, session=other)[1]
    assert Answer.objects.filter(session=other).count() == 1 and other.item_count == 2


# --- races, held open by the student's lock ----------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_waits_for_an_answer_in_flight_and_passes_over_its_question(student, decks):
    _kept, revised, kept_cards, revised_cards = decks
    quiz = _review(student, [revised_cards[0], revised_cards[1], kept_cards[0]])
    _draft(revised)
    # The answer's request read its question before the deck was made a draft; it is being stored, not committed.
    with holding(lambda: _answer(student, quiz, 1, "revised 0")):
        runner = Background(
            lambda: withdrawal.session_withdraw(user=student, session=QuizSession.objects.get(pk=quiz.pk))
        )
        wait_until(lambda: lock_waiters() == 1, what="the withdrawal to wait for the student's lock")
    assert runner.join().reasons == {2: "draft"}
    quiz.refresh_from_db()
    assert (quiz.item_count, quiz.answered_count) == (2, 1)
    assert Answer.objects.get().item.position == 1


@pytest.mark.django_db(transaction=True)
def test_an_answer_waiting_for_a_withdrawal_in_flight_is_refused_and_not_stored(student, decks):
    _kept, revised, kept_cards, revised_cards = decks
    quiz = _review(student, [revised_cards[0], kept_cards[0]])
    read = services.item_for_answer(user=student, session_id=quiz.pk, position=1)  # still asked when read
    _draft(revised)
    with holding(lambda: withdrawal.session_withdraw(user=student, session=QuizSession.objects.get(pk=quiz.pk))):
        submission = services.Submission(response="revised 0")
        runner = Background(lambda: services.answer_record(user=student, item=read, submission=submission))
        wait_until(lambda: lock_waiters() == 1, what="the answer to wait for the student's lock")
    with pytest.raises(withdrawal.QuestionWithdrawnError):
        runner.join()
    quiz.refresh_from_db()
    assert not Answer.objects.exists() and (quiz.item_count, quiz.answered_count, quiz.score_sum) == (1, 0, 0)


def test_a_quiz_ended_in_another_tab_since_the_page_read_it_keeps_its_questions_and_count(student, decks):
    _kept, revised, kept_cards, revised_cards = decks
    quiz = _review(student, [kept_cards[0], *revised_cards])
    _answer(student, quiz, 1, "kept 0")
    _draft(revised)
    read = QuizSession.objects.get(pk=quiz.pk)  # the review's page read it open
    services.session_finish(user=student, session_id=quiz.pk)  # "End the quiz here" in another tab
    assert not withdrawal.session_withdraw(user=student, session=read)
    quiz.refresh_from_db()
    assert (quiz.item_count, quiz.answered_count) == (3, 1)
    assert not SessionItem.objects.exclude(withdrawn="").exists()
