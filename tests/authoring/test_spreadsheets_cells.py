"""Deck CSV files as spreadsheets write them, their cells: list cells one item a line (or in the JSON form),
texts and numbers a spreadsheet would read as values, line breaks written as CR LF or CR, and files written by hand
with only the columns they use; through `import_deck` and the admin's import alike.
"""

from __future__ import annotations

import re
from html import unescape
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from apps.content.models import Card, Deck
from apps.content.services import card_save
from tests.authoring.spreadsheets_support import _as_excel_saves, _export, _import, _page_text, _refused, _rows, _upload
from tests.factories import make_card, make_deck, make_exportable_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck():
    return make_exportable_deck(description="Über *serving*.", archived_question="Which café?")


# --- list cells ----------------------------------------------------------------------------


def _cell(rows: list[list[str]], row: int, name: str) -> str:
    return rows[row][rows[0].index(name)]


def _lists(card: Card) -> tuple[list[str], list[str], list[str]]:
    return (
        list(card.aliases.order_by("pk").values_list("text", flat=True)),
        list(card.distractors.order_by("position").values_list("text", flat=True)),
        list(card.key_terms.order_by("pk").values_list("term", flat=True)),
    )


def test_list_cells_are_exported_one_item_a_line_as_a_multi_line_cell(deck):
    rows = _rows(_export())
    assert _cell(rows, 2, "aliases") == "a quotient\nfraction"
    assert _cell(rows, 2, "distractors") == "A sum\nA *product*"
    assert _cell(rows, 2, "key_terms") == "ratio|quotient\ndivide"  # a pipe joins synonyms of one term
    assert _cell(rows, 3, "aliases") == ""


def test_a_list_cell_written_one_item_a_line_in_a_spreadsheet_is_read_as_a_list(deck, tmp_path):
    rows = _rows(_export())
    rows[2][rows[0].index("aliases")] = "a quotient\r\n  fraction  \n\nthe ratio\n"  # as typed, blank lines aside
    rows[2][rows[0].index("key_terms")] = "ratio|quotient|proportion\ndivide"
    rows[3][rows[0].index("distractors")] = "Maybe\nNo"
    rows[3][rows[0].index("key_terms")] = "really"
    _import(tmp_path, _as_excel_saves(rows))
    first, second = deck.cards.order_by("position")
    assert _lists(first) == (
        ["a quotient", "fraction", "the ratio"],
        ["A sum", "A *product*"],
        ["ratio|quotient|proportion", "divide"],
    )
    assert _lists(second) == ([], ["Maybe", "No"], ["really"])


def test_an_empty_list_cell_is_an_empty_list(deck, tmp_path):
    rows = _rows(_export())
    for name in ("aliases", "distractors", "key_terms"):
        rows[2][rows[0].index(name)] = ""
    _import(tmp_path, _as_excel_saves(rows))
    assert _lists(deck.cards.get(position=1)) == ([], [], [])


def test_a_list_cell_in_the_json_form_is_still_read(deck, tmp_path):
    rows = _rows(_export())
    rows[2][rows[0].index("aliases")] = '["a quotient", "fraction", "line\\nbreak"]'
    rows[2][rows[0].index("key_terms")] = "[]"
    _import(tmp_path, _as_excel_saves(rows))
    assert _lists(deck.cards.get(position=1)) == (
        ["a quotient", "fraction", "line\nbreak"],
        ["A sum", "A *product*"],
        [],
    )


@pytest.mark.parametrize(
    ("cell", "problem"),
    [
        ('["a quotient", fraction]', "Expecting value, at character 16"),
        ("[a quotient\nfraction", "Expecting value, at character 2"),
        ('["unclosed"', "Expecting ',' delimiter, at character 12"),
    ],
)
def test_a_list_cell_starting_with_a_bracket_that_is_not_json_is_refused(
    deck, tmp_path, client, instructor, cell, problem
):
    rows = _rows(_export())
    rows[2][rows[0].index("aliases")] = cell
    expected = (
        f'row 3, field aliases: starts with "[" but is not valid JSON ({problem}); '
        'write the list as ["a", "b"], or one item a line without brackets'
    )
    assert expected in _refused(tmp_path, _as_excel_saves(rows))
    client.force_login(instructor)
    page = _upload(client, _as_excel_saves(rows))
    assert page.status_code == 422 and expected in _page_text(page)
    assert _lists(deck.cards.get(position=1))[0] == ["a quotient", "fraction"]


