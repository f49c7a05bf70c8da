"""export_deck / import_deck: lossless round trips in JSON and CSV, malformed files, the admin's import and export."""

from __future__ import annotations

import codecs
import csv
import io
import json
import uuid
import zipfile
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.authoring.transfer import CSV_COLUMNS, FORMAT, FORMAT_VERSION, MAX_CARDS, TransferError, parse
from apps.content.models import Card, CardVersion, Deck
from apps.content.services import card_save
from tests.factories import make_card, make_deck, make_exportable_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck():
    return make_exportable_deck(description="About *serving*.", archived_question='Comma, "quotes"\nand newline?')


def _export(slug: str, fmt: str) -> str:
    out = StringIO()
    call_command("export_deck", slug, "--format", fmt, stdout=out)
    return out.getvalue()


def _import(tmp_path, text: str, name: str, *args) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    out = StringIO()
    call_command("import_deck", str(path), *args, stdout=out)
    return out.getvalue()


def _wipe() -> None:
    CardVersion.objects.all().delete()
    Card.objects.all().delete()
    Deck.objects.all().delete()


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_round_trip_into_an_empty_database_is_lossless(deck, tmp_path, fmt):
    first = _export("serving", fmt)
    _wipe()
    output = _import(tmp_path, first, f"serving.{fmt}")
    assert "new deck: 2 created, 0 updated, 0 unchanged" in output
    assert _export("serving", fmt) == first
    card = Card.objects.get(short_answer="ratio")
    assert "<mfrac>" in card.question_html and card.question_text == "What is a/b?"
    assert list(card.distractors.values_list("text", flat=True)) == ["A sum", "A *product*"]
    assert card.versions.get().note == f"Imported from serving.{fmt}"


def test_export_holds_every_part_of_the_deck(deck):
    data = json.loads(_export("serving", "json"))
    assert data["deck"] == {"slug": "serving", "title": "Serving", "description": "About *serving*.", "source": ""}
    first, second = data["cards"]
    assert first["aliases"] == ["a quotient", "fraction"] and first["key_terms"] == ["ratio|quotient", "divide"]
    assert second["archived"] is True and second["question"] == 'Comma, "quotes"\nand newline?'


def test_import_updates_by_uid_and_reports_unchanged(deck, tmp_path):
    text = _export("serving", "json")
    assert "existing deck: 0 created, 0 updated, 2 unchanged" in _import(tmp_path, text, "s.json")
    data = json.loads(text)
    data["cards"][0]["answer"] = "A quotient."
    new = {"uid": "7d9c1e8a-3f4b-4c55-9d1e-2a6b8c0f1e23", "position": 3, "question": "Why batch requests?"}
    data["cards"].append({**data["cards"][1], **new})
    output = _import(tmp_path, json.dumps(data), "s.json")
    assert "existing deck: 1 created, 1 updated, 1 unchanged" in output
    assert Card.objects.get(short_answer="ratio").answer == "A quotient."
    assert Card.objects.count() == 3
    data["cards"][0]["question"] = "What is $\\frac{c}{d}$?"
    _import(tmp_path, json.dumps(data), "s.json")  # an update is a bulk update: the plain text goes with the html
    assert Card.objects.get(short_answer="ratio").question_text == "What is c/d?"


def test_dry_run_writes_nothing(deck, tmp_path):
    text = _export("serving", "json").replace("A ratio", "A changed ratio")
    assert "dry run, nothing written: existing deck: 0 created, 1 updated" in _import(
        tmp_path, text, "s.json", "--dry-run"
    )
    assert Card.objects.get(short_answer="ratio").answer == "A ratio, `a/b`."


