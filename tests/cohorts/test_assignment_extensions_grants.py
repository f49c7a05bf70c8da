"""One assigned deck's extensions page, granting several extensions at once: without JavaScript and with HTMX,
all or none, naming the refused students, dates and other bad input as form errors; and the page's and the
grants' queries, which do not grow with the students.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.cohorts import deadlines, selectors, services
from apps.cohorts.models import Extension
from tests.cohorts.assignment_extensions_support import _day, _grant, _later, _offered, _one, _page, _rows, _text
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


# --- granting several at once ------------------------------------------------------------------------------------


def test_granting_several_students_at_once_without_javascript(client, world, student):
    carol = world["cohort"].owner
    client.force_login(carol)
    ann, ben = world["ann"], world["ben"]
    response = client.post(_page(world), {"students": [ben.pk, ann.pk], "due_date": _later(7)})
    assert response.status_code == 303 and response["Location"] == _page(world)
    html = client.get(response["Location"]).content.decode()
    later = timezone.localdate() + timedelta(days=7)
    assert f"ann and ben now have until {_day(later)} for Serving." in _text(html)
    assert list(_rows(html)) == ["ann", "ben"] and _offered(html) == ["alice"]
    granted = Extension.objects.order_by("student__username")
    assert [(e.student, e.due_date, e.granted_by) for e in granted] == [(ann, later, carol), (ben, later, carol)]


def test_a_grant_to_many_names_three_and_counts_the_others(client, world, student):
    extra = [make_user(name) for name in ("cy", "di")]
    for user in extra:
        services.cohort_join(student=user, code=world["cohort"].join_code)
    client.force_login(world["cohort"].owner)
    chosen = [student.pk, world["ann"].pk, world["ben"].pk, *(user.pk for user in extra)]
    response = client.post(_page(world), {"students": chosen, "due_date": _later(2)}, follow=True)
    assert "alice, ann, ben and 2 others now have until" in _text(response.content.decode())
    assert Extension.objects.count() == 5


def test_granting_with_htmx_swaps_the_panel_and_says_so(client, world, htmx):
    client.force_login(world["cohort"].owner)
    response = client.post(_page(world), {"students": [world["ann"].pk], "due_date": _later(4)}, **htmx)
    html = response.content.decode()
    assert response.status_code == 200 and "HX-Request" in response["Vary"]
    assert html.lstrip().startswith('<div id="extensions-panel">') and "<h1>" not in html
    note = re.search(r'<p class="message message-success" role="status" tabindex="-1" data-focus>(.*?)</p>', html)
    assert (
        note.group(1) == f"ann now has until {_day(timezone.localdate() + timedelta(days=4))} for <bdi>Serving</bdi>."
    )
    assert list(_rows(html)) == ["ann"] and "ann" not in " ".join(_offered(html))
    # Every form in it posts with HTMX to the address it has without.
    for form in re.findall(r"<form [^>]*>", html):
        action = re.search(r'action="([^"]+)"', form).group(1)
        assert f'data-hx-post="{action}" data-hx-target="#extensions-panel"' in form


def test_a_grant_refused_for_one_student_is_refused_for_all_naming_them(client, world, student, monkeypatch):
    """The form offers the students current when the page was read; one removed before the grant runs (the race
    this stands in for) is refused by extensions_grant, and so is everyone sent with them."""
    carol, ann, ben = world["cohort"].owner, world["ann"], world["ben"]
    read = selectors.students_unextended(assignment=world["cohort"].assignments.get(deck=world["deck"]))
    services.cohort_remove_student(cohort=world["cohort"], student_id=ben.pk)
    monkeypatch.setattr(selectors, "students_unextended", lambda **kwargs: read)
    client.force_login(carol)
    data = {"students": [student.pk, ann.pk, ben.pk], "due_date": _later(6)}
    response = client.post(_page(world), data)
    assert response.status_code == 422
    text = _text(response.content.decode())
    assert "Nothing was changed: please correct the errors below." in text
    assert "ben: Only students of Spring can have an extension." in text
    assert "alice:" not in text and "ann:" not in text
    assert not Extension.objects.exists()  # all or none: alice and ann neither


def test_the_service_grants_all_or_none_and_names_each_refusal(world, student):
    carol, bob = world["cohort"].owner, world["bob"]
    with pytest.raises(deadlines.ExtensionsRefusedError) as refused:
        deadlines.extensions_grant(
            cohort=world["cohort"], deck_id=world["deck"].pk, student_ids=[student.pk, world["ann"].pk, bob.pk],
            due_date=timezone.localdate() + timedelta(days=3), granted_by=carol,
        )  # fmt: skip
    assert list(refused.value.refusals) == [bob.pk]
    assert str(refused.value.refusals[bob.pk]) == "Only students of <bdi>Spring</bdi> can have an extension."
    assert not Extension.objects.exists()
    granted = deadlines.extensions_grant(
        cohort=world["cohort"], deck_id=world["deck"].pk, student_ids=[world["ann"].pk, student.pk, student.pk],
        due_date=timezone.localdate() + timedelta(days=3), granted_by=carol,
    )  # fmt: skip
    assert [e.student_id for e in granted] == [student.pk, world["ann"].pk]


@pytest.mark.parametrize("days", [-1, -5])
def test_a_date_not_later_than_the_cohorts_is_one_error_on_the_date(client, world, days):
    client.force_login(world["cohort"].owner)
    data = {"students": [world["ann"].pk, world["ben"].pk], "due_date": _later(days)}
    response = client.post(_page(world), data)
    html = response.content.decode()
    deadline = _day(timezone.localdate() - timedelta(days=1))
    said = f"Choose a date after the cohort's deadline, {deadline}: an extension is later."
    assert response.status_code == 422 and unescape(html).count(said) == 1
    assert re.search(r'<ul class="errorlist" id="id_due_date_error">', html)
    # What was chosen stays chosen, to fix only the date.
    assert len(re.findall(r'name="students" value="\d+"[^>]*checked', html)) == 2
    assert not Extension.objects.exists()


def test_bad_input_is_a_form_error_never_a_500(client, world, student):
    carol = world["cohort"].owner
    _grant(world, student, 5, by=carol)
    gone = world["ben"]
    services.cohort_remove_student(cohort=world["cohort"], student_id=gone.pk)
    client.force_login(carol)
    ann = world["ann"].pk
    cases = {
        "nothing": ({}, "Choose at least one student."),
        "no student": ({"due_date": _later(5)}, "Choose at least one student."),
        "no date": ({"students": [ann]}, "This field is required."),
        "not a number": ({"students": ["x"], "due_date": _later(5)}, "Choose among the students listed."),
        "a NUL": ({"students": ["\x00"], "due_date": _later(5)}, "Choose among the students listed."),
        "another cohort's": ({"students": [world["bob"].pk], "due_date": _later(5)}, "not (or no longer) a student"),
        "removed": (
            {"students": [ann, gone.pk], "due_date": _later(5)},
            "not (or no longer) a student of <bdi>Spring</bdi>",
        ),
        "no such user": (
            {"students": [10**12], "due_date": _later(5)},
            "not (or no longer) a student of <bdi>Spring</bdi>",
        ),
        "has one": ({"students": [ann, student.pk], "due_date": _later(5)}, "alice has an extension already"),
        "a bad date": ({"students": [ann], "due_date": "2026-02-30"}, "Enter a valid date."),
        "too far": ({"students": [ann], "due_date": "9999-12-31"}, "at most five years ahead"),
    }
    for case, (data, said) in cases.items():
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.post(_page(world), data, **headers)
            assert response.status_code == 422, case
            assert said in unescape(response.content.decode()), case
    assert list(Extension.objects.values_list("student__username", flat=True)) == ["alice"]


# --- queries -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("students", [1, 12])
def test_the_page_runs_the_same_queries_however_many_students(
    client, world, student, django_assert_num_queries, htmx, students
):
    carol = world["cohort"].owner
    for n in range(students):
        extra = make_user(f"extra{n}", first_name="Extra")
        services.cohort_join(student=extra, code=world["cohort"].join_code)
        if n % 2:
            _grant(world, extra, 3 + n, by=carol)
    _grant(world, student, 5, by=world["cohort"].instructors.get(username="dave"))
    client.force_login(carol)
    # session, user, cohort, assignment with its deck, extensions with students and grantors, students offered
    with django_assert_num_queries(6):
        html = client.get(_page(world)).content.decode()
    assert len(_rows(html)) == 1 + students // 2 and len(_offered(html)) == 2 + students - students // 2
    with django_assert_num_queries(6):
        assert client.get(_page(world), **htmx).status_code == 200


def test_a_refused_move_of_an_extension_removed_meanwhile_says_so_above_the_list(client, world, student):
    client.force_login(world["cohort"].owner)
    response = client.post(_one(world, "change", student), {"due_date": _later(-1)})
    text = _text(response.content.decode())
    assert response.status_code == 422
    assert "alice no longer has an extension. Choose a date after the cohort's deadline" in text
    assert not Extension.objects.exists()


def test_granting_to_thirty_students_costs_the_queries_granting_to_two_does(world):
    """A grant to the whole of a large cohort must not run a few queries per student (it ran ten each)."""
    cohort, deck, carol = world["cohort"], world["deck"], world["cohort"].owner
    many = [make_user(f"many{n}") for n in range(30)]
    for user in many:
        services.cohort_join(student=user, code=cohort.join_code)
    due = timezone.localdate() + timedelta(days=4)
    with CaptureQueriesContext(connection) as two:
        deadlines.extensions_grant(
            cohort=cohort,
            deck_id=deck.pk,
            student_ids=[world["ann"].pk, world["ben"].pk],
            due_date=due,
            granted_by=carol,
        )
    with CaptureQueriesContext(connection) as thirty:
        granted = deadlines.extensions_grant(
            cohort=cohort, deck_id=deck.pk, student_ids=[u.pk for u in reversed(many)], due_date=due, granted_by=carol
        )
    assert len(thirty.captured_queries) == len(two.captured_queries) <= 5
    assert [e.student_id for e in granted] == sorted(u.pk for u in many)
    assert Extension.objects.filter(due_date=due, granted_by=carol).count() == 32
