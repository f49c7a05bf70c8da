"""In a real Chromium: the quiz shortcuts stay out of the way of the browser's own keys and of the rest of the page,
and what describes them shows only where they work."""

from __future__ import annotations

from playwright.sync_api import expect

from apps.quiz import services
from apps.quiz.models import Answer
from tests.browser.conftest import eventually
from tests.browser.test_quiz_interruptions import SCROLL_Y, _open_quiz, _quiz
from tests.conftest import make_user
from tests.factories import make_card, make_deck


def test_space_goes_on_when_next_is_in_sight_but_for_a_few_pixels_at_the_fold(
    live_server, page, sign_in, transactional_db
):
    """A "Next" cut by the bottom of the window by a few pixels is seen: Space scrolled instead of going on."""
    page.set_viewport_size({"width": 800, "height": 400})  # the feedback longer than the window
    _open_quiz(page, sign_in, _quiz(mode="recall", cards=2))
    page.keyboard.type("Tool number 0")
    page.keyboard.press("Enter")
    expect(page.locator(".verdict")).to_be_focused()
    page.locator("[data-next]").evaluate(
        "(next) => window.scrollBy(0, next.getBoundingClientRect().bottom - window.innerHeight - 4)"
    )
    cut = page.locator("[data-next]").evaluate("(next) => next.getBoundingClientRect().bottom - window.innerHeight")
    assert 0 < cut < 10, cut
    page.locator("[data-focus]").first.evaluate("(h) => h.focus({preventScroll: true})")
    page.keyboard.press("Space")
    expect(page.locator(".quiz-progress")).to_contain_text("Question 2 of 2")


def test_shift_space_never_shows_the_answer(live_server, page, sign_in, transactional_db):
    _open_quiz(page, sign_in, _quiz(mode="choice", cards=5))
    page.locator(".question-heading").click()
    page.keyboard.press("Shift+Space")
    page.wait_for_timeout(300)
    expect(page.locator(".verdict")).to_have_count(0)
    assert Answer.objects.count() == 0


def test_a_digit_pressed_on_the_sites_header_picks_no_option(live_server, page, sign_in, transactional_db):
    _open_quiz(page, sign_in, _quiz(mode="choice", cards=5))
    page.get_by_role("link", name="My progress").focus()
    page.keyboard.press("3")
    expect(page.locator("input[name=option]:checked")).to_have_count(0)
    expect(page.get_by_role("link", name="My progress")).to_be_focused()

    page.locator(".question-heading").click()
    page.keyboard.press("3")
    expect(page.locator("#option-2")).to_be_checked()


def test_space_scrolls_to_a_next_link_out_of_sight_before_following_it(live_server, page, sign_in, transactional_db):
    student = make_user("alice")
    deck = make_deck()
    explanation = "\n\n".join(f"Paragraph {i} of why the tool is the right one." for i in range(30))
    for i in range(2):
        make_card(deck=deck, question=f"Which tool does job {i}?", answer=f"Tool number {i}", explanation=explanation)
    quiz = services.session_start(user=student, deck=deck, size=2, mode="recall", order="new")
    page.set_viewport_size({"width": 800, "height": 500})
    _open_quiz(page, sign_in, quiz)
    page.keyboard.type("Tool number 0")
    page.keyboard.press("Enter")
    expect(page.locator(".verdict")).to_contain_text("Correct")

    page.locator(".verdict").evaluate("(v) => v.scrollIntoView()")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator("[data-focus]").first.evaluate("(h) => h.focus({preventScroll: true})")
    page.keyboard.press("Space")
    assert eventually(page, SCROLL_Y, lambda y: y > 0) > 0, "Space should scroll towards the explanation, not skip it"
    expect(page.locator(".quiz-progress")).to_contain_text("Question 1 of 2")

    page.locator("[data-next]").scroll_into_view_if_needed()
    page.locator("[data-focus]").first.evaluate("(h) => h.focus({preventScroll: true})")
    page.keyboard.press("Space")
    expect(page.locator(".quiz-progress")).to_contain_text("Question 2 of 2")


def test_the_shortcut_help_shows_with_javascript_and_is_tied_to_the_answer_box(
    live_server, page, sign_in, transactional_db
):
    _open_quiz(page, sign_in, _quiz())
    expect(page.get_by_text("Keyboard shortcuts")).to_be_visible()
    box = page.get_by_label("Your answer")
    expect(box).to_have_accessible_description(
        "Question 1 of 2 · free recall Which tool does job 0? Enter submits; Shift+Enter starts a new line."
    )


def test_without_javascript_no_shortcut_is_advertised(live_server, browser, sign_in, transactional_db):
    quiz = _quiz()
    page = browser.new_context(java_script_enabled=False).new_page()
    page.set_default_timeout(10_000)
    sign_in(page, "alice", quiz.get_absolute_url())
    expect(page.get_by_label("Your answer")).to_be_visible()
    expect(page.get_by_text("Keyboard shortcuts")).to_be_hidden()
    expect(page.get_by_text("Enter submits")).to_be_hidden()
    # nor read out: the box is not described by the hidden hint
    expect(page.get_by_label("Your answer")).to_have_accessible_description(
        "Question 1 of 2 · free recall Which tool does job 0?"
    )
    page.context.close()


