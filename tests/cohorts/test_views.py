"""Cohort pages: tabs as partials and plain links, CSV equal to the page, joining, constant query counts."""

from __future__ import annotations

import codecs
import csv
import io
import re
import xml.etree.ElementTree as ET
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from html import unescape
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.cohorts import analytics, deadlines, services
from apps.cohorts.models import Assignment, Membership
from apps.content.models import Distractor
from apps.content.plaintext import plain_text
from apps.content.services import card_save
from apps.quiz import services as quiz
from apps.quiz.models import Answer
from tests.cohorts import handmade
from tests.cohorts.choices import choose
from tests.cohorts.handmade import make_hand_cohort
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


@pytest.fixture
def hand(client, instructor):
    """The hand-worked cohort of tests/cohorts/handmade.py, taught by `instructor`, who is signed in."""
    cohort = make_hand_cohort()
    cohort.instructors.add(instructor)
    client.force_login(instructor)
    return cohort


def _text(html: str) -> str:
    # <bdi> (a student's text, isolated) is part of its sentence; other tags are read as breaks.
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?bdi>", "", html))).split())


def _who(row: list[str]) -> str:
    """The student a matrix row is about: the user name, before the full name and email that follow it."""
    return row[0].split()[0]


def _table_rows(html: str, classes: str) -> list[list[str]]:
    """The text of each cell of each body row of the (first) <table class="{classes} ...">."""
    table = re.search(rf'<table class="{classes}(?: [^"]*)?"[^>]*>(.*?)</table>', html, re.S)
    assert table, f"no {classes} table"
    body = re.search(r"<tbody[^>]*>(.*?)</tbody>", table.group(1), re.S).group(1)
    return [
        [_text(cell) for cell in re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", body, re.S)
    ]


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
        assert "<html" not in partial and partial.lstrip().startswith('<div id="panel" ') and marker in partial
    sorted_html = client.get(url, {"sort": "-name"}, **htmx).content.decode()
    names = re.findall(r">(student\d{3})</a>", sorted_html)
    assert names == sorted(names, reverse=True)
    assert 'aria-sort="descending"' in sorted_html


def test_htmx_history_restore_gets_the_whole_page_and_both_answers_vary_on_htmx(client, instructor, htmx):
    """On Back, htmx (no history cache) refetches the URL with HX-Request and swaps the answer into <body>."""
    cohort = _cohort(instructor, students=2, cards=2)
    client.force_login(instructor)
    url = reverse("cohorts:dashboard", args=[cohort.pk])
    restore = {**htmx, "HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}
    for tab, marker in (("matrix", "student000"), ("items", "Discrimination"), ("charts", "Answers per day")):
        response = client.get(url, {"tab": tab}, **restore)
        html = response.content.decode()
        assert response.status_code == 200 and "<html" in html
        assert re.search(r'<header class="site-header"', html)
        assert re.search(r"<h1>\s*<bdi>Spring</bdi>\s*</h1>", html)
        assert html.count('<div id="panel" ') == 1 and marker in html
        partial = client.get(url, {"tab": tab}, **htmx)
        assert partial.content.decode().lstrip().startswith('<div id="panel" ')
        assert "<header" not in partial.content.decode()
        # The page and the partial share a URL: no cache, the browser's included, may hand one out for the other.
        for answer in (response, partial, client.get(url, {"tab": tab})):
            vary = {value.strip().lower() for value in answer.get("Vary", "").split(",")}
            assert {"hx-request", "hx-history-restore-request"} <= vary, answer.get("Vary")


class _Links(HTMLParser):
    """Each link of a page as (text, href, boosted): whether an ancestor has data-hx-boost="true"."""

    VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self, html: str) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.links: list[list] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        boosted = self.stack[-1][1] if self.stack else False
        if "data-hx-boost" in attrs:
            boosted = attrs["data-hx-boost"] == "true"
        if tag == "a":
            assert not any(name.startswith(("data-hx-", "hx-")) for name in attrs), attrs  # inherited, not repeated
            self.links.append(["", attrs.get("href"), boosted])
        if tag not in self.VOID:
            self.stack.append((tag, boosted))

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if any(tag == "a" for tag, _ in self.stack):
            self.links[-1][0] += data


def test_links_are_plain_links_that_htmx_boosts_into_the_panel(client, instructor, htmx):
    cohort = _cohort(instructor, students=2, cards=2)
    client.force_login(instructor)
    url = reverse("cohorts:dashboard", args=[cohort.pk])
    for tab, boosted_count in (("matrix", 3 + 5 + 4 + 3 * 2), ("items", 3 + 4), ("charts", 3)):
        partial = client.get(url, {"tab": tab}, **htmx).content.decode()
        # Target, swap and history are set once on the panel and inherited by the links inside.
        assert '<div id="panel" data-hx-target="this" data-hx-swap="outerHTML" data-hx-push-url="true">' in partial
        links = _Links(partial).links
        assert all(href for _text, href, _boosted in links)  # every link works without JavaScript
        # Tabs, filters, column headers (and pagers) swap the panel; the CSV and the links out of it do not.
        assert [text.strip() for text, _href, boosted in links if boosted][:3] == [
            "Students",
            "Item statistics",
            "Charts",
        ]
        assert sum(boosted for *_rest, boosted in links) == boosted_count
        assert not any(boosted for text, href, boosted in links if "export" in href or "/students/" in href)
        assert not any(boosted for text, href, boosted in links if "/admin/" in href)


def test_sort_and_page_links_keep_the_other_parameters(client, instructor):
    cohort = _cohort(instructor, students=1, cards=26)  # 52 cards: two pages of items
    client.force_login(instructor)
    url = reverse("cohorts:dashboard", args=[cohort.pk])
    html = client.get(url, {"tab": "items", "sort": "-attempts"}).content.decode()
    assert 'aria-sort="descending"' in html and "Page 1 of 2" in html
    assert 'href="?tab=items&amp;sort=-attempts&amp;page=2">Next →</a>' in html
    html = client.get(url, {"tab": "items", "sort": "-attempts", "page": "2"}).content.decode()
    assert "Page 2 of 2" in html
    assert 'href="?tab=items&amp;sort=-attempts&amp;page=1">← Previous</a>' in html
    # A column header sorts from the first page again, the other way round if it is the current sort.
    assert 'href="?tab=items&amp;sort=attempts">Attempts</a>' in html
    assert 'href="?tab=items&amp;sort=-overrides">Overrides</a>' in html
    html = client.get(url, {"tab": "items", "sort": "-overrides"}).content.decode()
    assert 'href="?tab=items&amp;sort=overrides">Overrides</a>' in html
    ascending = client.get(url, {"tab": "items", "sort": "overrides"}).content.decode()
    assert re.search(r'<th scope="col" aria-sort="ascending"><a [^>]*>Overrides</a>', ascending)
    # With no sort asked, the items are hardest first: the Facility header says so and flips it.
    html = client.get(url, {"tab": "items"}).content.decode()
    facility = r'<a id="sort-facility" href="\?tab=items&amp;sort=-facility">Facility</a>'
    assert re.search(r'<th scope="col" aria-sort="ascending">' + facility, html)


def test_an_items_page_past_the_end_shows_the_last_page_as_the_matrix_does(client, instructor):
    cohort = _cohort(instructor, students=1, cards=26)  # 52 cards: two pages of items
    client.force_login(instructor)
    url = reverse("cohorts:dashboard", args=[cohort.pk])
    last = client.get(url, {"tab": "items", "page": "2"}).content.decode()
    for page in ("5", "1000000", "99999999999"):
        html = client.get(url, {"tab": "items", "page": page}).content.decode()
        assert "Page 2 of 2" in html and "No cards yet" not in html
        assert (
            _table_rows(html, "data items") == _table_rows(last, "data items")
            and len(_table_rows(html, "data items")) == 2
        )
        assert 'href="?tab=items&amp;page=1">← Previous</a>' in html  # back from where the page really is


def test_one_page_of_items_past_the_end_is_that_page(client, hand):
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk]), {"tab": "items", "page": "5"}).content.decode()
    assert "4 cards" in _text(html) and "No cards yet" not in html
    assert len(_table_rows(html, "data items")) == 4


