"""export_deck / import_deck: lossless round trips in JSON and CSV, malformed files, the admin's import and export."""

from __future__ import annotations

import csv
import io
import json
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from apps.content.models import Card, CardVersion, Deck
from apps.content.services import card_save
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck():
    deck = make_deck(title="Serving", slug="serving", description="About *serving*.")
    first = make_card(deck=deck, question="What is $\\frac{a}{b}$?", answer="A ratio, `a/b`.", short_answer="ratio",
                      explanation="Because.")  # fmt: skip
    card_save(card=first, aliases=["a quotient", "fraction"], distractors=["A sum", "A *product*"],
              key_terms=["ratio|quotient", "divide"])  # fmt: skip
    make_card(deck=deck, kind="syllabus", question='Comma, "quotes"\nand newline?', answer="Yes,\n\nreally.",
              short_answer="", archived=True)  # fmt: skip
    return deck


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
    assert "<mfrac>" in card.question_html
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
    data["cards"].append({**data["cards"][1], "uid": "7d9c1e8a-3f4b-4c55-9d1e-2a6b8c0f1e23", "position": 3})
    output = _import(tmp_path, json.dumps(data), "s.json")
    assert "existing deck: 1 created, 1 updated, 1 unchanged" in output
    assert Card.objects.get(short_answer="ratio").answer == "A quotient."
    assert Card.objects.count() == 3


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
        (lambda d: d["cards"][1].update(question=""), "cards[1].question: is required"),
        (lambda d: d["cards"][0].update(kind="essay"), "cards[0].kind: must be flashcard or syllabus"),
        (lambda d: d["cards"][0].update(position=0), "cards[0].position: must be a whole number"),
        (lambda d: d["cards"][1].update(position=1), "cards[1].position: 1 is used by another card too"),
        (lambda d: d["cards"][0].update(uid="not-a-uuid"), "cards[0].uid: must be a UUID"),
        (lambda d: d["cards"][0].update(aliases="fraction"), "cards[0].aliases: must be a list of non-empty texts"),
        (lambda d: d["cards"][0].update(answer="Bad $\\frac{1}{$"), "field answer: $\\frac{1}{$: KaTeX parse error"),
        (lambda d: d["deck"].update(slug="Not A Slug"), "deck.slug: may contain only lowercase"),
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


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda lines: [lines[0].replace("key_terms", "terms"), *lines[1:]],
            "row 1: the header lacks the columns key_terms",
        ),
        (lambda lines: [lines[0], lines[1], lines[1], lines[2]], "row 3, field record: a second deck row"),
        (lambda lines: [lines[0], *lines[2:]], "the file has no deck row"),
        (lambda lines: [lines[0], lines[1], lines[2].replace('""fraction""', "fraction")], "row 3, field aliases"),
        (
            lambda lines: [lines[0], lines[1].replace("deck,", "dock,", 1), *lines[2:]],
            "row 2, field record: must be deck or card",
        ),
    ],
)
def test_malformed_csv_names_the_row_and_field(deck, tmp_path, edit, message):
    lines = _export("serving", "csv").split("\n")
    lines = [line for line in lines if line]
    # The second card spans several physical lines; keep only the deck row and the first card.
    text = "\n".join(edit(lines[:3])) + "\n"
    with pytest.raises(CommandError) as excinfo:
        _import(tmp_path, text, "bad.csv")
    assert message in str(excinfo.value)


def test_not_json_at_all(tmp_path, db):
    with pytest.raises(CommandError, match="line 1: not valid JSON"):
        _import(tmp_path, "{nope", "x.json")


def test_a_uid_from_another_deck_is_refused(deck, tmp_path):
    data = json.loads(_export("serving", "json"))
    make_deck(slug="other", title="Other")
    data["deck"]["slug"] = "other"
    with pytest.raises(CommandError, match="belongs to the deck 'serving', not 'other'"):
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
    assert "Dry run of serving.json" in html and "0 created, 1 updated, 1 unchanged" in html
    assert Card.objects.get(short_answer="ratio").answer == "A ratio, `a/b`."
    confirm = page.context["confirm"]
    done = client.post(reverse("admin:content_deck_import"), {**confirm.initial, "confirm": "1"}, follow=True)
    assert "Imported serving.json" in done.content.decode()
    assert Card.objects.get(short_answer="ratio").answer == "A changed ratio, `a/b`."
    assert Card.objects.get(short_answer="ratio").current_version.author == instructor


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
