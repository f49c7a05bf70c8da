"""Importing a deck in the admin, what it writes: every card rendered and versioned as a save would, in a number
of queries that does not grow with the cards, each formula typeset once; the dry run's report; and files that are
refused with a clear error (aliases the database counts as one, too many cards, formulas KaTeX rejects).
"""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.authoring import holds
from apps.authoring.models import ImportHold
from apps.authoring.services import deck_import
from apps.authoring.transfer import TransferError, parse
from apps.content.models import Card, CardVersion, Deck, StyleRule
from apps.content.rendering import render
from apps.content.services import card_save, card_snapshot
from tests.authoring.import_support import _card, _confirm, _export, _key, _upload
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _queries(data: dict, **kwargs) -> int:
    parsed = parse(json.dumps(data), name="deck.json")
    ContentType.objects.get_for_model(Card)  # the History entries' content type, cached after a process's first
    with CaptureQueriesContext(connection) as context:
        deck_import(data=parsed, **kwargs)
    return len(context.captured_queries)


def test_import_queries_do_not_grow_with_the_cards(instructor):
    """card_save one card at a time took 21 queries a card; the import writes each kind of row in bulk."""
    few = _queries(_export([_card(i) for i in range(1, 3)], slug="few", title="Few"), author=instructor)
    many = _queries(_export([_card(i) for i in range(101, 121)], slug="many", title="Many"), author=instructor)
    assert few == many == 16  # with the import lock, the title's check, the known style rules and History entries
    # Updating every card of a deck, too.
    few = _queries(
        _export([_card(i, answer="Changed") for i in range(1, 3)], slug="few", title="Few"), author=instructor
    )
    many = _queries(
        _export([_card(i, answer="Changed") for i in range(101, 121)], slug="many", title="Many"), author=instructor
    )
    # The known style rules are read, none written again; the cards left out counted; and the deck's questions read
    # once, to refuse a file asking one that a card it leaves out asks (a new deck has none to read).
    assert few == many == 24


def _classes(html: str) -> set[str]:
    return set(re.findall(r"\bs[0-9a-f]{10}\b", html))


def test_imported_cards_are_rendered_and_versioned_as_a_save_would(instructor):
    deck = make_deck(slug="imported", title="Imported")
    kept = make_card(deck=deck, position=1, question="Not in the file", answer="Stays")
    data = _export([_card(1), _card(2), _card(3)])
    deck_import(data=parse(json.dumps(data), name="deck.json"), author=instructor, source="deck.json")

    kept.refresh_from_db()
    assert kept.position == 4  # stepped aside from the positions the file uses
    stored_rules = set(StyleRule.objects.values_list("name", flat=True))
    for item in data["cards"]:
        card = Card.objects.get(uid=item["uid"])
        assert card.question_html == render(item["question"]).html and "<mroot>" in card.question_html
        assert _classes(card.question_html) and _classes(card.question_html) <= stored_rules
        assert [d.text_html for d in card.distractors.order_by("position")] == [
            render(text).html for text in item["distractors"]
        ]
        version = card.current_version
        assert (version.number, version.author, version.note) == (1, instructor, "Imported from deck.json")
        assert version.data == card_snapshot(card)

    # A changed card gets the next version; one only moved gets none (position is not versioned).
    first, second = data["cards"][0], data["cards"][1]
    edited = Card.objects.get(uid=first["uid"])
    edited.answer = "Edited in between"
    card_save(card=edited)  # version 2
    first.update(answer="From the file again", aliases=["new alias"])
    second["position"], data["cards"][2]["position"] = 3, 2
    report = deck_import(data=parse(json.dumps(data), name="deck.json"), author=instructor, source="deck.json")
    assert (len(report.created), len(report.updated), len(report.unchanged)) == (0, 3, 0)
    # Each changed card says what changed, for the dry run an author confirms.
    assert [label.rsplit(" (", 1)[1] for label in report.updated] == [
        "answer, accepted answers)",
        "position)",
        "position)",
    ]
    edited = Card.objects.get(uid=first["uid"])
    assert (edited.current_version.number, edited.answer) == (3, "From the file again")
    assert edited.current_version.data == card_snapshot(edited)
    assert list(edited.aliases.values_list("text", flat=True)) == ["new alias"]
    moved = Card.objects.get(uid=second["uid"])
    assert moved.position == 3 and moved.versions.count() == 1 and moved.current_version.number == 1


def test_the_dry_run_marks_a_shortened_question_with_an_ellipsis(client, instructor):
    client.force_login(instructor)
    long = "Which distributed computing framework is most commonly used for training large models on one node?"
    page = _upload(client, _export([_card(1, question=long), _card(2)]))
    text = " ".join(page.content.decode().split())
    assert "#1 Which distributed computing framework is most commonly used for train…" in text
    assert "#2 Question 2: what is" in text


def test_a_file_the_deck_already_matches_says_there_is_nothing_to_import(client, instructor):
    client.force_login(instructor)
    data = _export([_card(1), _card(2)], title="Kubernetes basics")
    _confirm(client, _key(_upload(client, data)))
    assert Card.objects.filter(deck__slug="imported").count() == 2

    html = _upload(client, data).content.decode()
    assert "the deck “<bdi>Kubernetes basics</bdi>”" in html
    assert "Nothing to import: the deck already matches this file (2 cards unchanged)." in html
    assert "Import now" not in html
    assert not ImportHold.objects.exists()  # nothing to confirm, so the file is not kept
    changed = _export([_card(1), _card(2, answer="Answer two")], title="Kubernetes basics")
    assert "Import now" in _upload(client, changed).content.decode()


