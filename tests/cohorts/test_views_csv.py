"""The matrix and items CSV exports: the same numbers, students and order as the page, the CSV link's count, formulas
neutralised, and the same discrimination, overrides and wrong answers as the items tab.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from decimal import ROUND_HALF_UP, Decimal
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.cohorts import analytics, services
from apps.cohorts.models import Membership
from tests.cohorts.views_support import _cohort, _csv_rows, _table_rows, _text, _who
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def _page_cells(html: str) -> dict[str, list[str]]:
    """Each matrix row's cells after the student's name, by name: at risk, last activity, accuracy, then the decks'."""
    return {_who(row): row[1:] for row in _table_rows(html.replace("\xa0", " "), "data matrix")}


def _percent(fraction: str) -> str:
    # Pages put a no-break space before "%"; the helpers here read it as a plain space.
    return "—" if fraction == "" else f"{float(fraction) * 100:.0f} %"


def test_matrix_csv_has_the_same_numbers_as_the_page(client, instructor):
    cohort = _cohort(instructor, students=5, cards=4)
    client.force_login(instructor)
    page = _page_cells(client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode())
    response = client.get(reverse("cohorts:export_matrix", args=[cohort.pk]))
    assert response["Content-Type"].startswith("text/csv")
    assert response.content.startswith(codecs.BOM_UTF8)  # or Excel reads the UTF-8 in a legacy code page
    # Students' names and emails: kept by no shared cache, nor in the browser's once downloaded.
    for export in ("cohorts:export_matrix", "cohorts:export_items"):
        assert "no-store" in client.get(reverse(export, args=[cohort.pk]))["Cache-Control"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header, body = rows[0], rows[1:]
    assert header[:7] == ["student", "name", "email", "joined_utc", "last_activity_utc", "accuracy", "flags"]
    assert len(body) == 5
    # Times as spreadsheets read them, a date and time, not ISO 8601's text ("2026-11-12T06:39:43.847277+00:00").
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", line[3]) for line in body)
    for line in body:
        on_page = page[line[0]]
        # After the name: at risk, last activity (in words), accuracy, then three per deck.
        assert on_page[0] == (" ".join(analytics.FLAGS[key] for key in line[6].split()) or "—")
        assert on_page[2] == _percent(line[5])
        assert on_page[3:9] == [_percent(value) for value in line[7:13]]


def _csv_link(html: str) -> tuple[str, str]:
    """The matrix's CSV link on a page: (its text, its href)."""
    link = re.search(r'<a href="([^"]*/export/matrix\.csv[^"]*)" download>(.*?)</a>', html)
    assert link, "no CSV link"
    return _text(link.group(2)), unescape(link.group(1))


@pytest.mark.parametrize(
    ("query", "text", "names"),
    [
        ({}, "Download (CSV), all 3 students", ["s1", "s2", "s3"]),
        ({"sort": "-name"}, "Download (CSV), all 3 students", ["s3", "s2", "s1"]),
        ({"flag": "any", "sort": "-name"}, "Download (CSV), 2 flagged students", ["s3", "s2"]),
        ({"flag": "low_accuracy", "sort": "accuracy"}, "Download (CSV), 1 flagged student", ["s3"]),
        ({"flag": "bogus", "sort": "bogus", "page": "9"}, "Download (CSV), all 3 students", ["s1", "s2", "s3"]),
    ],
)
def test_the_matrix_csv_link_exports_the_students_the_page_shows_in_its_order(client, hand, query, text, names):
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk]), query).content.decode()
    assert [_who(row) for row in _table_rows(html, "data matrix")] == names
    link_text, href = _csv_link(html)
    assert link_text == text
    response = client.get(href)
    assert response.status_code == 200
    assert [line[0] for line in list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))[1:]] == names
    flag = query.get("flag") if query.get("flag") in ("any", "low_accuracy") else None
    assert response["Content-Disposition"].endswith(f'-matrix{f"-{flag}" if flag else ""}.csv"')
    # The link carries the checked filter and sort, nothing else; a junk query asked of the CSV gets what the page got.
    assert "page=" not in href and "tab=" not in href and "bogus" not in href
    junk = client.get(reverse("cohorts:export_matrix", args=[hand.pk]), query)
    assert junk.content == response.content


def test_the_csv_link_counts_a_single_student(client, instructor):
    cohort = services.cohort_create(name="Seminar", instructor=instructor)
    services.cohort_join(student=make_user("solo"), code=cohort.join_code)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode()
    assert _csv_link(html)[0] == "Download (CSV), 1 student"  # not "Download this student (CSV)"


def test_no_csv_link_when_no_student_is_listed(client, hand):
    Membership.objects.filter(cohort=hand).update(removed_at=timezone.now())
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk])).content.decode()
    assert "0 students" in _text(html) and "export/matrix.csv" not in html


