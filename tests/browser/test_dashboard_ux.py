"""In a real Chromium: what an instructor notices on the cohort dashboard (layout, focus after HTMX swaps)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from apps.cohorts import deadlines
from apps.cohorts import services as cohorts
from apps.content.services import card_save
from tests.browser.conftest import seed_cohort
from tests.cohorts.choices import choose
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck

# Whether an element lies inside the visible part of the matrix's scroll box, as it is scrolled now.
IN_SCROLL_BOX = """(el) => {
  const box = el.closest(".table-wrap").getBoundingClientRect();
  const own = el.getBoundingClientRect();
  return own.left >= box.left && own.right <= box.right + 0.5;
}"""


def _matrix(browser, sign_in, *, width: int):
    """The seeded cohort's dashboard, signed in as its instructor in a window `width` wide: the page and its matrix."""
    cohort, _ = seed_cohort()
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/")
    return page, page.locator("table.matrix")


def test_at_risk_flags_are_in_sight_without_scrolling_the_matrix(live_server, browser, sign_in, transactional_db):
    page, matrix = _matrix(browser, sign_in, width=900)
    # Two decks make the table wider than a 900 px window: it scrolls sideways, so column order decides what is seen.
    assert matrix.evaluate("(t) => t.closest('.table-wrap').scrollWidth > t.closest('.table-wrap').clientWidth")
    header = matrix.get_by_role("columnheader", name="At risk")
    flag = matrix.get_by_role("row", name="alice").locator("td.flags")
    expect(flag).to_contain_text("Accuracy under 50 %")
    assert header.evaluate(IN_SCROLL_BOX), "the At risk header is scrolled out of sight"
    assert flag.evaluate(IN_SCROLL_BOX), "alice's flags are scrolled out of sight"
    page.context.close()


# Whether the page itself (not a table's own scroll box) is wider than the window.
PAGE_SCROLLS_SIDEWAYS = "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"


def test_at_1280_px_the_matrix_shows_two_decks_without_scrolling_and_card_titles_are_typeset(
    live_server, browser, sign_in, transactional_db
):
    """The dashboard takes the window's width: the QA review found the second deck behind a sideways scroll."""
    page, matrix = _matrix(browser, sign_in, width=1280)
    assert not matrix.evaluate("(t) => t.closest('.table-wrap').scrollWidth > t.closest('.table-wrap').clientWidth")
    last = matrix.locator("thead tr").nth(1).locator("th").last  # the second deck's Mastered
    assert last.evaluate(IN_SCROLL_BOX), "the second deck's last column is scrolled out of sight"
    page.get_by_role("link", name="Item statistics").click()
    titles = page.locator("table.items .card-title")
    expect(titles.first).to_be_visible()
    # Each title is the typeset question, at most two lines high, and no TeX source is in sight.
    line = titles.first.evaluate("(a) => parseFloat(getComputedStyle(a).lineHeight)")
    heights = titles.evaluate_all("(all) => all.map((a) => a.getBoundingClientRect().height)")
    assert heights and max(heights) <= 2 * line * 1.5, (line, heights)
    assert page.locator("table.items .card-title .katex").count() > 0
    assert "$" not in page.locator("table.items").inner_text()
    page.context.close()


def _items_tab_after_a_pick(browser, sign_in, option: str):
    """carol's item statistics, at 1280 px, after alice picked `option`, a distractor, in her cohort's deck."""
    deck = make_deck(title="Norms")
    card = make_card(deck=deck, question="Which norm is the largest absolute value?", answer="The max norm")
    for i in range(4):
        make_card(deck=deck, question=f"Other {i}?", answer=f"Norm {i}")
    card_save(card=card, distractors=[option])
    cohort = cohorts.cohort_create(name="Norms", instructor=make_instructor("carol"))
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    alice = make_user("alice")
    cohorts.cohort_join(student=alice, code=cohort.join_code)
    choose(alice, deck=deck, card=card, text=option)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/?tab=items")
    return page


def test_a_wrong_option_picked_is_typeset_on_one_line_with_its_count(live_server, browser, sign_in, transactional_db):
    """As the student saw it, its paragraphs run on: "× 1" follows the option, not a block of its own below."""
    page = _items_tab_after_a_pick(browser, sign_in, "The $\\lVert x \\rVert_1$ norm\n\nof `x`")  # two paragraphs
    picked = page.locator("table.items .wrong-option")
    expect(picked).to_have_count(1)
    expect(picked.locator(".katex")).to_be_visible()
    item = picked.locator("xpath=..")
    expect(item).to_have_text(re.compile(r"^The .*norm\s+of x × 1$", re.S))
    line = item.evaluate("(li) => parseFloat(getComputedStyle(li).lineHeight)")
    height = item.evaluate("(li) => li.getBoundingClientRect().height")
    assert height < 1.8 * line, (line, height)
    assert "$" not in page.locator("table.items").inner_text()
    page.context.close()