def test_an_unknown_sort_shows_the_default_order_on_either_tab(client, hand):
    url = reverse("cohorts:dashboard", args=[hand.pk])
    deck_id = Assignment.objects.filter(cohort=hand).first().deck_id
    tabs = (("matrix", "data matrix", "name", "Student"), ("items", "data items", "facility", "Facility"))
    for tab, table, default, header in tabs:
        expected = _table_rows(client.get(url, {"tab": tab}).content.decode(), table)
        for junk in ("bogus", "--name", "-", f"deck-{deck_id}-bogus", "deck-999999-accuracy", "-attempts\n"):
            response = client.get(url, {"tab": tab, "sort": junk})
            assert response.status_code == 200, junk
            html = response.content.decode()
            assert _table_rows(html, table) == expected, junk
            # The header shows the order used, not the one asked for, and its link flips that order.
            assert re.search(
                rf'aria-sort="ascending"><a id="sort-{default}" href="[^"]*sort=-{default}">{header}</a>', html
            ), junk


def test_at_risk_filter(client, instructor):
    cohort = _cohort(instructor, students=3, cards=3)
    idle, newcomer = make_user("idle"), make_user("newcomer")
    services.cohort_join(student=idle, code=cohort.join_code)
    Membership.objects.filter(student=idle).update(joined_at=timezone.now() - timedelta(days=8))
    services.cohort_join(student=newcomer, code=cohort.join_code)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk]), {"flag": "inactive"}).content.decode()
    # A week in the cohort without an answer is inactive; having joined a moment ago is not.
    assert [_who(row) for row in _table_rows(html, "data matrix")] == ["idle"]


