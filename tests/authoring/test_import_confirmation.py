"""Importing a deck in the admin, the confirmation step: the checked upload waits on the server and the
confirmation names it by a key that cannot be tampered with, used twice, used late, or used by another
instructor; it imports only into the deck as the dry run found it; a new deck imported twice at once is created
once; and only those who may create and change decks and cards may import.
"""

from __future__ import annotations

import json
from datetime import timedelta
from html import unescape

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from apps.authoring import holds
from apps.authoring.models import ImportHold
from apps.authoring.services import deck_import
from apps.authoring.transfer import parse
from apps.common.db import name_lock
from apps.content.models import Card, Deck
from apps.content.services import DECK_WRITES_LOCK, card_save
from tests.authoring.import_support import _card, _confirm, _export, _key, _upload
from tests.conftest import make_instructor, make_user
from tests.locks import after_waiting, waited_for

pytestmark = pytest.mark.django_db

NOT_WAITING = "This upload is no longer waiting to be imported"


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
    ImportHold.objects.update(created_at=timezone.now() - timedelta(seconds=holds.IMPORT_HOLD_SECONDS + 1))
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
    refused = _confirm(client, holds.import_key(name="deck.json", text=content))
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


def _changed_since(response) -> str:
    return " ".join(unescape(response.content.decode()).split())


CHANGED_SINCE = (
    "The deck “Imported” changed since your dry run (a card was saved, added or moved there meanwhile, or the deck "
    "itself), so nothing was imported"
)


def test_a_card_edited_between_the_dry_run_and_the_confirmation_is_not_put_back_unseen(client, instructor):
    """The dry run said "1 updated, 6 unchanged"; another instructor fixed card #3; "Import now" put #3 back."""
    client.force_login(instructor)
    cards = [_card(n) for n in range(1, 8)]
    assert _confirm(client, _key(_upload(client, _export(cards)))).status_code == 302
    cards[0]["answer"] = "Answer 1, reworded in the file"
    page = _upload(client, _export(cards))
    assert "Existing deck: 0 created, 1 updated, 6 unchanged" in page.content.decode()
    third = Card.objects.get(deck__slug="imported", position=3)
    third.answer = "Answer 3, fixed by dana"
    card_save(card=third, author=make_instructor("dana"), note="Edited in the admin")

    refused = _confirm(client, _key(page))

    assert refused.status_code == 409
    html = _changed_since(refused)
    assert CHANGED_SINCE in html and "Below is the dry run again, against the decks as they are now." in html
    assert "Existing deck: 0 created, 2 updated, 5 unchanged" in html
    assert "#3 Question 3: what is $\\sqrt[5]{x_3}$? (answer)" in html
    stored = dict(Card.objects.filter(deck__slug="imported").values_list("position", "answer"))
    assert (stored[1], stored[3]) == ("Answer 1", "Answer 3, fixed by dana")
    # Confirmed from the dry run made afresh, which showed #3 going back to the file's text, it is imported.
    assert _confirm(client, _key(refused)).status_code == 302
    stored = dict(Card.objects.filter(deck__slug="imported").values_list("position", "answer"))
    assert (stored[1], stored[3]) == ("Answer 1, reworded in the file", "Answer 3")


def test_a_deck_created_between_the_dry_run_and_the_confirmation_is_not_merged_into_unseen(client, instructor):
    client.force_login(instructor)
    page = _upload(client, _export([_card(1)]))
    assert "New deck: 1 created, 0 updated, 0 unchanged" in page.content.decode()
    other = make_instructor("dana")
    deck = Deck.objects.create(slug="imported", title="Imported")
    card_save(card=Card(deck=deck, position=1, kind="flashcard", question="Dana's own?", answer="Hers"), author=other)

    refused = _confirm(client, _key(page))

    assert refused.status_code == 409 and CHANGED_SINCE in _changed_since(refused)
    assert "Existing deck: 1 created, 0 updated, 0 unchanged; 1 card of the deck not in the file, kept" in (
        _changed_since(refused)
    )
    assert list(deck.cards.values_list("question", flat=True)) == ["Dana's own?"]


@pytest.mark.django_db(transaction=True)
def test_a_confirmation_sent_while_a_card_of_the_deck_is_being_saved_waits_then_imports_nothing(client, instructor):
    """The deck is compared under the deck writes' lock, which an admin save of one of its cards holds too."""
    client.force_login(instructor)
    cards = [_card(1), _card(2)]
    assert _confirm(client, _key(_upload(client, _export(cards)))).status_code == 302
    cards[0]["answer"] = "Reworded in the file"
    key = _key(_upload(client, _export(cards)))

    def dana_saves():
        name_lock(DECK_WRITES_LOCK)
        second = Card.objects.get(deck__slug="imported", position=2)
        second.answer = "Fixed by dana"
        card_save(card=second, author=make_instructor("dana"))

    refused = after_waiting(dana_saves, lambda: _confirm(client, key))
    assert refused.status_code == 409 and CHANGED_SINCE in _changed_since(refused)
    stored = dict(Card.objects.filter(deck__slug="imported").values_list("position", "answer"))
    assert stored == {1: "Answer 1", 2: "Fixed by dana"}
