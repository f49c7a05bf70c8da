"""One assigned deck's extensions page: every current student's extension on it, moved or removed there, and
several granted at once, all or none."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import formats, timezone

from apps.cohorts import deadlines, selectors, services
from apps.cohorts.models import Extension
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _day(value) -> str:
    return formats.date_format(value, "j M Y")


def _text(html: str) -> str:
    # <bdi> (a student's text, isolated) is part of its sentence; other tags are read as breaks.
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?bdi>", "", html))).split())


def _later(days: int) -> str:
    return (timezone.localdate() + timedelta(days=days)).isoformat()


@pytest.fixture
def world(instructor, student):
    """Spring, taught by carol (owner) and dave (co-instructor), with alice, ann and ben; Serving due yesterday,
    and Undated with no due date. Autumn, erin's cohort, with bob, assigned Serving too."""
    today = timezone.localdate()
    deck = make_deck(title="Serving")
    make_card(deck=deck)
    undated = make_deck(title="Undated")
    make_instructor("dave")
    spring = services.cohort_create(name="Spring", instructor=instructor, instructor_usernames=["dave"])
    deadlines.assignment_set(cohort=spring, deck=deck, due_date=today - timedelta(days=1))
    deadlines.assignment_set(cohort=spring, deck=undated, due_date=None)
    ann, ben = make_user("ann", first_name="Ann", last_name="Arbor"), make_user("ben")
    for user in (student, ann, ben):
        services.cohort_join(student=user, code=spring.join_code)
    erin = make_instructor("erin")
    autumn = services.cohort_create(name="Autumn", instructor=erin)
    bob = make_user("bob")
    services.cohort_join(student=bob, code=autumn.join_code)
    deadlines.assignment_set(cohort=autumn, deck=deck, due_date=today - timedelta(days=1))
    return {"cohort": spring, "deck": deck, "undated": undated, "autumn": autumn, "ann": ann, "ben": ben, "bob": bob}


def _page(world, *, deck=None, cohort=None) -> str:
    cohort, deck = cohort or world["cohort"], deck or world["deck"]
    return reverse("cohorts:assignment_extensions", args=[cohort.pk, deck.pk])


def _one(world, name: str, student, *, deck=None) -> str:
    deck = deck or world["deck"]
    return reverse(f"cohorts:assignment_extension_{name}", args=[world["cohort"].pk, deck.pk, student.pk])


def _grant(world, student, days: int, *, by):
    due = timezone.localdate() + timedelta(days=days)
    return deadlines.extension_grant(
        cohort=world["cohort"], deck_id=world["deck"].pk, student_id=student.pk, due_date=due, granted_by=by
    )


def _rows(html: str) -> dict[str, str]:
    """The extensions table, as each student's row's text by user name."""
    table = re.search(r'<table class="data stack-on-phone extensions-table".*?</table>', html, re.S)
    rows = re.findall(r'<th scope="row"><a [^>]*>([^<]+)</a>(.*?)</tr>', table.group(0), re.S) if table else []
    return {name: _text(rest) for name, rest in rows}


def _offered(html: str) -> list[str]:
    return re.findall(r'<input type="checkbox" name="students" value="\d+"[^>]*> <label [^>]*>([^<]+)</label>', html)


# --- who may -----------------------------------------------------------------------------------------------------

PERSONAS = {
    "owner": "ok", "co_instructor": "ok", "other_instructor": 404, "cohort_student": 404, "other_student": 404,
    "stranger": 404, "anonymous": "login",
}  # fmt: skip


def _persona(world, name, student):
    return {
        "owner": world["cohort"].owner, "co_instructor": world["cohort"].instructors.get(username="dave"),
        "other_instructor": world["autumn"].owner, "cohort_student": student, "other_student": world["bob"],
        "stranger": make_user("sam"), "anonymous": None,
    }[name]  # fmt: skip


@pytest.mark.parametrize("persona", list(PERSONAS))
def test_only_the_cohorts_instructors_see_the_page_or_change_an_extension_there(client, world, student, persona):
    carol = world["cohort"].owner
    _grant(world, student, 5, by=carol)
    user = _persona(world, persona, student)
    if user is not None:
        client.force_login(user)
    ann = world["ann"]
    requests = [
        (client.get(_page(world)), 200),
        (client.post(_page(world), {"students": [ann.pk], "due_date": _later(3)}), 303),
        (client.post(_one(world, "change", student), {"due_date": _later(9)}), 303),
        (client.post(_one(world, "remove", ann)), 303),
        (client.post(_one(world, "remove", student)), 303),
    ]
    expected = PERSONAS[persona]
    for response, ok in requests:
        if expected == "login":
            assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        else:
            assert response.status_code == (ok if expected == "ok" else expected)
    left = dict(Extension.objects.values_list("student__username", "due_date"))
    if expected == "ok":  # ann granted then removed; alice moved then removed
        assert left == {}
    else:
        assert left == {"alice": timezone.localdate() + timedelta(days=5)}


def test_another_cohorts_deck_or_student_is_a_404(client, world, student):
    client.force_login(world["cohort"].owner)
    assert client.get(_page(world, deck=make_deck())).status_code == 404  # not assigned to Spring
    assert client.get(_page(world, cohort=world["autumn"])).status_code == 404  # erin's cohort
    bob = world["bob"]
    assert client.post(_one(world, "change", bob), {"due_date": _later(5)}).status_code == 404
    assert client.post(_one(world, "remove", bob)).status_code == 404
    assert not Extension.objects.exists()


# --- the page ----------------------------------------------------------------------------------------------------