def test_items_csv_has_the_same_numbers_as_the_page_and_neutralises_formulas(client, instructor):
    cohort = _cohort(instructor, students=6, cards=3)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk]), {"tab": "items"}).content.decode()
    html = html.replace("\xa0", " ")
    rows = _csv_rows(client.get(reverse("cohorts:export_items", args=[cohort.pk])))
    assert len(rows) == 6
    for row in rows:
        facility = _percent(row["facility"])
        pattern = (
            re.escape(row["question"])
            + r".*?<td\b[^>]*>"
            + re.escape(row["attempts"])
            + r" .*?<td\b[^>]*>"
            + re.escape(facility)
        )
        assert re.search(pattern, html, re.S), row
    wrong = " ".join(row["common_wrong_answers"] for row in rows)
    assert "'=HYPERLINK(evil)" in wrong  # as written, neutralised
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row.values())


def _two_places(fraction: str) -> str:
    """A CSV fraction as the page shows a discrimination (floatformat:2, which rounds half up)."""
    return "—" if fraction == "" else str(Decimal(fraction).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _as_listed(joined: str, *, quoted: bool = True) -> list[str]:
    """CSV "text (count) | …" as the page lists it: “text” × count (a typed answer) or text × count (an option)."""
    if not joined:
        return []
    shown = r"“\1” × \2" if quoted else r"\1 × \2"
    return [re.sub(r"^(.*) \((\d+)\)$", shown, part) for part in joined.split(" | ")]


def test_items_csv_has_the_same_discrimination_overrides_and_wrong_answers_as_the_page(client, hand, monkeypatch):
    monkeypatch.setattr(analytics, "MIN_DISCRIMINATION_STUDENTS", 2)  # figures from three students, worked by hand
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk]), {"tab": "items"}).content.decode()
    page = {row[0]: row for row in _table_rows(html, "data items")}
    rows = _csv_rows(client.get(reverse("cohorts:export_items", args=[hand.pk])))
    assert len(rows) == len(page) == 4
    for row in rows:
        _card, attempts, facility, discrimination, overrides, wrong = next(
            cells for question, cells in page.items() if question.startswith(row["question"])
        )
        assert attempts.startswith(f"{row['attempts']} ({row['students']} student")
        assert facility.startswith(_percent(row["facility"]))
        assert discrimination.split(" ")[0] == _two_places(row["discrimination"])
        figure = None if row["discrimination"] == "" else float(row["discrimination"])
        assert ("weak" in discrimination) == (figure is not None and 0 <= figure < 0.2)
        assert ("check the key" in discrimination) == (figure is not None and figure < 0)
        assert overrides == _percent(row["override_rate"])
        typed, _, picked = wrong.partition("Wrong options picked:")
        assert re.findall(r"“[^”]*” × \d+", typed) == _as_listed(row["common_wrong_answers"])
        assert picked.strip() == " ".join(_as_listed(row["wrong_options_picked"], quoted=False))
        if not row["common_wrong_answers"] and not row["wrong_options_picked"]:
            assert wrong == "—"
    # The numbers worked out by hand, so that neither side can be empty or wrong in the same way.
    q1, q2, q3 = (next(row for row in rows if row["question"] == f"Q{i}?") for i in (1, 2, 3))
    assert (q1["discrimination"], q1["wrong_options_picked"]) == ("0.5000", "A Pod (1)")
    assert page["Q1? Ops #1"][3] == "0.50" and page["Q1? Ops #1"][5] == "Wrong options picked: A Pod × 1"
    assert q2["common_wrong_answers"] == "cronjob. (2)" and page["Q2? Ops #2"][5] == "“cronjob.” × 2"
    assert q3["override_rate"] == "0.5000" and page["Q3? Ops #3"][4] == "50 %"
    assert page["Q3? Ops #3"][3] == "— no spread in scores"  # every student scored 0 on it: undefined, not 0


def test_a_negative_discrimination_says_check_the_key_and_the_legend_says_why(client, hand, monkeypatch):
    """Q2: s1, the strongest, got it right and s2, s3 wrong, yet s2 did better than s1 on the rest: below 0."""
    monkeypatch.setattr(analytics, "MIN_DISCRIMINATION_STUDENTS", 2)
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk]), {"tab": "items"}).content.decode()
    page = {row[0]: row for row in _table_rows(html, "data items")}
    figure, badge = page["Q2? Ops #2"][3].split(" ", 1)
    assert float(figure) < 0 and badge == "check the key"  # not "weak", as a 0.10 is
    assert page["Q1? Ops #1"][3] == "0.50"
    legend = _text(re.search(r'<dl class="legend meta">(.*?)</dl>', html, re.S).group(1))
    assert "weak discrimination from 0 to 0.2" in legend
    assert (
        "check the key discrimination below 0: students who do well overall get this card wrong more often than "
        "those who don’t. Check its answer, accepted answers and distractors." in legend
    )