@pytest.mark.parametrize(
    ("flag", "shown", "badge"),
    [
        ("", ["s1", "s2", "s3"], None),
        ("any", ["s2", "s3"], None),
        ("low_accuracy", ["s3"], "Accuracy under 50 %"),  # 25 %; s2 has 50 %, which is not under
        ("behind", ["s2"], "Behind on a deck overdue or due within 3 days"),  # 2 of 3 cards of a deck due in two days
        ("inactive", ["s2"], "Inactive for 7 days"),
    ],
)
def test_at_risk_filter_shows_exactly_the_flagged_students(client, hand, flag, shown, badge):
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk]), {"flag": flag} if flag else {}).content.decode()
    rows = {_who(row): row for row in _table_rows(html, "data matrix")}
    assert sorted(rows) == shown
    if badge:
        assert all(badge in row[1] for row in rows.values())  # the column after the name
    meta = f"{len(shown)} student{'s' if len(shown) != 1 else ''}{' flagged' if flag else ''}"
    assert meta in _text(html)
    # The filter links keep the sort; the sort links keep the filter.
    sorted_html = client.get(
        reverse("cohorts:dashboard", args=[hand.pk]), {"flag": flag, "sort": "-name"} if flag else {"sort": "-name"}
    ).content.decode()
    assert [_who(row) for row in _table_rows(sorted_html, "data matrix")] == sorted(shown, reverse=True)
    if flag:
        assert f'href="?flag={flag}&amp;sort=name"' in sorted_html  # the Student column flips back, filter kept
        assert 'href="?flag=any&amp;sort=-name&amp;tab=matrix"' in sorted_html


def test_an_unknown_filter_shows_every_student_unfiltered(client, hand):
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk]), {"flag": "bogus"}).content.decode()
    assert sorted(_who(row) for row in _table_rows(html, "data matrix")) == ["s1", "s2", "s3"]
    assert "3 students" in _text(html) and "flagged" not in _text(html)


def test_at_risk_is_the_column_next_to_the_student_not_after_every_deck(client, hand):
    """With decks assigned the matrix scrolls sideways: the flags must not be the column scrolled out of sight."""
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk])).content.decode()
    headers = _matrix_headers(html)
    assert headers[:4] == ["Student", "At risk", "Last activity", "Accuracy"]
    assert [header.split(" due ")[0] for header in headers[4:]] == ["Ops", "Empty"]  # then the decks, in due order
    rows = {_who(row): row for row in _table_rows(html, "data matrix")}
    assert rows["s2"][1].startswith("Inactive for 7 days Behind on a deck") and rows["s1"][1] == "—"


def test_a_due_date_shows_its_year_unless_it_is_this_year(client, hand):
    ops = hand.assignments.get(deck__title="Ops")
    url = reverse("cohorts:dashboard", args=[hand.pk])
    this_year = timezone.localdate().replace(month=3, day=5)
    for due, shown in ((date(2020, 1, 1), "due 1 Jan 2020"), (this_year, "due 5 Mar")):
        ops.due_date = due
        ops.save()
        html = client.get(url).content.decode()
        assert _matrix_headers(html)[4] == f"Ops {shown} · extensions of Ops"
        assert f'<time datetime="{due.isoformat()}">' in html
    # An overdue deck is "behind" too, and the flag says so.
    ops.due_date = date(2020, 1, 1)
    ops.save()
    html = client.get(url, {"flag": "behind"}).content.decode()
    assert [_who(row) for row in _table_rows(html, "data matrix")] == ["s2"]
    assert "Behind on a deck overdue or due within 3 days" in _table_rows(html, "data matrix")[0][1]


def _page_cells(html: str) -> dict[str, list[str]]:
    """Each matrix row's cells after the student's name, by name: at risk, last activity, accuracy, then the decks'."""
    return {_who(row): row[1:] for row in _table_rows(html.replace("\xa0", " "), "data matrix")}


def _matrix_headers(html: str) -> list[str]:
    """The matrix's column headers in reading order: the first header row, each deck's title once."""
    head = re.search(r'<table class="data matrix">.*?<thead[^>]*>\s*<tr>(.*?)</tr>', html, re.S).group(1)
    return [_text(cell) for cell in re.findall(r"<th\b[^>]*>(.*?)</th>", head, re.S)]


def _percent(fraction: str) -> str:
    # Pages put a no-break space before "%"; the helpers here read it as a plain space.
    return "—" if fraction == "" else f"{float(fraction) * 100:.0f} %"