def test_a_long_wrong_option_shows_two_lines_of_itself(live_server, browser, sign_in, transactional_db):
    """Another card's whole answer can be an option: tables and paragraphs of it would make one row a page tall."""
    option = ("A long explanation that goes on and on about sharding. " * 12) + "\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    page = _items_tab_after_a_pick(browser, sign_in, option)
    picked = page.locator("table.items .wrong-option")
    expect(picked).to_have_count(1)
    expect(picked.locator("table")).to_be_hidden()
    line = picked.evaluate("(el) => parseFloat(getComputedStyle(el).lineHeight)")
    height = picked.evaluate("(el) => el.getBoundingClientRect().height")
    assert height < 2.5 * line, (line, height)
    page.context.close()


def test_show_all_opens_a_long_wrong_option_whole_without_javascript_and_on_a_phone(
    live_server, browser, sign_in, transactional_db
):
    option = ("A long explanation that goes on and on about sharding. " * 12) + "\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    page = _items_tab_after_a_pick(browser, sign_in, option)
    phone = browser.new_context(viewport={"width": 360, "height": 800}, java_script_enabled=False).new_page()
    phone.context.add_cookies(page.context.cookies())
    phone.goto(page.url)
    picked = phone.locator("table.items .wrong-option")
    line = picked.evaluate("(el) => parseFloat(getComputedStyle(el).lineHeight)")
    assert picked.evaluate("(el) => el.getBoundingClientRect().height") < 2.5 * line
    expect(picked.locator("table")).to_be_hidden()
    phone.get_by_text("Show all").click()
    expect(phone.get_by_text("Show less")).to_be_visible()
    expect(picked.locator("table")).to_be_visible()  # what the two lines left out
    assert picked.evaluate("(el) => el.getBoundingClientRect().height") > 6 * line
    assert not phone.evaluate(PAGE_SCROLLS_SIDEWAYS)
    phone.get_by_text("Show less").click()
    assert picked.evaluate("(el) => el.getBoundingClientRect().height") < 2.5 * line
    phone.context.close()
    page.context.close()


def test_on_a_phone_a_long_cohort_name_wraps_and_the_page_does_not_scroll_sideways(
    live_server, browser, sign_in, transactional_db
):
    cohort, _ = seed_cohort()
    cohort.name = "Machinelearningengineeringcohortwithanunbrokenname2026"
    cohort.save(update_fields=["name"])
    page = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/")
    for path in ("", "?tab=items", "?tab=charts", "manage/", f"students/{cohort.memberships.get().student_id}/"):
        page.goto(f"{live_server.url}/cohorts/{cohort.pk}/{path}")
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_be_visible()
        assert heading.evaluate("(h) => h.getBoundingClientRect().right <= window.innerWidth"), path
        assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS), path
    page.context.close()


def test_remove_and_unassign_ask_first_and_work_without_javascript(live_server, browser, sign_in, transactional_db):
    cohort, _ = seed_cohort()
    page = browser.new_context(java_script_enabled=False).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/manage/")
    students = page.locator("section", has=page.get_by_role("heading", name="Students (1)"))
    # One click on "Remove…" only shows what removing does, and the button that does it.
    students.get_by_text("Remove…").click()
    expect(students).to_contain_text("alice leaves Autumn 2026")
    expect(page.get_by_role("heading", name="Students (1)")).to_be_visible()
    page.get_by_role("button", name="Remove alice").click()
    expect(page.locator(".messages")).to_contain_text("alice was removed")
    expect(page.get_by_role("heading", name="Students (0)")).to_be_visible()
    decks = page.locator("section", has=page.get_by_role("heading", name="Assigned decks"))
    decks.get_by_role("row").filter(has_text="Syllabus").get_by_text("Unassign…").click()
    expect(decks.get_by_role("row")).to_have_count(3)  # the header and both decks: still assigned
    decks.get_by_role("button", name="Unassign Deep Learning Frameworks").click()
    expect(page.locator(".messages")).to_contain_text(
        "Deep Learning Frameworks and Production Syllabus is no longer assigned"
    )
    expect(decks.get_by_role("row")).to_have_count(2)