def test_lists_round_trip_through_a_spreadsheet_losslessly(tmp_path, db):
    """Exported, opened and saved as Excel saves "CSV UTF-8" (byte-order mark, CRLF rows, LF inside cells), then
    imported into an empty database: the same deck. The lists a one-item-a-line cell cannot carry exactly (an
    item with a line break or spaces around it, a first item starting with "[", a lone item a spreadsheet would
    take for a date or number) are written as JSON lists; items that start like a formula are guarded."""
    deck = make_deck(title="Lists", slug="lists")
    cards = {
        "plain": (["a quotient", "fraction"], ["A sum", "=SUM(A1)", "-1"], ["ratio|quotient", "divide"]),
        "formula first": (["@home", "'quoted"], ["+1", "two"], ["-x|minus x"]),
        "line break": (["one\ntwo", "three"], ["First line\n\nsecond paragraph", "B"], []),
        "spaces": ([" padded"], ["trailing "], ["fine"]),
        "bracket": (["[CLS] token", "pooler"], ["[x]"], ["a [b]"]),
        "lone date": (["1/2"], ["0.50"], ["TRUE"]),
        "lone words": (["half"], ["Fifty"], ["50 %", "half"]),
    }
    for position, (question, lists) in enumerate(cards.items(), start=1):
        card = make_card(deck=deck, position=position, question=f"{question}?", answer="The answer")
        card_save(card=card, aliases=lists[0], distractors=lists[1], key_terms=lists[2])
    exported = _export("lists")
    rows = _rows(exported)
    assert _cell(rows, 2, "distractors") == "A sum\n=SUM(A1)\n-1"  # later lines of a cell are no formula
    assert _cell(rows, 3, "aliases") == "'@home\n'quoted"
    assert _cell(rows, 7, "aliases") == '["1/2"]' and _cell(rows, 8, "aliases") == "half"
    assert _cell(rows, 4, "aliases") == '["one\\ntwo", "three"]'
    Card.objects.all().delete()
    deck.delete()
    assert "new deck: 7 created" in _import(tmp_path, _as_excel_saves(rows), "lists.csv")
    assert _export("lists") == exported
    for position, lists in enumerate(cards.values(), start=1):
        assert _lists(Card.objects.get(position=position)) == tuple(lists)


def test_a_text_cell_a_spreadsheet_would_read_as_a_value_round_trips(tmp_path, db):
    """A short answer of "1/2" became a date in the sheet, and "0.50" the number 0.5: such cells are written with a
    leading apostrophe (as formula-like ones are), which the import takes off."""
    deck = make_deck(title="Values", slug="values")
    answers = ["1/2", "0.50", "1e3", "12:30", "TRUE", "3-4"]
    for position, short in enumerate(answers, start=1):
        make_card(deck=deck, position=position, question=f"Q{position}?", answer=f"It is {short}", short_answer=short)
    exported = _export("values")
    rows = _rows(exported)
    assert [_cell(rows, row, "short_answer") for row in range(2, 8)] == [f"'{short}" for short in answers]
    assert _cell(rows, 2, "answer") == "It is 1/2"  # text around the value: a spreadsheet keeps it as text
    Card.objects.all().delete()
    deck.delete()
    _import(tmp_path, _as_excel_saves(rows), "values.csv")
    assert list(Card.objects.order_by("position").values_list("short_answer", flat=True)) == answers
    assert _export("values") == exported


def test_an_item_added_in_a_spreadsheet_cell_round_trips(deck, tmp_path):
    rows = _rows(_export())
    rows[2][rows[0].index("aliases")] += "\nthe ratio"  # Alt+Enter, then the new item
    _import(tmp_path, _as_excel_saves(rows))
    assert _rows(_export()) == rows


def test_a_number_too_long_for_python_is_refused_not_a_server_error(deck, tmp_path, client, instructor):
    """json reads a 5,000-digit number as Python reads numbers, and refuses it with a ValueError of its own."""
    long = "1" * 5_000
    rows = _rows(_export())
    rows[2][rows[0].index("aliases")] = f"[{long}]"
    assert (
        'row 3, field aliases: starts with "[" but is not valid JSON (a number in it has more than 4,300 digits)'
        in (_refused(tmp_path, _as_excel_saves(rows)))
    )
    client.force_login(instructor)
    page = _upload(client, f'{{"format": "mlcourse-deck",\n"version": {long}}}'.encode(), "deck.json")
    assert page.status_code == 422
    assert "line 2: not valid JSON: a number in it has more than 4,300 digits" in _page_text(page)


# --- line breaks ---------------------------------------------------------------------------