def _csv_rows(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


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


TEX_QUESTION = (
    r"Evaluate `torch.cuda.amp` with inline $\sigma(x)=\frac{1}{1+e^{-x}}$ and display"
    "\n\n$$\n\\mathbf{W}_q x^2 \\cdot \\sqrt{d_k}\n$$\n\nas in [the docs](https://pytorch.org/docs). Why?"
)
TEX_PLAIN = "Evaluate torch.cuda.amp with inline σ(x)=1/(1+e^(−x)) and display W_q x^2⋅√(d_k) as in the docs. Why?"


def _card_cell(html: str, card_id: int) -> str:
    """The row header of the card's row: its title link and where it is."""
    link = reverse("admin:content_card_change", args=[card_id])
    cells = re.findall(r'<th scope="row">(.*?)</th>', html, re.S)
    return next(cell for cell in cells if f'href="{link}"' in cell)


def _shown(cell: str) -> str:
    """What the eye reads in a cell: its text without the MathML a formula carries for screen readers."""
    return _text(re.sub(r'<span class="katex-mathml">.*?</math></span>', "", cell, flags=re.S))


def test_a_card_is_named_by_its_typeset_question_on_the_items_tab_and_the_drill_down_and_as_text_in_the_csv(
    client, hand
):
    """Not its Markdown and TeX source cut mid-formula ("… $\\sigma(x)=…$$\\m…"), as the QA review found."""
    ops = hand.assignments.get(deck__title="Ops").deck
    card = make_card(deck=ops, question=TEX_QUESTION, answer="Mixed precision")
    s1 = Membership.objects.get(cohort=hand, student__username="s1").student
    handmade.answer(s1, card, 1.0, response="mixed precision")
    items = client.get(reverse("cohorts:dashboard", args=[hand.pk]), {"tab": "items"}).content.decode()
    drill = client.get(reverse("cohorts:student", args=[hand.pk, s1.pk])).content.decode()
    for html, where in ((items, "Ops #5"), (drill, "Ops · v1 · free recall")):
        cell = _card_cell(html, card.pk)
        # The formulas typeset (KaTeX), the code as code, and none of the source's $ or TeX commands in sight.
        assert cell.count('<span class="katex">') == 2 and "<code>torch.cuda.amp</code>" in cell
        assert "$" not in cell and "\\sigma" not in _shown(cell) and "\\frac" not in _shown(cell)
        shown = _shown(cell)
        assert shown.startswith("Evaluate torch.cuda.amp with inline σ ( x ) =") and "as in the docs. Why?" in shown
        # One link: the card's own links are unwrapped to their text, as a link cannot hold another.
        assert cell.count("<a ") == 1 and re.match(r'<a class="card-title" href="[^"]+">', cell)
        assert shown.endswith(where)
    rows = csv.DictReader(io.StringIO(client.get(reverse("cohorts:export_items", args=[hand.pk])).content.decode()))
    questions = [row["question"] for row in rows]
    assert TEX_PLAIN in questions and "Q1?" in questions
    assert not any("$" in q or "<" in q or "\\" in q for q in questions)


MATH_OPTION = r"The $\lVert x \rVert_1$ norm of `x`"


def _wrong_cell(html: str, card_id: int) -> str:
    """The "Common wrong answers" cell (the last) of the card's row, as HTML."""
    link = reverse("admin:content_card_change", args=[card_id])
    row = next(row for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", html, re.S) if f'href="{link}"' in row)
    return re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S)[-1]


def test_a_wrong_option_picked_is_typeset_as_the_student_saw_it_even_after_an_edit_and_read_as_text_in_the_csv(
    client, instructor, student, django_assert_num_queries
):
    """Not its Markdown and TeX source ("$\\lVert x \\rVert_1$", backticks), as the page used to list it."""
    deck = make_deck(title="Norms")
    card = make_card(deck=deck, question="Which norm is the largest absolute value?", answer="The max norm")
    for i in range(4):
        make_card(deck=deck, question=f"Other {i}?", answer=f"Norm {i}")
    card_save(card=card, distractors=[MATH_OPTION])
    seen = Distractor.objects.get(card=card).text_html
    cohort = services.cohort_create(name="Norms", instructor=instructor)
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    services.cohort_join(student=student, code=cohort.join_code)
    choose(student, deck=deck, card=card, text=MATH_OPTION)
    # The instructor rewrites the distractor since: the statistics still show what the student was shown.
    card_save(card=card, distractors=[r"The $\lVert x \rVert_2$ norm"])
    client.force_login(instructor)
    with django_assert_num_queries(8):  # as for any cohort (test_pages_and_exports_use_a_constant_number_of_queries)
        html = client.get(reverse("cohorts:dashboard", args=[cohort.pk]), {"tab": "items"}).content.decode()
    cell = _wrong_cell(html, card.pk)
    assert seen in cell and cell.count('<span class="katex">') == 1 and "<code>x</code>" in cell
    assert "$" not in cell and "`" not in cell and "rVert_2" not in cell
    assert "\\lVert" not in _shown(cell) and _shown(cell).endswith("norm of x × 1")
    rows = _csv_rows(client.get(reverse("cohorts:export_items", args=[cohort.pk])))
    picked = next(row for row in rows if row["question"] == "Which norm is the largest absolute value?")
    assert picked["wrong_options_picked"] == f"{plain_text(seen)} (1)" == "The ∥x∥_1 norm of x (1)"


def test_discrimination_from_too_few_students_is_a_dash_that_says_so(client, hand):
    """Three students: a figure such as "-1.00 weak" would be noise, so neither the page nor the CSV gives one."""
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk]), {"tab": "items"}).content.decode()
    page = {row[0]: row for row in _table_rows(html, "data items")}
    assert page["Q1? Ops #1"][3] == "— too few students" and "weak" not in page["Q1? Ops #1"][3]
    assert re.search(r'<span title="Too few students: shown once 5 have answered it">—', html)
    assert "shown once 5 students have answered it" in _text(html)
    rows = _csv_rows(client.get(reverse("cohorts:export_items", args=[hand.pk])))
    assert {row["discrimination"] for row in rows} == {""}


