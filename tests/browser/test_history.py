"""In a real Chromium: Back and Forward over pages that HTMX partly swapped bring back whole pages.

The site keeps no HTMX history cache (historyCacheSize 0), so on Back HTMX refetches the URL with HX-Request and
HX-History-Restore-Request and swaps the answer into <body>: a view that answered it with a partial lost the header.
"""

from __future__ import annotations

import re

from django.core.management import call_command
from playwright.sync_api import expect

from apps.cohorts import services
from apps.content.models import Deck
from apps.quiz import services as quiz
from tests.conftest import make_instructor, make_user


def _whole_page(page, title: str) -> None:
    expect(page.locator("body > header.site-header")).to_have_count(1)
    expect(page.locator("h1")).to_have_count(1)
    expect(page.locator("h1")).to_have_text(title)


def test_back_and_forward_over_dashboard_tabs_restore_whole_pages(live_server, page, sign_in, transactional_db):
    cohort = services.cohort_create(name="Autumn 2026", instructor=make_instructor("carol"))
    url = f"/cohorts/{cohort.pk}/"
    sign_in(page, "carol", url)
    _whole_page(page, "Autumn 2026")
    page.evaluate("window.stillTheSamePage = true")

    page.get_by_role("link", name="Item statistics").click()
    expect(page).to_have_url(re.compile(r"/cohorts/\d+/\?tab=items$"))
    expect(page.locator("#panel table.items")).to_be_visible()
    page.get_by_role("link", name="Charts").click()
    expect(page).to_have_url(re.compile(r"/cohorts/\d+/\?tab=charts$"))
    expect(page.locator("#panel .charts")).to_be_visible()
    assert page.evaluate("window.stillTheSamePage") is True  # HTMX swapped the panels in, no page load

    page.go_back()  # HTMX restores ?tab=items from the server
    expect(page).to_have_url(re.compile(r"/cohorts/\d+/\?tab=items$"))
    expect(page.locator("#panel table.items")).to_be_visible()
    _whole_page(page, "Autumn 2026")
    expect(page.locator("#panel")).to_have_count(1)
    expect(page.get_by_role("link", name="Item statistics")).to_have_attribute("aria-current", "page")

    page.go_back()  # the first page, which HTMX marked as its own before pushing
    expect(page).to_have_url(f"{live_server.url}{url}")
    expect(page.locator("#panel table.matrix")).to_be_visible()
    _whole_page(page, "Autumn 2026")

    page.go_forward()
    expect(page).to_have_url(re.compile(r"/cohorts/\d+/\?tab=items$"))
    expect(page.locator("#panel table.items")).to_be_visible()
    _whole_page(page, "Autumn 2026")

    # The tabs still work after a restore, and swap only the panel.
    page.get_by_role("link", name="Charts").click()
    expect(page.locator("#panel .charts")).to_be_visible()
    _whole_page(page, "Autumn 2026")
    expect(page.locator("#panel")).to_have_count(1)

    # Leaving and coming Back is a page load the browser serves from its cache: the page, not the last partial.
    page.get_by_role("link", name="Manage cohort").click()
    expect(page.locator("h1")).to_have_text("Manage Autumn 2026")
    page.go_back()
    expect(page).to_have_url(re.compile(r"/cohorts/\d+/\?tab=charts$"))
    expect(page.locator("#panel .charts")).to_be_visible()
    _whole_page(page, "Autumn 2026")


def test_back_to_a_quiz_page_after_htmx_fetched_its_url_shows_the_whole_page(
    live_server, page, sign_in, transactional_db
):
    """HTMX's "Next question" fetches the quiz's own URL as a partial: the browser must not keep that as the page."""
    call_command("load_content", verbosity=0)
    user = make_user("alice")
    deck = Deck.objects.get(slug="technology-digital-tools-flashcards")
    session = quiz.session_start(user=user, deck=deck, size=3, mode="recall", order="new")
    url = session.get_absolute_url()
    sign_in(page, "alice", url)
    _whole_page(page, session.title)

    stage = page.locator("#stage")
    stage.get_by_label("Your answer").fill("no idea")
    stage.get_by_role("button", name="Check answer").click()
    expect(stage.locator(".verdict")).to_be_visible()
    stage.locator("[data-next]").click()  # HTMX GETs the session's URL for the #stage partial
    expect(page.locator(".quiz-progress")).to_contain_text("Question 2 of 3")
    expect(page).to_have_url(f"{live_server.url}{url}")

    page.get_by_role("link", name="My progress").click()
    expect(page).to_have_url(f"{live_server.url}/progress/")
    page.go_back()
    expect(page).to_have_url(f"{live_server.url}{url}")
    _whole_page(page, session.title)
    expect(page.locator(".quiz-progress")).to_contain_text("Question 2 of 3")
