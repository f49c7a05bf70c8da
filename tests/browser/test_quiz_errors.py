"""In a real Chromium on a phone's screen: a question sent with no answer says so where it is seen and read out,
with JavaScript (the stage swapped by HTMX) and without (the page sent back whole)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.quiz import services
from apps.quiz.models import Answer
from tests.browser.conftest import eventually
from tests.conftest import make_user
from tests.factories import make_card, make_deck

MESSAGES = {
    "choice": "Choose one of the options.",
    "recall": "Type an answer, or choose “Show answer” if you do not know.",
}
# Where the error lies on the screen: all of it between the top and the bottom of the window.
IN_SIGHT = """() => {
    const box = document.querySelector('#stage .field-error').getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def _quiz(mode: str):
    """A question and options as long as the seed cards': under them, the bottom of a phone's screen is near."""
    student = make_user("alice")
    deck = make_deck()
    for i in range(5):
        question = (
            f"Which tool does job {i} of the nightly training run, which trains on the eight GPUs of a single node"
            " and must be done before the morning's reports are built?"
        )
        answer = f"Tool number {i}, which schedules the work, retries it, and reports on it when it is done"
        make_card(deck=deck, question=question, answer=answer)
    return services.session_start(user=student, deck=deck, size=2, mode=mode, order="new")


def _focus_after_the_error(page, mode: str, *, javascript: bool):
    """What the error is about: the answer box; the options' group after a swap, as on a page load (1-4 pick,
    Space shows the answer); in a page sent whole, its first option, which the browser keeps in sight."""
    if mode == "recall":
        return page.get_by_role("textbox", name="Your answer")
    if javascript:
        return page.get_by_role("group", name="Choose one answer")
    return page.locator("#option-0")


@pytest.mark.parametrize("height", [700, 420])  # a phone upright, and one on its side (taller options than screen)
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("mode", ["choice", "recall"])
def test_an_empty_answer_is_refused_in_sight_and_the_focus_is_on_what_it_is_about(
    live_server, browser, sign_in, transactional_db, mode, javascript, height
):
    quiz = _quiz(mode)
    page = browser.new_context(viewport={"width": 375, "height": height}, java_script_enabled=javascript).new_page()
    page.set_default_timeout(10_000)
    sign_in(page, "alice", quiz.get_absolute_url())
    message = MESSAGES[mode]
    if javascript:
        page.evaluate("window.__sameDocument = true")
        page.keyboard.press("Enter")  # the options' group or the empty box has the focus: Enter submits
    else:
        page.get_by_role("button", name="Check answer").click()

    expect(page.get_by_role("alert")).to_have_text(message)
    field = _focus_after_the_error(page, mode, javascript=javascript)
    expect(field).to_be_focused()
    # Read out with what has the focus, first.
    expect(field).to_have_accessible_description(re.compile(rf"^{re.escape(message)}"))
    assert eventually(page, IN_SIGHT, bool), f"the error is off the screen at {page.evaluate('window.scrollY')}"
    if javascript:
        assert page.evaluate("window.__sameDocument === true"), "the error came with a page load, not HTMX"
    assert Answer.objects.count() == 0
    page.context.close()


def test_an_option_focused_when_the_error_comes_is_described_by_it(live_server, page, sign_in, transactional_db):
    """Tab onto the options without picking one, then Enter: htmx gives the focus back to the same option."""
    quiz = _quiz("choice")
    page.set_viewport_size({"width": 375, "height": 700})
    sign_in(page, "alice", quiz.get_absolute_url())
    page.keyboard.press("Tab")
    first = page.locator("#option-0")
    expect(first).to_be_focused()
    expect(first).not_to_be_checked()
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert")).to_have_text("Choose one of the options.")
    expect(first).to_be_focused()
    expect(first).to_have_accessible_description("Choose one of the options.")
    assert eventually(page, IN_SIGHT, bool), "the error is off the screen"


def test_enter_on_the_next_questions_heading_with_no_option_focuses_the_options(
    live_server, page, sign_in, transactional_db
):
    """After "Next question" the focus is on the new question's heading; htmx gave it back to the heading's new
    copy when the error came, away from the options the error is about."""
    quiz = _quiz("choice")
    page.set_viewport_size({"width": 375, "height": 700})
    sign_in(page, "alice", quiz.get_absolute_url())
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    page.get_by_role("link", name="Next question").click()
    heading = page.get_by_role("heading", name=re.compile("^Question 2"))
    expect(heading).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert")).to_have_text("Choose one of the options.")
    options = page.get_by_role("group", name="Choose one answer")
    expect(options).to_be_focused()
    expect(options).to_have_accessible_description(re.compile(r"^Choose one of the options\."))
    assert eventually(page, IN_SIGHT, bool), "the error is off the screen"
    page.keyboard.press("2")
    expect(page.locator("#option-1")).to_be_checked()


def test_the_answer_box_counts_its_characters_as_they_near_the_limit(live_server, page, sign_in, transactional_db):
    """A pasted essay learnt of the 2,000-character limit only when sent."""
    student = make_user("alice")
    card = make_card(deck=make_deck(), question="Why pin versions?", answer="Reproducibility.")
    quiz = services.session_start(user=student, deck=card.deck, size=1, mode="recall", order="new")
    sign_in(page, "alice", quiz.get_absolute_url())
    box, count = page.get_by_label("Your answer"), page.locator("#answer-count")
    box.fill("short answer")
    expect(count).to_be_hidden()
    box.fill("é" * 1700)  # code points, as the server counts them
    expect(count).to_have_text("1,700 of 2,000 characters.")
    box.fill("line\n" * 469)  # a new line is one character, though the browser sends it as two
    expect(count).to_have_text("2,344 characters: 344 over the limit of 2,000.")
    box.fill("x" * 10)
    expect(count).to_be_hidden()
    # Read out as a threshold is crossed, not at every key: the live line changes only then.
    status = page.locator("#answer-count-status")
    box.fill("x" * 1700)
    expect(status).to_have_text("Your answer nears the limit of 2,000 characters.")
    box.fill("x" * 1800)
    expect(count).to_have_text("1,800 of 2,000 characters.")
    expect(status).to_have_text("Your answer nears the limit of 2,000 characters.")
    box.fill("x" * 2001)
    expect(status).to_have_text("Your answer is over the limit of 2,000 characters.")