def _bad_json(deck, mutate) -> str:
    data = json.loads(_export(deck.slug, "json"))
    mutate(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["cards"][1].update(question=""), "card #2, field question: is required"),
        (lambda d: d["cards"][0].update(kind="essay"), "card #1, field kind: must be flashcard or syllabus"),
        (lambda d: d["cards"][0].update(position=0), "card #1, field position: must be a whole number"),
        (lambda d: d["cards"][1].update(position=1), "card #2, field position: 1 is used by another card too"),
        (lambda d: d["cards"][0].update(uid="not-a-uuid"), "card #1, field uid: must be a UUID"),
        (
            lambda d: d["cards"][0].update(aliases="fraction"),
            "card #1, field aliases: must be a list of non-empty texts",
        ),
        (
            lambda d: d["cards"][0].update(aliases=["Job", "fraction", "job"]),
            "card #1, field aliases: “Job” and “job” are the same answer to the database (letter case does not count)",
        ),
        # str.lower() makes "İ" an "i" and a combining dot, PostgreSQL's lower() (the constraint's) a plain "i":
        # checked with the first, this file passed and its insert failed (a 500 in the admin).
        (
            lambda d: d["cards"][1].update(aliases=["İstanbul", "istanbul"]),
            "card #2, field aliases: “İstanbul” and “istanbul” are the same answer to the database",
        ),
        (
            lambda d: d["cards"][0].update(question="Lone \ud800 surrogate"),
            "card #1, field question: contains a lone surrogate",
        ),
        (
            lambda d: d["cards"][0].update(aliases=["ok", "\udfff"]),
            "card #1, field aliases: has an entry that contains a lone surrogate",
        ),
        (
            lambda d: d["cards"][0].update(answer="Bad $\\frac{1}{$"),
            "card #1, field answer: $\\frac{1}{$: KaTeX parse error",
        ),
        (
            lambda d: d["cards"][0].update(distractors=["A sum", "Bad $\\frac{1}{$"]),
            "card #1, field distractors, entry #2: $\\frac{1}{$: KaTeX parse error",
        ),
        (
            lambda d: d["deck"].update(description="Bad $\\frac{1}{$"),
            "deck, field description: $\\frac{1}{$: KaTeX parse error",
        ),
        (
            lambda d: d["cards"][1].update(explanation="x" * 20_001),
            "card #2, field explanation: is 20,001 characters long; at most 20,000",
        ),
        (
            lambda d: d["cards"][0].update(distractors=["A sum", "y" * 20_001]),
            "card #1, field distractors: has an entry",
        ),
        # distractors as the card form checks them: multiple choice would drop one, or offer the answer twice
        (
            lambda d: d["cards"][0].update(distractors=["A sum", "a SUM"]),
            "card #1, field distractors: “A sum” and “a SUM” are the same distractor (letter case does not count)",
        ),
        (
            lambda d: d["cards"][0].update(distractors=["A sum", "Ratio"]),
            "card #1, field distractors: “Ratio” is a right answer of this card, so it cannot be a distractor",
        ),
        (
            lambda d: d["cards"][0].update(distractors=["A sum", "fraction"]),
            "card #1, field distractors: “fraction” is a right answer of this card",
        ),
        (lambda d: d["deck"].update(slug="Not A Slug"), "deck, field slug: may contain only lowercase"),
        (lambda d: d.update(format="other"), "format: this is not an mlcourse-deck export"),
        (lambda d: d.update(version=99), "version: unsupported version 99"),
    ],
)
def test_malformed_json_names_the_field_and_writes_nothing(deck, tmp_path, mutate, message):
    text = _bad_json(deck, mutate)
    _wipe()
    with pytest.raises(CommandError) as excinfo:
        _import(tmp_path, text, "bad.json")
    assert message in str(excinfo.value) and "Nothing was written" in str(excinfo.value)
    assert Deck.objects.count() == 0 and Card.objects.count() == 0


def _column(rows: list[list[str]], name: str, value: str, *, row: int = 2) -> list[list[str]]:
    rows[row][rows[0].index(name)] = value
    return rows


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda rows: [[c.replace("question", "Question") for c in rows[0]], *rows[1:]],
            "row 1: the header lacks the columns question",
        ),
        (
            lambda rows: [[c.replace("key_terms", "terms") for c in rows[0]], *rows[1:]],
            "row 1: the header has columns a deck file does not have: 'terms'; the columns are record, slug, title,",
        ),
        (
            lambda rows: [[";".join(rows[0])], *rows[1:]],
            "(the columns seem to be separated by ';'; save the file with commas)",
        ),
        (lambda rows: [rows[0], rows[1], rows[1], rows[2]], "row 3, field record: a second deck row"),
        (lambda rows: [rows[0], *rows[2:]], "the file has no deck row"),
        (
            lambda rows: _column(rows, "aliases", '["a quotient", fraction]'),
            'row 3, field aliases: starts with "[" but is not valid JSON (Expecting value, at character 16); '
            'write the list as ["a", "b"], or one item a line without brackets',
        ),
        (
            lambda rows: _column(rows, "aliases", "İstanbul\nistanbul"),
            "row 3, field aliases: “İstanbul” and “istanbul” are the same answer to the database",
        ),
        (
            lambda rows: [rows[0], ["dock", *rows[1][1:]], *rows[2:]],
            "row 2, field record: must be deck or card",
        ),
        (
            # Nested past Python's recursion limit: the JSON decoder gives up with RecursionError, not a 500.
            lambda rows: _column(rows, "aliases", "[" * 100_000),
            'row 3, field aliases: starts with "[" but is not valid JSON (nested too deeply)',
        ),
    ],
)
def test_malformed_csv_names_the_row_and_field(deck, tmp_path, edit, message):
    rows = _csv_rows(_export("serving", "csv"))[:3]  # the header, the deck row and the first card
    with pytest.raises(CommandError) as excinfo:
        _import(tmp_path, _csv_text(edit(rows)), "bad.csv")
    assert message in str(excinfo.value)


