"""What a cohort's instructors see of a student: only while the student is a member, only on the assigned decks."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.cohorts import services
from apps.cohorts.models import Assignment, Membership
from apps.quiz import services as quiz
from tests.cohorts.totals import rebuilt_snapshot, snapshot
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _answer_all(student, deck, response: str) -> None:
    session = quiz.session_start(user=student, deck=deck, size=deck.cards.count(), mode="recall", order="new")
    for item in session.items.all():
        quiz.answer_submit(
            user=student, session_id=session.pk, position=item.position, submission=quiz.Submission(response=response)
        )


@pytest.fixture
def taught(client, instructor, student):
    """A cohort `student` joined, with one assigned deck of two cards, taught by `instructor`, who is signed in."""
    deck = make_deck(title="Assigned")
    for i in range(2):
        make_card(deck=deck, question=f"Q{i}?", answer=f"A{i}")
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    Assignment.objects.create(cohort=cohort, deck=deck)
    services.cohort_join(student=student, code=cohort.join_code)
    client.force_login(instructor)
    return cohort, deck


def test_a_removed_students_page_is_a_404_and_their_later_answers_stay_private(client, student, taught):
    cohort, deck = taught
    page = reverse("cohorts:student", args=[cohort.pk, student.pk])
    _answer_all(student, deck, "before removal")
    assert "before removal" in client.get(page).content.decode()

    services.cohort_remove_student(cohort=cohort, student_id=student.pk)
    _answer_all(student, deck, "AFTER-REMOVAL")
    response = client.get(page)
    assert response.status_code == 404
    assert b"AFTER-REMOVAL" not in response.content and b"before removal" not in response.content

    services.cohort_join(student=student, code=cohort.join_code)  # back in the cohort: the page is back
    assert "AFTER-REMOVAL" in client.get(page).content.decode()


def test_removing_a_student_twice_is_a_404_that_changes_nothing(client, student, taught):
    cohort, deck = taught
    _answer_all(student, deck, "wrong")
    remove = reverse("cohorts:student_remove", args=[cohort.pk, student.pk])
    assert client.post(remove).status_code == 303
    removed_at = Membership.objects.get(cohort=cohort, student=student).removed_at
    totals = snapshot()

    assert client.post(remove).status_code == 404  # the second click of a double click, or a stale page
    assert Membership.objects.get(cohort=cohort, student=student).removed_at == removed_at
    assert snapshot() == totals == rebuilt_snapshot()
    assert client.post(reverse("cohorts:student_remove", args=[cohort.pk, 987654])).status_code == 404


def test_activity_on_decks_the_cohort_does_not_assign_is_not_shown_and_does_not_count_as_active(
    client, student, taught
):
    cohort, deck = taught
    # A member for over a week: long enough that no activity at all counts as inactive.
    Membership.objects.filter(cohort=cohort, student=student).update(joined_at=timezone.now() - timedelta(days=8))
    private = make_deck(title="Private")
    for i in range(3):
        make_card(deck=private, question=f"P{i}?", answer=f"P{i}")
    _answer_all(student, private, "studying something else")
    dashboard = reverse("cohorts:dashboard", args=[cohort.pk])

    def seen() -> tuple[str, dict, str]:
        charts = client.get(dashboard, {"tab": "charts"}).content.decode()
        export = client.get(reverse("cohorts:export_matrix", args=[cohort.pk]))
        rows = csv.DictReader(io.StringIO(export.content.decode("utf-8-sig")))
        detail = client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode()
        activity = re.search(r"\d+ answers in the last 30 days|No answers yet", charts).group(0)
        return activity, next(rows), " ".join(detail.split())

    activity, row, detail = seen()
    assert activity == "No answers yet"  # the charts, not drawn: none on the cohort's decks
    assert row["last_activity_utc"] == "" and row["flags"].split() == ["inactive"]
    assert "last activity never" in detail and "Inactive for 7 days" in detail

    _answer_all(student, deck, "A0")
    activity, row, detail = seen()
    assert activity == "2 answers in the last 30 days"
    assert row["last_activity_utc"] and "inactive" not in row["flags"].split()
    assert "last activity never" not in detail and "Inactive for 7 days" not in detail
