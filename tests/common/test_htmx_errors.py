"""HTMX's handling of error statuses: the 503 "try again" page replaces the page, a 403 is a message (each
403 names its own target, see apps.common.views), other errors swap nothing."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.urls import reverse
from playwright.sync_api import expect

from apps.quiz import services
from apps.quiz.models import Answer
from tests.conftest import PASSWORD, make_user
from tests.factories import make_card, make_deck

CONFIG = re.compile(r"""<meta name="htmx-config" content='([^']*)'>""")


def _rule(rules: list[dict], status: int) -> dict:
    """The rule htmx 2 applies: the first whose code, an unanchored regular expression, matches the status."""
    return next((rule for rule in rules if re.search(rule["code"], str(status))), {"swap": False})


def _alice_at_her_quiz(browser, live_server):
    """alice, signed in through the form, on a two-question free-recall quiz of her own."""
    student = make_user("alice")
    deck = make_deck()
    for i in range(2):
        make_card(deck=deck, question=f"Which tool number {i}?", answer=f"Tool {i}")
    session = services.session_start(user=student, deck=deck, size=2, mode="recall", order="new")
    page = browser.new_context().new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}{reverse('login')}?next={reverse('quiz:session', args=[session.pk])}")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    return page


@pytest.mark.django_db
def test_every_page_with_htmx_swaps_a_503_and_a_403_and_no_other_error(client, superuser):
    card = make_card()
    client.force_login(superuser)
    configs = []
    for url in ("/", card.get_absolute_url(), reverse("admin:content_card_change", args=[card.pk])):
        html = client.get(url).content.decode()
        assert html.count('name="htmx-config"') == 1, url
        configs.append(json.loads(CONFIG.search(html).group(1)))
    assert configs[0] == configs[1] == configs[2]  # one include, the site's and the admin card form's
    rules = configs[0]["responseHandling"]
    swapped = [status for status in (200, 204, 303, 403, 422, 503) if _rule(rules, status)["swap"]]
    assert swapped == [200, 303, 403, 422, 503]
    for status in (400, 404, 409, 429, 500, 502, 504):
        assert _rule(rules, status) == {"code": "[45]..", "swap": False, "error": True}, status
    assert configs[0]["includeIndicatorStyles"] is False  # its <style> would break the CSP


@pytest.mark.browser
def test_an_htmx_answer_sent_while_the_database_is_down_comes_back_as_a_retry_form(
    live_server, browser, transactional_db
):
    """The 503 page (HX-Retarget: body) replaces the quiz; once the database is back, one click sends the answer."""
    page = _alice_at_her_quiz(browser, live_server)
    page.wait_for_load_state("load")  # htmx is deferred
    page.get_by_label("Your answer").fill("My carefully typed answer")

    # The live server's threads open a connection per request, with these settings (shared by every thread).
    original = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT="1", OPTIONS={"connect_timeout": 2})
    try:
        page.get_by_role("button", name="Check answer").click()
        expect(page.get_by_role("heading", name="Please try again in a moment")).to_be_visible()
        expect(page.locator("#stage")).to_have_count(0)  # the page, not a part of it, was replaced
        expect(page.get_by_label("Your answer, kept for you")).to_have_value("My carefully typed answer")
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(original)

    page.get_by_role("button", name="Send it again").click()
    expect(page.locator(".verdict")).to_be_visible()
    assert Answer.objects.get().response == "My carefully typed answer"
    page.context.close()


@pytest.mark.browser
def test_with_debug_on_an_htmx_server_error_still_shows_djangos_debug_page(
    live_server, browser, transactional_db, settings, monkeypatch
):
    """The debug script stays for what it is for: a crash under htmx, shown as the page with its traceback. Only the
    answers that say where they go are kept from it (tests/browser/test_quiz_interruptions.py, a stale form)."""
    settings.DEBUG = True

    def crash(**kwargs):
        raise RuntimeError("a bug in the answer path")

    monkeypatch.setattr(services, "answer_record", crash)
    page = _alice_at_her_quiz(browser, live_server)
    page.wait_for_load_state("load")
    page.get_by_label("Your answer").fill("Tool 0")
    page.get_by_role("button", name="Check answer").click()
    expect(page.get_by_text("a bug in the answer path").first).to_be_visible()
    expect(page.locator("#stage")).to_have_count(0)  # the debug page replaced the quiz
    page.context.close()