def test_charts_are_labelled_images_with_their_numbers_in_a_table(client, hand):
    html = client.get(reverse("cohorts:dashboard", args=[hand.pk]), {"tab": "charts"}).content.decode()
    svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
    tables = re.findall(r'<details class="chart-data">(.*?)</details>', html, re.S)
    assert len(svgs) == len(tables) == 2
    charts = {}
    for markup, table in zip(svgs, tables, strict=True):
        svg = ET.fromstring(markup)  # noqa: S314 - our own page
        assert svg.get("role") == "img"
        # Its accessible name and description are its own <title> and <desc>, which are not empty.
        title, desc = svg.find("title"), svg.find("desc")
        assert svg.get("aria-labelledby").split() == [title.get("id"), desc.get("id")]
        assert title.text.strip() and desc.text.strip()
        # The same numbers as a table (in a <details>, for screen readers and for anyone who wants them).
        rows = _table_rows(table, "data")
        bars = [rect.find("title").text for rect in svg.iter("rect")]
        assert [f"{label}: {value}" for label, value in rows] == bars
        assert _text(re.search(r"<summary>(.*?)</summary>", table).group(1)) == f"{title.text} as a table"
        charts[title.text] = (desc.text, {label: int(value) for label, value in rows})
    activity_desc, per_day = charts["Answers per day, last 30 days"]
    assert len(per_day) == 30 and sum(per_day.values()) == 9  # the removed student and the outsider do not count
    assert activity_desc.startswith("9 answers in the last 30 days; the busiest day was") and "with 7." in activity_desc
    accuracy_desc, bands = charts["Distribution of student accuracy"]
    assert [bands[f"{10 * i}–{10 * (i + 1)} %"] for i in range(10)] == [0, 0, 1, 0, 0, 1, 1, 0, 0, 0]
    assert accuracy_desc == "Students with answers, by accuracy band: 3; without answers yet: 0."


def test_a_cohort_without_answers_says_so_instead_of_drawing_empty_charts(client, instructor, student):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    services.cohort_join(student=student, code=cohort.join_code)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk]), {"tab": "charts"}).content.decode()
    assert "No answers yet: the charts fill in as the cohort's students answer its decks." in html
    assert "<svg" not in html


def test_join_through_an_invite_link_as_a_new_user(client, instructor):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    invite = reverse("cohorts:invite", args=[cohort.join_code])
    page = client.get(invite).content.decode()
    assert "Join <bdi>Spring</bdi>" in page and f"/accounts/signup/?next={invite}" in page
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


def test_my_progress_flags_a_deadline_passed_or_near_until_every_card_is_attempted(client, instructor):
    cohort = _cohort(instructor, students=2, cards=4, decks=1)  # the student002... of two: 2 of 4 attempted
    student = Membership.objects.filter(cohort=cohort).order_by("student__username").last().student
    client.force_login(student)
    today = timezone.localdate()

    def deadline_cell(due) -> str:
        Assignment.objects.filter(cohort=cohort).update(due_date=due)
        html = client.get(reverse("quiz:progress")).content.decode()
        return re.search(r'<td data-label="Deadline">(.*?)</td>', html, re.S).group(1)

    assert 'class="badge badge-incorrect">Overdue<' in deadline_cell(today - timedelta(days=2))
    assert ">Due today<" in deadline_cell(today)
    assert ">Due in 3 days<" in deadline_cell(today + timedelta(days=3))
    assert "badge" not in deadline_cell(today + timedelta(days=4))
    deck = Assignment.objects.get(cohort=cohort).deck
    session = quiz.session_start(user=student, deck=deck, size=4, mode="recall", order="new")
    for item in session.items.all():
        quiz.answer_submit(user=student, session_id=session.pk, position=item.position,
                           submission=quiz.Submission(response="no idea"))  # fmt: skip
    assert "badge" not in deadline_cell(today - timedelta(days=2))  # every card attempted: nothing to chase
    html = client.get(reverse("quiz:progress")).content.decode()
    assert "Every card attempted" in html and ">Done<" not in html


