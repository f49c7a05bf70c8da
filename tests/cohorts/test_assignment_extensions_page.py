"""One assigned deck's extensions page, seeing it and changing one student's extension: only the cohort's
instructors see it or change an extension there (another cohort's deck or student is a 404), it lists each
student's extension and offers the others, the dashboard links to it, and one extension is moved or removed there.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.cohorts import services
from apps.cohorts.models import Extension
from tests.cohorts.assignment_extensions_support import _day, _grant, _later, _offered, _one, _page, _rows, _text
from tests.conftest import make_user
from tests.factories import make_deck

pytestmark = pytest.mark.django_db


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
