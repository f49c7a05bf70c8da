"""Shared by the assigned deck's extensions page tests (test_assignment_extensions_*.py): dates as the page shows
them and as a form takes them, a page's text, the page's and one extension's addresses, granting an extension, and
the table's rows and the students it offers.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

from django.urls import reverse
from django.utils import formats, timezone

from apps.cohorts import deadlines


def _day(value) -> str:
    return formats.date_format(value, "j M Y")


def _text(html: str) -> str:
    # <bdi> (a student's text, isolated) is part of its sentence; other tags are read as breaks.
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?bdi>", "", html))).split())


def _later(days: int) -> str:
    return (timezone.localdate() + timedelta(days=days)).isoformat()


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
