"""The quiz at a phone's width, in a real Chromium: the question near the top of the screen, and long unbreakable
words (a function's full name in inline code) wrapping in the options, their review and the free-recall feedback
instead of making the page scroll sideways."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from apps.content.models import Deck
from apps.content.services import card_save
from apps.quiz import services
from tests.browser.conftest import SYLLABUS
from tests.conftest import make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "`torch.use_deterministic_algorithms(True)`"
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def _deck():
    deck = make_deck()
    card = make_card(
        deck=deck,
        kind="syllabus",
        question="What makes training runs reproducible?",
        answer=f"Fixed seeds and deterministic kernels ({LONG}), with versions pinned.",
        short_answer="",
    )
    card_save(
        card=card,
        distractors=[
            f"The seed alone: {LONG} is never needed.",
            "Only the logged configuration.",
            f"Training on CPU in FP64 ({LONG.replace('use_deterministic_algorithms', 'set_default_dtype')}).",
        ],
        key_terms=["torch.use_deterministic_algorithms"],
    )
    return deck


def _quiz_on_a_phone(browser, sign_in, width: int, mode: str):
    alice = make_user("alice")
    session = services.session_start(user=alice, deck=_deck(), size=1, mode=mode, order="new")
    page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
    sign_in(page, "alice", session.get_absolute_url())
    return page


@pytest.mark.parametrize("width", [320, 390])
def test_a_multiple_choice_question_and_its_feedback_fit_a_phone(browser, live_server, sign_in, width):
    page = _quiz_on_a_phone(browser, sign_in, width, "choice")
    assert page.evaluate(SIDEWAYS) == 0  # the question

    page.locator(".option").first.click()
    page.get_by_role("button", name="Check answer").click()
    page.get_by_role("heading", name="Score").wait_for()
    assert page.evaluate(SIDEWAYS) == 0  # the options reviewed


@pytest.mark.parametrize("width", [320, 390])
def test_free_recall_feedback_fits_a_phone(browser, live_server, sign_in, width):
    page = _quiz_on_a_phone(browser, sign_in, width, "recall")
    page.get_by_role("textbox", name="Your answer").fill("torch.use_deterministic_algorithms(True)" * 2)
    page.get_by_role("button", name="Check answer").click()
    page.get_by_role("heading", name="Score").wait_for()
    assert page.evaluate(SIDEWAYS) == 0  # the grader's note, the answer and the model answer


def test_a_report_sent_on_a_phone_says_its_thanks_where_the_student_is(browser, live_server, sign_in):
    """The report's form sits at the foot of a long feedback: sent, the page jumped up to the verdict, and the
    thanks replacing the form were a screen below, out of sight, as if nothing had been sent."""
    alice = make_user("alice")
    card = make_card(
        deck=make_deck(),
        question="Why pin library versions?",
        answer="So a run can be repeated.",
        explanation="Reproducibility needs the same code, data and environment. " * 20,
    )
    session = services.session_start(user=alice, deck=card.deck, size=1, mode="recall", order="new")
    page = browser.new_context(viewport={"width": 375, "height": 640}).new_page()
    sign_in(page, "alice", session.get_absolute_url())
    page.get_by_role("textbox", name="Your answer").fill("speed")
    page.get_by_role("button", name="Check answer").click()
    page.get_by_role("heading", name="Score").wait_for()

    page.get_by_text("Report a problem with this card").click()
    page.get_by_label("What is wrong with it?").fill("The explanation repeats itself.")
    page.get_by_role("button", name="Send to the instructors").click()
    thanks = page.locator(".report-note")
    expect(thanks).to_contain_text("Thank you")
    expect(thanks).to_be_in_viewport()
    expect(thanks).to_be_focused()  # a keyboard goes on from it, to "Next question" above or the page's end


# Where a part of the page starts, from the top of the page (not of the window, which a focused part may scroll).
TOP = "(el) => el.getBoundingClientRect().top + window.scrollY"
THIRD = 812 / 3


@pytest.mark.parametrize("mode", ["choice", "recall"])
def test_on_a_phone_the_question_starts_in_the_first_third_of_the_screen(browser, live_server, sign_in, mode):
    """As in Anki or Quizlet: the header, the trail and the deck's title (a long seed one) took 400 to 500 px of a
    812 px screen, and the student scrolled to read every question."""
    call_command("load_content", verbosity=0)
    alice = make_user("alice")
    deck = Deck.objects.get(slug=SYLLABUS)
    session = services.session_start(user=alice, deck=deck, size=2, mode=mode, order="new")
    page = browser.new_context(viewport={"width": 375, "height": 812}).new_page()
    sign_in(page, "alice", session.get_absolute_url())

    assert page.locator(".site-header").evaluate("(el) => el.getBoundingClientRect().height") < 60  # one line
    expect(page.get_by_role("heading", name=deck.title)).to_be_visible()  # still there, above the question
    assert page.locator("#stage .question-text").evaluate(TOP) < THIRD

    if mode == "choice":
        page.locator(".option").first.click()
    else:
        page.get_by_role("textbox", name="Your answer").fill("no idea")
    page.get_by_role("button", name="Check answer").click()
    verdict = page.locator("#verdict-heading")
    expect(verdict).to_be_visible()
    assert verdict.evaluate(TOP) < THIRD
    if mode == "choice":
        # Under the verdict and its line ("Not this one: the right answer is marked below."). A free-recall verdict's
        # note on the answer may run to several lines, and comes first: the verdict is what the student looks for.
        assert page.locator("#stage .question-text").evaluate(TOP) < 300

    page.locator("[data-next]").click()  # swapped in by htmx
    expect(page.locator(".quiz-progress")).to_contain_text("Question 2 of 2")
    assert page.locator("#stage .question-text").evaluate(TOP) < THIRD
