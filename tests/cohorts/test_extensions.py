"""Per-student deadline extensions: who may grant them, the rules they keep, and every page that shows a deadline."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from html import unescape

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import formats, timezone

from apps.cohorts import analytics, deadlines, selectors, services
from apps.cohorts.models import Extension
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _day(value) -> str:
    return formats.date_format(value, "j M Y")


def _text(html: str) -> str:
    # <bdi> (a student's text, isolated) is part of its sentence; other tags are read as breaks.
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?bdi>", "", html))).split())


@pytest.fixture
def today():
    return timezone.localdate()


@pytest.fixture
def world(instructor, student, today):
    """Spring, taught by carol (owner) and dave (co-instructor), with alice and ann; a deck due yesterday that
    neither has started, and one with no due date. Autumn, another instructor's cohort, with bob."""
    deck = make_deck(title="Serving")
    for n in range(3):
        make_card(deck=deck, question=f"Serving {n}?", answer=f"Answer {n}")
    undated = make_deck(title="Undated")
    make_card(deck=undated)
    co = make_instructor("dave")
    spring = services.cohort_create(name="Spring", instructor=instructor, instructor_usernames=["dave"])
    deadlines.assignment_set(cohort=spring, deck=deck, due_date=today - timedelta(days=1))
    deadlines.assignment_set(cohort=spring, deck=undated, due_date=None)
    classmate = make_user("ann")
    for user in (student, classmate):
        services.cohort_join(student=user, code=spring.join_code)
    other_teacher = make_instructor("erin")
    autumn = services.cohort_create(name="Autumn", instructor=other_teacher)
    outsider = make_user("bob")
    services.cohort_join(student=outsider, code=autumn.join_code)
    deadlines.assignment_set(cohort=autumn, deck=deck, due_date=today - timedelta(days=1))
    return {
        "cohort": spring, "deck": deck, "undated": undated, "classmate": classmate, "autumn": autumn,
        "personas": {
            "instructor": instructor, "co_instructor": co, "other_instructor": other_teacher,
            "cohort_student": student, "other_student": outsider, "stranger": make_user("sam"), "anonymous": None,
        },
    }  # fmt: skip


def _grant(world, user, days: int, *, student=None):
    cohort, student = world["cohort"], student or world["personas"]["cohort_student"]
    due = timezone.localdate() + timedelta(days=days)
    return deadlines.extension_grant(
        cohort=cohort, deck_id=world["deck"].pk, student_id=student.pk, due_date=due, granted_by=user
    )


def _url(world, name: str = "extension", *, student=None, deck=None, cohort=None) -> str:
    student = student or world["personas"]["cohort_student"]
    cohort, deck = cohort or world["cohort"], deck or world["deck"]
    return reverse(f"cohorts:{name}", args=[cohort.pk, student.pk, deck.pk])


# --- who may -----------------------------------------------------------------------------

EXPECTED = {
    "instructor": "ok",
    "co_instructor": "ok",
    "other_instructor": 404,
    "cohort_student": 404,
    "other_student": 404,
    "stranger": 404,
    "anonymous": "login",
}


@pytest.mark.parametrize("persona", list(EXPECTED))
def test_only_the_cohorts_instructors_may_see_grant_or_remove_an_extension(client, world, persona, today):
    user = world["personas"][persona]
    if user is not None:
        client.force_login(user)
    later = (today + timedelta(days=5)).isoformat()
    responses = [
        client.get(_url(world)),
        client.post(_url(world), {"due_date": later}),
        client.post(_url(world, "extension_remove")),
    ]
    expected = EXPECTED[persona]
    for response, ok in zip(responses, (200, 303, 303), strict=True):
        if expected == "login":
            assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        elif expected == "ok":
            assert response.status_code == ok
        else:
            assert response.status_code == expected
    assert not Extension.objects.exists()  # granted then removed by an instructor; never by anyone else


def test_a_grant_by_someone_else_leaves_an_existing_extension_alone(client, world, today):
    _grant(world, world["personas"]["instructor"], 5)
    for persona in ("other_instructor", "cohort_student", "other_student", "stranger"):
        client.force_login(world["personas"][persona])
        client.post(_url(world), {"due_date": (today + timedelta(days=30)).isoformat()})
        client.post(_url(world, "extension_remove"))
    assert list(Extension.objects.values_list("due_date", flat=True)) == [today + timedelta(days=5)]


