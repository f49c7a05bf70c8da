"""Cohort pages as pages and as HTMX partials: the tabs, history restore, plain links that htmx boosts into the panel,
sort and page links, pages past the end and unknown sorts, the at-risk filter and column, due dates with or without
their year, and the constant number of queries of the pages and exports.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.cohorts import services
from apps.cohorts.models import Assignment, Membership
from tests.cohorts.views_support import _cohort, _table_rows, _text, _who
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


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


def _matrix_headers(html: str) -> list[str]:
    """The matrix's column headers in reading order: the first header row, each deck's title once."""
    head = re.search(r'<table class="data matrix">.*?<thead[^>]*>\s*<tr>(.*?)</tr>', html, re.S).group(1)
    return [_text(cell) for cell in re.findall(r"<th\b[^>]*>(.*?)</th>", head, re.S)]


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