def test_student_drill_down_lists_answers(client, instructor):
    cohort = _cohort(instructor, students=3, cards=3)
    student = Membership.objects.get(cohort=cohort, student__username="student002").student
    client.force_login(instructor)
    html = client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode()
    assert "student002" in html and "Progress per deck" in html
    assert html.count("<time") >= 6
    assert "Answers (6)" in html


def test_student_drill_down_past_the_last_page_shows_the_last_page(client, hand):
    s3 = Membership.objects.get(cohort=hand, student__username="s3").student
    html = client.get(reverse("cohorts:student", args=[hand.pk, s3.pk]), {"page": "7"}).content.decode()
    assert len(_table_rows(html, "data answers stack-on-phone")) == 4 and "Answers (4)" in html


def test_student_drill_down_shows_each_response_with_its_verdict_and_override(client, hand):
    s3 = Membership.objects.get(cohort=hand, student__username="s3").student
    html = client.get(reverse("cohorts:student", args=[hand.pk, s3.pk])).content.decode()
    answers = {(row[1].split(" ")[0], row[2]): row for row in _table_rows(html, "data answers stack-on-phone")}
    assert len(answers) == 4 and "Answers (4)" in html
    # When, card, response, the grader's verdict and score, the student's override, time.
    assert answers["Q2?", "cronjob."][3:5] == ["Incorrect 0 %", "—"]
    assert answers["Q3?", "Job"][3:5] == ["Correct 100 %", "Incorrect"]  # graded right, overridden by the student
    assert answers["Q1?", "x"][3] == "Correct 100 %"
    assert answers["Q1?", "A Pod"][3] == "Incorrect 0 %" and "multiple choice" in answers["Q1?", "A Pod"][1]
    assert "Accuracy under 50 %" in _text(html) and "accuracy 25 %" in _text(html)


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
        (url + "?tab=charts", 5),  # 9 when it built the whole matrix for one accuracy per student
        (reverse("cohorts:export_matrix", args=[cohort.pk]), 8),
        (reverse("cohorts:export_items", args=[cohort.pk]), 8),
        (reverse("cohorts:student", args=[cohort.pk, student]), 11),
    ]:
        with django_assert_num_queries(queries):
            assert client.get(target).status_code == 200


def test_last_activity_reads_in_words_or_never(client, instructor):
    cohort = _cohort(instructor, students=2, cards=2)
    idle = make_user("idle")
    services.cohort_join(student=idle, code=cohort.join_code)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode()
    rows = {_who(row): row for row in _table_rows(html, "data matrix")}
    recent = " ".join(rows["student000"])
    assert re.search(r"\b(now|(a|\d+) seconds? ago)\b", recent) and "0 minutes" not in recent  # timesince's "0 minutes"
    assert "never" in rows["idle"]


def test_a_new_join_code_takes_a_second_step_that_says_what_it_breaks(client, instructor):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:manage", args=[cohort.pk])).content.decode()
    step = re.search(r'<details class="confirm">(.*?)</details>', html, re.S)
    assert step and "every invite link already sent stop working" in step.group(1)
    assert f'action="{reverse("cohorts:code", args=[cohort.pk])}"' in step.group(1)
    old = cohort.join_code
    client.post(reverse("cohorts:code", args=[cohort.pk]))
    cohort.refresh_from_db()
    assert cohort.join_code != old


def test_removing_a_student_or_unassigning_a_deck_takes_a_second_step_that_says_what_it_loses(client, hand):
    """As for a new join code: the buttons that act are inside a closed <details>, after the consequences."""
    url = reverse("cohorts:manage", args=[hand.pk])
    html = client.get(url).content.decode()
    ops = Assignment.objects.get(cohort=hand, deck__title="Ops")
    s1 = Membership.objects.get(cohort=hand, student__username="s1").student
    steps = re.findall(r'<details class="confirm">(.*?)</details>', html, re.S)
    # Every form of the page that removes something is inside one of them, never a button in the table.
    removing = re.findall(r'<form method="post" action="[^"]*/remove/"', html)
    assert len(removing) == 2 + 3 and len(re.findall(r'action="[^"]*/remove/"', "".join(steps))) == 5
    unassign = next(step for step in steps if reverse("cohorts:assignment_remove", args=[hand.pk, ops.deck_id]) in step)
    assert _text(re.search(r"<summary>(.*?)</summary>", unassign).group(1)) == "Unassign… Ops"
    due = ops.due_date.strftime("%-d %b %Y")
    assert f"its due date, {due}, is forgotten" in _text(unassign) and "Their answers are kept" in _text(unassign)
    assert re.search(r'<button type="submit" class="button-secondary">Unassign Ops</button>', unassign)
    remove = next(step for step in steps if reverse("cohorts:student_remove", args=[hand.pk, s1.pk]) in step)
    assert _text(re.search(r"<summary>(.*?)</summary>", remove).group(1)) == "Remove… s1"
    assert "s1 leaves Hand" in _text(remove) and "if they join again with the code" in _text(remove)
    # The second step is the POST itself, as before: it works without JavaScript.
    assert client.post(reverse("cohorts:student_remove", args=[hand.pk, s1.pk])).status_code == 303
    assert Membership.objects.get(cohort=hand, student=s1).removed_at is not None