@pytest.mark.parametrize(
    ("aliases", "message"),
    [
        # str.lower() makes "İ" an "i" and a combining dot, PostgreSQL's lower() (the constraint's) a plain "i":
        # checked with the first, this file passed the check and its insert failed (a 500).
        (["İstanbul", "Ankara", "istanbul"], "card #2, field aliases: “İstanbul” and “istanbul” are the same answer"),
        (["Job", "job"], "card #2, field aliases: “Job” and “job” are the same answer"),
    ],
)
def test_aliases_the_database_counts_as_one_are_a_clear_error(client, instructor, aliases, message):
    client.force_login(instructor)
    content = json.dumps(_export([_card(1), _card(2, aliases=aliases)]))
    page = _upload(client, content)
    html = page.content.decode()
    assert page.status_code == 422 and message in html and "Nothing was written" in html
    assert page.context.get("confirm") is None
    refused = _confirm(client, holds.import_key(name="deck.json", text=content))
    assert refused.status_code == 422
    assert not Deck.objects.filter(slug="imported").exists() and not Card.objects.exists()


def test_a_file_with_more_than_2000_cards_is_a_clear_error(client, instructor):
    client.force_login(instructor)
    cards = [
        {"uid": str(uuid.UUID(int=n)), "position": n, "kind": "flashcard", "question": "Q", "answer": "A"}
        for n in range(1, 2_002)
    ]
    page = _upload(client, _export(cards))
    html = page.content.decode()
    assert page.status_code == 422 and "Nothing was written" in html
    assert "cards: a deck file holds at most 2,000 cards; this one has 2,001" in html
    assert page.context.get("confirm") is None and not Deck.objects.filter(slug="imported").exists()


def test_each_formula_of_an_import_is_typeset_once_per_request(client, instructor, typeset):
    """The TeX check typeset every formula of the cards' texts, then the render typeset each again. The
    distractors and the deck's description are checked too, and written from that one typesetting."""
    client.force_login(instructor)
    data = _export([_card(i, distractors=[f"$y^{i}$", "$\\hat z$", "Wrong"]) for i in range(1, 6)])
    data["deck"]["description"] = "Expectations: $\\mathbb{E}[x]$."
    # Per card one formula in the question and one in a distractor, no two alike; one distractor every card
    # shares, and the description.
    formulas = sorted(
        [
            *(f"\\sqrt[{i + 2}]{{x_{i}}}" for i in range(1, 6)),
            *(f"y^{i}" for i in range(1, 6)),
            "\\hat z",
            "\\mathbb{E}[x]",
        ]
    )

    page = _upload(client, data)
    assert page.status_code == 200 and sorted(typeset) == formulas
    typeset.clear()
    assert _confirm(client, _key(page)).status_code == 302
    assert sorted(typeset) == formulas
    card = Card.objects.get(uid=data["cards"][0]["uid"])
    assert card.question_html == render(data["cards"][0]["question"]).html and "<mroot>" in card.question_html
    assert [d.text_html for d in card.distractors.order_by("position")] == [
        render(text).html for text in data["cards"][0]["distractors"]
    ]
    deck = Deck.objects.get(slug="imported")
    assert deck.description_html == render(data["deck"]["description"]).html and "katex" in deck.description_html


BAD = "$\\frac{1}{$"


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (
            lambda d: d["cards"][1].update(distractors=["Fine $y$", f"Wrong {BAD}"]),
            "card #2, field distractors, entry #2",
        ),
        (lambda d: d["cards"][2].update(distractors=[BAD]), "card #3, field distractors, entry #1"),
        (lambda d: d["deck"].update(description=f"About {BAD}"), "deck, field description"),
    ],
)
def test_a_formula_katex_rejects_in_a_distractor_or_the_description_is_refused(client, instructor, mutate, where):
    """The admin's distractor form refuses such TeX (validate_tex); the import took it, and it showed as an error box.
    Refused at the check, naming the card and the field: no deck, no card, nothing kept for confirmation."""
    client.force_login(instructor)
    data = _export([_card(1), _card(2), _card(3)])
    mutate(data)
    content = json.dumps(data)
    page = _upload(client, content)
    html = page.content.decode()
    assert page.status_code == 422 and "Nothing was written" in html
    assert "deck.json would not import: 1 problem." in html and f"<li>{where}: {BAD}: KaTeX parse error" in html
    assert page.context.get("confirm") is None and not ImportHold.objects.exists()
    refused = _confirm(client, holds.import_key(name="deck.json", text=content))
    assert refused.status_code == 422
    assert not Deck.objects.exists() and not Card.objects.exists()


def test_a_bad_distractor_formula_leaves_an_existing_deck_as_it_was(instructor):
    """The first cards of the file are fine and would change, the last one's distractor is not: nothing moves."""
    data = _export([_card(1), _card(2), _card(3)])
    deck_import(data=parse(json.dumps(data), name="deck.json"), author=instructor, source="deck.json")
    before = [card_snapshot(card) for card in Card.objects.order_by("position")]
    data["deck"]["title"] = "Renamed"
    for item in data["cards"]:
        item["answer"] = "Changed"
    data["cards"][2]["distractors"] = ["Fine", "Also $x$", BAD]
    with pytest.raises(TransferError, match=re.escape(f"card #3, field distractors, entry #3: {BAD}")):
        deck_import(data=parse(json.dumps(data), name="deck.json"), author=instructor, source="deck.json")
    assert Deck.objects.get(slug="imported").title == "Imported"
    assert [card_snapshot(card) for card in Card.objects.order_by("position")] == before
    assert CardVersion.objects.count() == 3
