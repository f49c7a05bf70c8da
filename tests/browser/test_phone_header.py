"""The site's header on a phone, in a real Chromium: one line (the brand, "Search" and "Menu"), the links under a
menu button that works with and without JavaScript; on a desktop the links and the search box as before."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import make_instructor, make_user

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 375, "height": 812}
# The header's height, and whether each of its visible parts sits beside the brand, not below it.
HEADER = """() => {
  const header = document.querySelector('.site-header .header-inner');
  const brand = header.querySelector('.brand').getBoundingClientRect();
  const shown = [...header.children].filter((el) => el.getClientRects().length).map((el) => el.getBoundingClientRect());
  return {height: header.getBoundingClientRect().height, parts: shown.length,
          one_line: shown.every((box) => box.top < brand.bottom && box.bottom > brand.top)};
}"""

# The placeholder's width in the box's font, against the room inside its padding.
PLACEHOLDER_FITS = """(el) => {
  const style = getComputedStyle(el);
  const context = document.createElement('canvas').getContext('2d');
  context.font = style.font;
  const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return context.measureText(el.placeholder).width <= room;
}"""


@pytest.mark.parametrize("javascript", [True, False], ids=["with JavaScript", "without JavaScript"])
def test_a_students_header_takes_one_line_on_a_phone_and_its_menu_opens_and_a_desktop_keeps_it_as_it_was(
    browser, live_server, sign_in, javascript
):
    make_user("alice")
    context = browser.new_context(viewport=PHONE, java_script_enabled=javascript)
    page = context.new_page()
    sign_in(page, "alice", "/")
    header = page.get_by_role("banner")
    menu = header.get_by_text("Menu", exact=True)

    shape = page.evaluate(HEADER)
    assert shape["one_line"] and shape["height"] < 60, shape  # it was four lines, 161 px, "Sign out" alone on one
    expect(header.get_by_role("link", name="Search")).to_be_visible()
    expect(header.get_by_role("searchbox")).to_be_hidden()
    expect(header.get_by_role("link", name="My progress")).to_be_hidden()

    menu.click()
    nav = page.get_by_role("navigation", name="Main")
    for name in ("Decks", "My progress", "Cohorts", "your account"):
        expect(nav.get_by_role("link", name=name)).to_be_visible()
    expect(nav.get_by_role("button", name="Sign out")).to_be_visible()
    menu.click()
    expect(nav).to_be_hidden()

    menu.click()
    nav.get_by_role("link", name="My progress").click()
    expect(page).to_have_url(re.compile(r"/progress/$"))
    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()  # closed again on the new page
    page.get_by_role("banner").get_by_role("link", name="Search").click()
    expect(page).to_have_url(re.compile(r"/search/$"))

    # On a desktop, as before: the links and the search box in sight, no menu.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.go_back()
    header = page.get_by_role("banner")
    expect(header.get_by_text("Menu", exact=True)).to_be_hidden()
    expect(header.get_by_role("link", name="Search")).to_be_hidden()
    expect(header.get_by_role("searchbox", name="Search the cards")).to_be_visible()
    for name in ("Decks", "My progress", "Cohorts", "your account"):
        expect(header.get_by_role("link", name=name)).to_be_visible()
    expect(header.get_by_role("button", name="Sign out")).to_be_visible()
    assert page.evaluate(HEADER)["one_line"]
    context.close()


def test_an_instructors_header_keeps_to_one_line_in_a_laptops_window(browser, live_server, sign_in):
    """Admin and a ten-letter name beside the links broke it in two at 1280 px, the search box alone below them."""
    make_instructor("instructor")
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    sign_in(page, "instructor", "/")
    expect(page.get_by_role("banner").get_by_role("link", name="Admin")).to_be_visible()
    assert page.evaluate(HEADER)["one_line"]
    # The box is not squeezed to fit: its placeholder shows in full.
    box = page.get_by_role("banner").get_by_role("searchbox", name="Search the cards")
    assert box.evaluate(PLACEHOLDER_FITS)


def test_a_visitors_header_takes_one_line_on_a_phone(browser, live_server):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/")
    shape = page.evaluate(HEADER)
    assert shape["one_line"] and shape["height"] < 60, shape
    page.get_by_text("Menu", exact=True).click()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    expect(page.get_by_role("link", name="Sign up")).to_be_visible()


def test_the_menu_closes_on_escape_or_a_tap_elsewhere(browser, live_server, sign_in):
    make_user("alice")
    page = browser.new_context(viewport=PHONE).new_page()
    sign_in(page, "alice", "/")
    menu = page.locator(".menu-toggle summary")
    nav = page.get_by_role("navigation", name="Main")

    menu.click()
    nav.get_by_role("link", name="Cohorts").focus()
    page.keyboard.press("Escape")
    expect(nav).to_be_hidden()
    expect(menu).to_be_focused()  # back on the button, not lost at the top of the page

    menu.click()
    expect(nav).to_be_visible()
    page.locator("main h1").click()
    expect(nav).to_be_hidden()


def test_slash_on_a_narrow_window_opens_the_search_page(browser, live_server):
    """A narrow window with a keyboard: "/" cannot put the cursor in a box that is not shown; it goes to the search
    page, whose box takes it."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/")
    page.wait_for_load_state("load")
    page.keyboard.press("/")
    expect(page).to_have_url(re.compile(r"/search/$"))
    expect(page.get_by_role("searchbox", name="Search the cards")).to_be_focused()