def _csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def _csv_text(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


def test_csv_problems_name_the_row_a_spreadsheet_shows_whatever_line_breaks_cells_hold(deck, tmp_path):
    rows = _csv_rows(_export("serving", "csv"))
    header = rows[0]
    first, second = rows[2], rows[3]  # the second card's cells span several lines
    third = [*second]
    third[header.index("uid")], third[header.index("position")] = "7d9c1e8a-3f4b-4c55-9d1e-2a6b8c0f1e23", "3"
    third[header.index("kind")], third[header.index("question")] = "essay", "Why batch requests?"
    first[header.index("answer")] = "Bad $\\frac{1}{$"
    with pytest.raises(CommandError) as excinfo:
        _import(tmp_path, _csv_text([header, rows[1], first, second, third]), "bad.csv")
    assert "row 5, field kind: must be flashcard or syllabus" in str(excinfo.value)  # physical line 11

    third[header.index("kind")] = "syllabus"
    with pytest.raises(CommandError) as excinfo:
        _import(tmp_path, _csv_text([header, rows[1], first, second, third]), "bad.csv")
    assert "row 3, field answer: $\\frac{1}{$: KaTeX parse error" in str(excinfo.value)  # named as other problems


def test_a_blank_line_counts_as_a_row_as_in_a_spreadsheet(deck, tmp_path):
    rows = _csv_rows(_export("serving", "csv"))
    header, kind = rows[0], rows[0].index("kind")
    rows[2][kind] = "essay"
    with pytest.raises(CommandError, match="row 4, field kind: must be flashcard or syllabus"):
        _import(tmp_path, _csv_text([header, rows[1], []]) + _csv_text([rows[2]]), "bad.csv")


def test_a_stray_quote_is_named_by_the_line_it_is_on(deck, tmp_path):
    lines = _export("serving", "csv").removeprefix("\ufeff").splitlines()
    assert lines[2].startswith("card,")  # the first card's row is line 3
    lines[2] = lines[2].replace(",flashcard,", ',"flash"card,', 1)
    with pytest.raises(CommandError, match="line 3: not valid CSV: ',' expected after"):
        _import(tmp_path, "\n".join(lines) + "\n", "bad.csv")


def test_a_quote_left_open_in_a_csv_is_named_by_its_line(deck, tmp_path):
    text = _export("serving", "csv") + 'card,,,,,7d9c1e8a-3f4b-4c55-9d1e-2a6b8c0f1e23,3,flashcard,"Unclosed\n'
    # It used to swallow the rest of the file and be reported as "archived must be true or false".
    last = text.count("\n")  # the line the open quote is on
    with pytest.raises(CommandError, match=rf"line {last}: not valid CSV: unexpected end of data"):
        _import(tmp_path, text, "bad.csv")


def test_not_json_at_all(tmp_path, db):
    with pytest.raises(CommandError, match="line 1: not valid JSON"):
        _import(tmp_path, "{nope", "x.json")


def test_a_uid_from_another_deck_is_refused(deck, tmp_path):
    data = json.loads(_export("serving", "json"))
    make_deck(slug="other", title="Other")
    data["deck"].update(slug="other", title="Other")
    with pytest.raises(CommandError, match="is a card of the deck 'serving', not 'other'"):
        _import(tmp_path, json.dumps(data), "x.json")


def test_unknown_deck_to_export(db):
    with pytest.raises(CommandError, match="no deck has the slug 'nope'"):
        _export("nope", "json")


def test_admin_export_action_and_import_with_dry_run(client, instructor, deck):
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_deck_changelist"), {"action": "export_json", "_selected_action": [deck.pk]}
    )
    assert response["Content-Disposition"] == 'attachment; filename="serving.json"'
    text = response.content.decode()
    assert text == _export("serving", "json")

    changed = text.replace("A ratio", "A changed ratio")
    upload = SimpleUploadedFile("serving.json", changed.encode(), content_type="application/json")
    page = client.post(reverse("admin:content_deck_import"), {"file": upload})
    html = page.content.decode()
    assert "Dry run of <bdi>serving.json</bdi>" in html and "0 created, 1 updated, 1 unchanged" in html
    assert Card.objects.get(short_answer="ratio").answer == "A ratio, `a/b`."
    confirm = page.context["confirm"]
    done = client.post(reverse("admin:content_deck_import"), {**confirm.initial, "confirm": "1"}, follow=True)
    assert "Imported serving.json" in done.content.decode()
    assert Card.objects.get(short_answer="ratio").answer == "A changed ratio, `a/b`."
    assert Card.objects.get(short_answer="ratio").current_version.author == instructor


