"""In a real Chromium: a student signs in and takes a mixed quiz by keyboard alone, always seeing where focus is."""

from __future__ import annotations

import re

from django.core.management import call_command
from playwright.sync_api import expect

from tests.conftest import PASSWORD, make_user

DECK = "technology-digital-tools-flashcards"

# What a sighted keyboard user sees of focus: an outline or a box-shadow ring on the focused element,
# or for the quiz's options on the card around the radio (the radio itself is transparent, see app.css).
FOCUS_RING = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return {ok: false, what: "nothing focused"};
  const ring = el.matches("input[type=radio]") && el.closest(".option") ? el.closest(".option") : el;
  const style = getComputedStyle(ring);
  const box = ring.getBoundingClientRect();
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  const shadow = style.boxShadow !== "none";
  return {
    ok: (outline || shadow) && box.width > 0 && box.height > 0,
    what: el.outerHTML.slice(0, 160),
    outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
    shadow: style.boxShadow,
  };
}"""


def _focus_is_visible(page, step: str) -> None:
    focus = page.evaluate(FOCUS_RING)
    assert focus["ok"], f"{step}: no visible focus indicator on {focus}"


def _press(page, key: str, step: str) -> None:
    page.keyboard.press(key)
    _focus_is_visible(page, f"{step} ({key})")


def _tab_to(page, selector: str, *, limit: int = 60) -> None:
    """Tabs until `selector` has focus (if it has not already), checking the focus indicator at every stop."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
        # Past the last element focus goes to the browser itself, then comes back round to the first.
        if page.evaluate("document.hasFocus()"):
            _focus_is_visible(page, f"tabbing to {selector}")
    raise AssertionError(f"{selector} never got focus after {limit} presses of Tab")


def _focused(page) -> str:
    return page.evaluate("document.activeElement.outerHTML.slice(0, 200)")


# As quiz.js has it: in sight when most of it is.
IN_SIGHT = (
    "(a) => { const box = a.getBoundingClientRect();"
    " return Math.min(box.bottom, innerHeight) - Math.max(box.top, 0) >= box.height / 2; }"
)


def _answer_with_keyboard(page, number: int, *, choose_by_tab: bool) -> str:
    stage = page.locator("#stage")
    expect(page.locator(".quiz-progress")).to_contain_text(f"Question {number} of 4")
    if number > 1:
        # A question swapped in by HTMX takes focus: its answer box, or its heading for multiple choice.
        expect(page.locator("#stage [data-focus]:focus, #answer-box:focus")).to_have_count(1)
        _focus_is_visible(page, f"question {number}: arriving")
    if stage.locator("input[name=option]").count():
        if choose_by_tab:
            _tab_to(page, "input[name=option]")
            _press(page, "Space", "picking the focused option")
            expect(stage.locator("input[name=option]:checked")).to_have_count(1)
            _press(page, "ArrowDown", "moving to the next option")
        else:
            _press(page, "3", "picking option 3 by its number")
            expect(stage.locator("input[name=option]").nth(2)).to_be_checked()
            _press(page, "2", "changing to option 2")
            expect(stage.locator("input[name=option]").nth(1)).to_be_checked()
        assert page.evaluate("document.activeElement.matches('input[name=option]:checked')"), _focused(page)
        page.keyboard.press("Enter")
        mode = "choice"
    else:
        if not page.evaluate("document.activeElement.id === 'answer-box'"):
            _tab_to(page, "#answer-box")
        _focus_is_visible(page, "the answer box")
        # Digits and spaces typed in the box are text, not shortcuts.
        page.keyboard.type("It is 2 things 1")
        expect(stage.locator("#answer-box")).to_have_value("It is 2 things 1")
        page.keyboard.press("Enter")
        mode = "recall"
    expect(stage.locator(".verdict")).to_be_visible()
    # The verdict heading takes focus, so a screen reader announces it and the keyboard carries on from it.
    expect(page.locator("#verdict-heading")).to_be_focused()
    _focus_is_visible(page, f"question {number}: the verdict")
    return mode


