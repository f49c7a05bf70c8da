"""CSV exports of the dashboard: the same computations as the page, every row (of every page), raw fractions."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import quote

from django.http import HttpResponse
from django.utils.text import slugify

from apps.common.csvexport import csv_response, safe_text
from apps.content.plaintext import plain_text

from . import analytics
from .models import Cohort


def _fraction(value: float | None) -> str:
    return "" if value is None else f"{round(value, 4) + 0.0:.4f}"  # + 0.0: drift to -1e-16 is "0.0000", not "-0.0000"


def _spreadsheet_time(moment: datetime | None) -> str:
    """UTC, as the column names say, to the second and without an offset: what Excel and Sheets read as a date and
    time (ISO 8601's "T" and "+00:00" leave it text, which does not sort or subtract)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S") if moment else ""


def matrix_csv(
    *, cohort: Cohort, decks: list[analytics.AssignedDeck], rows: list[analytics.StudentRow], flag: str = ""
) -> HttpResponse:
    """The matrix's `rows` as given: the students the page lists under `flag` (a checked one), in its order."""
    header = ["student", "name", "email", "joined_utc", "last_activity_utc", "accuracy", "flags"]
    for deck in decks:
        # Deck titles are typed by instructors, so the header is text from users like any cell.
        header += [safe_text(f"{deck.title} {metric}") for metric in ("attempted", "accuracy", "mastered")]
    # Last, so the columns above keep their places: each student's own deadline, an extension's if they have one.
    header += [safe_text(f"{deck.title} due") for deck in decks]
    body = []
    for row in rows:
        line = [
            safe_text(row.username),
            safe_text(row.full_name),
            safe_text(row.email),
            _spreadsheet_time(row.joined_at),
            _spreadsheet_time(row.last_activity),
            _fraction(row.accuracy),
            " ".join(row.flags),
        ]
        for cell in row.cells:
            line += [_fraction(cell.attempted_share), _fraction(cell.accuracy), _fraction(cell.mastered_share)]
        for deck, cell in zip(decks, row.cells, strict=True):
            due = cell.extended_to or deck.due_date
            line.append(due.isoformat() if due else "")
        body.append(line)
    # A filtered export says so in its name, so it is not taken for the whole cohort later.
    name = f"{slugify(cohort.name) or 'cohort'}-matrix{f'-{flag}' if flag else ''}.csv"
    return csv_response(filename=name, header=header, rows=body)


def _as_text(options: list[analytics.PickedOption]) -> list[tuple[str, int]]:
    """Options as the students saw them, as lines of text: formulas read as text, as the question column has them,
    rather than their Markdown and TeX source ("$\\lVert x \\rVert_1$" is "∥x∥_1")."""
    return [(plain_text(option.html), option.count) for option in options]


def items_csv(*, cohort: Cohort) -> HttpResponse:
    items, _total = analytics.cohort_items(cohort=cohort, limit=None)
    header = [
        "deck", "position", "question", "attempts", "students", "facility", "discrimination", "override_rate",
        "common_wrong_answers", "wrong_options_picked",
    ]  # fmt: skip

    def joined(pairs: list[tuple[str, int]]) -> str:
        return safe_text(" | ".join(f"{text} ({count})" for text, count in pairs))

    body = [
        [
            safe_text(item.deck_title), item.position, safe_text(item.question_text), item.attempts, item.students,
            _fraction(item.facility), _fraction(item.discrimination), _fraction(item.override_rate),
            joined(item.wrong_answers), joined(_as_text(item.wrong_options)),
        ]
        for item in items
    ]  # fmt: skip
    return csv_response(filename=f"{slugify(cohort.name) or 'cohort'}-items.csv", header=header, rows=body)


# Beyond this many addresses a mailto: link outgrows what mail programs and browsers take (some cut it at 2,000
# characters); the CSV holds every address.
MAILTO_MAX = 50


def mailto_bcc(*, rows: list[analytics.StudentRow]) -> str:
    """A mailto: link writing to the students of `rows` that have an email, each in Bcc (students do not see each
    other's addresses), or "" when none has one or there are too many for a link."""
    emails = [row.email for row in rows if row.email]
    if not emails or len(emails) > MAILTO_MAX:
        return ""
    return "mailto:?bcc=" + ",".join(quote(email, safe="@") for email in emails)
