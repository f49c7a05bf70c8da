"""In a real Chromium: a quiz interrupted by what happens in another tab, and the shortcuts on a fresh question."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from apps.quiz import services
from apps.quiz.models import Answer, CardReport
from tests.browser.conftest import eventually
from tests.conftest import make_user
from tests.factories import make_card, make_deck

SCROLL_Y = "() => window.scrollY"


def _quiz(*, mode: str = "recall", cards: int = 2):
    student = make_user("alice")
    deck = make_deck()
    for i in range(cards):
        make_card(deck=deck, question=f"Which tool does job {i}?", answer=f"Tool number {i}")
    return services.session_start(user=student, deck=deck, size=2, mode=mode, order="new")


def _said(page):
    """What the quiz says in its status line ("Press Space again ..."): not the answer box's character count, read
    out only near the limit."""
    return page.locator('[role="status"]:not(#answer-count-status)')


def _open_quiz(page, sign_in, quiz) -> None:
    sign_in(page, "alice", quiz.get_absolute_url())
    page.wait_for_load_state("load")  # htmx and the shortcuts are deferred


def _in_another_tab(page, live_server, action) -> None:
    """Runs `action(tab)` in a second tab of the same browser (same cookies), then closes it."""
    tab = page.context.new_page()
    tab.goto(f"{live_server.url}/")
    action(tab)
    # Closing a tab whose navigation (the sign-out POST and its redirect) was still loading hung Chromium's
    # close for minutes in long runs: each action ends on what its page shows, and the page settles.
    tab.wait_for_load_state("load")
    tab.close()


def _sign_out(tab) -> None:
    tab.get_by_role("button", name="Sign out").click()
    expect(tab.get_by_role("link", name="Sign in")).to_be_visible()  # the sign-out and its redirect are done


def test_signed_out_in_another_tab_an_answer_leads_to_sign_in_and_back(live_server, page, sign_in, transactional_db):
    quiz = _quiz()
    _open_quiz(page, sign_in, quiz)
    _in_another_tab(page, live_server, _sign_out)

    box = page.get_by_label("Your answer")
    box.fill("Tool number 0")
    box.press("Enter")
    # The sign-in page as a page of its own, not swapped into the quiz card.
    expect(page).to_have_url(f"{live_server.url}/accounts/login/?next={quote(quiz.get_absolute_url())}")
    expect(page.locator(".site-header")).to_have_count(1)
    expect(page.locator("#stage")).to_have_count(0)

    sign_in(page, "alice", quiz.get_absolute_url(), login=None)
    expect(page.locator(".quiz-progress")).to_contain_text("Question 1 of 2")
    expect(page.get_by_label("Your answer")).to_have_value("Tool number 0")  # typed once, sent once signed in
    assert Answer.objects.count() == 0


@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_signed_in_again_in_another_tab_check_answer_says_the_page_expired(
    live_server, page, sign_in, transactional_db, settings, debug
):
    """With DEBUG on (`make run`) django-htmx's debug script is on the page too, and it used to show any 403 to
    htmx as the whole page: the quiz was replaced by the bare message."""
    settings.DEBUG = debug
    quiz = _quiz()
    _open_quiz(page, sign_in, quiz)
    expect(page.locator("script[src$='django-htmx.js']")).to_have_count(1 if debug else 0)

    def sign_out_and_in(tab):
        _sign_out(tab)
        sign_in(tab, "alice", "/")  # signing in gives the browser a new CSRF token: this page's is stale

    _in_another_tab(page, live_server, sign_out_and_in)

    page.get_by_label("Your answer").fill("Tool number 0")
    page.get_by_role("button", name="Check answer").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("This page had expired")
    expect(alert).to_contain_text("Nothing was saved")
    expect(page.get_by_label("Your answer")).to_have_value("Tool number 0")  # still there to copy
    expect(page.locator(".site-header")).to_have_count(1)  # in the page, not instead of it
    assert Answer.objects.count() == 0

    alert.get_by_role("link", name="Reload the page").click()
    expect(page.locator(".quiz-progress")).to_contain_text("Question 1 of 2")
    page.wait_for_load_state("load")
    page.get_by_label("Your answer").fill("Tool number 0")
    page.get_by_role("button", name="Check answer").click()
    expect(page.locator(".verdict")).to_contain_text("Correct")


@pytest.mark.parametrize("mode", ["choice", "recall"])
def test_space_pressed_twice_on_a_fresh_question_shows_the_answer(live_server, page, sign_in, transactional_db, mode):
    quiz = _quiz(mode=mode, cards=5)  # five cards: enough answers for four options
    _open_quiz(page, sign_in, quiz)
    expect(page.locator(".question-heading")).to_contain_text("multiple choice" if mode == "choice" else "free recall")
    page.evaluate("window.__sameDocument = true")
    # Focus on the question, as after a click on it (Space in the answer box is a space, not a shortcut).
    page.locator(".question-heading").click()
    page.keyboard.press("Space")
    # One press, as when scrolling out of habit, only asks: the question is not given up.
    expect(_said(page)).to_contain_text("Press Space again to show the answer")
    assert not Answer.objects.exists()
    page.keyboard.press("Space")

    expect(page.locator(".verdict")).to_contain_text("Answer shown")
    expect(page.locator("#stage")).to_contain_text("Right answer" if mode == "choice" else "Model answer")
    expect(page.locator(".field-error")).to_have_count(0)  # not "Choose one of the options"
    assert page.evaluate("window.__sameDocument === true"), "the answer came with a page load, not HTMX"
    answer = Answer.objects.get()
    assert answer.revealed and answer.item.position == 1


def test_reloading_on_the_feedback_shows_it_again_with_its_corrections(live_server, page, sign_in, transactional_db):
    quiz = _quiz()
    _open_quiz(page, sign_in, quiz)
    page.get_by_label("Your answer").fill("no clue")
    page.get_by_role("button", name="Check answer").click()
    expect(page.locator(".verdict")).to_contain_text("Incorrect")
    page.reload()
    expect(page.locator(".verdict")).to_contain_text("Incorrect")  # not question 2: the feedback is still here
    expect(page.get_by_role("button", name="I was right")).to_be_visible()
    page.get_by_role("link", name="Next question").click()
    expect(page.locator(".quiz-progress")).to_contain_text("Question 2 of 2")
    page.reload()
    expect(page.locator(".quiz-progress")).to_contain_text("Question 2 of 2")


def test_a_single_space_then_another_key_leaves_the_question_unanswered(live_server, page, sign_in, transactional_db):
    _open_quiz(page, sign_in, _quiz(mode="choice", cards=5))
    page.locator(".question-heading").click()
    page.keyboard.press("Space")
    expect(_said(page)).to_contain_text("Press Space again")
    page.keyboard.press("2")  # the student picks an option instead
    expect(_said(page)).to_have_text("")
    page.locator(".question-heading").click()
    page.keyboard.press("Space")  # asks again rather than showing the answer
    expect(_said(page)).to_contain_text("Press Space again")
    page.wait_for_timeout(300)
    assert not Answer.objects.exists()


def test_without_javascript_back_after_an_answer_shows_the_quiz_as_it_is_now(
    live_server, browser, sign_in, transactional_db
):
    quiz = _quiz()
    page = browser.new_context(java_script_enabled=False).new_page()
    page.set_default_timeout(10_000)
    sign_in(page, "alice", quiz.get_absolute_url())
    expect(page.locator(".quiz-progress")).to_contain_text("Question 1 of 2 · 0 answered")
    page.get_by_label("Your answer").fill("Tool number 0")
    page.get_by_role("button", name="Check answer").click()
    expect(page.locator(".verdict")).to_contain_text("Correct")

    page.go_back()  # to the question's URL: fetched again, it resumes at the next question
    expect(page.locator(".quiz-progress")).to_contain_text("Question 2 of 2 · 1 answered")
    expect(page.get_by_label("Your answer")).to_have_value("")
    page.context.close()


@pytest.mark.parametrize("mode", ["choice", "recall"])
def test_on_a_page_load_the_keyboard_answers_at_once(live_server, page, sign_in, transactional_db, mode):
    """No click into the answer first: the box (or the options) have focus when the question loads."""
    quiz = _quiz(mode=mode, cards=5)
    _open_quiz(page, sign_in, quiz)
    if mode == "recall":
        expect(page.get_by_label("Your answer")).to_be_focused()
        page.keyboard.type("Tool number 0")
    else:
        expect(page.get_by_role("group", name="Choose one answer")).to_be_focused()
        right = quiz.items.get(position=1).correct_option
        page.keyboard.press(str(right + 1))
    page.keyboard.press("Enter")
    expect(page.locator(".verdict")).to_contain_text("Correct")


def test_end_the_quiz_here_asks_first(live_server, page, sign_in, transactional_db):
    quiz = _quiz()
    _open_quiz(page, sign_in, quiz)
    page.get_by_role("link", name="End the quiz here").click()
    expect(page.get_by_role("heading", name="End this quiz?")).to_be_visible()
    expect(page.locator("main")).to_contain_text("2 of 2 questions unanswered")

    page.get_by_role("link", name="Keep going").click()
    expect(page.locator(".quiz-progress")).to_contain_text("Question 1 of 2")
    quiz.refresh_from_db()
    assert quiz.finished_at is None

    page.get_by_role("link", name="End the quiz here").click()
    page.get_by_role("button", name="End the quiz").click()
    expect(page.locator(".summary")).to_contain_text("You ended the quiz before answering any of its 2 questions")


def test_space_scrolls_a_long_question_before_it_shows_the_answer(live_server, page, sign_in, transactional_db):
    student = make_user("alice")
    deck = make_deck()
    long_question = "\n\n".join(f"Paragraph {i} of a long scenario about a training job." for i in range(40))
    for i in range(2):
        make_card(deck=deck, question=f"{long_question}\n\nWhich tool does job {i}?", answer=f"Tool number {i}")
    quiz = services.session_start(user=student, deck=deck, size=2, mode="recall", order="new")
    page.set_viewport_size({"width": 800, "height": 600})
    _open_quiz(page, sign_in, quiz)
    page.locator(".question-heading").click()
    page.keyboard.press("Space")
    assert eventually(page, SCROLL_Y, lambda y: y > 0) > 0  # the page scrolled, as Space does in any page
    assert Answer.objects.count() == 0

    page.get_by_role("button", name="Show answer").scroll_into_view_if_needed()
    page.locator(".question-heading").evaluate("(h) => h.focus({preventScroll: true})")
    page.keyboard.press("Space")
    expect(_said(page)).to_contain_text("Press Space again")
    page.keyboard.press("Space")
    expect(page.locator(".verdict")).to_contain_text("Answer shown")
    assert Answer.objects.get().revealed


def test_an_answer_typed_but_not_sent_survives_a_reload_and_back_until_it_is_sent(
    live_server, page, sign_in, transactional_db
):
    quiz = _quiz()
    _open_quiz(page, sign_in, quiz)
    box = page.get_by_role("textbox", name="Your answer")
    box.fill("Tool number 0, which schedules the work")

    page.reload()
    expect(box).to_have_value("Tool number 0, which schedules the work")
    page.get_by_role("link", name="My progress").click()
    page.go_back()
    expect(box).to_have_value("Tool number 0, which schedules the work")

    page.get_by_role("button", name="Check answer").click()
    expect(page.get_by_role("heading", name="Correct")).to_be_visible()
    page.get_by_role("link", name="Next question").click()
    expect(box).to_have_value("")  # the next question's box starts empty
    drafts = "() => Object.keys(sessionStorage).filter(key => key.startsWith('quiz-draft:'))"
    assert eventually(page, drafts, lambda keys: keys == []) == []
    page.goto(f"{live_server.url}/quiz/{quiz.pk}/q/1/")
    expect(page.get_by_role("heading", name="Correct")).to_be_visible()  # the answer counted once, as sent
    assert Answer.objects.get().response == "Tool number 0, which schedules the work"


def test_a_report_sent_after_signing_out_in_another_tab_is_still_in_its_box_once_signed_in(
    live_server, page, sign_in, transactional_db
):
    quiz = _quiz()
    services.answer_submit(
        user=quiz.user, session_id=quiz.pk, position=1, submission=services.Submission(response="a CronJob")
    )
    feedback = f"/quiz/{quiz.pk}/q/1/"
    sign_in(page, "alice", feedback)
    page.get_by_text("Report a problem with this card").click()
    page.get_by_label("What is wrong with it?").fill("The model answer names the wrong tool.")
    _in_another_tab(page, live_server, _sign_out)

    page.get_by_role("button", name="Send to the instructors").click()
    expect(page).to_have_url(f"{live_server.url}/accounts/login/?next={quote(feedback)}")
    sign_in(page, "alice", feedback, login=None)
    # Before, the disclosure came back closed and empty: the note was lost with the signed-out request.
    expect(page.get_by_label("What is wrong with it?")).to_have_value("The model answer names the wrong tool.")
    page.get_by_role("button", name="Send to the instructors").click()
    expect(page.locator(".report-note")).to_contain_text("Thank you")
    assert CardReport.objects.get().message == "The model answer names the wrong tool."
    page.reload()
    page.get_by_text("Report a problem with this card").click()
    expect(page.get_by_label("What is wrong with it?")).to_have_value("")  # sent: no draft left behind


def test_back_to_the_home_page_shows_the_quiz_as_it_is_now(live_server, page, sign_in, transactional_db):
    """The home page came back from the browser's cache: "0 of 2 questions answered" for a quiz answered since."""
    quiz = _quiz()
    sign_in(page, "alice", "/")
    unfinished = page.get_by_text("0 of 2 questions answered")
    expect(unfinished).to_be_visible()
    page.goto(f"{live_server.url}{quiz.get_absolute_url()}")
    page.wait_for_load_state("load")
    page.get_by_role("textbox", name="Your answer").fill("Tool number 0")
    page.get_by_role("button", name="Check answer").click()
    page.get_by_role("heading", name="Score").wait_for()
    page.go_back()
    expect(page.get_by_text("1 of 2 questions answered")).to_be_visible()
