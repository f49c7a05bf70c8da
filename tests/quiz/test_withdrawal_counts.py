"""What a student reads of an open quiz with questions to be withdrawn when it is next opened (asked.py,
withdrawal.py): the counts before opening it ("End the quiz here", the unfinished quiz offered on the home page, the
start pages and the results of an older one) agree with what it will ask, and a withdrawal is told once."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.content.models import Card, Deck
from apps.quiz import memory, services
from apps.quiz.models import QuizSession
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _review(user, cards: list[Card], *, answered: int, ago: timedelta = timedelta(0)) -> QuizSession:
    """A review of due cards asking `cards` in this order, the first `answered` of them answered."""
    review = services.session_create(
        user=user, deck=None, cards=cards, mode="recall", order="due", size=len(cards),
        rng=random.Random(1), seed=1, now=timezone.now() - ago,
    )  # fmt: skip
    for position in range(1, answered + 1):
        submission = services.Submission(response="no idea")
        services.answer_submit(user=user, session_id=review.pk, position=position, submission=submission)
    return review


@pytest.fixture
def cards():
    kept, revised = make_deck(title="Kept"), make_deck(title="Revised")
    return (
        [make_card(deck=kept, question=f"Kept question {i}?", answer=f"kept {i}") for i in range(4)],
        [make_card(deck=revised, question=f"Revised question {i}?", answer=f"revised {i}") for i in range(2)],
    )


@pytest.fixture
def review(student, cards):
    """kept 0 and 1 answered; then revised 0, its deck made a draft since, kept 2 and kept 3."""
    kept, revised = cards
    review = _review(student, [kept[0], kept[1], revised[0], kept[2], kept[3]], answered=2)
    Deck.objects.filter(pk=revised[0].deck_id).update(published=False)
    return review


def _today(client) -> str:
    html = client.get(reverse("content:home")).content.decode()
    start = html.find('<section class="today"')
    return "" if start < 0 else html[start : html.index("</section>", start)]


def test_ending_the_review_counts_only_the_questions_it_still_asks_and_says_what_was_withdrawn(student_client, review):
    page = student_client.get(reverse("quiz:finish", args=[review.pk])).content.decode()
    assert "2 of 4 questions unanswered." in page  # was "3 of 5": the draft's question is not asked
    assert "1 question was withdrawn: its deck is being revised." in page
    review.refresh_from_db()
    assert (review.item_count, review.finished_at) == (4, None)
    # The review itself then says the same, and tells nothing again.
    stage = student_client.get(review.get_absolute_url()).content.decode()
    assert "Question 3 of 4" in stage and "withdrawn" not in stage


def test_ending_a_review_whose_every_question_left_is_withdrawn_goes_to_its_results(student_client, student, cards):
    kept, revised = cards
    review = _review(student, [kept[0], revised[0], revised[1]], answered=1)
    Deck.objects.filter(pk=revised[0].deck_id).update(published=False)
    response = student_client.get(reverse("quiz:finish", args=[review.pk]), follow=True)
    assert response.redirect_chain == [(review.get_absolute_url(), 302)]
    page = response.content.decode()
    assert "Finished: 1 of 1 answered" in page
    assert page.count("2 questions were withdrawn: their deck is being revised.") == 1


def test_the_unfinished_review_offered_counts_only_the_questions_it_still_asks(student_client, student, cards, review):
    kept, _revised = cards
    _review(student, [kept[3]], answered=1, ago=timedelta(days=2))  # answered before: it may be set aside
    memory.card_set_aside(user=student, card_id=kept[3].pk, aside=True)
    offer = "started just now: 2 of 3 questions answered."  # was "2 of 5"
    assert f"You have an unfinished review of due cards, {offer}" in _today(student_client)
    assert f"You have an unfinished review, {offer}" in student_client.get(reverse("quiz:review")).content.decode()


def test_the_results_of_an_older_review_count_the_newer_ones_questions_still_asked(student_client, student, cards):
    kept, revised = cards
    older = _review(student, [kept[0], kept[1]], answered=1, ago=timedelta(hours=1))
    services.session_finish(user=student, session_id=older.pk)
    _review(student, [kept[2], revised[0], revised[1]], answered=1)
    Card.objects.filter(pk=revised[1].pk).update(archived=True)
    results = student_client.get(older.get_absolute_url()).content.decode()
    assert "Your newer review is still open, 1 of 2 questions answered" in results


def test_a_review_whose_every_question_left_is_to_be_withdrawn_is_not_offered_as_unfinished(
    student_client, student, cards
):
    kept, revised = cards
    _review(student, [kept[0], revised[0]], answered=1)
    Deck.objects.filter(pk=revised[0].deck_id).update(published=False)
    assert "unfinished" not in _today(student_client)
    assert "unfinished" not in student_client.get(reverse("quiz:review")).content.decode()


def test_a_deck_quiz_tried_out_by_its_author_counts_its_draft_cards(client, instructor):
    deck = make_deck(title="Draft", published=False)
    for i in range(3):
        make_card(deck=deck, question=f"Draft question {i}?", answer=f"draft {i}")
    quiz = services.session_start(user=instructor, deck=deck, size=3, mode="recall", order="new")
    services.answer_submit(
        user=instructor, session_id=quiz.pk, position=1, submission=services.Submission(response="x")
    )
    client.force_login(instructor)
    page = client.get(reverse("quiz:start", args=[deck.slug])).content.decode()
    assert "1 of 3 questions answered." in page


def test_opening_the_last_question_by_its_address_when_its_withdrawal_ends_the_review_says_so_once(
    student_client, student, cards
):
    kept, revised = cards
    review = _review(student, [kept[0], revised[0]], answered=1)
    Deck.objects.filter(pk=revised[0].deck_id).update(published=False)
    response = student_client.get(reverse("quiz:item", args=[review.pk, 2]), follow=True)
    assert response.redirect_chain == [(review.get_absolute_url(), 302)]
    page = response.content.decode()
    assert "Finished: 1 of 1 answered" in page
    assert page.count("withdrawn: its deck is being revised.") == 1  # the flashed message said it again