def test_in_forced_colours_the_chosen_option_stands_out(live_server, page, sign_in, transactional_db):
    _open_quiz(page, sign_in, _quiz(mode="choice", cards=5))
    page.emulate_media(forced_colors="active")
    page.locator(".question-heading").click()
    page.keyboard.press("2")
    page.locator(".question-heading").focus()  # the focus ring is not what marks the choice
    outline = "(o) => getComputedStyle(o).outlineStyle + ' ' + getComputedStyle(o).outlineWidth"
    chosen, other = (page.locator(".option").nth(i).evaluate(outline) for i in (1, 0))
    assert chosen == "solid 3px" and other.startswith("none"), (chosen, other)


def test_on_a_short_screen_the_question_stays_in_sight_above_the_focused_options(
    live_server, page, sign_in, transactional_db
):
    student = make_user("alice")
    deck = make_deck()
    for i in range(5):
        answer = f"Tool number {i}, which schedules the work, retries it, and reports on it when it is done"
        make_card(deck=deck, question=f"Which tool does job {i} of the nightly training pipeline?", answer=answer)
    quiz = services.session_start(user=student, deck=deck, size=2, mode="choice", order="new")
    page.set_viewport_size({"width": 375, "height": 420})
    _open_quiz(page, sign_in, quiz)
    expect(page.get_by_role("group", name="Choose one answer")).to_be_focused()
    heading_top = "() => document.querySelector('.question-heading').getBoundingClientRect().top"
    assert eventually(page, heading_top, lambda top: top > -1) > -1  # (subpixels) the scroll follows the load


def test_the_results_advertise_no_shortcuts(live_server, page, sign_in, transactional_db):
    quiz = _quiz()
    _open_quiz(page, sign_in, quiz)
    shortcuts = page.get_by_text("Keyboard shortcuts")
    for position in (1, 2):
        expect(page.locator(".quiz-progress")).to_contain_text(f"Question {position} of 2")
        expect(shortcuts).to_be_visible()  # on each question and its feedback, where they work
        page.get_by_label("Your answer").fill(f"Tool number {position - 1}")
        page.keyboard.press("Enter")
        expect(page.locator(".verdict")).to_contain_text("Correct")
        expect(shortcuts).to_be_visible()
        page.locator("[data-next]").click()
    expect(page.locator(".summary")).to_contain_text("Your results")  # swapped in by HTMX
    expect(shortcuts).to_be_hidden()
    page.reload()
    expect(page.locator(".summary")).to_contain_text("Your results")
    page.wait_for_load_state("load")
    expect(shortcuts).to_be_hidden()


def test_on_a_touch_screen_enter_starts_a_new_line_and_no_shortcuts_are_listed(
    live_server, browser, sign_in, transactional_db
):
    quiz = _quiz()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    _open_quiz(page, sign_in, quiz)
    assert page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
    expect(page.get_by_text("Keyboard shortcuts")).to_be_hidden()  # no keys on an on-screen keyboard to list
    box = page.get_by_label("Your answer")
    box.click()
    page.keyboard.type("Tool number 0")
    page.keyboard.press("Enter")
    page.keyboard.type("on two lines")
    expect(box).to_have_value("Tool number 0\non two lines")
    assert Answer.objects.count() == 0
    page.get_by_role("button", name="Check answer").tap()
    expect(page.locator(".verdict")).to_be_visible()
    phone.close()


def test_show_answer_tapped_with_an_option_chosen_asks_first_and_a_second_tap_shows_it(
    live_server, browser, sign_in, transactional_db
):
    """On a phone "Show answer" sits just under "Check answer": a tap meant for the one would drop the choice."""
    quiz = _quiz(mode="choice", cards=5)
    phone = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    _open_quiz(page, sign_in, quiz)
    reveal = page.get_by_role("button", name="Show answer")
    page.locator(".option").nth(2).tap()
    reveal.tap()
    expect(page.locator("[data-reveal-confirm]")).to_contain_text("You chose an option")
    # in a box that stands out, as the page without JavaScript asks, not in grey small print
    assert (
        page.locator("[data-reveal-confirm]").evaluate("(n) => getComputedStyle(n).backgroundColor")
        != "rgba(0, 0, 0, 0)"
    )
    page.wait_for_timeout(300)
    assert Answer.objects.count() == 0
    reveal.tap()
    expect(page.locator(".verdict")).to_contain_text("Answer shown")
    assert Answer.objects.get().revealed

    page.get_by_role("link", name="Next question").tap()
    page.get_by_role("button", name="Show answer").tap()  # nothing chosen: shown at once
    expect(page.locator(".verdict")).to_contain_text("Answer shown")
    phone.close()


