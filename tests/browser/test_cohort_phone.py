"""In a real Chromium, 375 px wide: the instructor's cohort pages as a phone shows them."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from apps.quiz import services as quiz
from tests.browser.conftest import eventually, seed_cohort

PHONE = {"width": 375, "height": 800}
SENTENCE = "Quantization lowers the precision of weights and activations, from 32-bit floats to 8-bit integers, "
LONG_ANSWER = (SENTENCE * 2)[:200]


def test_a_student_s_long_answers_read_across_a_phone_instead_of_down_a_narrow_column(
    live_server, browser, sign_in, transactional_db
):
    cohort, session = seed_cohort()
    alice = session.user
    more = quiz.session_start(user=alice, deck=session.deck, size=3, mode="recall", order="new")
    for item in more.items.order_by("position"):
        submission = quiz.Submission(response=LONG_ANSWER)
        quiz.answer_submit(user=alice, session_id=more.pk, position=item.position, submission=submission)
    page = browser.new_context(viewport=PHONE).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/students/{alice.pk}/")
    rows = page.locator("table.answers tbody tr")
    expect(rows).to_have_count(5)
    long_ones = rows.filter(has_text=LONG_ANSWER)
    expect(long_ones).to_have_count(3)
    for i in range(3):
        row = long_ones.nth(i)
        # A 200-character answer in a 97 px column made a row some 1,500 px tall.
        height = row.evaluate("(tr) => tr.getBoundingClientRect().height")
        assert height <= 480, f"a row with a 200-character answer is {height}px tall"
        width = row.locator("td.answer-response").evaluate("(td) => td.getBoundingClientRect().width")
        assert width >= 300, f"the answer gets {width}px of a 375 px screen"
        # Each figure still says what it is, the header row being out of sight.
        for label in ("When", "Response", "Verdict", "Override", "Time"):
            cell = row.locator(f'td[data-label="{label}"]')
            assert cell.evaluate("(td) => getComputedStyle(td, '::before').content").startswith(f'"{label}"')
    assert not page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")
    page.context.close()


MATRIX_BOX = "Students’ progress per deck"


def test_the_matrix_says_it_scrolls_sideways_and_a_keyboard_reaches_and_scrolls_it(
    live_server, browser, sign_in, transactional_db
):
    cohort, _ = seed_cohort()
    page = browser.new_context(viewport=PHONE).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/")
    box = page.get_by_role("group", name=MATRIX_BOX)
    expect(page.get_by_text("Scroll the table sideways for more decks")).to_be_visible()
    # Its column labels sit right above the first row, not atop a band as tall as the deck titles.
    gap = page.evaluate(
        """() => document.querySelector('table.matrix tbody tr').getBoundingClientRect().top
                 - document.querySelector('#sort-name').getBoundingClientRect().bottom"""
    )
    assert gap <= 16, f"a {gap}px blank gap between the Student label and the first student"
    # Tab from the last filter reaches the box (before any link inside it), and the arrow keys scroll it.
    page.get_by_role("link", name="Behind on a deck overdue or due within 3 days").focus()
    page.keyboard.press("Tab")
    expect(box).to_be_focused()
    page.keyboard.press("ArrowRight")
    assert eventually(page, "() => document.activeElement.scrollLeft", lambda left: left > 0) > 0
    page.context.close()

    # Where it fits (two decks at 1280 px) there is nothing to say and no extra tab stop.
    wide = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sign_in(wide, "carol", f"/cohorts/{cohort.pk}/")
    box = wide.get_by_role("group", name=MATRIX_BOX)
    expect(box).not_to_have_attribute("tabindex", "0")
    expect(wide.get_by_text("Scroll the table sideways for more decks")).to_be_hidden()
    wide.context.close()


def test_without_javascript_the_matrix_box_is_still_focusable_and_named(
    live_server, browser, sign_in, transactional_db
):
    cohort, _ = seed_cohort()
    page = browser.new_context(viewport=PHONE, java_script_enabled=False).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/")
    box = page.get_by_role("group", name=MATRIX_BOX)
    page.get_by_role("link", name="Behind on a deck overdue or due within 3 days").focus()
    page.keyboard.press("Tab")
    expect(box).to_be_focused()
    page.context.close()


# Whether the element lies inside the visible part of the scroll box around it.
IN_ITS_BOX = """(el) => {
  const box = el.closest(".chart-frame").getBoundingClientRect(), own = el.getBoundingClientRect();
  return own.width > 0 && own.left >= box.left - 0.5 && own.right <= box.right + 0.5;
}"""


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_on_a_phone_the_answers_per_day_chart_shows_today_first(
    live_server, browser, sign_in, transactional_db, javascript
):
    cohort, _ = seed_cohort()  # alice answered today
    page = browser.new_context(viewport=PHONE, java_script_enabled=javascript).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/?tab=charts")
    chart = page.get_by_role("group", name="Answers per day, last 30 days")
    assert chart.evaluate("(box) => box.scrollWidth > box.clientWidth")  # it does not fit: 30 days need 36rem
    today = chart.locator("rect.bar").last
    assert today.evaluate(IN_ITS_BOX), "today's bar is scrolled out of sight"
    # Its date and a scale are in sight with it.
    label = chart.locator("text.tick").filter(has_text=re.compile(rf"^{timezone.localdate():%-d %b}$"))
    assert label.evaluate(IN_ITS_BOX), "today's bar does not say its date"
    zeros = chart.locator("text.tick").filter(has_text=re.compile(r"^0$"))
    assert any(zeros.nth(i).evaluate(IN_ITS_BOX) for i in range(zeros.count())), "no scale in sight"
    # Earlier days are a scroll away, not gone.
    assert not chart.locator("rect.bar").first.evaluate(IN_ITS_BOX)
    page.context.close()


def test_on_a_phone_every_badge_of_the_dashboard_stays_on_one_line(live_server, browser, sign_in, transactional_db):
    """ "check the key" in the item statistics' legend broke over three lines, one word each."""
    cohort, _ = seed_cohort()
    page = browser.new_context(viewport=PHONE).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/?tab=matrix")
    for tab in ("matrix", "items"):
        page.goto(f"{live_server.url}/cohorts/{cohort.pk}/?tab={tab}")
        badges = page.locator(".badge")
        assert badges.count() > 0
        for i in range(badges.count()):
            badge = badges.nth(i)
            lines = badge.evaluate(
                "(b) => Math.round(b.getBoundingClientRect().height / parseFloat(getComputedStyle(b).lineHeight))"
            )
            assert lines == 1, f"{badge.inner_text()!r} takes {lines} lines on the {tab} tab"
    page.context.close()


