"""Every cohort URL, walked by every persona: only the cohort's instructors and superusers get in, others 404."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.cohorts import services
from apps.cohorts.models import Assignment, Cohort, Membership
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(instructor, student, superuser):
    deck = make_deck()
    make_card(deck=deck)
    cohort = services.cohort_create(name="Ours", instructor=instructor)
    services.cohort_join(student=student, code=cohort.join_code)
    Assignment.objects.create(cohort=cohort, deck=deck)
    other_teacher = make_instructor("erin")
    other = services.cohort_create(name="Theirs", instructor=other_teacher)
    outsider = make_user("frank")
    services.cohort_join(student=outsider, code=other.join_code)
    return {
        "cohort": cohort, "deck": deck,
        "personas": {
            "cohort_student": student, "other_student": outsider, "other_instructor": other_teacher,
            "instructor": instructor, "superuser": superuser, "anonymous": None,
        },
    }  # fmt: skip


def _urls(cohort: Cohort, deck, student_id: int):
    pk = cohort.pk
    return [
        ("GET", reverse("cohorts:dashboard", args=[pk]), {}),
        ("GET", reverse("cohorts:dashboard", args=[pk]) + "?tab=items", {}),
        ("GET", reverse("cohorts:dashboard", args=[pk]) + "?tab=charts", {}),
        ("GET", reverse("cohorts:manage", args=[pk]), {}),
        ("GET", reverse("cohorts:export_matrix", args=[pk]), {}),
        ("GET", reverse("cohorts:export_items", args=[pk]), {}),
        ("GET", reverse("cohorts:student", args=[pk, student_id]), {}),
        ("POST", reverse("cohorts:manage", args=[pk]), {"name": "Renamed", "instructors": ""}),
        ("POST", reverse("cohorts:assignment_add", args=[pk]), {"deck": deck.pk, "due_date": ""}),
        ("POST", reverse("cohorts:code", args=[pk]), {}),
        ("POST", reverse("cohorts:assignment_remove", args=[pk, deck.pk]), {}),
        ("POST", reverse("cohorts:student_remove", args=[pk, student_id]), {}),
    ]


EXPECTED = {
    "cohort_student": 404,
    "other_student": 404,
    "other_instructor": 404,
    "instructor": "ok",
    "superuser": "ok",
    "anonymous": "login",
}


@pytest.mark.parametrize("persona", list(EXPECTED))
def test_personas_by_urls(client, world, persona):
    user = world["personas"][persona]
    student = world["personas"]["cohort_student"]
    if user is not None:
        client.force_login(user)
    cohort = world["cohort"]
    original = (cohort.name, cohort.join_code)
    for method, url, data in _urls(cohort, world["deck"], student.pk):
        response = client.get(url) if method == "GET" else client.post(url, data)
        expected = EXPECTED[persona]
        if expected == "login":
            assert response.status_code == 302 and response["Location"].startswith(reverse("login")), (method, url)
        elif expected == "ok":
            assert response.status_code == (200 if method == "GET" else 303), (method, url, response.status_code)
        else:
            assert response.status_code == expected, (method, url, response.status_code)
            assert b"Ours" not in response.content  # no hint that the cohort exists
    cohort.refresh_from_db()
    changed = (cohort.name, cohort.join_code) != original
    assert changed == (EXPECTED[persona] == "ok")
    removed = Membership.objects.get(cohort=cohort, student=student).removed_at is not None
    assert removed == (EXPECTED[persona] == "ok")


def test_creating_cohorts_is_for_instructors(client, student, instructor):
    client.force_login(student)
    assert client.get(reverse("cohorts:create")).status_code == 403
    assert client.post(reverse("cohorts:create"), {"name": "Mine"}).status_code == 403
    client.force_login(instructor)
    response = client.post(reverse("cohorts:create"), {"name": "Mine", "instructors": ""})
    cohort = Cohort.objects.get(name="Mine")
    assert response["Location"] == reverse("cohorts:manage", args=[cohort.pk])
    assert list(cohort.instructors.all()) == [instructor]


@pytest.mark.parametrize(
    ("named", "error"), [("nobody", "No active account is called <bdi>nobody</bdi>"), ("alice", "cannot teach")]
)
def test_a_refused_co_instructor_is_a_form_error_and_creates_no_cohort(client, student, instructor, named, error):
    client.force_login(instructor)
    response = client.post(reverse("cohorts:create"), {"name": "Mine", "instructors": named})
    assert response.status_code == 422
    assert error in response.content.decode()
    assert 'value="Mine"' in response.content.decode()  # what was typed is kept, to fix and send again
    assert not Cohort.objects.exists()


def test_a_missing_cohort_is_the_same_404(client, instructor):
    client.force_login(instructor)
    assert client.get(reverse("cohorts:dashboard", args=[987654])).status_code == 404