def test_admin_csv_export_opens_in_excel_and_imports_back(client, instructor, deck):
    """A byte-order mark, or Excel reads UTF-8 in the legacy code page ("çelik" as "Ã§elik")."""
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_deck_changelist"), {"action": "export_csv", "_selected_action": [deck.pk]}
    )
    assert response.content.startswith(codecs.BOM_UTF8)
    assert response.content.decode() == _export("serving", "csv")  # the command writes the same bytes
    upload = SimpleUploadedFile("serving.csv", response.content, content_type="text/csv")
    page = client.post(reverse("admin:content_deck_import"), {"file": upload})
    assert "Nothing to import: the deck already matches this file" in page.content.decode()


def test_admin_export_of_several_decks_is_a_zip_of_one_importable_file_each(client, instructor, deck):
    other = make_deck(title="Other", slug="other")
    make_card(deck=other, question="Other question?", answer="Other answer")
    client.force_login(instructor)
    for kind in ("json", "csv"):
        response = client.post(
            reverse("admin:content_deck_changelist"),
            {"action": f"export_{kind}", "_selected_action": [deck.pk, other.pk]},
        )
        assert response["Content-Type"] == "application/zip"
        assert response["Content-Disposition"] == f'attachment; filename="decks-{kind}.zip"'
        with zipfile.ZipFile(io.BytesIO(response.content)) as bundle:
            assert bundle.namelist() == [f"other.{kind}", f"serving.{kind}"]
            for slug in ("other", "serving"):
                assert bundle.read(f"{slug}.{kind}").decode() == _export(slug, kind)
        upload = SimpleUploadedFile(f"decks-{kind}.zip", response.content, content_type="application/zip")
        page = client.post(reverse("admin:content_deck_import"), {"file": upload})
        html = page.content.decode()
        # The zip imports as it is: each deck checked, both matching the decks they were exported from.
        assert page.status_code == 200 and f"Dry run of <bdi>decks-{kind}.zip</bdi>: 2 decks" in html
        assert html.count("Nothing to import: the deck already matches this file") == 2


def test_admin_import_reports_errors_and_writes_nothing(client, instructor, deck):
    client.force_login(instructor)
    upload = SimpleUploadedFile("bad.json", b'{"format": "mlcourse-deck", "version": 1, "deck": {}, "cards": 3}')
    page = client.post(reverse("admin:content_deck_import"), {"file": upload})
    assert page.status_code == 422
    assert "cards: must be a list" in page.content.decode() and "Nothing was written" in page.content.decode()


def test_csv_cells_cannot_run_as_formulas_and_still_round_trip(tmp_path):
    deck = make_deck(title="=HYPERLINK(evil)", slug="formulas", description="'quoted already")
    make_card(deck=deck, question="+1+1?", answer="-x", short_answer="@sum", explanation="'=literal")
    text = _export("formulas", "csv")
    rows = list(csv.reader(io.StringIO(text)))[1:]
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)
    _wipe()
    _import(tmp_path, text, "formulas.csv")
    assert _export("formulas", "csv") == text
    card = Card.objects.get()
    assert (card.question, card.answer, card.short_answer, card.explanation) == ("+1+1?", "-x", "@sum", "'=literal")
    assert Deck.objects.get().title == "=HYPERLINK(evil)"


def test_aliases_only_python_would_count_as_one_are_imported(tmp_path, db):
    """To str.lower() "İ" and "i" + a combining dot are one text, to PostgreSQL's lower() two: the database decides."""
    deck = make_deck(slug="cities", title="Cities")
    card_save(card=make_card(deck=deck, question="Largest city of Turkey?"), aliases=["İstanbul", "i\u0307stanbul"])
    text = _export("cities", "json")
    _wipe()
    assert "new deck: 1 created" in _import(tmp_path, text, "cities.json")
    assert _export("cities", "json") == text


