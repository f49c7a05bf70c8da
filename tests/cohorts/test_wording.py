"""What the cohort pages say of a deck with no cards yet, and of which decks a student is behind on."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.cohorts import services
from apps.cohorts.models import Assignment
from tests.cohorts.handmade import make_hand_cohort
from tests.conftest import make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    # <bdi> (a name, isolated) is part of its sentence; other tags are read as breaks.
    html = re.sub(r"</?bdi>", "", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).replace("\xa0", " ").split())


def _body_rows(html: str, table: str) -> list[list[str]]:
    body = re.search(rf'<table class="{table}"[^>]*>.*?<tbody[^>]*>(.*?)</tbody>', html, re.S).group(1)
    return [
        [_text(cell) for cell in re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", body, re.S)
    ]


@pytest.fixture
def empty_deck(client, instructor):
    """Spring, with "Soon" (no cards yet, due tomorrow) and "Basics" (one card, no due date); ann has joined."""
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    soon = make_deck(title="Soon")
    basics = make_deck(title="Basics")
    make_card(deck=basics)
    Assignment.objects.create(cohort=cohort, deck=soon, due_date=timezone.localdate() + timedelta(days=1))
    Assignment.objects.create(cohort=cohort, deck=basics)
    ann = make_user("ann")
    services.cohort_join(student=ann, code=cohort.join_code)
    return cohort, ann


def test_a_deck_with_no_cards_shows_a_dash_on_the_dashboard_and_is_nobody_behind(client, instructor, empty_deck):
    cohort, _ann = empty_deck
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode()
    head = re.search(r'<th scope="colgroup"[^>]*>(Soon.*?)</th>', html, re.S).group(1)
    assert "no cards yet" in _text(head)
    (row,) = _body_rows(html, "data matrix")
    # Student, at risk, last activity, accuracy; then Soon's attempted, accuracy, mastered; then Basics'.
    assert row[1] == "—"  # not "Behind on a deck overdue or due within 3 days" for a deck with nothing to do
    assert row[4:7] == ["—", "—", "—"] and row[7:10] == ["0 %", "—", "0 %"]
    response = client.get(reverse("cohorts:export_matrix", args=[cohort.pk]))
    (line,) = csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")))
    assert (line["Soon attempted"], line["Soon mastered"], line["flags"]) == ("", "", "")


def test_a_deck_with_no_cards_shows_a_dash_on_the_student_page(client, instructor, empty_deck):
    cohort, ann = empty_deck
    client.force_login(instructor)
    html = client.get(reverse("cohorts:student", args=[cohort.pk, ann.pk])).content.decode()
    rows = {row[0]: row for row in _body_rows(html, "data stack-on-phone")}
    assert rows["Soon"][2:] == ["— (no cards yet)", "—", "—"]  # not "0 % (0 of 0)", nor "Attempted 0 %" on a phone
    assert rows["Basics"][2] == "0 % (0 of 1)"


def test_a_deck_with_no_cards_shows_a_dash_on_the_students_progress(client, empty_deck):
    _cohort, ann = empty_deck
    client.force_login(ann)
    html = client.get(reverse("quiz:progress")).content.decode()
    mine = re.search(r'<section class="cohort-card".*?</section>', html, re.S).group(0)
    rows = {row[0]: row for row in _body_rows(mine, "data stack-on-phone")}
    assert rows["Soon"][2] == "— (no cards yet)" and "0 of 0" not in _text(mine)
    assert rows["Basics"][2] == "0 % (0 of 1 card)"  # not "1 cards"


def test_the_behind_badge_on_the_student_page_names_the_deck_and_its_due_date(client, instructor):
    hand = make_hand_cohort()  # s2 has not attempted Q3 of Ops, due in two days
    hand.instructors.add(instructor)
    client.force_login(instructor)
    s2 = hand.memberships.get(student__username="s2").student
    url = reverse("cohorts:student", args=[hand.pk, s2.pk])
    ops = hand.assignments.get(deck__title="Ops")
    badges = [
        _text(b)
        for b in re.findall(r'<span class="badge badge-incorrect">(.*?)</span>', client.get(url).content.decode())
    ]
    assert f"Behind on Ops (due {ops.due_date.day} {ops.due_date:%b}" in " | ".join(badges)
    ops.due_date = timezone.localdate() - timedelta(days=400)
    ops.save()
    html = client.get(url).content.decode()
    assert f"Behind on Ops (overdue since {ops.due_date.day} {ops.due_date:%b %Y})" in _text(html)


def _visible(html: str) -> str:
    """The text a sighted reader sees: without what is hidden from sight only (.visually-hidden)."""
    return _text(re.sub(r'<span class="visually-hidden">[^<]*</span>', "", html))


def test_the_behind_flag_is_one_short_word_with_its_meaning_kept_for_screen_readers_and_in_a_legend(client, instructor):
    """ "Behind on a deck overdue or due within 3 days" filled a phone's screen as a filter and as each badge."""
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    soon = make_deck(title="Soon")
    make_card(deck=soon)
    Assignment.objects.create(cohort=cohort, deck=soon, due_date=timezone.localdate() + timedelta(days=1))
    services.cohort_join(student=make_user("ann"), code=cohort.join_code)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode()
    badge = re.search(r'<td class="flags">(.*?)</td>', html, re.S).group(1)
    assert _visible(badge) == "Behind"
    assert _text(badge) == "Behind on a deck overdue or due within 3 days"  # what a screen reader reads
    assert 'title="Behind on a deck overdue or due within 3 days"' in badge
    link = re.search(r'<a id="flag-behind"[^>]*>(.*?)</a>', html, re.S).group(1)
    assert (_visible(link), _text(link)) == ("Behind", "Behind on a deck overdue or due within 3 days")
    legend = "Behind: has not yet attempted every card of a deck that is overdue or due within 3 days."
    assert legend in _visible(html)


def test_the_deck_choice_says_why_a_draft_is_not_listed(client, instructor):
    """A deck added or imported in the admin starts as a draft, and was simply missing from the list."""
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    make_deck(title="Ready")
    make_deck(title="RL basics", published=False)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:manage", args=[cohort.pk])).content.decode()
    options = re.findall(r"<option [^>]*>([^<]*)</option>", html)
    assert "Ready" in options and "RL basics" not in options
    assert (
        "Drafts (RL basics) are not listed: students could not open them. Tick Published on a deck’s page in the "
        "admin to assign it." in _text(html).replace("'", "’")
    )


def test_a_draft_title_in_the_deck_choice_is_text_not_markup(client, instructor):
    """Any author names a draft; its title must not become markup on another instructor's cohort page."""
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    make_deck(title='<img src=x onerror="alert(1)">', published=False)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:manage", args=[cohort.pk])).content.decode()
    assert "<img" not in html
    assert "Drafts (<bdi>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</bdi>) are not listed" in html