# Where focus is: never <body> after a swap, but inside the swapped-in panel, and visible when it is a control.
FOCUS = """() => {
  const el = document.activeElement;
  const panel = document.getElementById("panel");
  return {
    body: el === document.body || el === document.documentElement,
    inPanel: panel !== null && panel.contains(el),
    id: el.id,
    visible: el.matches(":focus-visible"),
    what: el.outerHTML.slice(0, 160),
  };
}"""


# A promise of the next swapped-in panel having settled, once every htmx:afterSettle listener has run.
SETTLED = """() => {
  window.panelSettled = new Promise((resolve) => {
    document.addEventListener("htmx:afterSettle", function settled(event) {
      if (event.target.id !== "panel") return;
      document.removeEventListener("htmx:afterSettle", settled);
      setTimeout(resolve);
    });
  });
}"""


def _enter_on(page, control) -> dict:
    """Focuses the control as Tab would, presses Enter, waits for the new panel to settle, says where focus is."""
    page.evaluate(SETTLED)
    control.focus()
    page.keyboard.press("Enter")
    page.evaluate("() => window.panelSettled")
    return page.evaluate(FOCUS)


def test_focus_stays_in_the_panel_after_an_htmx_swap(live_server, browser, sign_in, transactional_db):
    from apps.cohorts.models import Membership

    cohort, _ = seed_cohort()
    for n in range(50):  # 51 students: two pages of the matrix
        Membership.objects.create(cohort=cohort, student=make_user(f"student{n:02d}"))
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/")
    page.evaluate("window.stillTheSamePage = true")

    # A tab: focus stays on it (its new copy, now the current one) in the new panel.
    panel = page.locator("#panel")
    focus = _enter_on(page, panel.get_by_role("link", name="Item statistics"))
    expect(page.locator("table.items")).to_be_visible()
    assert not focus["body"] and focus["inPanel"] and focus["id"] == "tab-items", focus
    assert focus["visible"], focus
    expect(page.locator("#tab-items")).to_have_attribute("aria-current", "page")

    # A sort header: focus stays on that column's header, which now says how the table is sorted.
    focus = _enter_on(page, panel.get_by_role("link", name="Attempts"))
    expect(page.locator("th", has=page.locator("#sort-attempts"))).to_have_attribute("aria-sort", "descending")
    assert not focus["body"] and focus["inPanel"] and focus["id"] == "sort-attempts", focus
    assert focus["visible"], focus

    # The same on the students tab, and for a filter.
    _enter_on(page, panel.get_by_role("link", name="Students"))
    focus = _enter_on(page, panel.get_by_role("link", name="At risk"))
    expect(page.locator("th", has=page.locator("#sort-flags"))).to_have_attribute("aria-sort", "descending")
    assert focus["inPanel"] and focus["id"] == "sort-flags", focus
    focus = _enter_on(page, panel.get_by_role("link", name="Accuracy under 50 %"))
    expect(page.locator("#flag-low_accuracy")).to_have_attribute("aria-current", "true")
    assert focus["inPanel"] and focus["id"] == "flag-low_accuracy", focus

    # A control that is gone from the new panel (Next, on the last page): focus goes to the panel's heading.
    _enter_on(page, panel.get_by_role("link", name="Everyone"))
    focus = _enter_on(page, panel.get_by_role("link", name="Next →"))
    expect(page.locator("#panel .pager")).to_contain_text("Page 2 of 2")
    assert not focus["body"] and focus["inPanel"] and focus["id"] == "matrix-heading", focus
    assert page.evaluate("window.stillTheSamePage") is True  # every step swapped the panel, no page load


def test_scrolled_sideways_the_matrix_keeps_its_students_names_in_sight(
    live_server, browser, sign_in, transactional_db
):
    """Scrolled to the second deck's columns, the rows had no names: the Student column stays put."""
    page, matrix = _matrix(browser, sign_in, width=900)
    matrix.evaluate("(t) => { const box = t.closest('.table-wrap'); box.scrollLeft = box.scrollWidth; }")
    name = matrix.get_by_role("row", name="alice").get_by_role("rowheader")
    assert name.evaluate(IN_SCROLL_BOX), "alice's name is scrolled out of sight"
    assert matrix.get_by_role("columnheader", name="Student").evaluate(IN_SCROLL_BOX)
    last = matrix.locator("thead tr").nth(1).locator("th").last  # the second deck's Mastered, scrolled to
    assert last.evaluate(IN_SCROLL_BOX)
    page.context.close()
