"""An instructor teaches one cohort of a name, letter case and spaces aside: create and rename say so."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from apps.cohorts import services
from apps.cohorts.models import Cohort
from tests.conftest import make_instructor

pytestmark = pytest.mark.django_db


def _errors(response) -> str:
    return unescape(response.content.decode())


def test_creating_a_second_cohort_of_the_same_name_is_a_form_error(client, instructor):
    services.cohort_create(name="Autumn 2026", instructor=instructor)
    client.force_login(instructor)
    response = client.post(reverse("cohorts:create"), {"name": "  autumn 2026 ", "instructors": ""})
    assert response.status_code == 422
    # Named as it is written, not as typed: told "autumn 2026", the instructor looked for it in vain.
    assert "You already have a cohort named “<bdi>Autumn 2026</bdi>”. Choose another name." in _errors(response)
    assert response.context["form"].errors["name"]
    assert Cohort.objects.count() == 1


def test_renaming_onto_another_of_ones_cohorts_is_refused_and_changing_case_is_not(client, instructor):
    services.cohort_create(name="Autumn", instructor=instructor)
    spring = services.cohort_create(name="Spring", instructor=instructor)
    client.force_login(instructor)
    url = reverse("cohorts:manage", args=[spring.pk])
    refused = client.post(url, {"name": "AUTUMN", "instructors": ""})
    assert refused.status_code == 422 and "You already have a cohort named “<bdi>Autumn</bdi>”." in _errors(refused)
    assert client.post(url, {"name": "SPRING", "instructors": ""}).status_code == 303
    spring.refresh_from_db()
    assert spring.name == "SPRING"


def test_two_instructors_may_each_have_a_cohort_of_one_name(instructor):
    services.cohort_create(name="Demo cohort", instructor=instructor)
    services.cohort_create(name="Demo cohort", instructor=make_instructor("dave"))
    assert Cohort.objects.filter(name="Demo cohort").count() == 2


def test_a_co_instructor_who_has_the_name_already_is_named(client, instructor):
    dave = make_instructor("dave")
    services.cohort_create(name="Stats", instructor=dave)
    client.force_login(instructor)
    response = client.post(reverse("cohorts:create"), {"name": "stats", "instructors": "dave"})
    assert response.status_code == 422
    said = "already teaches a cohort named “<bdi>Stats</bdi>”: choose another name, or leave <bdi>dave</bdi> out."
    assert f"<bdi>dave</bdi> {said}" in _errors(response)
    assert response.context["form"].errors["instructors"]
    assert not Cohort.objects.filter(instructors=instructor).exists()


def test_a_name_that_differs_only_in_its_spaces_is_the_same_name(instructor):
    services.cohort_create(name="Demo cohort", instructor=instructor)
    with pytest.raises(services.CohortError, match="You already have a cohort named “<bdi>Demo cohort</bdi>”"):
        services.cohort_create(name=" Demo   cohort ", instructor=instructor)
    assert services.cohort_create(name="Second\t  cohort", instructor=instructor).name == "Second cohort"