def _messages(html: str) -> list[str]:
    return [_text(m) for m in re.findall(r'<li class="message[^"]*">(.*?)</li>', html, re.S)]


def test_unassigning_a_deck_that_is_not_assigned_says_so_and_changes_nothing(client, hand):
    """A second click on Unassign (or a stale page) is not told "no longer assigned" a second time."""
    ops = Assignment.objects.get(cohort=hand, deck__title="Ops")
    url = reverse("cohorts:assignment_remove", args=[hand.pk, ops.deck_id])
    response = client.post(url, follow=True)
    assert response.redirect_chain == [(reverse("cohorts:manage", args=[hand.pk]), 303)]
    assert _messages(response.content.decode()) == ["Ops is no longer assigned to Hand; students' answers are kept."]
    before = list(Assignment.objects.order_by("pk").values_list("cohort_id", "deck_id", "due_date"))
    for deck_id, named in ((ops.deck_id, "Ops"), (987654, "That deck")):
        response = client.post(reverse("cohorts:assignment_remove", args=[hand.pk, deck_id]), follow=True)
        html = response.content.decode()
        assert _messages(html) == [f"{named} was not assigned to Hand; nothing changed."]
        assert "no longer assigned" not in html
    assert list(Assignment.objects.order_by("pk").values_list("cohort_id", "deck_id", "due_date")) == before


@pytest.mark.parametrize("due", ["0001-01-01", "1999-12-31", "9999-12-31", "far past", "far future"])
def test_a_due_date_far_in_the_past_or_future_is_refused_with_the_range_and_nothing_is_saved(client, hand, due):
    today = timezone.localdate()
    due = {"far past": str(today - timedelta(days=366)), "far future": str(today + timedelta(days=5 * 366))}.get(
        due, due
    )
    deck = make_deck(title="Fresh")
    before = list(Assignment.objects.order_by("pk").values_list("cohort_id", "deck_id", "due_date"))
    response = client.post(reverse("cohorts:assignment_add", args=[hand.pk]), {"deck": deck.pk, "due_date": due})
    html = response.content.decode()
    assert response.status_code == 422
    earliest = today - timedelta(days=365)
    latest = date(today.year + 5, today.month, 28 if (today.month, today.day) == (2, 29) else today.day)
    error = (
        f"Choose a due date from {earliest:%-d %b %Y} to {latest:%-d %b %Y}: "
        "at most a year ago and at most five years ahead."
    )
    assert error in _text(html) and "is assigned" not in html
    assert f'min="{earliest.isoformat()}"' in html and f'max="{latest.isoformat()}"' in html
    assert list(Assignment.objects.order_by("pk").values_list("cohort_id", "deck_id", "due_date")) == before
    # An existing assignment keeps its date too: the refused date does not reach it.
    ops = Assignment.objects.get(cohort=hand, deck__title="Ops")
    client.post(reverse("cohorts:assignment_add", args=[hand.pk]), {"deck": ops.deck_id, "due_date": due})
    assert Assignment.objects.get(pk=ops.pk).due_date == ops.due_date


def test_a_due_date_at_either_end_of_the_range_or_none_is_accepted(client, hand):
    today = timezone.localdate()
    ops = Assignment.objects.get(cohort=hand, deck__title="Ops")
    for due in (today - timedelta(days=365), today, today + timedelta(days=5 * 365), None):
        response = client.post(
            reverse("cohorts:assignment_add", args=[hand.pk]), {"deck": ops.deck_id, "due_date": due or ""}, follow=True
        )
        assert _messages(response.content.decode())[0].startswith(("Ops is now due", "Ops no longer has a due date"))
        assert Assignment.objects.get(pk=ops.pk).due_date == due


def test_assigning_says_what_happened_to_the_due_date(client, hand):
    """One form assigns a deck and changes its due date: sent with the date empty, it takes the due date away,
    which the message must say rather than a bare "is assigned"."""
    deck = make_deck(title="Fresh")
    url = reverse("cohorts:assignment_add", args=[hand.pk])

    def said(due: str) -> str:
        (message,) = _messages(client.post(url, {"deck": deck.pk, "due_date": due}, follow=True).content.decode())
        return message

    first, second = timezone.localdate() + timedelta(days=7), timezone.localdate() + timedelta(days=14)
    assert said(str(first)) == f"Fresh is assigned, due {first:%-d %b %Y}."
    assert said(str(first)) == f"Fresh was assigned already, due {first:%-d %b %Y}: nothing changed."
    assert said(str(second)) == f"Fresh is now due {second:%-d %b %Y} (was {first:%-d %b %Y})."
    assert said("") == f"Fresh no longer has a due date (it was due {second:%-d %b %Y})."
    assert said("") == "Fresh was assigned already, with no due date: nothing changed."
    assert said(str(first)) == f"Fresh is now due {first:%-d %b %Y} (had no due date)."
    Assignment.objects.filter(cohort=hand, deck=deck).delete()
    assert said("") == "Fresh is assigned, with no due date."


