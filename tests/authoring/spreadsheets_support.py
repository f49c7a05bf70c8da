"""Shared by the spreadsheet CSV tests (test_spreadsheets_*.py): a deck exported as CSV and its rows, a file as
Excel saves it, importing one through `import_deck` (or having it refused) or the admin, and a page's text.
"""

from __future__ import annotations

import csv
import io
import re
from html import unescape
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse


def _export(slug: str = "serving") -> str:
    out = StringIO()
    call_command("export_deck", slug, "--format", "csv", stdout=out)
    return out.getvalue()


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))


def _as_excel_saves(rows: list[list[str]]) -> bytes:
    """What Excel's "CSV UTF-8" writes: a byte-order mark, CRLF between rows, LF inside a multi-line cell."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return b"\xef\xbb\xbf" + out.getvalue().encode("utf-8")


def _import(tmp_path, content: bytes, name: str = "deck.csv") -> str:
    path = tmp_path / name
    path.write_bytes(content)
    out = StringIO()
    call_command("import_deck", str(path), stdout=out)
    return out.getvalue()


def _refused(tmp_path, content: bytes, name: str = "deck.csv") -> str:
    with pytest.raises(CommandError) as excinfo:
        _import(tmp_path, content, name)
    return str(excinfo.value)


def _upload(client, content: bytes, name: str = "deck.csv"):
    return client.post(reverse("admin:content_deck_import"), {"file": SimpleUploadedFile(name, content)})


def _page_text(page) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page.content.decode())).split())
