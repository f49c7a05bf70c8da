"""Importing the deck list's export of several decks, a .zip, as it is: every deck checked, then all imported."""

from __future__ import annotations

import io
import json
import re
import zipfile
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.content.models import Card, Deck
from apps.content.services import card_save
from tests.conftest import make_instructor
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db
URL = "admin:content_deck_import"


def _deck(slug: str, title: str, *questions: str) -> str:
    cards = [
        {"position": i, "kind": "flashcard", "question": question, "answer": f"Answer {i}"}
        for i, question in enumerate(questions, start=1)
    ]
    return json.dumps({"format": "mlcourse-deck", "version": 1, "deck": {"slug": slug, "title": title}, "cards": cards})


def _zip(files: dict[str, str]) -> SimpleUploadedFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        for name, text in files.items():
            bundle.writestr(name, text)
    return SimpleUploadedFile("decks.zip", buffer.getvalue(), content_type="application/zip")


def test_a_zip_of_decks_is_checked_deck_by_deck_then_imported_at_once(client, instructor):
    """It was refused with "unzip it and import each deck's file": one upload and confirmation a deck."""
    ops = make_deck(slug="ops", title="Ops")
    make_card(deck=ops, question="Which object runs a batch job?", answer="Answer 1")
    upload = _zip(
        {
            "ops.json": _deck("ops", "Ops", "Which object runs a batch job?", "Which runs on every node?"),
            "rl.json": _deck("rl", "RL basics", "What is $\\gamma$?"),
            "__MACOSX/._rl.json": "not a deck",
            "notes.txt": "not a deck either",
        }
    )
    client.force_login(instructor)
    page = client.post(reverse(URL), {"file": upload})
    html = page.content.decode()
    assert page.status_code == 200 and "Dry run of <bdi>decks.zip</bdi>: 2 decks" in html
    assert "“<bdi>Ops</bdi>” (<bdi>ops.json</bdi>)" in html
    assert "Existing deck: 1 created, 1 updated, 0 unchanged." in html
    assert "“<bdi>RL basics</bdi>” (<bdi>rl.json</bdi>)" in html
    assert "New deck: 1 created, 0 updated, 0 unchanged." in html
    assert not Deck.objects.filter(slug="rl").exists() and Card.objects.count() == 1  # nothing written yet
    # Each deck's lists under its own heading, one level down from a single file's.
    assert "<h3>“<bdi>RL basics</bdi>” (<bdi>rl.json</bdi>)</h3>" in html
    assert "<h4>New cards</h4>" in html and "<h3>New cards" not in html
    keys = re.findall(r'name="key" value="([0-9a-f]{64})"', html)
    assert len(keys) == 2
    done = client.post(reverse(URL), {"confirm": "1", "key": keys}, follow=True).content.decode()
    assert "Imported ops.json: existing deck: 1 created" in done and "Imported rl.json: new deck: 1 created" in done
    assert ops.cards.count() == 2 and Deck.objects.get(slug="rl").cards.count() == 1


def test_a_zip_with_a_deck_that_would_not_import_names_the_file_and_writes_nothing(client, instructor):
    upload = _zip(
        {"good.json": _deck("good", "Good", "Fine?"), "bad.json": _deck("bad", "Bad", "Broken $\\frac{1}{$?")}
    )
    client.force_login(instructor)
    page = client.post(reverse(URL), {"file": upload})
    html = page.content.decode()
    assert page.status_code == 422 and "decks.zip would not import: 1 problem." in html
    assert "bad.json, card #1, field question" in html and "Nothing was written." in html
    assert not Deck.objects.filter(slug__in=["good", "bad"]).exists()


@pytest.mark.parametrize(
    ("second", "message"),
    [
        # The check passed both as new decks; the import then made one deck of the two files' cards.
        (_deck("ops", "Ops again", "Two?"), "sub/b.json: its deck&#x27;s slug ops is also the deck of a.json"),
        # The check passed both; confirming was refused as if the database had changed since.
        (_deck("ops-2", "ops  ", "Two?"), "sub/b.json: its deck is titled “ops  ” as the deck of a.json is"),
    ],
)
def test_two_files_of_a_zip_for_one_deck_are_refused_at_the_check_naming_both(client, instructor, second, message):
    upload = _zip({"a.json": _deck("ops", "Ops", "One?"), "sub/b.json": second})
    client.force_login(instructor)
    page = client.post(reverse(URL), {"file": upload})
    html = page.content.decode()
    assert page.status_code == 422 and message in html
    assert not Deck.objects.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"PK\x03\x04 not really a zip", "decks.zip is not a .zip archive that can be read."),
        (None, "decks.zip holds no .json or .csv deck file."),
    ],
)
def test_a_zip_without_decks_is_a_form_error(client, instructor, content, message):
    upload = _zip({"readme.txt": "hello"}) if content is None else SimpleUploadedFile("decks.zip", content)
    client.force_login(instructor)
    page = client.post(reverse(URL), {"file": upload})
    assert page.status_code == 422 and message in page.content.decode()


def test_confirming_a_zip_imports_every_deck_or_none(client, instructor):
    upload = _zip({"a.json": _deck("a", "A", "One?"), "b.json": _deck("b", "B", "Two?")})
    client.force_login(instructor)
    html = client.post(reverse(URL), {"file": upload}).content.decode()
    keys = re.findall(r'name="key" value="([0-9a-f]{64})"', html)
    # The second key altered: no deck is imported, not even the first.
    page = client.post(reverse(URL), {"confirm": "1", "key": [keys[0], "f" * 64]})
    assert page.status_code == 422 and "no longer waiting to be imported" in page.content.decode()
    assert not Deck.objects.filter(slug__in=["a", "b"]).exists()
    assert client.post(reverse(URL), {"confirm": "1", "key": keys}).status_code == 302
    assert set(Deck.objects.filter(slug__in=["a", "b"]).values_list("slug", flat=True)) == {"a", "b"}


def test_a_deck_of_the_zip_changed_since_its_dry_run_imports_no_deck_and_shows_the_dry_run_again(client, instructor):
    ops = make_deck(slug="ops", title="Ops")
    card = make_card(deck=ops, question="Which object runs a batch job?", answer="Answer 1")
    files = {
        "ops.json": _deck("ops", "Ops", "Which object runs a batch job?", "Which runs on every node?"),
        "rl.json": _deck("rl", "RL basics", "What is $\\gamma$?"),
    }
    client.force_login(instructor)
    html = client.post(reverse(URL), {"file": _zip(files)}).content.decode()
    assert "#1 Which object runs a batch job? (short answer)" in html
    keys = re.findall(r'name="key" value="([0-9a-f]{64})"', html)
    card.answer = "Fixed by dana"
    card_save(card=card, author=make_instructor("dana"), note="Edited in the admin")

    page = client.post(reverse(URL), {"confirm": "1", "key": keys})

    html = " ".join(page.content.decode().split())
    assert page.status_code == 409 and "The deck “Ops” changed since your dry run" in unescape(html)
    assert "Dry run of <bdi>ops.json, rl.json</bdi>: 2 decks" in html
    assert "#1 Which object runs a batch job? (answer, short answer)" in html  # dana's answer would go
    assert not Deck.objects.filter(slug="rl").exists()
    assert list(ops.cards.values_list("answer", flat=True)) == ["Fixed by dana"]