def _minimal_cards(count: int) -> list[dict]:
    return [
        {"uid": str(uuid.UUID(int=n)), "position": n, "kind": "flashcard", "question": f"Q{n}", "answer": "A"}
        for n in range(1, count + 1)
    ]


def _minimal_csv(count: int) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n", restval="")
    writer.writeheader()
    writer.writerow({"record": "deck", "slug": "big", "title": "Big"})
    for card in _minimal_cards(count):
        writer.writerow({"record": "card", **card, "archived": "false", "aliases": "[]"})
    return out.getvalue()


@pytest.mark.parametrize(
    ("fmt", "where"),
    [("json", "cards"), ("csv", "row 2003")],  # header, deck row, then the 2,001st card
)
def test_a_file_with_more_than_2000_cards_is_refused_before_the_database(tmp_path, db, fmt, where):
    """More would exceed PostgreSQL's 65,535 bind parameters in the import's lookup, and the worker timeout."""
    assert MAX_CARDS == 2_000
    big = {"format": FORMAT, "version": FORMAT_VERSION, "deck": {"slug": "big", "title": "Big"}}
    text = json.dumps({**big, "cards": _minimal_cards(2_001)}) if fmt == "json" else _minimal_csv(2_001)
    message = f"{where}: a deck file holds at most 2,000 cards; this one has 2,001"
    with CaptureQueriesContext(connection) as queries, pytest.raises(TransferError) as excinfo:
        parse(text, name=f"big.{fmt}")
    assert str(excinfo.value) == message and not queries.captured_queries
    # The command says so, as a CommandError (printed without a traceback), and writes nothing.
    with pytest.raises(CommandError) as excinfo:
        _import(tmp_path, text, f"big.{fmt}")
    assert message in str(excinfo.value) and "Nothing was written" in str(excinfo.value)
    assert not Deck.objects.exists() and not Card.objects.exists()
    # 2,000 is allowed.
    allowed = json.dumps({**big, "cards": _minimal_cards(2_000)}) if fmt == "json" else _minimal_csv(2_000)
    assert len(parse(allowed, name=f"big.{fmt}")["cards"]) == 2_000


SEED = "technology-digital-tools-flashcards.txt"


def test_an_imported_copy_does_not_claim_the_seed_file_of_the_deck_it_was_copied_from(client, instructor, tmp_path):
    """The export names the seed file the deck was loaded from; a copy imported under another slug, or the deck
    imported into another installation, was never loaded from it, and its admin page must not say so."""
    original = make_deck(title="Tools", slug="tools", source=SEED)
    make_card(deck=original, question="Which one?", answer="This one")
    data = json.loads(_export("tools", "json"))
    assert data["deck"]["source"] == SEED  # the file still tells where the deck came from
    data["deck"].update(slug="tools-copy", title="Tools (copy)")
    for card in data["cards"]:
        card["uid"] = str(uuid.uuid4())
    assert "new deck: 1 created" in _import(tmp_path, json.dumps(data), "tools-copy.json")
    copy = Deck.objects.get(slug="tools-copy")
    assert copy.source == ""
    client.force_login(instructor)
    page = client.get(reverse("admin:content_deck_change", args=[copy.pk]))
    assert page.status_code == 200 and SEED not in page.content.decode()
    assert SEED in client.get(reverse("admin:content_deck_change", args=[original.pk])).content.decode()

    # Into another installation (here: an empty database), from JSON or CSV alike.
    for fmt in ("json", "csv"):
        text = _export("tools", fmt)
        _wipe()
        _import(tmp_path, text, f"tools.{fmt}")
        assert Deck.objects.get().source == ""
        Deck.objects.update(source=SEED)


def test_an_import_keeps_the_seed_file_of_the_deck_it_updates(tmp_path):
    """A deck loaded here from a seed file was loaded from it, whatever source an imported file names."""
    deck = make_deck(title="Tools", slug="tools", source=SEED)
    make_card(deck=deck, question="Which one?", answer="This one")
    data = json.loads(_export("tools", "json"))
    data["deck"]["source"] = "someone-elses-seed.txt"
    assert "existing deck: 0 created, 0 updated, 1 unchanged" in _import(tmp_path, json.dumps(data), "tools.json")
    data["deck"]["title"] = "Tools, renamed"
    _import(tmp_path, json.dumps(data), "tools.json")
    deck.refresh_from_db()
    assert (deck.title, deck.source) == ("Tools, renamed", SEED)
