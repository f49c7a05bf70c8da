"""Sorting the matrix: the one place a raw ?sort= is checked against the columns the matrix has."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from .analytics import AssignedDeck, StudentRow

_SORTS = {
    "name": lambda row: row.username.casefold(),
    "joined": lambda row: row.joined_at,
    "activity": lambda row: row.last_activity or datetime.min.replace(tzinfo=timezone.get_current_timezone()),
    "accuracy": lambda row: -1.0 if row.accuracy is None else row.accuracy,
    "flags": lambda row: len(row.flags),
}
_CELL_SORTS = {
    "attempted": lambda cell: -1.0 if cell.attempted_share is None else cell.attempted_share,
    "accuracy": lambda cell: -1.0 if cell.accuracy is None else cell.accuracy,
    "mastered": lambda cell: -1.0 if cell.mastered_share is None else cell.mastered_share,
}


@dataclass(frozen=True)
class MatrixSort:
    """A column of the matrix and a direction. Made by `matrix_sort`, the one place a raw ?sort= is checked."""

    key: str  # as the URL and the column headers spell it: "name", "-accuracy", "deck-12-mastered"
    value: Callable[[StudentRow], Any]
    descending: bool = False


BY_NAME = MatrixSort("name", _SORTS["name"])


def _cell_value(position: int, metric: str) -> Callable[[StudentRow], Any]:
    return lambda row: _CELL_SORTS[metric](row.cells[position])


def matrix_sort(*, raw: str | None, decks: list[AssignedDeck]) -> MatrixSort:
    """The column `raw` names in this matrix (optionally with a leading "-"); anything else sorts by name."""
    raw = raw or ""
    descending = raw.startswith("-")
    name = raw[1:] if descending else raw
    if name in _SORTS:
        return MatrixSort(raw, _SORTS[name], descending)
    # The deck columns exist only for the decks assigned now: a removed deck's key is unknown, not a 500.
    cells = {f"deck-{d.deck_id}-{metric}": (i, metric) for i, d in enumerate(decks) for metric in _CELL_SORTS}
    if name in cells:
        return MatrixSort(raw, _cell_value(*cells[name]), descending)
    return BY_NAME


def sort_rows(*, rows: list[StudentRow], sort: MatrixSort) -> list[StudentRow]:
    # Students level on the column (every one without a flag, say) in name order, whichever way it sorts: sorted()
    # keeps ties in the order given, reversed or not, and the rows come in the order they joined.
    by_name = sorted(rows, key=_SORTS["name"])
    return sorted(by_name, key=sort.value, reverse=sort.descending)
