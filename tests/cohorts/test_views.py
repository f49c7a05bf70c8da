"""Cohort pages: tabs as partials and plain links, CSV equal to the page, joining, constant query counts."""

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
from apps.quiz.models import Answer
from tests.conftest import PASSWORD, make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _cohort(instructor, *, students: int, cards: int, decks: int = 2):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    deck_list = []
    for d in range(decks):
        deck = make_deck(title=f"Deck {d}")
        for i in range(cards):
            make_card(deck=deck, question=f"Q{d}.{i}?", answer=f"Tool {i}")
        Assignment.objects.create(cohort=cohort, deck=deck, due_date=timezone.localdate() + timedelta(days=d * 5))
        deck_list.append(deck)
    for s in range(students):
        user = make_user(f"student{s:03d}")
        services.cohort_join(student=user, code=cohort.join_code)
        for deck in deck_list:
            session = quiz.session_start(user=user, deck=deck, size=cards, mode="mixed", order="random")
            for item in session.items.all()[: 1 + s % cards]:
                submission = (
                    quiz.Submission(option=(item.correct_option + s % 2) % 4)
                    if item.mode == "choice"
                    else quiz.Submission(response=item.card.answer if s % 3 else "=HYPERLINK(evil)")
                )
                quiz.answer_submit(user=user, session_id=session.pk, position=item.position, submission=submission)
    return cohort


def test_tabs_render_as_pages_and_as_htmx_partials(client, instructor, htmx):
    cohort = _cohort(instructor, students=3, cards=4)
    client.force_login(instructor)
    url = reverse("cohorts:dashboard", args=[cohort.pk])
    page = client.get(url).content.decode()
    assert "<html" in page and "student000" in page and 'aria-current="page">Students' in page
    for tab, marker in (("items", "Discrimination"), ("charts", "Answers per day, last 30 days")):
        full = client.get(url, {"tab": tab}).content.decode()
        partial = client.get(url, {"tab": tab}, **htmx).content.decode()
        assert "<html" in full and marker in full
        assert "<html" not in partial and partial.lstrip().startswith('<div id="panel">') and marker in partial
    sorted_html = client.get(url, {"sort": "-name"}, **htmx).content.decode()
    names = re.findall(r">(student\d{3})</a>", sorted_html)
    assert names == sorted(names, reverse=True)
    assert 'aria-sort="descending"' in sorted_html


def test_at_risk_filter(client, instructor):
    cohort = _cohort(instructor, students=3, cards=3)
    idle = make_user("idle")
    services.cohort_join(student=idle, code=cohort.join_code)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk]), {"flag": "inactive"}).content.decode()
    assert "idle" in html and "student000" not in html


def _page_cells(html: str) -> dict[str, list[str]]:
    rows = {}
    for name, cells in re.findall(r'<th scope="row"><a [^>]*>(student\d+)</a></th>(.*?)</tr>', html, re.S):
        rows[name] = re.findall(r"<td>([^<]*)</td>", cells)
    return rows


def _percent(fraction: str) -> str:
    return "—" if fraction == "" else f"{float(fraction) * 100:.0f} %"


def test_matrix_csv_has_the_same_numbers_as_the_page(client, instructor):
    cohort = _cohort(instructor, students=5, cards=4)
    client.force_login(instructor)
    page = _page_cells(client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode())
    response = client.get(reverse("cohorts:export_matrix", args=[cohort.pk]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    header, body = rows[0], rows[1:]
    assert header[:5] == ["student", "joined", "last_activity", "accuracy", "flags"]
    assert len(body) == 5
    for line in body:
        on_page = page[line[0]]
        # Plain cells after the name: accuracy, then three per deck (last activity is a <time>).
        assert on_page[0] == _percent(line[3])
        assert on_page[1:7] == [_percent(value) for value in line[5:11]]


def test_items_csv_has_the_same_numbers_as_the_page_and_neutralises_formulas(client, instructor):
    cohort = _cohort(instructor, students=6, cards=3)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk]), {"tab": "items"}).content.decode()
    rows = list(
        csv.DictReader(io.StringIO(client.get(reverse("cohorts:export_items", args=[cohort.pk])).content.decode()))
    )
    assert len(rows) == 6
    for row in rows:
        facility = _percent(row["facility"])
        pattern = (
            re.escape(row["question"]) + r".*?<td>" + re.escape(row["attempts"]) + r" .*?<td>" + re.escape(facility)
        )
        assert re.search(pattern, html, re.S), row
    wrong = " ".join(row["common_wrong_answers"] for row in rows)
    assert "hyperlink(evil)" in wrong
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row.values())