@pytest.mark.parametrize("line_break", ["\r\n", "\r"])
def test_a_cell_whose_line_breaks_are_cr_lf_or_cr_is_the_same_text(deck, tmp_path, line_break):
    """A file written on Windows (or an old Mac) by hand holds its cells' line breaks as CR LF or CR: the card
    reads as unchanged, and a new card keeps line feeds, as the admin's forms store them."""
    rows = _rows(_export())
    answer = rows[0].index("answer")
    rows[3][answer] = rows[3][answer].replace("\n", line_break)  # the archived card: "Yes,\n\nreally."
    assert line_break in rows[3][answer]
    assert "existing deck: 0 created, 0 updated, 2 unchanged" in _import(tmp_path, _as_excel_saves(rows))
    new = rows[3][:]
    new[rows[0].index("uid")], new[rows[0].index("question")], new[rows[0].index("position")] = "", "A new card?", "3"
    assert "existing deck: 1 created, 0 updated, 2 unchanged" in _import(tmp_path, _as_excel_saves([*rows, new]))
    assert Card.objects.get(question="A new card?").answer == "Yes,\n\nreally."


# --- a file written by hand ----------------------------------------------------------------


def _hand_written(header: str, *rows: str) -> bytes:
    return "\n".join([header, *rows, ""]).encode()


def test_a_csv_written_by_hand_needs_only_the_columns_it_uses(tmp_path):
    """As a JSON file may leave fields out: a sheet of questions and answers need not carry empty columns for
    uids, sources, accepted answers and the rest (source, which an import does not take, least of all)."""
    content = _hand_written(
        "record,slug,title,position,kind,question,answer,distractors",
        "deck,by-hand,By hand,,,,,",
        'card,,,1,flashcard,Which resource runs once?,Job,"CronJob\nDeployment"',
        'card,,,2,syllabus,Why $x^2$?,"Because,\nreally.",',
    )
    assert "new deck: 2 created, 0 updated, 0 unchanged" in _import(tmp_path, content)
    job, why = Card.objects.filter(deck__slug="by-hand").order_by("position")
    assert list(job.distractors.values_list("text", flat=True)) == ["CronJob", "Deployment"]
    assert (job.archived, job.explanation, list(job.aliases.all())) == (False, "", [])
    assert why.answer == "Because,\nreally." and not why.archived
    # Imported again, the same file changes nothing: each card is found by its question.
    assert "existing deck: 0 created, 0 updated, 2 unchanged" in _import(tmp_path, content)


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("record,slug,title,question,answer", "row 1: the header lacks the columns position, kind"),
        (
            "record,slug,title,position,kind,question,answer,distractor",
            "row 1: the header has columns a deck file does not have: 'distractor'; the columns are record, slug,",
        ),
    ],
)
def test_a_hand_written_header_that_lacks_or_misspells_a_column_is_refused(tmp_path, header, message):
    """A misspelt optional column would otherwise be left out without a word: its distractors never imported."""
    content = _hand_written(header, "deck,by-hand,By hand,,,,,", "card,,,1,flashcard,Q?,A,B")
    assert message in _refused(tmp_path, content)
    assert not Deck.objects.exists()


def test_the_import_page_says_which_columns_a_hand_written_csv_needs(client, instructor):
    client.force_login(instructor)
    page = client.get(reverse("admin:content_deck_import")).content.decode()
    text = " ".join(unescape(re.sub(r"<[^>]+>", "", page)).split())
    assert "A CSV of your own (UTF-8) needs the columns record, slug, title, position, kind, question, answer" in text


def test_a_card_saved_with_cr_lf_exports_and_imports_back_unchanged(deck, tmp_path):
    """Whoever saves a text with CR LF (a script, a textarea), it is stored with line feeds: its own export, read
    back, is not a change (nor a new version)."""
    card = Card.objects.get(question="Which café?")
    card.answer = "Yes,\r\n\r\nreally.\rTruly."
    card_save(card=card)
    card.refresh_from_db()
    assert card.answer == "Yes,\n\nreally.\nTruly."
    versions = card.versions.count()
    for fmt in ("csv", "json"):
        out = StringIO()
        call_command("export_deck", "serving", "--format", fmt, stdout=out)
        assert "\r" not in out.getvalue().removeprefix("\ufeff").replace("\r\n", "")  # no lone CR left either
        output = _import(tmp_path, out.getvalue().encode(), f"serving.{fmt}")
        assert "existing deck: 0 created, 0 updated, 2 unchanged" in output
    assert card.versions.count() == versions
