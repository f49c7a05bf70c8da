"""CSV responses that spreadsheets cannot turn into formulas."""

from __future__ import annotations

import csv
from collections.abc import Iterable

from django.http import HttpResponse

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_text(value: str) -> str:
    """A text cell starting like a formula gets a leading apostrophe (OWASP's CSV injection advice)."""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


# Excel reads a CSV without a byte-order mark in the system's legacy code page: "çelik" opens as "Ã§elik".
BOM = "\ufeff"


def csv_response(*, filename: str, header: list[str], rows: Iterable[list]) -> HttpResponse:
    response = HttpResponse(BOM, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows(rows)
    return response
