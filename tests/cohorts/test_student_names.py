"""Students are named as an instructor knows them: the full name when they have one (set in the admin; sign-up asks
only for a user name and an email) and their email, beside the user name, on every page and in the matrix CSV."""

from __future__ import annotations

import csv
import io
import re
from html import unescape

import pytest
from django.urls import reverse

from apps.cohorts import services
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def named(client, instructor):
    """Spring with jdoe (Jane Doe) and jdoe2 (no name, as after sign-up); its instructor is signed in."""
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    jane = make_user("jdoe", first_name="Jane", last_name="Doe")
    other = make_user("jdoe2")
    for student in (jane, other):
        services.cohort_join(student=student, code=cohort.join_code)
    client.force_login(instructor)
    return cohort, jane, other


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _row_headers(html: str, table: str) -> list[str]:
    body = re.search(rf'<table class="{table}"[^>]*>.*?<tbody[^>]*>(.*?)</tbody>', html, re.S).group(1)
    return [_text(cell) for cell in re.findall(r'<th scope="row">(.*?)</th>', body, re.S)]


def test_the_matrix_names_each_student_beside_their_user_name(client, named):
    cohort, _jane, _other = named
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode()
    assert _row_headers(html, "data matrix") == ["jdoe Jane Doe · jdoe@example.com", "jdoe2 jdoe2@example.com"]


def test_the_manage_page_names_each_student_beside_their_user_name(client, named):
    cohort, _jane, _other = named
    html = client.get(reverse("cohorts:manage", args=[cohort.pk])).content.decode()
    assert _row_headers(html, "data stack-on-phone") == ["jdoe Jane Doe · jdoe@example.com", "jdoe2 jdoe2@example.com"]


def test_the_student_page_gives_the_full_name_and_email_under_the_user_name(client, named):
    cohort, jane, other = named
    html = client.get(reverse("cohorts:student", args=[cohort.pk, jane.pk])).content.decode()
    who = (
        r"<h1><bdi>jdoe</bdi></h1>\s*"
        r"<span class=\"meta student-who\"><bdi>Jane Doe</bdi> · <a href=\"mailto:jdoe@example.com\">"
    )
    assert re.search(who, html)
    html = client.get(reverse("cohorts:student", args=[cohort.pk, other.pk])).content.decode()
    assert "<h1><bdi>jdoe2</bdi></h1>" in html and _text(html).count("jdoe2@example.com") == 1


def test_the_matrix_csv_has_name_and_email_columns(client, named):
    cohort, _jane, _other = named
    response = client.get(reverse("cohorts:export_matrix", args=[cohort.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [(row["student"], row["name"], row["email"]) for row in rows] == [
        ("jdoe", "Jane Doe", "jdoe@example.com"),
        ("jdoe2", "", "jdoe2@example.com"),
    ]


def test_a_name_that_reads_as_a_formula_is_neutralised_in_the_csv(client, named):
    cohort, jane, _other = named
    jane.first_name, jane.last_name = "=HYPERLINK(evil)", ""
    jane.save()
    response = client.get(reverse("cohorts:export_matrix", args=[cohort.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0]["name"] == "'=HYPERLINK(evil)"
