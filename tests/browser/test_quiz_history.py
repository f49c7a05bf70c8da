"""In a real Chromium: paging through All your quizzes with the keyboard, where HTMX swaps the results in."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from apps.quiz import services
from apps.quiz.history import PAGE_SIZE
from apps.quiz.models import QuizSession
from tests.conftest import make_user
from tests.factories import make_card, make_deck


def test_paging_with_the_keyboard_keeps_focus_in_the_results(live_server, page, sign_in, transactional_db):
    student = make_user("alice")
    deck = make_deck(title="Training")
    make_card(deck=deck, question="What is a batch?", answer="A group of examples")
    for n in range(2 * PAGE_SIZE + 2):
        quiz = services.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
        QuizSession.objects.filter(pk=quiz.pk).update(created_at=timezone.now() - timedelta(hours=n))
    sign_in(page, "alice", "/quiz/history/")
    page.evaluate("window.stillTheSamePage = true")
    page.locator("#history-next").focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/quiz/history/\?page=2$"))
    expect(page.locator("#history-next")).to_be_focused()  # the link keeps focus on its new copy
    expect(page.locator(".htmx-settling")).to_have_count(0)  # a key pressed mid-settle is faster than anyone
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/quiz/history/\?page=3$"))
    expect(page.locator("#results tbody tr")).to_have_count(2)
    # The last page has no "Older": focus goes to the results' heading, not back to the top of the page.
    expect(page.locator("#results h2")).to_be_focused()
    expect(page.locator("#results h2")).to_have_text("Quizzes, page 3 of 3")
    page.locator("#history-previous").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#results tbody tr")).to_have_count(PAGE_SIZE)
    expect(page.locator("#history-previous")).to_be_focused()
    assert page.evaluate("window.stillTheSamePage") is True


@pytest.fixture
def two_decks_quizzed(transactional_db):
    """alice has two quizzes on Training and one on Serving, none answered."""
    student = make_user("alice")
    for title, quizzes in (("Training", 2), ("Serving", 1)):
        deck = make_deck(title=title)
        make_card(deck=deck, question=f"{title}?", answer="An answer")
        for _ in range(quizzes):
            services.session_start(user=student, deck=deck, size=1, mode="recall", order="new")


def test_choosing_a_deck_updates_the_count_in_the_same_live_region(live_server, page, sign_in, two_decks_quizzed):
    """A live region swapped in whole is a new one, which screen readers do not read out: the count keeps its node."""
    sign_in(page, "alice", "/quiz/history/")
    count = page.locator("#history-count")
    expect(count).to_have_text("3 quizzes, 0 answers.")
    count.evaluate("element => { element.dataset.before = 'yes' }")
    page.get_by_label("Quizzes on").select_option(label="Serving")
    expect(page).to_have_url(re.compile(r"/quiz/history/\?deck=deck-\d+$"))
    expect(count).to_have_text("1 quiz on Serving, 0 answers.")
    expect(count).to_have_attribute("data-before", "yes")
    expect(count).to_have_attribute("role", "status")
    expect(page.locator("#results tbody tr")).to_have_count(1)


def test_back_to_a_deck_choice_keeps_the_count(live_server, page, sign_in, two_decks_quizzed):
    sign_in(page, "alice", "/quiz/history/")
    page.get_by_label("Quizzes on").select_option(label="Serving")
    expect(page.locator("#history-count")).to_have_text("1 quiz on Serving, 0 answers.")
    page.get_by_label("Quizzes on").select_option(label="Training")
    expect(page.locator("#history-count")).to_have_text("2 quizzes on Training, 0 answers.")
    page.go_back()
    expect(page.locator("#results tbody tr")).to_have_count(1)
    expect(page.locator("#history-count")).to_have_text("1 quiz on Serving, 0 answers.")
    page.get_by_label("Quizzes on").select_option(label="Every deck")
    expect(page.locator("#history-count")).to_have_text("3 quizzes, 0 answers.")
