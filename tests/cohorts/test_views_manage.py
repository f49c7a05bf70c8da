"""Managing a cohort: last activity in words, a new join code and removing a student or unassigning a deck taking a
second step that says what it breaks, unassigning a deck that is not assigned, and due dates refused out of range,
accepted at its ends and said when assigning.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.cohorts import services
from apps.cohorts.models import Assignment, Membership
from tests.cohorts.views_support import _cohort, _table_rows, _text, _who
from tests.conftest import make_user
from tests.factories import make_deck

pytestmark = pytest.mark.django_db


def test_last_activity_reads_in_words_or_never(client, instructor):
    cohort = _cohort(instructor, students=2, cards=2)
    idle = make_user("idle")
    services.cohort_join(student=idle, code=cohort.join_code)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode()
    rows = {_who(row): row for row in _table_rows(html, "data matrix")}
    recent = " ".join(rows["student000"])
    assert re.search(r"\b(now|(a|\d+) seconds? ago)\b", recent) and "0 minutes" not in recent  # timesince's "0 minutes"
    assert "never" in rows["idle"]


def test_a_new_join_code_takes_a_second_step_that_says_what_it_breaks(client, instructor):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:manage", args=[cohort.pk])).content.decode()
    step = re.search(r'<details class="confirm">(.*?)</details>', html, re.S)
    assert step and "every invite link already sent stop working" in step.group(1)
    assert f'action="{reverse("cohorts:code", args=[cohort.pk])}"' in step.group(1)
    old = cohort.join_code
    client.post(reverse("cohorts:code", args=[cohort.pk]))
    cohort.refresh_from_db()
    assert cohort.join_code != old


def test_removing_a_student_or_unassigning_a_deck_takes_a_second_step_that_says_what_it_loses(client, hand):
    """As for a new join code: the buttons that act are inside a closed <details>, after the consequences."""
    url = reverse("cohorts:manage", args=[hand.pk])
    html = client.get(url).content.decode()
    ops = Assignment.objects.get(cohort=hand, deck__title="Ops")
    s1 = Membership.objects.get(cohort=hand, student__username="s1").student
    steps = re.findall(r'<details class="confirm">(.*?)</details>', html, re.S)
    # Every form of the page that removes something is inside one of them, never a button in the table.
    removing = re.findall(r'<form method="post" action="[^"]*/remove/"', html)
    assert len(removing) == 2 + 3 and len(re.findall(r'action="[^"]*/remove/"', "".join(steps))) == 5
    unassign = next(step for step in steps if reverse("cohorts:assignment_remove", args=[hand.pk, ops.deck_id]) in step)
    assert _text(re.search(r"<summary>(.*?)</summary>", unassign).group(1)) == "Unassign… Ops"
    due = ops.due_date.strftime("%-d %b %Y")
    assert f"its due date, {due}, is forgotten" in _text(unassign) and "Their answers are kept" in _text(unassign)
    assert re.search(r'<button type="submit" class="button-secondary">Unassign Ops</button>', unassign)
    remove = next(step for step in steps if reverse("cohorts:student_remove", args=[hand.pk, s1.pk]) in step)
    assert _text(re.search(r"<summary>(.*?)</summary>", remove).group(1)) == "Remove… s1"
    assert "s1 leaves Hand" in _text(remove) and "if they join again with the code" in _text(remove)
    # The second step is the POST itself, as before: it works without JavaScript.
    assert client.post(reverse("cohorts:student_remove", args=[hand.pk, s1.pk])).status_code == 303
    assert Membership.objects.get(cohort=hand, student=s1).removed_at is not None


def _messages(html: str) -> list[str]:
    return [_text(m) for m in re.findall(r'<li class="message[^"]*">(.*?)</li>', html, re.S)]


def test_unassigning_a_deck_that_is_not_assigned_says_so_and_changes_nothing(client, hand):
    """A second click on Unassign (or a stale page) is not told "no longer assigned" a second time."""
    ops = Assignment.objects.get(cohort=hand, deck__title="Ops")
    url = reverse("cohorts:assignment_remove", args=[hand.pk, ops.deck_id])
    response = client.post(url, follow=True)
    assert response.redirect_chain == [(reverse("cohorts:manage", args=[hand.pk]), 303)]
    assert _messages(response.content.decode()) == ["Ops is no longer assigned to Hand; students' answers are kept."]
    before = list(Assignment.objects.order_by("pk").values_list("cohort_id", "deck_id", "due_date"))
    for deck_id, named in ((ops.deck_id, "Ops"), (987654, "That deck")):
        response = client.post(reverse("cohorts:assignment_remove", args=[hand.pk, deck_id]), follow=True)
        html = response.content.decode()
        assert _messages(html) == [f"{named} was not assigned to Hand; nothing changed."]
        assert "no longer assigned" not in html
    assert list(Assignment.objects.order_by("pk").values_list("cohort_id", "deck_id", "due_date")) == before


@pytest.mark.parametrize("due", ["0001-01-01", "1999-12-31", "9999-12-31", "far past", "far future"])
def test_a_due_date_far_in_the_past_or_future_is_refused_with_the_range_and_nothing_is_saved(client, hand, due):
    today = timezone.localdate()
    due = {"far past": str(today - timedelta(days=366)), "far future": str(today + timedelta(days=5 * 366))}.get(
        due, due
    )
    deck = make_deck(title="Fresh")
    before = list(Assignment.objects.order_by("pk").values_list("cohort_id", "deck_id", "due_date"))
    response = client.post(reverse("cohorts:assignment_add", args=[hand.pk]), {"deck": deck.pk, "due_date": due})
    html = response.content.decode()
    assert response.status_code == 422
    earliest = today - timedelta(days=365)
    latest = date(today.year + 5, today.month, 28 if (today.month, today.day) == (2, 29) else today.day)
    error = (
        f"Choose a due date from {earliest:%-d %b %Y} to {latest:%-d %b %Y}: "
        "at most a year ago and at most five years ahead."
    )
    assert error in _text(html) and "is assigned" not in html
    assert f'min="{earliest.isoformat()}"' in html and f'max="{latest.isoformat()}"' in html
    assert list(Assignment.objects.order_by("pk").values_list("cohort_id", "deck_id", "due_date")) == before
    # An existing assignment keeps its date too: the refused date does not reach it.
    ops = Assignment.objects.get(cohort=hand, deck__title="Ops")
    client.post(reverse("cohorts:assignment_add", args=[hand.pk]), {"deck": ops.deck_id, "due_date": due})
    assert Assignment.objects.get(pk=ops.pk).due_date == ops.due_date


def test_a_due_date_at_either_end_of_the_range_or_none_is_accepted(client, hand):
    today = timezone.localdate()
    ops = Assignment.objects.get(cohort=hand, deck__title="Ops")
    for due in (today - timedelta(days=365), today, today + timedelta(days=5 * 365), None):
        response = client.post(
            reverse("cohorts:assignment_add", args=[hand.pk]), {"deck": ops.deck_id, "due_date": due or ""}, follow=True
        )
        assert _messages(response.content.decode())[0].startswith(("Ops is now due", "Ops no longer has a due date"))
        assert Assignment.objects.get(pk=ops.pk).due_date == due


def test_assigning_says_what_happened_to_the_due_date(client, hand):
    """One form assigns a deck and changes its due date: sent with the date empty, it takes the due date away,
    which the message must say rather than a bare "is assigned"."""
    deck = make_deck(title="Fresh")
    url = reverse("cohorts:assignment_add", args=[hand.pk])

    def said(due: str) -> str:
        (message,) = _messages(client.post(url, {"deck": deck.pk, "due_date": due}, follow=True).content.decode())
        return message

    first, second = timezone.localdate() + timedelta(days=7), timezone.localdate() + timedelta(days=14)
    assert said(str(first)) == f"Fresh is assigned, due {first:%-d %b %Y}."
    assert said(str(first)) == f"Fresh was assigned already, due {first:%-d %b %Y}: nothing changed."
    assert said(str(second)) == f"Fresh is now due {second:%-d %b %Y} (was {first:%-d %b %Y})."
    assert said("") == f"Fresh no longer has a due date (it was due {second:%-d %b %Y})."
    assert said("") == "Fresh was assigned already, with no due date: nothing changed."
    assert said(str(first)) == f"Fresh is now due {first:%-d %b %Y} (had no due date)."
    Assignment.objects.filter(cohort=hand, deck=deck).delete()
    assert said("") == "Fresh is assigned, with no due date."