def test_only_students_of_the_cohort_and_its_assigned_decks_have_extensions(client, world, instructor, today):
    client.force_login(instructor)
    later = {"due_date": (today + timedelta(days=5)).isoformat()}
    outsider = world["personas"]["other_student"]
    assert client.post(_url(world, student=outsider), later).status_code == 404
    assert client.post(_url(world, deck=make_deck()), later).status_code == 404
    # Their own cohort's deck, asked through the other cohort: not theirs to give either.
    assert client.post(_url(world, cohort=world["autumn"]), later).status_code == 404
    with pytest.raises(services.CohortError, match="Only students of <bdi>Spring</bdi>"):
        _grant(world, instructor, 5, student=outsider)
    services.cohort_remove_student(cohort=world["cohort"], student_id=world["personas"]["cohort_student"].pk)
    assert client.post(_url(world), later).status_code == 404
    assert not Extension.objects.exists()


# --- the rules ---------------------------------------------------------------------------


@pytest.mark.parametrize("days", [-1, -3])
def test_an_extension_must_be_later_than_the_cohorts_deadline(client, world, instructor, today, days):
    client.force_login(instructor)
    response = client.post(_url(world), {"due_date": (today + timedelta(days=days)).isoformat()})
    assert response.status_code == 422
    deadline = _day(today - timedelta(days=1))
    assert f"Choose a date after the cohort's deadline, {deadline}" in unescape(response.content.decode())
    assert not Extension.objects.exists()
    with pytest.raises(services.CohortError, match="after the cohort's deadline"):
        _grant(world, instructor, days)


def test_bad_input_is_a_form_error_never_a_500(client, world, instructor):
    client.force_login(instructor)
    for value in ("", "tomorrow", "2026-02-30", "9999-12-31", "\x00"):
        response = client.post(_url(world), {"due_date": value})
        assert response.status_code == 422, value
        assert 'class="errorlist"' in response.content.decode()
    # A form sent with no field at all (a tampered one) is refused alike, not shown again as if never sent.
    response = client.post(_url(world), {})
    assert response.status_code == 422 and 'class="errorlist"' in response.content.decode()
    assert not Extension.objects.exists()


def test_a_deck_without_a_due_date_has_nothing_to_extend(client, world, instructor, today):
    client.force_login(instructor)
    url = _url(world, deck=world["undated"])
    page = client.get(url).content.decode()
    assert "no due date, so there is no deadline to extend" in page and 'name="due_date"' not in page
    assert client.post(url, {"due_date": (today + timedelta(days=5)).isoformat()}).status_code == 422
    with pytest.raises(services.CohortError, match="no due date"):
        deadlines.extension_grant(
            cohort=world["cohort"], deck_id=world["undated"].pk, student_id=world["personas"]["cohort_student"].pk,
            due_date=today + timedelta(days=5), granted_by=instructor,
        )  # fmt: skip
    assert not Extension.objects.exists()


