"""The browser names its time zone, and the next page shows times in it."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from tests.conftest import make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db(transaction=True)


def test_times_follow_the_browsers_time_zone_from_the_next_page_on(browser, live_server, sign_in):
    from apps.quiz import services
    from apps.quiz.models import QuizSession

    alice = make_user("alice")
    deck = make_deck()
    make_card(deck=deck)
    session = services.session_start(user=alice, deck=deck, size=1, mode="recall", order="new")
    QuizSession.objects.filter(pk=session.pk).update(created_at=datetime(2026, 3, 2, 12, 0, tzinfo=UTC))

    context = browser.new_context(timezone_id="Asia/Tokyo")
    page = context.new_page()
    try:
        sign_in(page, "alice", "/progress/")
        assert {c["name"]: c["value"] for c in context.cookies()}.get("tz") == "Asia/Tokyo"
        page.reload()
        when = page.locator('td[data-label="When"] time').first.inner_text()
        assert when == "2 Mar 2026, 21:00 JST"
        assert re.fullmatch(
            r"2026-03-02T21:00:00\+0900", page.locator('td[data-label="When"] time').first.get_attribute("datetime")
        )
    finally:
        context.close()
