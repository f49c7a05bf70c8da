"""Saving cards in the admin: a deck asks each question once, and two saves at the same moment (a double click on
Save, two instructors adding to one deck) take turns instead of failing or adding the card twice."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from apps.common.db import name_lock
from apps.content.models import Card, Deck
from apps.content.services import DECK_WRITES_LOCK
from tests.authoring.card_form import _form_data
from tests.factories import make_card, make_deck
from tests.locks import after_waiting


def _add(client, card: Card, **changes):
    """Posts the admin's "add card" form with `card`'s texts, changed as given."""
    return client.post(reverse("admin:content_card_add"), _form_data(card, **changes))


@pytest.mark.django_db
def test_a_question_the_deck_asks_already_is_refused_whatever_its_case_or_spacing(client, instructor):
    deck = make_deck(title="Serving")
    make_card(deck=deck, question="What is dynamic batching?")
    shelved = make_card(deck=deck, question="What is a feature store?", archived=True)
    client.force_login(instructor)
    template = Card(deck=deck, kind=Card.Kind.FLASHCARD, answer="Grouping requests", short_answer="Grouping requests")

    html = unescape(_add(client, template, question="what is  dynamic batching? ", position="").content.decode())
    assert "Serving asks this question already, at position 1: edit that card instead" in html
    html = unescape(_add(client, template, question="What is a feature store?", position="").content.decode())
    assert f"in the archived card at position {shelved.position}: restore that card instead" in html
    assert deck.cards.count() == 2
    # Another deck may ask it, and a card keeps its own question when saved again.
    other = make_deck()
    assert _add(client, template, deck=other.pk, question="What is dynamic batching?", position="").status_code == 302
    card = deck.cards.get(position=1)
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), _form_data(card, answer="Changed"))
    assert response.status_code == 302


def _added_while_another_saves(client, deck: Deck, other_question: str):
    """Posts "What is KV caching?" to the deck while another connection, holding the deck writes' lock, adds a card
    asking `other_question` and has not committed; the post must wait for it. Its response."""

    def other_save():
        name_lock(DECK_WRITES_LOCK)
        make_card(deck=deck, question=other_question)

    template = Card(
        deck=deck, kind=Card.Kind.FLASHCARD, question="What is KV caching?", answer="Reuse", short_answer="Reuse"
    )
    return after_waiting(other_save, lambda: _add(client, template, position=""))


@pytest.mark.django_db(transaction=True)
def test_a_card_added_while_another_save_holds_the_deck_waits_and_takes_the_next_position(client, instructor):
    """The other save has placed its card at the deck's end and not yet committed. It was a deadlock between the two
    (a 503 saying the database was unreachable, whose "Send it again" then added the card a second time)."""
    deck = make_deck()
    first = make_card(deck=deck)
    client.force_login(instructor)
    assert _added_while_another_saves(client, deck, "What is continuous batching?").status_code == 302
    assert list(deck.cards.order_by("position").values_list("position", "question")) == [
        (1, first.question),
        (2, "What is continuous batching?"),
        (3, "What is KV caching?"),
    ]


@pytest.mark.django_db(transaction=True)
def test_the_same_card_saved_twice_at_once_is_added_once(client, instructor):
    """A double click on Save: the second save waits for the first, then finds its question asked already."""
    deck = make_deck(title="Serving")
    client.force_login(instructor)
    response = _added_while_another_saves(client, deck, "What is KV caching?")
    assert response.status_code == 200
    assert "Serving asks this question already, at position 1" in unescape(response.content.decode())
    assert deck.cards.count() == 1


@pytest.mark.django_db
def test_a_card_given_another_cards_question_is_refused_naming_that_card_and_left_as_it_was(client, instructor):
    deck = make_deck(title="Serving")
    make_card(deck=deck, question="What is dynamic batching?")
    card = make_card(deck=deck, question="What is KV caching?")
    client.force_login(instructor)
    url = reverse("admin:content_card_change", args=[card.pk])
    response = client.post(url, _form_data(card, question="WHAT IS DYNAMIC BATCHING?"))
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert "Serving asks this question already, at position 1: edit that card instead, or ask this one" in html
    card.refresh_from_db()
    assert card.question == "What is KV caching?"
