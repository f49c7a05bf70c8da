"""Importing a deck in the admin: the checked upload waits on the server and the confirmation names it;
and the import itself renders and versions every card in a number of queries that does not grow with them."""

from __future__ import annotations

import json
import re
import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.authoring import services
from apps.authoring.models import ImportHold
from apps.authoring.services import deck_import
from apps.authoring.transfer import TransferError, parse
from apps.common.db import name_lock
from apps.content.models import Card, CardVersion, Deck, StyleRule
from apps.content.rendering import render
from apps.content.services import DECK_WRITES_LOCK, card_save, card_snapshot
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck
from tests.locks import waited_for

pytestmark = pytest.mark.django_db

NOT_WAITING = "This upload is no longer waiting to be imported"


def _export(cards: list[dict], *, slug: str = "imported", title: str = "Imported") -> dict:
    return {"format": "mlcourse-deck", "version": 1, "deck": {"slug": slug, "title": title}, "cards": cards}


def _card(position: int, **fields) -> dict:
    return {
        "uid": str(uuid.UUID(int=position)), "position": position, "kind": "flashcard",
        "question": f"Question {position}: what is $\\sqrt[{position + 2}]{{x_{position}}}$?",
        "answer": f"Answer {position}", "short_answer": f"Answer {position}", "explanation": "",
        "aliases": [f"alias {position}", f"other {position}"], "distractors": [f"$y^{position}$", "Wrong"],
        "key_terms": [f"term {position}"], **fields,
    }  # fmt: skip


def _upload(client, data: dict | str, name: str = "deck.json"):
    content = data if isinstance(data, str) else json.dumps(data)
    upload = SimpleUploadedFile(name, content.encode(), content_type="application/json")
    return client.post(reverse("admin:content_deck_import"), {"file": upload})


def _confirm(client, key: str, *, follow: bool = False, **fields):
    return client.post(reverse("admin:content_deck_import"), {"confirm": "1", "key": key, **fields}, follow=follow)


def _key(page) -> str:
    return page.context["confirm"].initial["key"]


def test_a_file_larger_than_a_request_may_carry_is_checked_then_imported(client, instructor):
    """The confirmation used to post the file back as a form field: past 2.5 MB Django refused it (a 400)."""
    client.force_login(instructor)
    text = "All work and no play makes the model a dull learner. " * 350  # ~19 KB, near the 20,000 limit
    data = _export([_card(i, answer=text, explanation=text) for i in range(1, 81)])
    content = json.dumps(data)
    assert len(content.encode()) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE

    page = _upload(client, content)
    html = page.content.decode()
    assert page.status_code == 200 and "New deck: 80 created, 0 updated, 0 unchanged" in html
    assert "Nothing has been written yet; the checked file waits here for 60 minutes." in html
    assert not Deck.objects.filter(slug="imported").exists()
    # The confirmation carries a key, not the file.
    assert len(page.content) < 100_000 and 'name="content"' not in html
    assert f'name="key" value="{_key(page)}"' in html

    done = _confirm(client, _key(page), follow=True)
    assert "Imported deck.json: new deck: 80 created" in done.content.decode()
    cards = Card.objects.filter(deck__slug="imported")
    assert cards.count() == 80
    assert cards.get(position=7).explanation == text and text.strip() in cards.get(position=7).explanation_html


def test_the_confirmation_imports_what_was_checked_not_a_later_upload(client, instructor):
    client.force_login(instructor)
    first = _upload(client, _export([_card(1, answer="The answer that was checked first")]))
    second = _upload(client, _export([_card(1, answer="A later upload, never confirmed")]))
    assert _key(first) != _key(second)
    assert _confirm(client, _key(first)).status_code == 302
    card = Card.objects.get(deck__slug="imported")
    assert card.answer == "The answer that was checked first"
    assert card.current_version.author == instructor and card.current_version.note == "Imported from deck.json"


@pytest.mark.parametrize(
    "tamper",
    [
        lambda key: key[:-1] + ("0" if key[-1] != "0" else "1"),  # another well-formed key
        lambda key: "0" * 64,
        lambda key: key.upper(),
        lambda key: "../../" + key,
        lambda key: "",
    ],
)
def test_a_tampered_or_unknown_key_is_a_clear_error_and_imports_nothing(client, instructor, tamper):
    client.force_login(instructor)
    page = _upload(client, _export([_card(1)]))
    response = _confirm(client, tamper(_key(page)))
    html = response.content.decode()
    assert response.status_code == 422
    assert NOT_WAITING in html and "Upload the file again" in html and "Nothing was written" in html
    assert 'type="file"' in html  # the upload form, to start again
    assert not Deck.objects.filter(slug="imported").exists()
    # The confirmation of the old kind, with the file in a field, is not trusted either.
    old_style = _confirm(client, "", name="deck.json", content=json.dumps(_export([_card(1)])))
    assert old_style.status_code == 422 and not Deck.objects.filter(slug="imported").exists()
    # The genuine key still works.
    assert _confirm(client, _key(page)).status_code == 302
    assert Deck.objects.filter(slug="imported").exists()


