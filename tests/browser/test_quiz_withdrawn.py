"""In a real Chromium: a review whose deck is made a draft while the student is on one of its questions."""

from __future__ import annotations

import random

from django.utils import timezone
from playwright.sync_api import expect

from apps.content.models import Deck
from apps.quiz import services
from apps.quiz.models import Answer
from tests.conftest import make_user
from tests.factories import make_card, make_deck


def test_an_answer_to_a_question_withdrawn_meanwhile_is_given_back_and_the_review_goes_on(
    page, sign_in, transactional_db
):
    student = make_user("alice")
    kept, revised = make_deck(title="Kept"), make_deck(title="Revised")
    cards = [make_card(deck=revised, question="Which revised tool does job 0?", answer="Revised 0")]
    cards += [make_card(deck=kept, question=f"Which kept tool does job {i}?", answer=f"Kept {i}") for i in range(2)]
    review = services.session_create(
        user=student, deck=None, cards=cards, mode="recall", order="due", size=3,
        rng=random.Random(1), seed=1, now=timezone.now(),
    )  # fmt: skip
    sign_in(page, "alice", review.get_absolute_url())
    page.wait_for_load_state("load")  # htmx is deferred
    expect(page.locator(".quiz-progress")).to_contain_text("Question 1 of 3")

    Deck.objects.filter(pk=revised.pk).update(published=False)  # an instructor makes it a draft meanwhile
    box = page.get_by_label("Your answer")
    box.fill("My careful answer")
    box.press("Enter")

    # The review reloads at its next question, saying why, with the words typed given back.
    expect(page.locator(".messages")).to_contain_text(
        "This question was withdrawn: its deck is being revised. Your answer was not saved. "
        "Here it is: “My careful answer”"
    )
    expect(page.locator(".quiz-progress")).to_contain_text("Question 1 of 2 · 0 answered")
    expect(page.locator("#question-text")).to_contain_text("Which kept tool does job 0?")
    expect(page.get_by_label("Your answer")).to_have_value("")  # the draft of the withdrawn answer is not carried over
    assert not Answer.objects.exists()
