"""export_deck / import_deck from the command line: lossless round trips in JSON and CSV, updates by uid, dry
runs, files that are not JSON or name another deck's cards, CSV cells that cannot run as formulas, files over the
card limit refused before the database, and which seed file an imported deck claims.
"""

from __future__ import annotations

import csv
import io
import json
import uuid

import pytest
from django.core.management import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.authoring.transfer import CSV_COLUMNS, FORMAT, FORMAT_VERSION, MAX_CARDS, TransferError, parse
from apps.content.models import Card, Deck
from apps.content.services import card_save
from tests.authoring.transfer_support import _export, _import, _wipe
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


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
