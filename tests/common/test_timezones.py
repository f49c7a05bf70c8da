"""Times in the reader's time zone, named by the browser in the "tz" cookie; the server's zone, named, without it."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.common.timezones import COOKIE, zone_from_cookie
from apps.content.models import Deck
from apps.quiz import services
from apps.quiz.models import QuizSession
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("value", "zone"),
    [
        ("Asia/Kolkata", "Asia/Kolkata"),
        ("America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("UTC", "UTC"),
        ("", None),
        (None, None),
        ("Mars/Olympus_Mons", None),
        ("../../etc/passwd", None),
        ("/usr/share/zoneinfo/UTC", None),
        ("Europe/Paris" + "x" * 100, None),
    ],
)
def test_only_a_name_of_the_zone_database_is_taken(value, zone):
    found = zone_from_cookie(value)
    assert (found.key if found else None) == zone


@pytest.fixture
def quiz_at_noon_utc(student):
    deck = make_deck()
    make_card(deck=deck)
    session = services.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    QuizSession.objects.filter(pk=session.pk).update(created_at=datetime(2026, 3, 2, 12, 0, tzinfo=UTC))
    return session


def _history_time(html: str) -> str:
    return re.search(r'<td data-label="When"><time datetime="[^"]+">([^<]+)</time>', html).group(1)


def test_progress_shows_times_in_the_zone_the_browser_named(student_client, quiz_at_noon_utc):
    student_client.cookies[COOKIE] = "Asia/Kolkata"
    html = student_client.get(reverse("quiz:progress")).content.decode()
    assert _history_time(html) == "2 Mar 2026, 17:30 IST"
    assert timezone.get_current_timezone_name() == "UTC"  # nothing carries over to the next request


def test_without_the_cookie_or_with_a_bad_one_times_are_the_servers_and_say_so(student_client, quiz_at_noon_utc):
    assert _history_time(student_client.get(reverse("quiz:progress")).content.decode()) == "2 Mar 2026, 12:00 UTC"
    student_client.cookies[COOKIE] = "Nowhere/Special"
    assert _history_time(student_client.get(reverse("quiz:progress")).content.decode()) == "2 Mar 2026, 12:00 UTC"


def test_the_admin_shows_times_in_the_readers_zone_and_names_it(client, instructor):
    deck = make_deck(title="Zoned")
    Deck.objects.filter(pk=deck.pk).update(updated_at=datetime(2026, 3, 2, 12, 0, tzinfo=UTC))
    client.force_login(instructor)
    cell = re.compile(r'<td class="field-last_change[^"]*">([^<]+)</td>')
    assert cell.search(client.get(reverse("admin:content_deck_changelist")).content.decode())[1] == (
        "2 Mar 2026, 12:00 UTC"  # as the site writes it (once "March 2, 2026, noon UTC")
    )
    client.cookies[COOKIE] = "Asia/Kolkata"
    assert cell.search(client.get(reverse("admin:content_deck_changelist")).content.decode())[1] == (
        "2 Mar 2026, 17:30 IST"
    )
    page = client.get(reverse("admin:index")).content.decode()
    assert "js/timezone" in page  # the admin names the zone too, on any first page
