"""The quiz at a phone's width, in a real Chromium: long unbreakable words (a function's full name in inline code)
wrap in the options, their review and the free-recall feedback instead of making the page scroll sideways."""

from __future__ import annotations

import pytest

from apps.content.services import card_save
from apps.quiz import services
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
