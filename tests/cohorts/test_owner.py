"""A cohort's owner, the instructor who created it, stays one of its instructors and alone adds and removes the
others: a co-instructor (or a superuser) sees the instructors read-only, may rename the cohort, and has a forged
change of instructors refused with nothing of it saved."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from apps.cohorts import services
from apps.cohorts.models import Cohort
from tests.conftest import make_instructor

pytestmark = pytest.mark.django_db


@pytest.fixture
def spring(instructor):
    """Spring, created by carol (`instructor`), with dave as a co-instructor."""
    make_instructor("dave")
    return services.cohort_create(name="Spring", instructor=instructor, instructor_usernames=["dave"])


def _field_value(html: str) -> str:
    """What the "Other instructors" field holds when the page opens."""
    field = re.search(r'<input\b[^>]*\bname="instructors"[^>]*>', html)[0]
    value = re.search(r'\bvalue="([^"]*)"', field)
    return unescape(value[1]) if value else ""


def _text(html: str) -> str:
    # <bdi> (a name, isolated) is part of its sentence; other tags are read as breaks.
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?bdi>", "", html))).split())


def _usernames(cohort: Cohort) -> set[str]:
    return set(cohort.instructors.values_list("username", flat=True))


def test_creating_a_cohort_makes_its_creator_the_owner(spring, instructor):
    assert spring.owner == instructor and _usernames(spring) == {"carol", "dave"}


def test_a_co_instructor_sees_the_owner_named_and_cannot_remove_them(client, spring, instructor):
    dave = spring.instructors.get(username="dave")
    client.force_login(dave)
    url = reverse("cohorts:manage", args=[spring.pk])
    html = client.get(url).content.decode()
    assert "Owner: carol , who stays one of its instructors." in _text(html)
    assert _field_value(html) == ""  # carol is not in the field dave edits, so there is nothing to delete
    # dave empties the field and saves, as the reviewer did: carol stays, and still opens her cohort.
    response = client.post(url, {"name": "Spring", "instructors": ""})
    assert response.status_code == 303
    assert _usernames(spring) == {"carol", "dave"}
    client.force_login(instructor)
    assert client.get(reverse("cohorts:dashboard", args=[spring.pk])).status_code == 200
    assert "Spring" in client.get(reverse("cohorts:list")).content.decode()


@pytest.fixture
def team(spring):
    """Spring with erin too as a co-instructor, and frank, an instructor who does not teach it."""
    make_instructor("erin")
    make_instructor("frank")
    spring.instructors.add(type(spring.owner).objects.get(username="erin"))
    return spring


def _field(html: str) -> str:
    return re.search(r'<input\b[^>]*\bname="instructors"[^>]*>', html)[0]


def test_only_the_owner_may_edit_the_instructors_the_others_see_them_read_only(client, team, instructor):
    url = reverse("cohorts:manage", args=[team.pk])
    client.force_login(team.instructors.get(username="dave"))
    html = client.get(url).content.decode()
    assert " disabled" in _field(html) and _field_value(html) == "erin"
    assert "Only carol, its owner, adds and removes its instructors." in _text(html)
    assert "Other instructors (optional)" not in _text(html)  # nothing to fill in
    client.force_login(instructor)
    assert " disabled" not in _field(client.get(url).content.decode())
    assert client.post(url, {"name": "Spring", "instructors": "dave, frank"}).status_code == 303
    assert _usernames(team) == {"carol", "dave", "frank"}


@pytest.mark.parametrize(
    "typed", ["erin, frank", "", "frank", "erin, nobody"], ids=["adding", "removing", "swapping", "unknown"]
)
def test_a_co_instructor_s_forged_change_of_instructors_is_refused_and_nothing_is_saved(client, team, typed):
    """The field is disabled for them, but a POST may carry it all the same: the rename sent with it waits too."""
    client.force_login(team.instructors.get(username="dave"))
    response = client.post(reverse("cohorts:manage", args=[team.pk]), {"name": "Renamed", "instructors": typed})
    assert response.status_code == 422
    html = response.content.decode()
    assert "Only carol, who owns Spring, can add or remove its instructors." in _text(html)
    assert _field_value(html) == "erin"  # the list as it is, not as forged
    team.refresh_from_db()
    assert team.name == "Spring" and _usernames(team) == {"carol", "dave", "erin"}


def test_a_co_instructor_still_renames_the_cohort_and_the_instructors_stay(client, team):
    client.force_login(team.instructors.get(username="dave"))
    url = reverse("cohorts:manage", args=[team.pk])
    # What a browser sends: a disabled field is left out, which is no request to empty it.
    assert client.post(url, {"name": "Renamed"}).status_code == 303
    team.refresh_from_db()
    assert team.name == "Renamed" and _usernames(team) == {"carol", "dave", "erin"}
    # A page opened before the field was disabled sends the list as it was: the name is saved all the same.
    assert client.post(url, {"name": "Renamed again", "instructors": "erin"}).status_code == 303
    team.refresh_from_db()
    assert team.name == "Renamed again" and _usernames(team) == {"carol", "dave", "erin"}


def test_a_superuser_renaming_a_cohort_neither_joins_its_instructors_nor_changes_them(client, team, superuser):
    client.force_login(superuser)
    url = reverse("cohorts:manage", args=[team.pk])
    assert client.post(url, {"name": "Renamed", "instructors": "dave, erin"}).status_code == 303
    assert _usernames(team) == {"carol", "dave", "erin"}
    assert client.post(url, {"name": "Renamed", "instructors": "dave"}).status_code == 422
    assert _usernames(team) == {"carol", "dave", "erin"}


def test_instructors_of_a_cohort_without_an_owner_choose_one_before_changing_them(client, team, instructor):
    instructor.delete()
    dave = team.instructors.get(username="dave")
    client.force_login(dave)
    url = reverse("cohorts:manage", args=[team.pk])
    response = client.post(url, {"name": "Spring", "instructors": ""})
    assert response.status_code == 422 and "Spring has no owner" in _text(response.content.decode())
    assert _usernames(team) == {"dave", "erin"}
    client.post(reverse("cohorts:owner", args=[team.pk]), {"owner": dave.pk})
    assert client.post(url, {"name": "Spring", "instructors": ""}).status_code == 303
    assert _usernames(team) == {"dave"}


def test_the_owner_named_in_another_letter_case_is_kept(spring):
    dave = spring.instructors.get(username="dave")
    services.cohort_update(cohort=spring, name="Spring", instructor_usernames=["CAROL"], editor=dave)
    assert _usernames(spring) == {"carol", "dave"}


def test_leaving_the_owner_out_is_refused_by_the_service_with_a_message(spring):
    dave = spring.instructors.get(username="dave")
    refusal = "Only <bdi>carol</bdi>, who owns <bdi>Spring</bdi>, can add or remove its instructors."
    with pytest.raises(services.CohortError, match=refusal):
        services.cohort_update(cohort=spring, name="Renamed", instructor_usernames=[], editor=dave)
    spring.refresh_from_db()
    assert spring.name == "Spring" and _usernames(spring) == {"carol", "dave"}


def test_the_owner_may_remove_a_co_instructor(client, spring, instructor):
    client.force_login(instructor)
    url = reverse("cohorts:manage", args=[spring.pk])
    html = client.get(url).content.decode()
    assert "Owner: you (carol)." in _text(html) and _field_value(html) == "dave"
    assert client.post(url, {"name": "Spring", "instructors": ""}).status_code == 303
    assert _usernames(spring) == {"carol"}
    client.force_login(spring.owner.__class__.objects.get(username="dave"))
    assert client.get(reverse("cohorts:dashboard", args=[spring.pk])).status_code == 404  # as before: only its own


def test_an_owner_who_left_the_instructors_group_is_kept_when_a_co_instructor_saves(client, spring, instructor):
    instructor.groups.clear()
    client.force_login(spring.instructors.get(username="dave"))
    response = client.post(reverse("cohorts:manage", args=[spring.pk]), {"name": "Spring 2", "instructors": ""})
    assert response.status_code == 303 and _usernames(spring) == {"carol", "dave"}


def test_the_owner_hands_the_cohort_over_and_stays_an_instructor(client, instructor, spring):
    dave = spring.instructors.get(username="dave")
    client.force_login(instructor)
    page = client.get(reverse("cohorts:manage", args=[spring.pk])).content.decode()
    assert "Hand the cohort over" in page and f'<option value="{dave.pk}">dave</option>' in page
    response = client.post(reverse("cohorts:owner", args=[spring.pk]), {"owner": dave.pk}, follow=True)
    assert "dave now owns Spring." in _text(response.content.decode())
    spring.refresh_from_db()
    assert spring.owner == dave and _usernames(spring) == {"carol", "dave"}
    client.force_login(dave)
    page = _text(client.get(reverse("cohorts:manage", args=[spring.pk])).content.decode())
    assert "Owner: you (dave)" in page and "created" not in page  # carol created it: the page says nothing else


def test_only_the_owner_hands_the_cohort_over_and_only_to_an_instructor(client, instructor, spring):
    dave = spring.instructors.get(username="dave")
    make_instructor("erin")
    erin = type(dave).objects.get(username="erin")
    client.force_login(dave)
    assert "Hand the cohort over" not in client.get(reverse("cohorts:manage", args=[spring.pk])).content.decode()
    refused = client.post(reverse("cohorts:owner", args=[spring.pk]), {"owner": dave.pk})
    assert refused.status_code == 422 and "Only carol, who owns Spring, can hand it over." in _text(
        refused.content.decode()
    )
    client.force_login(instructor)
    for bad in (erin.pk, "", "x"):  # not one of its instructors, or no one
        assert client.post(reverse("cohorts:owner", args=[spring.pk]), {"owner": bad}).status_code == 422
    spring.refresh_from_db()
    assert spring.owner == instructor


def test_an_instructor_may_take_over_a_cohort_whose_owner_is_gone(client, instructor, spring):
    dave = spring.instructors.get(username="dave")
    instructor.delete()  # the owner's account: the cohort keeps its students and dave
    spring.refresh_from_db()
    assert spring.owner is None
    client.force_login(dave)
    assert "Choose an owner" in client.get(reverse("cohorts:manage", args=[spring.pk])).content.decode()
    client.post(reverse("cohorts:owner", args=[spring.pk]), {"owner": dave.pk})
    spring.refresh_from_db()
    assert spring.owner == dave


def test_the_cohorts_page_names_the_owner_of_a_cohort_taught_with_others(client, spring, instructor):
    """A cohort taught with others looked like one's own: who owns it showed only on its manage page."""
    dave = spring.instructors.get(username="dave")
    services.cohort_create(name="Autumn", instructor=dave)
    client.force_login(dave)
    tiles = re.findall(r'<li class="deck-tile">(.*?)</li>', client.get(reverse("cohorts:list")).content.decode(), re.S)
    assert sorted(_text(tile) for tile in tiles) == [
        "Autumn 0 students · 0 decks assigned Manage Autumn",
        "Spring 0 students · 0 decks assigned · owned by carol Manage Spring",
    ]
    client.force_login(instructor)
    (tile,) = re.findall(
        r'<li class="deck-tile">(.*?)</li>', client.get(reverse("cohorts:list")).content.decode(), re.S
    )
    assert "owned by" not in tile  # carol's own
    Cohort.objects.filter(pk=spring.pk).update(owner=None)  # carol's account deleted
    client.force_login(dave)
    assert "Spring 0 students · 0 decks assigned · no owner: any of its instructors may take it over" in _text(
        client.get(reverse("cohorts:list")).content.decode()
    )