def test_the_page_lists_each_students_extension_and_offers_the_others(client, world, student):
    carol = world["cohort"].owner
    _grant(world, student, 5, by=carol)
    client.force_login(world["cohort"].instructors.get(username="dave"))
    html = client.get(_page(world)).content.decode()
    rows = _rows(html)
    later, granted = timezone.localdate() + timedelta(days=5), _day(timezone.localdate())
    assert list(rows) == ["alice"]
    assert rows["alice"].startswith(f"{_day(later)} {granted} by carol Change or remove… alice’s extension")
    assert _offered(html) == ["ann · Ann Arbor", "ben"]  # not alice: she has one, changed in her row
    assert f"Due {_day(timezone.localdate() - timedelta(days=1))} for Spring." in _text(html)
    # A student removed from the cohort is on neither list.
    services.cohort_remove_student(cohort=world["cohort"], student_id=world["ann"].pk)
    html = client.get(_page(world)).content.decode()
    assert list(_rows(html)) == ["alice"] and _offered(html) == ["ben"]


def test_an_extension_whose_grantor_is_gone_says_no_name(client, world, student):
    co = world["cohort"].instructors.get(username="dave")
    _grant(world, student, 5, by=co)
    co.delete()
    client.force_login(world["cohort"].owner)
    assert "by " not in _rows(client.get(_page(world)).content.decode())["alice"]


def test_the_dashboard_and_the_manage_page_link_each_dated_deck_to_its_page(client, world):
    client.force_login(world["cohort"].owner)
    cohort = world["cohort"]
    for page in (reverse("cohorts:dashboard", args=[cohort.pk]), reverse("cohorts:manage", args=[cohort.pk])):
        html = client.get(page).content.decode()
        links = re.findall(r'href="(/cohorts/\d+/assignments/\d+/extensions/)"', html)
        assert links == [_page(world)], page  # Serving, not Undated, which has no deadline to extend
    # In the dashboard's boosted header, the link loads the page, not the dashboard's panel.
    dashboard = client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode()
    head = rf'<span class="meta" data-hx-boost="false">due <time [^>]*>[^<]*</time> · <a href="{_page(world)}">'
    assert re.search(head, dashboard)


def test_a_deck_without_a_due_date_has_nothing_to_extend(client, world):
    client.force_login(world["cohort"].owner)
    url = _page(world, deck=world["undated"])
    html = client.get(url).content.decode()
    assert "Undated has no due date in Spring, so there is no deadline to extend." in _text(html)
    assert 'name="due_date"' not in html and 'name="students"' not in html
    response = client.post(url, {"students": [world["ann"].pk], "due_date": _later(5)})
    assert response.status_code == 422 and not Extension.objects.exists()


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


# --- moving and removing one -------------------------------------------------------------------------------------


def test_moving_and_removing_one_students_extension(client, world, student, htmx):
    carol, dave = world["cohort"].owner, world["cohort"].instructors.get(username="dave")
    _grant(world, student, 5, by=carol)
    client.force_login(dave)
    response = client.post(_one(world, "change", student), {"due_date": _later(8)}, follow=True)
    later = timezone.localdate() + timedelta(days=8)
    assert response.redirect_chain == [(_page(world), 303)]
    html = response.content.decode()
    assert f"alice now has until {_day(later)} for Serving." in _text(html)
    assert _rows(html)["alice"].startswith(f"{_day(later)} {_day(timezone.localdate())} by dave")
    # With HTMX: the panel, saying it.
    response = client.post(_one(world, "change", student), {"due_date": _later(9)}, **htmx)
    assert response.status_code == 200 and "alice now has until" in _text(response.content.decode())
    assert Extension.objects.get().due_date == timezone.localdate() + timedelta(days=9)
    response = client.post(_one(world, "remove", student), **htmx)
    assert "alice is back on the cohort's deadline for Serving." in _text(response.content.decode())
    assert _rows(response.content.decode()) == {} and not Extension.objects.exists()
    response = client.post(_one(world, "remove", student), follow=True)  # a double click
    assert "alice had no extension; nothing changed." in _text(response.content.decode())


def test_a_refused_move_shows_its_error_in_the_students_row(client, world, student, htmx):
    _grant(world, student, 5, by=world["cohort"].owner)
    client.force_login(world["cohort"].owner)
    for headers in ({}, htmx):
        response = client.post(_one(world, "change", student), {"due_date": _later(-1)}, **headers)
        html = response.content.decode()
        assert response.status_code == 422
        row = re.search(r'<details class="confirm extension" open>.*?</details>', html, re.S).group(0)
        assert "Choose a date after the cohort's deadline" in unescape(row)
        assert f'id="id_student{student.pk}_due_date_error"' in row and "data-focus" in row
    assert Extension.objects.get().due_date == timezone.localdate() + timedelta(days=5)
    response = client.post(_one(world, "change", student), {})
    assert response.status_code == 422 and "This field is required." in response.content.decode()


def test_a_removed_student_is_said_to_be_gone_not_a_500(client, world, student):
    carol = world["cohort"].owner
    _grant(world, student, 5, by=carol)
    services.cohort_remove_student(cohort=world["cohort"], student_id=student.pk)
    client.force_login(carol)
    response = client.post(_one(world, "change", student), {"due_date": _later(8)})
    assert response.status_code == 422
    assert "alice: Only students of Spring can have an extension." in _text(response.content.decode())
    response = client.post(_one(world, "remove", student), follow=True)
    assert "alice is no longer a student of Spring; nothing changed." in _text(response.content.decode())
    assert not Extension.objects.exists()


def test_a_get_of_a_forms_address_goes_to_the_page(client, world, student):
    client.force_login(world["cohort"].owner)
    for name in ("change", "remove"):
        response = client.get(_one(world, name, student))
        assert response.status_code == 302 and response["Location"] == _page(world)


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
