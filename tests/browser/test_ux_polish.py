"""In a real Chromium: layout and wording details a student or instructor would notice."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from apps.content.models import Deck
from tests.browser.conftest import FLASHCARDS, eventually, seed_cohort
from tests.conftest import make_user
from tests.factories import make_card

PAGE_SCROLLS_SIDEWAYS = "() => document.documentElement.scrollWidth > window.innerWidth"


def test_tables_on_a_phone_scroll_in_their_box_not_the_whole_page(live_server, browser, sign_in, transactional_db):
    cohort, session = seed_cohort()
    for username, paths in (
        ("alice", ["/progress/", session.get_absolute_url()]),
        ("carol", [f"/cohorts/{cohort.pk}/?tab=matrix", f"/cohorts/{cohort.pk}/?tab=charts"]),
    ):
        page = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
        sign_in(page, username)  # fails here if it cannot, else every check below is moot
        for path in paths:
            page.goto(f"{live_server.url}{path}")
            assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS), f"{path} is wider than a 375 px screen"
        page.context.close()


# Everything a student's tables hold is on a phone's screen: no column behind a sideways scroll nobody notices.
OFF_SCREEN = """() => {
    const width = window.innerWidth, problems = [];
    if (document.scrollingElement.scrollWidth > width) {
        problems.push(`the page is ${document.scrollingElement.scrollWidth}px wide`);
    }
    for (const box of document.querySelectorAll('main table, main .table-wrap')) {
        if (box.scrollWidth > box.clientWidth) {
            problems.push(`a ${box.tagName.toLowerCase()} scrolls sideways: ${box.scrollWidth} > ${box.clientWidth}px`);
        }
    }
    for (const cell of document.querySelectorAll('main td, main th')) {
        const box = cell.getBoundingClientRect();
        if (box.width <= 1 || cell.closest('thead')?.getBoundingClientRect().width <= 1) continue;  // visually hidden
        // What shows of it: the part inside the screen and inside the box that would scroll it.
        const frame = cell.closest('.table-wrap')?.getBoundingClientRect() ?? {left: 0, right: width};
        if (box.left < Math.max(0, frame.left) - 0.5 || box.right > Math.min(width, frame.right) + 0.5) {
            const text = cell.innerText.trim().slice(0, 30);
            problems.push(`"${text}" lies at ${Math.round(box.left)}-${Math.round(box.right)}px`);
        }
    }
    return problems;
}"""
# The column names a table shows: its header row, or, where that is hidden on a phone, the cells' labels.
COLUMN_NAMES = """(table) => table.tHead.getBoundingClientRect().width > 1
    ? [...table.tHead.rows[0].cells].map(th => th.innerText.trim())
    : [...table.querySelectorAll('td[data-label]')]
        .filter(td => getComputedStyle(td, '::before').content !== 'none').map(td => td.dataset.label)"""
# Whether a tap at the element's middle, where it lies now (the page scrolled only up or down), reaches it.
TAPPABLE = """(el) => {
    window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - window.innerHeight / 2);
    const box = el.getBoundingClientRect(), x = box.left + box.width / 2, y = box.top + box.height / 2;
    return x >= 0 && x <= window.innerWidth && el.contains(document.elementFromPoint(x, y));
}"""


@pytest.mark.parametrize("width", [375, 320])  # a common phone, and the narrowest WCAG asks text to reflow into
def test_on_a_phone_every_column_of_a_students_tables_is_on_screen(
    live_server, browser, sign_in, transactional_db, width
):
    from apps.cohorts import deadlines
    from apps.cohorts import services as cohorts
    from apps.quiz import services as quiz

    cohort, finished = seed_cohort()
    alice, flashcards = finished.user, Deck.objects.get(slug=FLASHCARDS)
    # A quiz ended early (its summary has a "Not answered" row) and one left open ("Resume" is the only way back).
    ended = quiz.session_start(user=alice, deck=flashcards, size=3, mode="recall", order="new")
    quiz.answer_submit(user=alice, session_id=ended.pk, position=1, submission=quiz.Submission(response="no idea"))
    quiz.session_finish(user=alice, session_id=ended.pk)
    unfinished = quiz.session_start(user=alice, deck=flashcards, size=2, mode="recall", order="new")
    quiz.answer_submit(user=alice, session_id=unfinished.pk, position=1, submission=quiz.Submission(response="?"))
    spring = cohorts.cohort_create(name="Spring 2026", instructor=cohort.instructors.get())
    deadlines.assignment_set(cohort=spring, deck=flashcards, due_date=None)

    page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
    sign_in(page, "alice", ended.get_absolute_url())
    expect(page.locator(".summary .badge", has_text="Not answered").first).to_be_visible()
    problems = {"the quiz summary": page.evaluate(OFF_SCREEN)}

    page.goto(f"{live_server.url}/join/{spring.join_code}/")
    page.get_by_role("button", name="Join Spring 2026").click()
    expect(page.get_by_text("You joined Spring 2026.")).to_be_visible()  # on my progress, where joining lands
    expect(page.get_by_role("table", name="Decks assigned in Spring 2026")).to_contain_text("cards)")
    problems["my progress, after joining"] = page.evaluate(OFF_SCREEN)
    decks = page.get_by_role("table", name="Progress per deck")
    assert {"Due later, in the next 7\u00a0days", "Mastered"} <= set(decks.evaluate(COLUMN_NAMES))
    resume = page.get_by_role("link", name=f"Resume {unfinished.title}")
    if not resume.evaluate(TAPPABLE):
        problems["my progress, after joining"].append("Resume cannot be tapped without scrolling sideways")
    assert not any(problems.values()), "\n".join(f"{name}: {'; '.join(found)}" for name, found in problems.items())
    resume.click()
    expect(page).to_have_url(f"{live_server.url}{unfinished.get_absolute_url()}")
    page.context.close()


def test_an_override_does_not_leave_the_graders_contradicting_feedback_as_the_verdict(
    live_server, page, sign_in, transactional_db
):
    _, session = seed_cohort()
    sign_in(page, "alice", f"/quiz/{session.pk}/q/1/")
    feedback = page.locator(".feedback-text")
    expect(page.locator(".verdict")).to_contain_text("Incorrect")
    note = feedback.inner_text().strip()
    assert note  # what the grader missed
    page.get_by_role("button", name="I was right").click()
    expect(page.locator(".verdict")).to_contain_text("Correct")
    expect(page.locator(".override-note")).to_contain_text("the grader said incorrect")
    expect(page.locator(".override-note .grader-note")).to_contain_text(note)
    expect(feedback).to_have_count(0)


def test_showing_the_answer_is_named_as_such_once(live_server, page, sign_in, transactional_db):
    call_command("load_content", verbosity=0)
    make_user("alice")
    sign_in(page, "alice", f"/decks/{FLASHCARDS}/quiz/")
    page.get_by_label("Number of questions").fill("1")
    page.get_by_label("Multiple choice").check()
    page.get_by_role("button", name="Start").click()
    page.get_by_role("button", name="Show answer").click()
    expect(page.locator(".verdict")).to_contain_text("Answer shown")
    expect(page.get_by_text("You asked to see the answer.")).to_have_count(1)


@pytest.mark.parametrize("javascript", [True, False])
def test_a_cards_answer_toggle_says_hide_once_open(live_server, browser, transactional_db, javascript):
    card = make_card(question="Which object runs a batch task?", answer="A Job")
    page = browser.new_context(java_script_enabled=javascript).new_page()
    page.set_default_timeout(10_000)
    toggle = page.locator(".card-answer > summary")
    page.goto(f"{live_server.url}{card.get_absolute_url()}")
    expect(toggle).to_have_accessible_name("Show the answer")
    expect(page.get_by_text("A Job")).to_be_hidden()
    toggle.click()
    expect(page.get_by_text("A Job")).to_be_visible()
    expect(toggle).to_have_accessible_name("Hide the answer")
    assert toggle.inner_text() == "Hide the answer"  # what is seen, not only what is read out
    toggle.click()
    expect(toggle).to_have_accessible_name("Show the answer")

    page.goto(f"{live_server.url}{card.get_absolute_url()}?answers=shown")  # as the quiz results link to it
    expect(page.get_by_text("A Job")).to_be_visible()
    expect(toggle).to_have_accessible_name("Hide the answer")
    page.context.close()


def test_review_with_nothing_due_offers_a_way_on_instead_of_a_disabled_button(
    live_server, page, sign_in, transactional_db
):
    call_command("load_content", verbosity=0)
    make_user("alice")
    sign_in(page, "alice", "/quiz/review/")
    expect(page.get_by_text("Nothing is due yet", exact=False)).to_be_visible()
    expect(page.locator("button[disabled]")).to_have_count(0)
    page.get_by_role("link", name="Quiz a deck instead").click()
    expect(page.get_by_role("heading", name="Decks", exact=True)).to_be_visible()
    page.get_by_role("link", name="Start a quiz on Technology & Digital Tools Flashcards").click()
    expect(page.get_by_role("button", name="Start")).to_be_visible()


def test_main_content_keeps_its_distance_from_header_and_footer(live_server, page, transactional_db):
    call_command("load_content", verbosity=0)
    page.goto(f"{live_server.url}/decks/{FLASHCARDS}/")
    gap = page.evaluate(
        """() => document.querySelector('.breadcrumbs').getBoundingClientRect().top
                 - document.querySelector('.site-header').getBoundingClientRect().bottom"""
    )
    assert gap >= 12, f"the breadcrumbs sit {gap}px under the header"


WIDE_FORMULA = "$$" + " + ".join(f"w_{{{i}}} x_{{{i}}}" for i in range(1, 9)) + "$$"


def test_a_formula_wider_than_the_screen_is_a_named_scroll_box_a_keyboard_reaches(
    live_server, browser, transactional_db
):
    answer = f"It is\n\n{WIDE_FORMULA}\n\nfor all."
    card = make_card(kind="syllabus", question="What is the weighted sum?", answer=answer)
    url = f"{live_server.url}{card.get_absolute_url()}?answers=shown"
    phone = browser.new_context(viewport={"width": 320, "height": 700}).new_page()
    phone.goto(url)
    formula = phone.get_by_role("group", name="Formula, scrolls sideways")
    expect(formula).to_have_attribute("tabindex", "0")
    formula.focus()
    phone.keyboard.press("ArrowRight")  # the keyboard scrolls it
    expect(formula).to_be_focused()
    # Polled: the browser scrolls smoothly, so under load the first frames may still be at 0.
    box = "() => document.querySelector('[aria-label=\"Formula, scrolls sideways\"]').scrollLeft"
    assert eventually(phone, box, lambda left: left > 0) > 0
    phone.context.close()

    wide = browser.new_context(viewport={"width": 1900, "height": 900}).new_page()
    wide.goto(url)
    wide.wait_for_load_state("load")
    expect(wide.locator(".katex-display")).not_to_have_attribute("tabindex", "0")  # it fits: no extra tab stop
    wide.context.close()


def test_a_wide_table_in_a_card_scrolls_in_its_box_on_a_phone(live_server, browser, transactional_db):
    row = "| " + " | ".join(f"column number {i} with words" for i in range(5)) + " |"
    table = "\n".join([row, "|" + "---|" * 5, row])
    card = make_card(kind="syllabus", question=f"Which column?\n\n{table}", answer="The third.")
    phone = browser.new_context(viewport={"width": 375, "height": 700}).new_page()
    phone.goto(f"{live_server.url}{card.get_absolute_url()}")
    assert not phone.evaluate(PAGE_SCROLLS_SIDEWAYS), "the table widened the page"
    assert phone.locator(".prose table").evaluate("(t) => t.scrollWidth > t.clientWidth")  # it scrolls in its box
    phone.context.close()


def test_inline_code_in_the_answers_stands_out_from_their_shaded_box(live_server, page, sign_in, transactional_db):
    """Code's shade is the answers' own: it vanished there, and its padding read as stray spaces ("( .keras /...")."""
    call_command("load_content", verbosity=0)
    make_user("alice")
    sign_in(page, "alice", "/decks/deep-learning-frameworks-production-syllabus/quiz/")
    page.get_by_label("Number of questions").fill("1")
    page.get_by_label("Free recall").check()
    page.get_by_label("New cards first").check()
    page.get_by_role("button", name="Start").click()
    page.get_by_role("button", name="Show answer").click()  # the first card: `.keras` in its model answer
    code = page.locator(".compare code").first
    expect(code).to_have_text(".keras")
    shades = code.evaluate(
        "(c) => [getComputedStyle(c).backgroundColor, getComputedStyle(c.closest('section')).backgroundColor]"
    )
    assert shades[0] != shades[1], shades


@pytest.mark.parametrize("width", [375, 1280])
def test_a_user_name_that_is_an_email_address_fits_the_header_and_the_account_page(
    live_server, browser, sign_in, transactional_db, width
):
    """Sign-up takes @ and . in a user name, and many type their university address: one unbreakable word in the
    header made every page scroll sideways on a phone, by the name's width less the screen's."""
    username = "maximiliane.mustermann@informatikdepartment.example.org"
    make_user(username)
    page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
    sign_in(page, username)
    for path in ["/", "/accounts/account/", "/accounts/account/delete/"]:
        page.goto(f"{live_server.url}{path}")
        assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS), f"{path} is wider than a {width} px screen"
    menu = page.locator("summary", has_text="Menu")
    if menu.is_visible():  # a phone: the header's links are under its menu
        menu.click()
    expect(page.get_by_role("link", name=username)).to_be_in_viewport()
    assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS), "the open menu is wider than the screen"