def test_join_through_an_invite_link_as_a_new_user(client, instructor):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    invite = reverse("cohorts:invite", args=[cohort.join_code])
    page = client.get(invite).content.decode()
    assert "Join Spring" in page and f"/accounts/signup/?next={invite}" in page
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "email": "n@example.com", "password1": PASSWORD + "!", "password2": PASSWORD + "!",
         "next": invite},
    )  # fmt: skip
    assert response["Location"] == invite
    response = client.post(invite, {"code": cohort.join_code})
    assert response.status_code == 303 and response["Location"] == reverse("quiz:progress")
    assert Membership.objects.get().student.username == "newbie"
    assert "Spring" in client.get(reverse("quiz:progress")).content.decode()


def test_join_with_a_wrong_code_is_a_form_error(client, student):
    client.force_login(student)
    response = client.post(reverse("cohorts:join"), {"code": "WRONG234"})
    assert response.status_code == 422
    assert "does not match any cohort" in response.content.decode()
    assert client.get(reverse("cohorts:invite", args=["GONE2345"])).status_code == 404


def test_my_progress_lists_cohorts_decks_due_dates_and_completion(client, instructor):
    cohort = _cohort(instructor, students=2, cards=4)
    student = Membership.objects.filter(cohort=cohort).order_by("student__username").last().student
    client.force_login(student)
    html = client.get(reverse("quiz:progress")).content.decode()
    assert "My cohorts" in html and "Spring" in html
    assert "Deck 0" in html and "Deck 1" in html
    assert "(2 of 4 cards)" in html
    assert timezone.localdate().strftime("%-d %b %Y") in html

    answered = Answer.objects.filter(user=student, card__deck__title="Deck 0").first().card
    answered.archived = True
    answered.save()
    html = client.get(reverse("quiz:progress")).content.decode()
    assert "(1 of 3 cards)" in html  # an archived card is no longer asked, so it counts on neither side


def test_student_drill_down_lists_answers(client, instructor):
    cohort = _cohort(instructor, students=3, cards=3)
    student = Membership.objects.get(cohort=cohort, student__username="student002").student
    client.force_login(instructor)
    html = client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode()
    assert "student002" in html and "Progress per deck" in html
    assert html.count("<time") >= 6
    assert "Answers (6)" in html


@pytest.mark.parametrize(("students", "cards"), [(2, 2), (8, 5)])
def test_pages_and_exports_use_a_constant_number_of_queries(
    client, instructor, django_assert_num_queries, students, cards
):
    cohort = _cohort(instructor, students=students, cards=cards)
    client.force_login(instructor)
    url = reverse("cohorts:dashboard", args=[cohort.pk])
    student = Membership.objects.filter(cohort=cohort).first().student_id
    for target, queries in [
        (url, 8),
        (url + "?tab=items", 8),
        (url + "?tab=items&sort=discrimination", 8),
        (url + "?tab=charts", 9),
        (reverse("cohorts:export_matrix", args=[cohort.pk]), 8),
        (reverse("cohorts:export_items", args=[cohort.pk]), 8),
        (reverse("cohorts:student", args=[cohort.pk, student]), 11),
    ]:
        with django_assert_num_queries(queries):
            assert client.get(target).status_code == 200
