"""In a real Chromium: searching from the header, results that follow the typing, and Back to the last search."""

from __future__ import annotations

import re

from django.core.management import call_command
from playwright.sync_api import expect

from tests.factories import make_card, make_deck


def test_search_from_the_header_then_results_follow_the_typing_and_back_restores(live_server, page, transactional_db):
    call_command("load_content", verbosity=0)
    page.goto(f"{live_server.url}/")
    page.get_by_role("searchbox", name="Search the cards").fill("quantization")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/search/\?q=quantization$"))
    page.wait_for_load_state()  # htmx set up (a loaded machine ran its deferred script after the typing below)
    expect(page.locator("#search-count")).to_have_text(re.compile(r"\d+ cards match “quantization”\."))
    expect(page.locator(".search-results a.card-title").first).to_contain_text("quantization")
    page.evaluate("window.stillTheSamePage = true")

    box = page.get_by_role("searchbox", name="Search the cards")
    box.fill("kuber")
    expect(page).to_have_url(re.compile(r"/search/\?q=kuber$"))
    expect(page.locator("#search-count")).to_have_text("1 card matches “kuber”.")
    expect(page.locator(".search-results a.card-title")).to_have_count(1)
    box.fill("zebra")
    expect(page.locator("#search-count")).to_contain_text("No card matches “zebra”.")
    expect(page.locator(".search-results")).to_have_count(0)
    assert page.evaluate("window.stillTheSamePage") is True  # swapped in, no page load
    expect(page.locator("#search-count")).to_have_count(1)

    page.go_back()
    expect(page).to_have_url(re.compile(r"/search/\?q=kuber$"))
    expect(page.locator("body > header.site-header")).to_have_count(1)
    expect(page.locator(".search-results a.card-title")).to_have_count(1)
    # The page Back brings keeps its count, which goes on following the typing.
    expect(page.locator("#search-count")).to_have_text("1 card matches “kuber”.")
    page.get_by_role("searchbox", name="Search the cards").fill("zebra")
    expect(page.locator("#search-count")).to_contain_text("No card matches “zebra”.")


def test_search_works_without_javascript(live_server, browser, transactional_db):
    call_command("load_content", verbosity=0)
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/search/")
        page.get_by_role("searchbox", name="Search the cards").fill("mixed precision")
        page.get_by_role("button", name="Search").click()
        expect(page).to_have_url(re.compile(r"/search/\?q=mixed\+precision$"))
        expect(page.locator("#search-count")).to_contain_text("match “mixed precision”.")
        page.locator(".search-excerpt summary").first.click()
        expect(page.locator(".search-excerpt mark").first).to_be_visible()
    finally:
        context.close()


def test_paging_results_with_the_keyboard_keeps_focus_in_the_results(live_server, page, transactional_db):
    deck = make_deck(title="Many")
    for n in range(25):
        make_card(deck=deck, question=f"Gradient question {n}?", answer="Gradients")
    page.goto(f"{live_server.url}/search/?q=gradient")
    page.evaluate("window.stillTheSamePage = true")
    page.locator("#results-next").focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/search/\?q=gradient&page=2$"))
    expect(page.locator(".search-results > li")).to_have_count(5)
    # The last page has no Next: focus goes to the results' heading, not back to the top of the page.
    expect(page.locator("#results h2")).to_be_focused()
    expect(page.locator("#results h2")).to_have_text("Results, page 2 of 2")
    page.locator("#results-previous").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".search-results > li")).to_have_count(20)
    expect(page.locator("#results-previous")).to_have_count(0)
    expect(page.locator("#results h2")).to_be_focused()
    assert page.evaluate("window.stillTheSamePage") is True


def test_slash_goes_to_the_search_box_unless_typing(live_server, page, transactional_db):
    make_card(question="What is a tensor?", answer="An array")
    page.goto(f"{live_server.url}/")
    page.keyboard.press("/")
    box = page.locator("#site-search-q")
    expect(box).to_be_focused()
    page.keyboard.type("tensor")
    expect(box).to_have_value("tensor")  # the slash itself was not typed
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/search/\?q=tensor$"))
    page.locator("#id_q").fill("a/b")
    expect(page.locator("#id_q")).to_have_value("a/b")
    page.locator("#id_q").press("/")
    expect(page.locator("#id_q")).to_have_value("a/b/")


def test_slash_on_a_deck_page_goes_to_that_decks_search_box(live_server, page, transactional_db):
    deck = make_deck(title="Serving")
    make_card(deck=deck, question="What is a tensor?", answer="An array")
    page.goto(f"{live_server.url}{deck.get_absolute_url()}")
    page.keyboard.press("/")
    expect(page.locator("#deck-search-q")).to_be_focused()
    page.keyboard.type("tensor")
    page.keyboard.press("Enter")
    expect(page.locator("#search-count")).to_have_text("1 card matches “tensor” in Serving.")
