"""In a real Chromium: a student signs in and takes a mixed quiz with the keyboard and the mouse."""

from __future__ import annotations

import re

from django.core.management import call_command
from playwright.sync_api import expect

from tests.conftest import make_user

DECK = "technology-digital-tools-flashcards"


def _answer_current_question(page, *, use_keyboard: bool) -> str:
    """Answers whatever question is shown; returns its mode."""
    stage = page.locator("#stage")
    expect(stage.locator(".question-heading")).to_be_visible()
    if stage.locator("input[name=option]").count():
        if use_keyboard:
            page.locator("body").press("2")
            expect(stage.locator("input[name=option]").nth(1)).to_be_checked()
            page.keyboard.press("Enter")
        else:
            stage.locator(".option").nth(0).click()
            stage.get_by_role("button", name="Check answer").click()
        mode = "choice"
    else:
        box = stage.get_by_label("Your answer")
        box.click()
        # Digits and spaces typed in the box are text, not shortcuts.
        box.type("It is 2 things 1")
        expect(box).to_have_value("It is 2 things 1")
        if use_keyboard:
            box.press("Enter")
        else:
            stage.get_by_role("button", name="Check answer").click()
        mode = "recall"
    expect(stage.locator(".verdict")).to_be_visible()
    # Focus moves to the verdict once htmx settles, scrolling to it: a scroll made before that is undone, and Space
    # with "Next" out of sight then scrolls rather than going on (the flake a loaded machine showed).
    expect(stage.locator(".verdict")).to_be_focused()
    return mode


def test_student_takes_a_mixed_quiz_with_keyboard_and_mouse(live_server, page, sign_in, transactional_db):
    call_command("load_content", verbosity=0)
    make_user("alice")
    start = f"/decks/{DECK}/quiz/"

    page.goto(f"{live_server.url}{start}")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    sign_in(page, "alice", start, login=None)  # on the form the redirect showed, which brings her back

    page.get_by_label("Number of questions").fill("4")
    page.get_by_label("Mixed").check()
    page.get_by_role("button", name="Start").click()
    expect(page.locator(".quiz-progress")).to_contain_text("Question 1 of 4")
    page.wait_for_load_state("load")  # the shortcuts script is deferred
    expect(page.get_by_text("Keyboard shortcuts")).to_be_visible()

    # A marker on window survives HTMX swaps but not a page load.
    page.evaluate("window.__sameDocument = true")
    modes = [_answer_current_question(page, use_keyboard=True)]
    assert page.evaluate("window.__sameDocument === true"), "feedback caused a page load"
    expect(page.locator("#stage")).to_contain_text("Model answer" if modes[0] == "recall" else "Right answer")
    expect(page).to_have_title(re.compile(r"^Feedback on question 1 · .+ · mlcourse$"))  # the swap names its state
    page.locator("[data-next]").scroll_into_view_if_needed()  # while it is out of sight, Space scrolls to it
    page.locator("body").press("Space")
    expect(page.locator(".quiz-progress")).to_contain_text("Question 2 of 4")
    expect(page).to_have_title(re.compile(r"^Question 2 of 4 · "))
    # What a screen reader announces of the heading: which question, of how many.
    expect(page.get_by_role("heading", name=re.compile(r"^Question 2 of 4 · "))).to_be_visible()
    assert page.evaluate("window.__sameDocument === true"), "next question caused a page load"

    modes.append(_answer_current_question(page, use_keyboard=False))
    assert set(modes) == {"choice", "recall"}, modes  # mixed alternates the two kinds

    # A reload on the feedback keeps it (its corrections too); one on the next question resumes there.
    page.reload()
    expect(page.locator(".verdict")).to_be_visible()
    expect(page.locator(".quiz-progress")).to_contain_text("Question 2 of 4 · 2 answered")
    page.get_by_role("link", name="Next question").click()
    expect(page.locator(".quiz-progress")).to_contain_text("Question 3 of 4")
    page.reload()
    expect(page.locator(".quiz-progress")).to_contain_text("Question 3 of 4")
    page.wait_for_load_state("load")

    modes.append(_answer_current_question(page, use_keyboard=True))
    # Set aside from the feedback, in place: the note saying so takes the focus (a screen reader reads it), the
    # button beside it brings the card back, and Space goes on to the next question as ever.
    page.evaluate("window.__sameDocument = true")
    page.get_by_role("button", name="Set this card aside").click()
    note = page.locator("#set-aside-note")
    expect(note).to_be_focused()
    expect(note).to_have_text(re.compile(r"^Set aside: it is asked in none of your quizzes"))
    expect(page.get_by_role("button", name="Bring it back")).to_have_accessible_description(note.inner_text())
    expect(page.locator(".quiz-progress")).to_contain_text("Question 3 of 4 · 3 answered")
    assert page.evaluate("window.__sameDocument === true"), "setting aside caused a page load"
    page.keyboard.press("Space")  # on the note, which has the focus
    modes.append(_answer_current_question(page, use_keyboard=False))
    page.locator("[data-next]").scroll_into_view_if_needed()  # while it is out of sight, Space scrolls to it
    page.locator("body").press("Space")

    summary = page.locator(".summary")
    expect(summary).to_contain_text("Your results")
    expect(page).to_have_title(re.compile(r"^Results · "))
    expect(summary.locator("tbody tr")).to_have_count(4)
    expect(summary.locator("tbody a").first).to_have_attribute("href", re.compile(rf"/decks/{DECK}/cards/\d+/"))

    page.get_by_role("link", name="My progress").first.click()
    row = page.locator("table").first.locator("tr", has_text="Technology & Digital Tools Flashcards")
    expect(row).to_contain_text("4 of 7")
    expect(page.locator("table").nth(1)).to_contain_text("Finished")
