"""Whether students see what the admin's import writes: a new deck comes in as a draft, and the dry run says so."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.content.models import Deck
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _file(slug: str, title: str) -> SimpleUploadedFile:
    data = {
        "format": "mlcourse-deck", "version": 1, "deck": {"slug": slug, "title": title},
        "cards": [{"position": 1, "kind": "flashcard", "question": "What is $\\gamma$?", "answer": "The discount"}],
    }  # fmt: skip
    return SimpleUploadedFile("deck.json", json.dumps(data).encode(), content_type="application/json")


def _check_and_import(client, upload) -> tuple[str, str]:
    url = reverse("admin:content_deck_import")
    checked = client.post(url, {"file": upload})
    key = checked.context["confirm"].initial["key"]
    done = client.post(url, {"confirm": "1", "key": key}, follow=True)
    return checked.content.decode(), done.content.decode()


def test_a_deck_the_import_creates_is_a_draft_until_its_author_publishes_it(client, instructor, student):
    """It went live at once, before its author had read a card of it in this installation."""
    client.force_login(instructor)
    checked, done = _check_and_import(client, _file("rl-basics", "RL basics"))
    assert "The new deck will be a draft, hidden from students until you tick <strong>Published</strong>" in checked
    assert "<h3>New cards</h3>" in checked
    deck = Deck.objects.get(slug="rl-basics")
    assert not deck.published and deck.cards.count() == 1
    change = reverse("admin:content_deck_change", args=[deck.pk])
    assert f'The deck is a draft, hidden from students: <a href="{change}">tick Published on its page</a>' in done
    client.force_login(student)
    assert client.get(reverse("content:deck", args=["rl-basics"])).status_code == 404


@pytest.mark.parametrize(
    ("published", "said"),
    [
        (True, "The deck is published: students see the changes as soon as they are imported."),
        (False, "The deck is a draft: students will not see the changes until it is published."),
    ],
)
def test_an_existing_deck_keeps_its_state_and_the_dry_run_says_who_will_see_the_changes(
    client, instructor, published, said
):
    deck = make_deck(slug="ops", title="Ops", published=published)
    make_card(deck=deck, question="Old?")
    client.force_login(instructor)
    checked, done = _check_and_import(client, _file("ops", "Ops"))
    assert said in checked
    assert "is a draft, hidden from students" not in done
    deck.refresh_from_db()
    assert deck.published is published and deck.cards.count() == 2
