"""An import file asks each question once, and none that a card of the deck it leaves out asks: such a file is
refused, naming the file, its line or row and the card asking the question, and nothing of it is written."""

from __future__ import annotations

import io
import json
import re
import uuid
import zipfile
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from apps.authoring.services import deck_import
from apps.authoring.transfer import TransferError, parse
from apps.common.db import name_lock
from apps.content.models import Card, Deck
from apps.content.services import DECK_WRITES_LOCK
from tests.factories import make_card, make_deck
from tests.locks import after_waiting

FIX = "a deck asks each question once, so keep one of the two or ask one differently"


def _file(*questions: str, title: str = "Serving", uids: list[str] | None = None) -> str:
    uids = uids or [str(uuid.UUID(int=n)) for n in range(1, len(questions) + 1)]
    cards = [
        {"uid": uid, "position": n, "kind": "flashcard", "question": question, "answer": f"Answer {n}"}
        for n, (uid, question) in enumerate(zip(uids, questions, strict=True), start=1)
    ]
    deck = {"slug": "serving", "title": title}
    return json.dumps({"format": "mlcourse-deck", "version": 1, "deck": deck, "cards": cards}, indent=2)


def _line(text: str, needle: str) -> int:
    """The line of `text` holding `needle`, counted from 1 as the problems count them."""
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


def _command(tmp_path, text: str, name: str = "serving.json") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("import_deck", str(path), stdout=io.StringIO())
    return str(caught.value)


@pytest.mark.django_db
def test_a_file_asking_one_question_twice_is_refused_naming_both_places(tmp_path):
    text = _file("What is KV caching?", "Why batch?", "what is  KV caching?")
    said = _command(tmp_path, text)
    first, again = _line(text, '"uid": "' + str(uuid.UUID(int=1))) - 1, _line(text, "what is  KV caching?")
    assert (
        f"serving.json would not import (1 problem):\n  line {again}, card #3, field question: is also the question "
        f"of line {first}, card #1: {FIX}\nNothing was written."
    ) in said
    assert not Deck.objects.exists() and not Card.objects.exists()


@pytest.mark.django_db
def test_a_csv_asking_one_question_twice_is_refused_by_the_rows_a_spreadsheet_shows(tmp_path):
    csv = (
        "record,slug,title,uid,position,kind,question,answer\n"
        "deck,serving,Serving,,,,,\n"
        "card,,,,1,flashcard,What is KV caching?,Reuse\n"
        "card,,,,2,flashcard,WHAT IS KV CACHING?,Again\n"
    )
    said = _command(tmp_path, csv, "serving.csv")
    assert (
        f"serving.csv would not import (1 problem):\n  row 4, field question: is also the question of row 3: {FIX}"
        in said
    )
    assert not Card.objects.exists()


@pytest.mark.django_db
def test_a_question_a_card_the_file_leaves_out_asks_is_refused_and_nothing_is_written(tmp_path):
    deck = make_deck(slug="serving", title="Serving")
    added = make_card(deck=deck, question="What is KV caching?", answer="Added in the admin")
    text = _file("Why batch?", "What is KV  caching?", title="Serving, renamed")
    said = _command(tmp_path, text)
    assert (
        f"line {_line(text, 'What is KV  caching?')}, card #2, field question: the deck asks this question already, "
        "in its card at position 1, which this file leaves out: ask this one differently, or give this card that "
        "card's uid so that the import updates it instead" in said
    )
    deck.refresh_from_db()
    assert deck.title == "Serving" and list(deck.cards.all()) == [added]


@pytest.mark.django_db
def test_the_cards_a_file_updates_may_trade_questions_and_keep_their_own_in_another_case():
    deck = make_deck(slug="serving", title="Serving")
    first = make_card(deck=deck, question="What is KV caching?")
    second = make_card(deck=deck, question="Why batch?")
    text = _file("WHY BATCH?", "What is KV caching?", uids=[str(first.uid), str(second.uid)])
    report = deck_import(data=parse(text, name="serving.json"))
    assert len(report.updated) == 2
    assert list(deck.cards.order_by("position").values_list("question", flat=True)) == [
        "WHY BATCH?",
        "What is KV caching?",
    ]


@pytest.mark.django_db
def test_the_admin_upload_names_the_card_asking_the_question_and_imports_nothing(client, instructor):
    deck = make_deck(slug="serving", title="Serving")
    make_card(deck=deck, question="What is KV caching?", archived=True)
    upload = SimpleUploadedFile("serving.json", _file("What is KV caching?").encode(), content_type="application/json")
    client.force_login(instructor)
    html = unescape(client.post(reverse("admin:content_deck_import"), {"file": upload}).content.decode())
    assert "serving.json would not import: 1 problem." in html
    assert "the deck has this question already, in its archived card at position 1, which this file leaves out" in html
    assert deck.cards.count() == 1


@pytest.mark.django_db
def test_a_zip_names_the_file_whose_question_is_taken(client, instructor):
    make_card(deck=make_deck(slug="serving", title="Serving"), question="What is KV caching?")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        bundle.writestr("serving.json", text := _file("What is KV caching?"))
        bundle.writestr("other.json", _file("Why batch?", title="Other").replace('"serving"', '"other"'))
    upload = SimpleUploadedFile("decks.zip", buffer.getvalue(), content_type="application/zip")
    client.force_login(instructor)
    html = unescape(client.post(reverse("admin:content_deck_import"), {"file": upload}).content.decode())
    where = f"serving.json, line {_line(text, 'What is KV caching?')}, card #1, field question"
    said = f"{where}: the deck asks this question already, in its card at position 1"
    assert f"decks.zip would not import: 1 problem. {said}" in " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert not Deck.objects.filter(slug="other").exists()


@pytest.mark.django_db(transaction=True)
def test_an_import_waits_for_a_card_save_taking_one_of_its_questions_and_then_refuses():
    """The other save has added the card and not yet committed: checked before it commits, the import added a
    second card asking the question."""
    deck = make_deck(slug="serving", title="Serving")
    text = _file("Why batch?", "What is KV caching?")
    data = parse(text, name="serving.json")

    def other_save():
        name_lock(DECK_WRITES_LOCK)
        make_card(deck=deck, question="What is KV caching?")

    def imported():
        try:
            deck_import(data=data)
        except TransferError as exc:
            return [problem.where for problem in exc.problems]

    assert after_waiting(other_save, imported) == [
        f"line {_line(text, 'What is KV caching?')}, card #2, field question"
    ]
    assert list(deck.cards.values_list("question", flat=True)) == ["What is KV caching?"]
