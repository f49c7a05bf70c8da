"""Deck CSV files as spreadsheets write them, their booleans and bytes: Excel's and LibreOffice's booleans (and
any other value refused naming row and field), legacy encodings and UTF-16 named as such at their line, and the
byte-order mark, read with or without it and written so Excel reads UTF-8; through `import_deck` and the admin's
import alike.
"""

from __future__ import annotations

import csv
import io
from io import StringIO

import pytest
from django.core.management import call_command

from apps.content.models import Card, Deck
from tests.authoring.spreadsheets_support import _as_excel_saves, _export, _import, _page_text, _refused, _rows, _upload
from tests.factories import make_exportable_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck():
    return make_exportable_deck(description="Über *serving*.", archived_question="Which café?")


# --- booleans ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "archived"),
    [
        ("TRUE", True), ("FALSE", False), ("True", True), ("False", False), ("true", True), ("false", False),
        ("1", True), ("0", False), ("yes", True), ("no", False), ("YES", True), ("No", False), (" TRUE ", True),
    ],
)  # fmt: skip
def test_archived_is_read_as_spreadsheets_write_booleans(deck, tmp_path, cell, archived):
    rows = _rows(_export())
    column = rows[0].index("archived")
    rows[2][column] = rows[3][column] = cell
    output = _import(tmp_path, _as_excel_saves(rows))
    assert "existing deck" in output
    assert list(deck.cards.order_by("position").values_list("archived", flat=True)) == [archived, archived]


@pytest.mark.parametrize("cell", ["maybe", "2", "t", "on", "ja", ""])
def test_any_other_boolean_is_refused_naming_the_row_and_field(deck, tmp_path, client, instructor, cell):
    rows = _rows(_export())
    rows[3][rows[0].index("archived")] = cell
    message = _refused(tmp_path, _as_excel_saves(rows))
    assert "row 4, field archived: " in message and "must be true or false" in message
    assert "Nothing was written" in message
    client.force_login(instructor)
    page = _upload(client, _as_excel_saves(rows))
    assert page.status_code == 422
    assert "row 4, field archived: " in _page_text(page)
    assert Card.objects.filter(archived=True).count() == 1


# --- encodings -----------------------------------------------------------------------------


def _ascii_rows() -> list[list[str]]:
    """The export's rows with its non-ASCII letters (in the deck row and the second card's question) spelled out."""
    rows = _rows(_export())
    rows[1][rows[0].index("description")] = "Uber *serving*."
    rows[3][rows[0].index("question")] = "Which cafe?"
    return rows


def _cp1252_csv(deck) -> bytes:
    """The export as older Excel saves "CSV (Comma delimited)": Windows-1252, no byte-order mark. The explanation
    of the first card (row 3, line 3) gets an en dash, the byte 0x96 there."""
    rows = _ascii_rows()
    rows[2][rows[0].index("explanation")] = "Because – of course."
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue().encode("cp1252")


def test_a_windows_1252_csv_is_refused_at_its_line_with_how_to_save_it(deck, tmp_path):
    message = _refused(tmp_path, _cp1252_csv(deck), "legacy.csv")
    assert message.startswith(f"{tmp_path / 'legacy.csv'} would not import (1 problem):\n  line 3: ")
    assert "the byte 0x96 (“–” in Windows-1252) is not UTF-8 text" in message
    assert "save it as CSV UTF-8" in message and "codec" not in message
    assert "Nothing was written" in message
    assert Card.objects.get(short_answer="ratio").explanation == "Because."


def test_a_windows_1252_csv_uploaded_in_the_admin_is_refused_at_its_line(deck, client, instructor):
    client.force_login(instructor)
    page = _upload(client, _cp1252_csv(deck), "legacy.csv")
    assert page.status_code == 422
    text = _page_text(page)
    assert "legacy.csv, line 3: the byte 0x96 (“–” in Windows-1252) is not UTF-8 text" in text
    assert "save it as CSV UTF-8" in text
    assert Card.objects.get(short_answer="ratio").explanation == "Because."


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_utf16_file_is_named_as_such_not_as_a_stray_byte(deck, tmp_path, encoding):
    """Excel's "Unicode Text" is UTF-16 with a byte-order mark (and tabs): its first byte is no letter typed."""
    text = _as_excel_saves(_ascii_rows()).decode("utf-8-sig")
    raw = ("\ufeff" + text).encode(encoding) if encoding == "utf-16-be" else text.encode(encoding)
    message = _refused(tmp_path, raw, "unicode.csv")
    assert (
        "line 1: the file is UTF-16 text (as Excel's “Unicode Text” saves it), not UTF-8; save it as CSV UTF-8"
        in message
    )
    assert "the byte 0x" not in message


def test_a_bad_byte_on_a_later_line_of_a_multi_line_cell_is_named_by_its_own_line(deck, tmp_path):
    rows = _ascii_rows()
    rows[3][rows[0].index("explanation")] = "First line,\nsecond line – with a dash."
    text = _as_excel_saves(rows).decode("utf-8-sig")
    before = text[: text.index("–")]
    message = _refused(tmp_path, text.encode("cp1252"), "legacy.csv")
    assert f"line {before.count(chr(10)) + 1}: the byte 0x96" in message


def test_a_non_utf8_json_file_is_told_to_be_saved_as_utf8(deck, tmp_path):
    out = StringIO()
    call_command("export_deck", "serving", "--format", "json", stdout=out)
    message = _refused(tmp_path, out.getvalue().encode("cp1252", errors="replace"), "deck.json")
    assert "line 7: the byte 0xDC (“Ü” in Windows-1252) is not UTF-8 text" in message
    assert "save it as UTF-8" in message


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["without", "with"])
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_files_import_with_or_without_a_byte_order_mark(deck, tmp_path, fmt, bom):
    out = StringIO()
    call_command("export_deck", "serving", "--format", fmt, stdout=out)
    body = out.getvalue().removeprefix("\ufeff").replace("Über", "Uber")
    output = _import(tmp_path, bom + body.encode(), f"deck.{fmt}")
    assert "existing deck: 0 created, 0 updated, 2 unchanged" in output
    assert Deck.objects.get().description == "Uber *serving*."


# --- the byte-order mark -------------------------------------------------------------------


def test_export_deck_csv_starts_with_a_byte_order_mark_so_excel_reads_utf8(deck, tmp_path):
    """Without it Excel opens "Über" as "Ãœber" and "café" as "cafÃ©"; the admin's export and the cohort CSVs
    already have it. JSON has none (a JSON parser may refuse one)."""
    path = tmp_path / "serving.csv"
    call_command("export_deck", "serving", "--format", "csv", "-o", str(path), stderr=StringIO())
    content = path.read_bytes()
    assert content.startswith(b"\xef\xbb\xbfrecord,slug,")
    assert "Über *serving*." in content.decode("utf-8-sig") and "Which café?" in content.decode("utf-8-sig")
    assert _export().startswith("\ufeffrecord,")  # to standard output, for `export_deck … > deck.csv`, too
    path_json = tmp_path / "serving.json"
    call_command("export_deck", "serving", "--format", "json", "-o", str(path_json), stderr=StringIO())
    assert path_json.read_bytes().startswith(b"{")
    # and it imports back as it is
    assert "existing deck: 0 created, 0 updated, 2 unchanged" in _import(tmp_path, content, "serving.csv")