def test_an_invite_link_opened_by_someone_already_in_the_cohort_says_so_instead_of_offering_to_join(
    client, instructor, student
):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    services.cohort_join(student=student, code=cohort.join_code)
    invite = reverse("cohorts:invite", args=[cohort.join_code])
    for user, onward, link in (
        (student, reverse("quiz:progress"), "See your progress"),
        (instructor, reverse("cohorts:dashboard", args=[cohort.pk]), "Open the <bdi>Spring</bdi> dashboard"),
    ):
        client.force_login(user)
        response = client.get(invite)
        html = response.content.decode()
        assert response.status_code == 200
        assert re.search(r"<h1>You’re already in <bdi>Spring</bdi></h1>", html)
        assert f'<a class="button" href="{onward}">{link}</a>' in html
        assert "<form" not in re.search(r"<main\b.*</main>", html, re.S).group(0)  # no Join button
        # The join code typed in (or an old invite page's button) does not say "You joined" again, nor fail.
        response = client.post(reverse("cohorts:join"), {"code": cohort.join_code}, follow=True)
        assert response.redirect_chain == [(onward, 303)]
        assert (
            "You’re already in <bdi>Spring</bdi>." in response.content.decode()
            and "You joined" not in response.content.decode()
        )
    assert Membership.objects.filter(cohort=cohort).count() == 1


def test_a_removed_student_can_join_again_through_the_invite_link(client, instructor, student):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    services.cohort_join(student=student, code=cohort.join_code)
    services.cohort_remove_student(cohort=cohort, student_id=student.pk)
    client.force_login(student)
    invite = reverse("cohorts:invite", args=[cohort.join_code])
    button = '<button type="submit" aria-describedby="join-notice">Join <bdi>Spring</bdi></button>'
    assert button in client.get(invite).text
    response = client.post(invite, {"code": cohort.join_code}, follow=True)
    assert "You joined <bdi>Spring</bdi>." in response.content.decode()


LONG_OPTION = "Because it regularizes: dividing each micro-batch loss by $N$ acts like a smaller learning rate. " * 2


def test_a_long_wrong_option_or_answer_offers_its_whole_text_and_a_short_one_does_not(client, instructor, student):
    deck = make_deck(title="Accumulation")
    card = make_card(deck=deck, question="Why divide the loss by N?", answer="To average the gradients")
    short = make_card(deck=deck, question="What is summed?", answer="Gradients")
    for i in range(4):
        make_card(deck=deck, question=f"Other {i}?", answer=f"Thing {i}")
    card_save(card=card, distractors=[LONG_OPTION])
    card_save(card=short, distractors=["Weights"])
    cohort = services.cohort_create(name="Steps", instructor=instructor)
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    services.cohort_join(student=student, code=cohort.join_code)
    choose(student, deck=deck, card=card, text=LONG_OPTION)
    choose(student, deck=deck, card=short, text="Weights")
    typed = "the optimizer takes one step per micro-batch, so the loss must be smaller for each one of them"
    session = quiz.session_start(user=student, deck=deck, size=6, mode="recall", order="random")
    item = session.items.get(card=card)
    quiz.answer_submit(
        user=student, session_id=session.pk, position=item.position, submission=quiz.Submission(response=typed)
    )
    client.force_login(instructor)
    html = client.get(reverse("cohorts:dashboard", args=[cohort.pk]), {"tab": "items"}).content.decode()
    long_cell, short_cell = _wrong_cell(html, card.pk), _wrong_cell(html, short.pk)
    # The option stays clamped (app.css) with its count after it; "Show all" follows, and lifts the clamp.
    option = re.search(r'<li><div class="wrong-option prose">(.*?)</div> × 1(.*?)</li>', long_cell, re.S)
    assert option and "regularizes" in option.group(1)
    assert re.fullmatch(
        r'<details class="wrong-full"><summary><span class="if-closed">Show all</span>.*</summary></details>',
        option.group(2),
    )
    assert "wrong-full" not in short_cell and "Weights</p></div> × 1</li>" in short_cell
    # A typed answer is cut at 60 characters; its whole text is in its title and behind "Show all".
    answer = re.search(
        r"<li><span title=\"([^\"]*)\">“<bdi>([^”]*)</bdi>”</span> × 1"
        r"<details class=\"wrong-full\">(.*?)</details></li>",
        long_cell,
    )
    assert answer and answer.group(1) == typed and answer.group(2).endswith("…") and len(answer.group(2)) == 60
    assert f"“<bdi>{typed}</bdi>”" in answer.group(3)
