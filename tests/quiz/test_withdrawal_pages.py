"""Questions withdrawn from an open review or quiz (their deck made a draft, their card archived, or set aside by
the student, since it began), on the pages: the student is told, the results leave the withdrawn questions out,
answers to them are refused and given back, their addresses go on to the next question, and the cost in queries
stays constant.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from apps.quiz import services
from apps.quiz.models import Answer, SessionItem
from tests.quiz.withdrawal_support import _cards, _draft, _post, _review

pytestmark = pytest.mark.django_db


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
