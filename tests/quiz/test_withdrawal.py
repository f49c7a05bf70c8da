"""Questions withdrawn from an open review or quiz: their deck made a draft, their card archived, or set aside by the
student, since it began."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.content.models import Card, Deck
from apps.quiz import memory, services, withdrawal
from apps.quiz.forms import question_token
from apps.quiz.models import Answer, CardState, QuizSession, SessionItem
from tests.factories import make_card, make_deck
from tests.locks import Background, holding, lock_waiters, wait_until

pytestmark = pytest.mark.django_db


def _cards(deck: Deck, n: int, name: str) -> list[Card]:
    return [make_card(deck=deck, question=f"Which {name} tool does job {i}?", answer=f"{name} {i}") for i in range(n)]


def _review(user, cards: list[Card]) -> QuizSession:
    """A review of due cards asking `cards` in this order (free recall)."""
    return services.session_create(
        user=user, deck=None, cards=cards, mode="recall", order="due", size=len(cards),
        rng=random.Random(1), seed=1, now=timezone.now(),
    )  # fmt: skip


def _answer(user, quiz: QuizSession, position: int, response: str = "no idea"):
    submission = services.Submission(response=response)
    return services.answer_submit(user=user, session_id=quiz.pk, position=position, submission=submission)


def _post(client, quiz: QuizSession, position: int, *, headers: dict | None = None, **data):
    item = quiz.items.get(position=position)
    url = reverse("quiz:item", args=[quiz.pk, position])
    return client.post(url, {"token": question_token(item), **data}, **(headers or {}))


def _draft(deck: Deck) -> None:
    Deck.objects.filter(pk=deck.pk).update(published=False)


@pytest.fixture
def decks():
    kept, revised = make_deck(title="Kept"), make_deck(title="Revised")
    return kept, revised, _cards(kept, 3, "kept"), _cards(revised, 2, "revised")


@pytest.fixture
def review(student, decks):
    """kept 0, revised 0 (answered), revised 1, kept 1, kept 2: the revised deck is made a draft after question 2."""
    _kept, revised, kept_cards, revised_cards = decks
    quiz = _review(student, [kept_cards[0], revised_cards[0], revised_cards[1], kept_cards[1], kept_cards[2]])
    _answer(student, quiz, 1, "kept 0")
    _answer(student, quiz, 2, "no idea")
    _draft(revised)
    return quiz


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


# --- pages -------------------------------------------------------------------------------


def test_the_student_opening_the_review_is_told_and_counts_only_the_questions_asked(student_client, review, htmx):
    page = unescape(student_client.get(review.get_absolute_url()).content.decode())
    assert "1 question was withdrawn: its deck is being revised." in page
    assert "Question 3 of 4 · 2 answered" in page and "<title>Question 3 of 4 · Review due cards" in page
    assert "Which revised tool does job 1?" not in page and "Which kept tool does job 1?" in page
    # Told once: the next visit, a partial as "Next question" asks for it, counts the same and says nothing more.
    partial = unescape(student_client.get(review.get_absolute_url(), **htmx).content.decode())
    assert "<html" not in partial and "Question 3 of 4" in partial and "withdrawn" not in partial


def test_the_htmx_next_question_withdraws_and_tells_in_the_partial(student_client, review, htmx):
    partial = unescape(student_client.get(review.get_absolute_url(), **htmx).content.decode())
    assert "<html" not in partial
    assert 'id="withdrawn-note">1 question was withdrawn: its deck is being revised.</p>' in partial
    assert 'aria-describedby="withdrawn-note">Question 3<' in partial
    assert "Question 3 of 4 · 2 answered" in partial


def test_the_results_keep_the_answers_and_leave_the_withdrawn_questions_out(student_client, student, review):
    student_client.get(review.get_absolute_url())
    for position in (4, 5):
        _post(student_client, review, position, response="kept 1" if position == 4 else "kept 2")
    page = unescape(student_client.get(review.get_absolute_url()).content.decode())
    assert "Finished: 4 of 4 answered" in page and "Your results: 75\u00a0%" in page
    assert "1 question was withdrawn: its deck is being revised." in page
    assert "Which revised tool does job 0?" in page  # answered before: kept as it was, with its score
    assert "Which revised tool does job 1?" not in page
    assert [int(n) for n in re.findall(r'data-label="Question">(\d+)<', page)] == [1, 2, 3, 4]


def test_the_results_link_no_card_page_of_a_draft_deck(student_client, student, instructor, review):
    """The results linked the card of a deck made a draft since, and the student's click was a 404."""
    services.session_finish(user=student, session_id=review.pk)  # ended before the draft's other question was withdrawn
    page = unescape(student_client.get(review.get_absolute_url()).content.decode())
    revised, kept = review.items.get(position=2).card, review.items.get(position=1).card
    assert f'href="{revised.get_absolute_url()}?answers=shown"' not in page
    assert '<p>Which revised tool does job 0?</p></div> <span class="meta">Its deck is being revised.</span>' in page
    assert f'href="{kept.get_absolute_url()}?answers=shown"' in page
    assert student_client.get(kept.get_absolute_url()).status_code == 200
    # The deck's authors may read its draft: their links stay.
    quiz = _review(instructor, [revised])
    student_client.force_login(instructor)
    services.session_finish(user=instructor, session_id=quiz.pk)
    assert (
        f'href="{revised.get_absolute_url()}?answers=shown"'
        in student_client.get(quiz.get_absolute_url()).content.decode()
    )