def test_an_upload_is_confirmed_once(client, instructor):
    client.force_login(instructor)
    page = _upload(client, _export([_card(1)]))
    assert _confirm(client, _key(page)).status_code == 302
    again = _confirm(client, _key(page))
    assert again.status_code == 422 and NOT_WAITING in again.content.decode()
    assert Card.objects.get(deck__slug="imported").versions.count() == 1


def test_an_expired_upload_is_a_clear_error(client, instructor):
    client.force_login(instructor)
    page = _upload(client, _export([_card(1)]))
    ImportHold.objects.update(created_at=timezone.now() - timedelta(seconds=services.IMPORT_HOLD_SECONDS + 1))
    response = _confirm(client, _key(page))
    assert response.status_code == 422 and NOT_WAITING in response.content.decode()
    assert not Deck.objects.filter(slug="imported").exists()


def test_a_checked_upload_outlasts_a_busy_cache(client, instructor):
    # Held in the cache, it went when the cache culled entries (anyone's password-reset attempts fill it).
    client.force_login(instructor)
    page = _upload(client, _export([_card(1)]))
    for number in range(400):
        cache.set(f"filler-{number}", number)
    assert _confirm(client, _key(page)).status_code == 302
    assert Card.objects.filter(deck__slug="imported").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_new_deck_imported_twice_at_once_is_created_once():
    # The first import holds the slug's lock and creates the deck; the second waits, then updates it (no 500).
    data = parse(json.dumps(_export([_card(1)])), name="deck.json")

    def first_import():
        name_lock(DECK_WRITES_LOCK)
        Deck.objects.create(slug="imported", title="Imported")

    assert waited_for(first_import, lambda: deck_import(data=data, source="deck.json"))
    assert Deck.objects.filter(slug="imported").count() == 1
    assert Card.objects.filter(deck__slug="imported").count() == 1


def test_another_instructor_cannot_confirm_someone_elses_upload(client, instructor):
    client.force_login(instructor)
    key = _key(_upload(client, _export([_card(1)])))
    client.force_login(make_instructor("dave"))
    refused = _confirm(client, key)
    assert refused.status_code == 422 and NOT_WAITING in refused.content.decode()
    assert not Deck.objects.filter(slug="imported").exists()
    client.force_login(instructor)
    assert _confirm(client, key).status_code == 302


def test_a_file_that_would_not_import_is_not_kept_for_confirmation(client, instructor):
    client.force_login(instructor)
    data = _export([_card(1), {**_card(2), "position": 1}])  # two cards at one position
    content = json.dumps(data)
    page = _upload(client, content)
    assert page.status_code == 422 and "position: 1 is used by another card too" in page.content.decode()
    assert page.context.get("confirm") is None
    refused = _confirm(client, services.import_key(name="deck.json", text=content))
    assert refused.status_code == 422 and not Deck.objects.filter(slug="imported").exists()


def test_only_users_who_may_create_and_change_decks_and_cards_may_import(client):
    viewer = make_user("vera", is_staff=True)
    viewer.user_permissions.set(Permission.objects.filter(codename__in=["view_deck", "view_card"]))
    # add_deck alone was enough to reach the page before; an import also changes decks and cards.
    deck_adder = make_user("dora", is_staff=True)
    deck_adder.user_permissions.set(Permission.objects.filter(codename__in=["view_deck", "add_deck"]))
    for user in (viewer, deck_adder):
        client.force_login(user)
        assert client.get(reverse("admin:content_deck_import")).status_code == 403
        assert _upload(client, _export([_card(1)])).status_code == 403
        assert _confirm(client, "0" * 64).status_code == 403
        changelist = client.get(reverse("admin:content_deck_changelist")).content.decode()
        assert "Import a deck" not in changelist
    assert not Deck.objects.filter(slug="imported").exists()


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
    refused = _confirm(client, services.import_key(name="deck.json", text=content))
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
    refused = _confirm(client, services.import_key(name="deck.json", text=content))
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
