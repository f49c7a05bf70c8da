"""Deck CSV files as spreadsheets write them: Excel's and LibreOffice's booleans, legacy encodings, multi-line
list cells, the byte-order mark; through `import_deck` and the admin's import alike."""

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

from apps.content.models import Card
from apps.content.services import card_save
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck():
    deck = make_deck(title="Serving", slug="serving", description="Über *serving*.")
    first = make_card(deck=deck, question="What is $\\frac{a}{b}$?", answer="A ratio, `a/b`.", short_answer="ratio",
                      explanation="Because.")  # fmt: skip
    card_save(card=first, aliases=["a quotient", "fraction"], distractors=["A sum", "A *product*"],
              key_terms=["ratio|quotient", "divide"])  # fmt: skip
    make_card(deck=deck, kind="syllabus", question="Which café?", answer="Yes,\n\nreally.", archived=True)
    return deck


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
    assert deck.__class__.objects.get().description == "Uber *serving*."


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