def test_a_review_whose_every_question_was_withdrawn_says_so(student_client, student, decks):
    _kept, revised, _, revised_cards = decks
    quiz = _review(student, revised_cards)
    _draft(revised)
    page = unescape(student_client.get(quiz.get_absolute_url()).content.decode())
    assert "Every question of this review was withdrawn before you reached it: there is nothing to score." in page
    assert "2 questions were withdrawn: their deck is being revised." in page
    assert "You ended the quiz before answering" not in page


@pytest.mark.parametrize("withdrawn_before", [False, True], ids=["withdrawn-by-the-answer", "withdrawn-before"])
def test_an_answer_to_a_withdrawn_question_is_refused_and_given_back(
    student_client, student, review, htmx, withdrawn_before
):
    if withdrawn_before:
        student_client.get(review.get_absolute_url())
    response = _post(student_client, review, 3, response="My careful\nanswer")
    page = unescape(response.content.decode())
    assert response.status_code == 409
    assert "<h1>This question was withdrawn</h1>" in page
    assert "This question was withdrawn: its deck is being revised. Your answer was not saved." in page
    assert "My careful<br>answer" in page and "Go on with the review</a>" in page
    assert not Answer.objects.filter(item__position=3).exists()
    # With htmx, a message and a reload of the review, at its next question.
    response = _post(student_client, review, 3, headers=htmx, response="Again")
    assert response.status_code == 409 and response["HX-Refresh"] == "true"
    page = unescape(student_client.get(review.get_absolute_url()).content.decode())
    assert (
        "This question was withdrawn: its deck is being revised. Your answer was not saved. "
        "Here it is: “<bdi>Again</bdi>”" in page
    )
    assert "Question 3 of 4" in page
    review.refresh_from_db()
    assert (review.item_count, review.answered_count) == (4, 2) and Answer.objects.filter(session=review).count() == 2


def test_an_answer_that_withdraws_several_questions_says_how_many(student_client, student, decks):
    _kept, revised, kept_cards, revised_cards = decks
    quiz = _review(student, [*revised_cards, kept_cards[0]])
    _draft(revised)
    response = _post(student_client, quiz, 1, response="revised 0")
    assert response.status_code == 409
    assert (
        "2 questions were withdrawn: their deck is being revised. Your answer to this question was not saved."
        in unescape(response.content.decode())
    )


def test_opening_a_withdrawn_question_by_its_address_goes_on_to_the_next(student_client, review):
    response = student_client.get(reverse("quiz:item", args=[review.pk, 3]), follow=True)
    assert response.redirect_chain == [(review.get_absolute_url(), 302)]
    page = unescape(response.content.decode())
    assert "This question was withdrawn: its deck is being revised." in page and "Question 3 of 4" in page
    assert "Which revised tool does job 1?" not in page


def test_the_answered_question_of_a_draft_deck_keeps_its_feedback(student_client, review):
    student_client.get(review.get_absolute_url())
    page = unescape(student_client.get(reverse("quiz:item", args=[review.pk, 2])).content.decode())
    assert "Feedback on question 2" in page and "Which revised tool does job 0?" in page


def test_another_student_cannot_open_the_review_nor_withdraw_from_it(client, other_student, review):
    client.force_login(other_student)
    assert client.get(review.get_absolute_url()).status_code == 404
    assert client.get(reverse("quiz:item", args=[review.pk, 3])).status_code == 404
    assert _post(client, review, 3, response="x").status_code == 404
    assert not SessionItem.objects.exclude(withdrawn="").exists()


def test_a_question_numbered_after_a_withdrawn_one_is_answered_as_numbered(student_client, review, htmx):
    student_client.get(review.get_absolute_url())
    response = _post(student_client, review, 4, headers=htmx, response="kept 1")
    partial = unescape(response.content.decode())
    assert response.status_code == 200 and "<title>Feedback on question 3 · Review due cards" in partial
    assert "Question 3 of 4 · 3 answered" in partial


@pytest.mark.parametrize("scale", [1, 5])
def test_withdrawing_and_refusing_cost_a_constant_number_of_queries(
    student_client, student, decks, django_assert_num_queries, scale, htmx
):
    _kept, revised, kept_cards, revised_cards = decks
    revised_cards += _cards(revised, 4 * scale, "more")
    quiz = _review(student, [kept_cards[0], *revised_cards, kept_cards[1]])
    _draft(revised)
    # Session, user, the review, its next question; the withdrawal (a savepoint and its release, the student's lock,
    # the questions, the review's counts) and the next question again.
    with django_assert_num_queries(10):
        student_client.get(quiz.get_absolute_url(), **htmx)
    with django_assert_num_queries(4):
        student_client.get(quiz.get_absolute_url(), **htmx)
    with django_assert_num_queries(4):  # session, user, the question; the message kept for the reload
        response = _post(student_client, quiz, 2, headers=htmx, response="x")
    assert response.status_code == 409


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