def test_student_takes_a_mixed_quiz_with_the_keyboard_only(live_server, page, transactional_db):
    call_command("load_content", verbosity=0)
    make_user("alice")
    start = f"/decks/{DECK}/quiz/"

    page.goto(f"{live_server.url}/accounts/login/?next={start}")
    _tab_to(page, "#id_username")
    page.keyboard.type("alice")
    _press(page, "Tab", "to the password")
    page.keyboard.type("wrong on purpose")
    _press(page, "Shift+Tab", "back to the user name")
    expect(page.get_by_label("Username")).to_be_focused()
    _press(page, "Tab", "to the password again")
    page.keyboard.press("Control+A")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live_server.url}{start}")

    _tab_to(page, "#id_size")
    page.keyboard.press("Control+A")
    page.keyboard.type("4")
    expect(page.get_by_label("Number of questions")).to_have_value("4")
    # Tab enters a radio group at its checked radio; "Mixed" is the default.
    _press(page, "Tab", "into the question types")
    expect(page.get_by_label("Mixed")).to_be_focused()
    _press(page, "ArrowDown", "another question type")
    _press(page, "ArrowUp", "back to mixed")
    expect(page.get_by_label("Mixed")).to_be_checked()
    _tab_to(page, "button[type=submit]:not(.link-button)")
    expect(page.get_by_role("button", name="Start")).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.locator(".quiz-progress")).to_contain_text("Question 1 of 4")
    page.wait_for_load_state("load")  # the shortcuts script is deferred
    modes: list[str] = []
    for number in range(1, 5):
        # Options by their number keys the first time, by Tab, Space and arrows the second.
        modes.append(_answer_with_keyboard(page, number, choose_by_tab="choice" in modes))
        if modes[-1] == "recall" and modes.count("recall") == 1:
            # The student disagrees with the grader; the new verdict takes focus again.
            _tab_to(page, "button[name=verdict]")
            page.keyboard.press("Enter")
            expect(page.locator(".override-note")).to_be_visible()
            expect(page.locator("#verdict-heading")).to_be_focused()
            _focus_is_visible(page, "the verdict after an override")
        if number == 2:
            _tab_to(page, "[data-next]")
            expect(page.get_by_role("link", name="Next question")).to_be_focused()
            page.keyboard.press("Enter")
        else:
            if number == 4:
                expect(page.get_by_role("link", name="See your results")).to_be_visible()
            # On the verdict heading: Space scrolls down the feedback until "Next" is in sight, then goes on.
            for _ in range(10):
                in_sight = page.locator("[data-next]").evaluate(IN_SIGHT)
                page.keyboard.press("Space")
                if in_sight:
                    break
                page.wait_for_timeout(150)  # the scroll
    assert set(modes) == {"choice", "recall"}, modes  # mixed alternates the two kinds

    summary = page.locator(".summary")
    expect(summary).to_contain_text("Your results")
    expect(summary.locator("tbody tr")).to_have_count(4)
    expect(page.locator("#summary-heading")).to_be_focused()
    _focus_is_visible(page, "the results heading")
    _tab_to(page, ".summary a[href$='/progress/']")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/progress/$"))
    expect(page.locator("table").nth(1)).to_contain_text("Finished")


def test_the_phone_menu_by_keyboard_alone(live_server, browser, transactional_db):
    """A phone's header folds its links under "Menu": Tab reaches the button with a visible ring, Enter opens it,
    Tab goes on through its links, and Escape closes it with the focus back on the button."""
    make_user("alice")
    page = browser.new_context(viewport={"width": 375, "height": 812}).new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{live_server.url}/")
    page.wait_for_load_state("load")
    nav = page.get_by_role("navigation", name="Main")

    _tab_to(page, ".menu-toggle summary")
    expect(nav).to_be_hidden()
    page.keyboard.press("Enter")
    expect(nav).to_be_visible()
    _press(page, "Tab", "into the menu")
    expect(nav.get_by_role("link", name="Decks")).to_be_focused()
    _tab_to(page, ".site-nav .link-button")
    expect(nav.get_by_role("button", name="Sign out")).to_be_focused()
    _press(page, "Escape", "closing the menu")
    expect(nav).to_be_hidden()
    expect(page.locator(".menu-toggle summary")).to_be_focused()
    _press(page, "Space", "opening it again")
    expect(nav).to_be_visible()
    _press(page, "Tab", "into the menu again")
    page.keyboard.press("Enter")  # on "Decks"
    expect(page).to_have_url(f"{live_server.url}/")