def test_granting_changing_and_removing_an_extension(client, world, instructor, today):
    client.force_login(instructor)
    student = world["personas"]["cohort_student"]
    later = today + timedelta(days=5)
    response = client.post(_url(world), {"due_date": later.isoformat()}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("cohorts:student", args=[world["cohort"].pk, student.pk])
    assert f"alice now has until {_day(later)} for Serving." in _text(response.content.decode())
    # Changed: the same row, moved; one per student and deck.
    client.post(_url(world), {"due_date": (later + timedelta(days=2)).isoformat()})
    extension = Extension.objects.get()
    assert (extension.due_date, extension.granted_by) == (later + timedelta(days=2), instructor)
    # The co-instructor may move it too, and it says who did.
    client.force_login(world["personas"]["co_instructor"])
    client.post(_url(world), {"due_date": later.isoformat()})
    assert Extension.objects.get().granted_by == world["personas"]["co_instructor"]
    response = client.post(_url(world, "extension_remove"), follow=True)
    assert "alice is back on the cohort's deadline for Serving." in _text(response.content.decode())
    assert not Extension.objects.exists()
    response = client.post(_url(world, "extension_remove"), follow=True)  # a double click
    assert "alice had no extension for Serving; nothing changed." in _text(response.content.decode())
    # "Remove" pressed after the session ran out comes back from signing in as a GET: the student's page, not a 405.
    response = client.get(_url(world, "extension_remove"))
    assert response.status_code == 302 and response["Location"] == reverse(
        "cohorts:student", args=[world["cohort"].pk, world["personas"]["cohort_student"].pk]
    )


def test_one_extension_per_student_and_assignment_is_a_database_rule(world, instructor):
    extension = _grant(world, instructor, 5)
    with pytest.raises(IntegrityError), transaction.atomic():
        Extension.objects.create(
            assignment=extension.assignment, student=extension.student, due_date=extension.due_date
        )


def test_unassigning_the_deck_removes_its_extensions_and_says_how_many(client, world, instructor):
    _grant(world, instructor, 5)
    _grant(world, instructor, 6, student=world["classmate"])
    client.force_login(instructor)
    response = client.post(
        reverse("cohorts:assignment_remove", args=[world["cohort"].pk, world["deck"].pk]), follow=True
    )
    said = "Serving is no longer assigned to Spring; students' answers are kept. 2 students lost their extensions."
    assert said in _text(response.content.decode())
    assert not Extension.objects.exists()


def test_a_student_who_leaves_loses_their_extensions_and_rejoins_on_the_cohorts_deadlines(world, instructor):
    student, classmate = world["personas"]["cohort_student"], world["classmate"]
    _grant(world, instructor, 5)
    _grant(world, instructor, 6, student=classmate)
    assert services.cohort_remove_student(cohort=world["cohort"], student_id=student.pk) == 1
    assert list(Extension.objects.values_list("student__username", flat=True)) == ["ann"]
    services.cohort_join(student=student, code=world["cohort"].join_code)
    assert not Extension.objects.filter(student=student).exists()


def test_removing_a_student_says_their_extension_ended(client, world, instructor):
    student, classmate = world["personas"]["cohort_student"], world["classmate"]
    _grant(world, instructor, 5)
    client.force_login(instructor)
    for who, said in ((student, "was removed, and their extension ended."), (classmate, "was removed. Their")):
        url = reverse("cohorts:student_remove", args=[world["cohort"].pk, who.pk])
        response = client.post(url, follow=True)
        assert f"{who.get_username()} {said}" in _text(response.content.decode())


def test_moving_the_cohorts_deadline_past_an_extension_drops_it_and_says_so(client, world, instructor, today):
    _grant(world, instructor, 3)
    _grant(world, instructor, 10, student=world["classmate"])
    client.force_login(instructor)
    data = {"deck": world["deck"].pk, "due_date": (today + timedelta(days=5)).isoformat()}
    response = client.post(reverse("cohorts:assignment_add", args=[world["cohort"].pk]), data, follow=True)
    assert "1 student lost an extension: no longer later than the due date." in _text(response.content.decode())
    assert list(Extension.objects.values_list("student__username", flat=True)) == ["ann"]
    # No due date left: nothing to extend, and the message does not speak of one.
    response = client.post(reverse("cohorts:assignment_add", args=[world["cohort"].pk]), {"deck": world["deck"].pk})
    said = _text(client.get(response.url).content.decode())
    assert "1 student lost an extension: with no due date, there is none to extend." in said
    assert "no longer later than the due date" not in said and not Extension.objects.exists()


# --- what the student sees ---------------------------------------------------------------


def test_the_student_sees_their_own_deadline_on_their_progress_and_home_page(client, world, instructor, today):
    student = world["personas"]["cohort_student"]
    client.force_login(student)
    home = client.get(reverse("content:home")).content.decode()
    assert "Overdue</span>" in home and "Serving" in home
    later = today + timedelta(days=2)
    _grant(world, instructor, 2)
    home = _text(client.get(reverse("content:home")).content.decode())
    assert "Due in 2 days Serving for Spring, due" in home and "(extended for you)" in home and "Overdue" not in home
    progress = client.get(reverse("quiz:progress")).content.decode()
    cell = _text(re.search(r'<td data-label="Deadline">(.*?)</td>', progress, re.S).group(1))
    assert cell.startswith(_day(later)) and f"the cohort’s is {_day(today - timedelta(days=1))}" in cell
    assert "Due in 2 days" in cell and "Overdue" not in cell
    # Far enough: no longer near, so not on the home page's Today panel at all.
    _grant(world, instructor, 20)
    assert [a.deck_title for a in selectors.deadlines_near(user=student)] == []
    assert [a.deck_title for a in selectors.deadlines_near(user=world["classmate"])] == ["Serving"]


def test_a_classmate_keeps_the_cohorts_deadline(client, world, instructor, today):
    _grant(world, instructor, 5)
    client.force_login(world["classmate"])
    progress = client.get(reverse("quiz:progress")).content.decode()
    cell = _text(re.search(r'<td data-label="Deadline">(.*?)</td>', progress, re.S).group(1))
    assert cell.startswith(_day(today - timedelta(days=1))) and "Overdue" in cell and "extended" not in cell


# --- what the instructors see ------------------------------------------------------------


def test_behind_flags_counts_and_the_reminder_list_use_each_students_own_deadline(client, world, instructor, today):
    cohort = world["cohort"]
    _, rows = analytics.cohort_matrix(cohort=cohort)
    assert {row.username for row in rows if "behind" in row.flags} == {"alice", "ann"}
    _grant(world, instructor, 10)
    _, rows = analytics.cohort_matrix(cohort=cohort)
    assert {row.username for row in rows if "behind" in row.flags} == {"ann"}
    # Within the "behind" window of the extended date, behind again, and by that date.
    _grant(world, instructor, 2)
    _, rows = analytics.cohort_matrix(cohort=cohort)
    alice = next(row for row in rows if row.username == "alice")
    assert [(deck.title, deck.due_date) for deck in alice.behind] == [("Serving", today + timedelta(days=2))]
    _grant(world, instructor, 10)
    client.force_login(instructor)
    page = client.get(reverse("cohorts:dashboard", args=[cohort.pk]), {"flag": "behind"}).content.decode()
    assert "1 student flagged" in _text(page) and "mailto:?bcc=ann@example.com" in page  # alice is not reminded
    response = client.get(reverse("cohorts:export_matrix", args=[cohort.pk]))
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")))}
    assert rows["alice"]["Serving due"] == (today + timedelta(days=10)).isoformat() and rows["alice"]["flags"] == ""
    assert rows["ann"]["Serving due"] == (today - timedelta(days=1)).isoformat() and "behind" in rows["ann"]["flags"]
    assert rows["ann"]["Undated due"] == ""


def test_extensions_show_beside_the_student_on_the_instructors_pages(client, world, instructor, today):
    later = today + timedelta(days=10)
    _grant(world, instructor, 10)
    client.force_login(instructor)
    cohort, student = world["cohort"], world["personas"]["cohort_student"]
    matrix = client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode()
    rows = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</tr>", matrix, re.S)
    alice = _text(next(row for row in rows if ">alice<" in row))
    assert "extended to" in alice and "extended" not in _text(next(row for row in rows if ">ann<" in row))
    detail = _text(client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode())
    assert f"{_day(later)} Extended from {_day(today - timedelta(days=1))}, the cohort’s deadline" in detail
    assert "Change extension…" in detail and "Remove the extension" in detail
    manage = _text(client.get(reverse("cohorts:manage", args=[cohort.pk])).content.decode())
    assert f"alice extended to {_day(later)}" in manage
    assert "with the extension of 1 student" in manage  # the unassign confirmation warns


def test_the_student_page_offers_an_extension_for_dated_decks_only(client, world, instructor, today):
    client.force_login(instructor)
    cohort, student = world["cohort"], world["personas"]["cohort_student"]
    html = client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode()
    forms = re.findall(r'<form method="post" action="([^"]*/extensions/\d+/)"', html)
    assert forms == [_url(world)]
    field = re.search(r'<input type="date" name="due_date"[^>]*>', html).group(0)
    assert f'min="{today.isoformat()}"' in field and 'id="id_deck' in field  # the day after the cohort's deadline


@pytest.mark.parametrize("extensions", [0, 2])
def test_pages_keep_their_query_counts_with_extensions(
    client, world, instructor, django_assert_num_queries, extensions
):
    for student in [world["personas"]["cohort_student"], world["classmate"]][:extensions]:
        _grant(world, instructor, 5, student=student)
    cohort, student = world["cohort"], world["personas"]["cohort_student"]
    client.force_login(instructor)
    # As test_views.test_pages_and_exports_use_a_constant_number_of_queries.
    with django_assert_num_queries(8):
        client.get(reverse("cohorts:dashboard", args=[cohort.pk]))
    with django_assert_num_queries(8):
        client.get(reverse("cohorts:export_matrix", args=[cohort.pk]))
    with django_assert_num_queries(11):
        client.get(reverse("cohorts:student", args=[cohort.pk, student.pk]))
    with django_assert_num_queries(6):  # session, user, cohort, membership, assignment, extension
        assert client.get(_url(world)).status_code == 200
    with django_assert_num_queries(11):  # the extensions of every assigned deck in one
        client.get(reverse("cohorts:manage", args=[cohort.pk]))
    client.force_login(student)
    with django_assert_num_queries(10):  # as tests/quiz/test_views.test_progress_uses_a_constant_number_of_queries
        client.get(reverse("quiz:progress"))