def test_without_javascript_show_answer_with_an_option_chosen_asks_and_keeps_the_choice(
    live_server, browser, sign_in, transactional_db
):
    quiz = _quiz(mode="choice", cards=5)
    page = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False).new_page()
    page.set_default_timeout(10_000)
    sign_in(page, "alice", quiz.get_absolute_url())
    page.locator(".option").nth(2).click()
    page.get_by_role("button", name="Show answer").click()
    ask = page.locator("#reveal-ask")
    expect(ask).to_contain_text("You chose option 3. Show the answer without checking your choice?")
    expect(ask).to_be_focused()
    expect(ask).to_be_in_viewport()
    expect(page.locator("input[name=option]").nth(2)).to_be_checked()
    assert Answer.objects.count() == 0
    page.get_by_role("button", name="Check my choice").click()
    expect(page.locator(".verdict")).to_be_visible()
    answer = Answer.objects.get()
    assert answer.chosen_option == 2 and not answer.revealed

    page.get_by_role("link", name="Next question").click()
    page.locator(".option").nth(0).click()
    page.get_by_role("button", name="Show answer").click()
    page.get_by_role("button", name="Show the answer anyway").click()
    expect(page.locator(".verdict")).to_contain_text("Answer shown")
    page.context.close()


def test_enter_on_show_answer_with_an_option_chosen_asks_then_shows(live_server, page, sign_in, transactional_db):
    _open_quiz(page, sign_in, _quiz(mode="choice", cards=5))
    page.keyboard.press("2")
    page.get_by_role("button", name="Show answer").focus()
    page.keyboard.press("Enter")
    expect(page.locator("[data-reveal-confirm]")).to_contain_text("You chose an option")
    page.keyboard.press("Enter")
    expect(page.locator(".verdict")).to_contain_text("Answer shown")


RING = "(el) => { const s = getComputedStyle(el); return [s.outlineStyle, s.outlineWidth, s.boxShadow]; }"


def _phone(browser):
    return browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)


def test_on_a_phone_nothing_is_ringed_before_a_touch_and_a_tapped_option_is_chosen_not_ringed(
    live_server, browser, sign_in, transactional_db
):
    phone = _phone(browser)
    page = phone.new_page()
    _open_quiz(page, sign_in, _quiz(mode="choice", cards=5))
    group = page.locator("fieldset.options")
    expect(group).to_be_focused()  # still where 1-4 and a screen reader start
    assert group.evaluate(RING)[0] == "none"
    page.locator(".option").nth(1).tap()
    expect(page.locator("input[name=option]").nth(1)).to_be_checked()
    assert page.locator(".option").nth(1).evaluate(RING)[0] == "none"
    phone.close()


def test_an_answer_box_focused_on_load_has_a_thin_ring_not_the_heavy_one(
    live_server, browser, sign_in, transactional_db
):
    phone = _phone(browser)
    page = phone.new_page()
    _open_quiz(page, sign_in, _quiz(mode="recall"))
    box = page.get_by_label("Your answer")
    expect(box).to_be_focused()
    assert box.evaluate(RING) == ["solid", "2px", "none"]
    phone.close()


def test_keyboard_users_still_get_the_full_ring_on_options(live_server, page, sign_in, transactional_db):
    _open_quiz(page, sign_in, _quiz(mode="choice", cards=5))
    page.keyboard.press("2")
    style, width, shadow = page.locator(".option").nth(1).evaluate(RING)
    assert (style, width) == ("solid", "3px") and shadow != "none"
    page.keyboard.press("ArrowDown")
    assert page.locator(".option").nth(2).evaluate(RING)[1] == "3px"
    assert page.locator(".option").nth(1).evaluate(RING)[0] == "none"


def test_the_skip_link_brings_focus_to_the_page_without_ringing_all_of_it(live_server, page, sign_in, transactional_db):
    _open_quiz(page, sign_in, _quiz(mode="recall"))
    page.get_by_role("link", name="Skip to main content").focus()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()
    assert page.locator("main").evaluate(RING)[0] == "none"


def test_enter_on_the_feedback_goes_on_but_not_a_second_press_just_after_sending(
    live_server, page, sign_in, transactional_db
):
    """As in Anki or Quizlet, the key the answer was sent with goes on; a double press does not skip the feedback."""
    _open_quiz(page, sign_in, _quiz(mode="recall", cards=2))
    page.keyboard.type("Tool number 0")
    page.keyboard.press("Enter")
    expect(page.locator(".verdict")).to_be_focused()
    outline, _, bar = page.locator(".verdict").evaluate(RING)
    assert outline == "none" and bar != "none"  # a bar in the margin: a ringed heading read as a text field
    page.keyboard.press("Enter")  # at once: the feedback stays
    page.wait_for_timeout(300)
    expect(page.locator(".verdict")).to_be_visible()
    page.wait_for_timeout(400)
    page.keyboard.press("Enter")
    expect(page.locator(".quiz-progress")).to_contain_text("Question 2 of 2")
    expect(page.get_by_label("Your answer")).to_be_focused()
    expect(page.get_by_text("Enter on the feedback: go to the next question")).to_be_attached()
