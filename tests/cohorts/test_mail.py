"""The matrix offers to email the students it lists (a filter's flagged ones, every page of them) in one message."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from apps.cohorts import services
from apps.cohorts.exports import MAILTO_MAX
from apps.cohorts.models import Assignment, Membership
from tests.conftest import make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _mail_link(html: str) -> tuple[str, str] | None:
    found = re.search(r'<a href="(mailto:[^"]*)">([^<]*)</a>', html)
    return (unescape(found.group(1)), found.group(2)) if found else None


@pytest.fixture
def spring(instructor):
    """Spring, a deck due tomorrow, and three students: idle (inactive for 8 days), bea and cy (joined today)."""
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    deck = make_deck(title="Ops")
    make_card(deck=deck)
    Assignment.objects.create(cohort=cohort, deck=deck, due_date=timezone.localdate() + timedelta(days=1))
    for name in ("idle", "bea", "cy"):
        services.cohort_join(student=make_user(name), code=cohort.join_code)
    Membership.objects.filter(student__username="idle").update(joined_at=timezone.now() - timedelta(days=8))
    return cohort


def test_the_matrix_links_an_email_to_the_students_it_lists_in_bcc(client, instructor, spring):
    client.force_login(instructor)
    url = reverse("cohorts:dashboard", args=[spring.pk])
    everyone = _mail_link(client.get(url).content.decode())
    assert everyone == ("mailto:?bcc=bea@example.com,cy@example.com,idle@example.com", "Email these 3 students")
    flagged = _mail_link(client.get(url, {"flag": "inactive"}).content.decode())
    assert flagged == ("mailto:?bcc=idle@example.com", "Email this student")
    get_user_model().objects.filter(username="idle").update(email="")
    assert _mail_link(client.get(url, {"flag": "inactive"}).content.decode()) is None  # no address to write to


def test_a_link_that_would_be_too_long_for_a_mail_program_is_left_out(client, instructor, spring):
    for i in range(MAILTO_MAX - 3):
        services.cohort_join(student=make_user(f"s{i:03d}"), code=spring.join_code)
    client.force_login(instructor)
    url = reverse("cohorts:dashboard", args=[spring.pk])
    assert _mail_link(client.get(url).content.decode())[1] == f"Email these {MAILTO_MAX} students"
    services.cohort_join(student=make_user("one-more"), code=spring.join_code)
    html = client.get(url).content.decode()
    assert "Download (CSV)" in html and _mail_link(html) is None
