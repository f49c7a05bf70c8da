"""Importing a deck in the admin, how the file's cards are matched to the deck's: by uid, or by question for
cards written without one (whatever the spaces and letter case); cards the file leaves out are counted and kept,
and an import shows in each card's admin history.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.urls import reverse

from apps.authoring.services import deck_import
from apps.authoring.transfer import TransferError, parse
from apps.content.models import Card
from tests.authoring.import_support import _card, _export, _upload
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def test_cards_written_without_a_uid_are_matched_by_question_so_a_second_import_updates(instructor):
    """A file written by hand has no uids: its cards are created, then found again by their question."""
    cards = [{k: v for k, v in _card(n).items() if k != "uid"} for n in (1, 2)]
    first = deck_import(data=parse(json.dumps(_export(cards)), name="deck.json"), author=instructor)
    assert (len(first.created), len(first.updated)) == (2, 0)
    uids = set(Card.objects.filter(deck__slug="imported").values_list("uid", flat=True))

    cards[1]["answer"] = "Answer 2, reworded"
    again = deck_import(data=parse(json.dumps(_export(cards)), name="deck.json"), author=instructor)
    assert (len(again.created), len(again.updated), len(again.unchanged)) == (0, 1, 1)
    assert set(Card.objects.filter(deck__slug="imported").values_list("uid", flat=True)) == uids
    assert Card.objects.get(deck__slug="imported", position=2).answer == "Answer 2, reworded"


def test_a_card_without_a_uid_does_not_take_over_a_card_the_file_names_by_uid(instructor):
    deck_import(data=parse(json.dumps(_export([_card(1)])), name="deck.json"), author=instructor)
    kept = Card.objects.get(deck__slug="imported")
    # The card's question, without a uid, while the file gives that card (by its uid) another question.
    reworded = {**_card(1), "uid": str(kept.uid), "position": 5, "question": "Reworded?"}
    unkeyed = {k: v for k, v in _card(1).items() if k != "uid"}
    report = deck_import(data=parse(json.dumps(_export([reworded, unkeyed])), name="deck.json"), author=instructor)
    assert (len(report.created), len(report.updated)) == (1, 1)
    assert Card.objects.filter(deck__slug="imported").count() == 2
    assert (Card.objects.get(uid=kept.uid).position, Card.objects.get(uid=kept.uid).question) == (5, "Reworded?")


def test_two_cards_without_a_uid_and_with_one_question_are_a_clear_error():
    cards = [{k: v for k, v in _card(n, question="Same?").items() if k != "uid"} for n in (1, 2)]
    with pytest.raises(TransferError) as caught:
        parse(json.dumps(_export(cards)), name="deck.json")
    assert [str(problem) for problem in caught.value.problems] == [
        "card #2, field question: is also the question of card #1: a deck asks each question once, so keep one of "
        "the two or ask one differently"
    ]


@pytest.mark.parametrize(
    "rewrite",
    [
        lambda q: q + "  ",
        lambda q: q.replace("Question", "question"),
        lambda q: q.replace(" ", "  "),
        lambda q: q + "\r\n",
    ],
    ids=["trailing spaces", "letter case", "double spaces", "Windows line end"],
)
def test_a_card_without_a_uid_is_its_question_whatever_the_spaces_and_letter_case(instructor, rewrite):
    cards = [{k: v for k, v in _card(n).items() if k != "uid"} for n in (1, 2)]
    deck_import(data=parse(json.dumps(_export(cards)), name="deck.json"), author=instructor)
    cards[1]["question"] = rewrite(cards[1]["question"])
    again = deck_import(data=parse(json.dumps(_export(cards)), name="deck.json"), author=instructor)
    assert (len(again.created), len(again.updated)) == (0, 1)
    assert Card.objects.filter(deck__slug="imported").count() == 2


def test_a_hand_written_card_without_position_or_kind_is_told_they_are_missing():
    card = {k: v for k, v in _card(1).items() if k not in {"uid", "position", "kind"}}
    with pytest.raises(TransferError) as caught:
        parse(json.dumps(_export([card])), name="deck.json")
    assert [str(problem) for problem in caught.value.problems] == [
        "card #1, field position: is missing: it must be a whole number from 1 to 2147483647",
        "card #1, field kind: is missing: it must be flashcard or syllabus",
    ]


def test_the_report_counts_the_decks_cards_the_file_leaves_out_and_keeps_them(client, instructor):
    """An import adds and changes cards and never deletes one: an author who dropped rows from the file expecting
    them gone is told, in the dry run, that they stay."""
    cards = [_card(n) for n in (1, 2, 3)]
    deck_import(data=parse(json.dumps(_export(cards)), name="deck.json"), author=instructor)
    report = deck_import(data=parse(json.dumps(_export(cards[:1])), name="deck.json"), author=instructor)
    assert report.summary() == (
        "existing deck: 0 created, 0 updated, 1 unchanged; 2 cards of the deck not in the file, kept"
    )
    assert Card.objects.filter(deck__slug="imported").count() == 3
    client.force_login(instructor)
    html = _upload(client, json.dumps(_export([{**cards[0], "answer": "New"}]))).content.decode()
    assert "0 created, 1 updated, 0 unchanged; 2 cards of the deck not in the file, kept." in html


def test_an_import_shows_in_each_cards_admin_history(client, instructor):
    deck = make_deck(slug="imported", title="Imported")
    kept = make_card(deck=deck, position=9, question="Changed by the file", answer="Old")
    data = _export([_card(1), {**_card(2), "uid": str(kept.uid), "question": kept.question, "position": 9}])
    deck_import(data=parse(json.dumps(data), name="deck.json"), author=instructor, source="deck.json")
    client.force_login(instructor)
    for card in (Card.objects.get(uid=data["cards"][0]["uid"]), kept):  # one added, one changed
        history = client.get(reverse("admin:content_card_history", args=[card.pk])).content.decode()
        assert "Imported from deck.json" in history and instructor.username in history
    assert sorted(LogEntry.objects.values_list("action_flag", flat=True)) == [ADDITION, CHANGE]
    deck_import(data=parse(json.dumps(data), name="deck.json"), author=instructor, source="deck.json", dry_run=True)
    assert LogEntry.objects.count() == 2  # a dry run writes nothing, History included