def test_on_a_phone_the_manage_page_lists_students_and_decks_a_row_a_block(
    live_server, browser, sign_in, transactional_db
):
    """Three columns in a 290 px panel wrapped a student's email a few letters a line and cut "Unassign…" short."""
    from apps.accounts.services import account_update

    cohort, session = seed_cohort()
    alice = session.user
    account_update(user=alice, first_name="Alice", last_name="Liddell", email="alice.liddell@example.com")
    page = browser.new_context(viewport=PHONE).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/manage/")
    student = page.get_by_role("table", name="Students of Autumn 2026").locator("tbody tr").first
    who = student.locator(".student-who")
    expect(who).to_have_text("Alice Liddell · alice.liddell@example.com")
    lines = who.evaluate(
        "(el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight))"
    )
    assert lines <= 2, f"the name and email take {lines} lines"
    expect(student.locator('td[data-label="Joined"]')).to_be_visible()
    decks = page.get_by_role("table", name="Decks assigned to Autumn 2026").locator("tbody tr")
    for row in (student, decks.first):
        summary = row.locator("summary")
        assert summary.evaluate("(s) => s.scrollWidth <= s.clientWidth"), f"{summary.inner_text()!r} is cut short"
    student.get_by_text("Remove…").click()
    expect(student.get_by_role("button", name="Remove alice")).to_be_visible()
    assert not page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")
    page.context.close()


def test_on_a_phone_item_statistics_stack_a_card_a_block_with_its_sort_links_in_sight(
    live_server, browser, sign_in, transactional_db
):
    """Only the card and its attempts fitted: facility, discrimination and the wrong answers were a sideways scroll
    away, out of sight of the card they describe."""
    cohort, _ = seed_cohort()  # alice got two cards wrong
    page = browser.new_context(viewport=PHONE).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/?tab=items")
    row = page.locator("table.items tbody tr").first
    for label in ("Attempts", "Facility", "Discrimination", "Overrides", "Common wrong answers"):
        cell = row.locator(f'td[data-label="{label}"]')
        expect(cell).to_be_visible()
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], f"{label} is off the screen: {box}"
        assert cell.evaluate("(td) => getComputedStyle(td, '::before').content").startswith(f'"{label}"')
    expect(row.locator('td[data-label="Common wrong answers"]')).to_contain_text("no idea")
    expect(page.get_by_text("Scroll the table sideways for more columns")).to_be_hidden()
    assert not page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")
    # The header row is out of sight, but not its sort links.
    page.get_by_role("link", name="Attempts", exact=True).click()
    expect(page).to_have_url(re.compile(r"sort=-attempts"))
    page.context.close()
