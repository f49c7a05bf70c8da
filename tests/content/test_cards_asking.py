"""The one rule every write path asks before a card takes a question: which cards of the deck ask it already."""

from __future__ import annotations

import pytest

from apps.content.models import Deck
from apps.content.selectors import cards_asking
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def test_a_question_is_found_whatever_its_letter_case_spacing_or_compatibility_forms():
    deck = make_deck()
    batching = make_card(deck=deck, question="What is dynamic  batching?")
    make_card(deck=deck, question="What is a KV cache?")
    for asked in ("what is dynamic batching?", "  What is\ndynamic batching? ", "Ｗhat is dynamic batching?"):
        assert cards_asking(deck=deck, questions=[asked]) == [batching]
    assert cards_asking(deck=deck, questions=["What is static batching?"]) == []


def test_archived_cards_count_and_other_decks_do_not():
    deck, other = make_deck(), make_deck()
    shelved = make_card(deck=deck, question="What is a feature store?", archived=True)
    make_card(deck=other, question="What is sharding?")
    found = cards_asking(deck=deck, questions=["What is a feature store?", "What is sharding?"])
    assert found == [shelved] and found[0].archived


def test_the_cards_named_in_other_than_are_left_out_and_the_rest_come_in_deck_order():
    deck = make_deck()
    second = make_card(deck=deck, position=2, question="Why shard?")
    first = make_card(deck=deck, position=1, question="What is a shard?")
    questions = ["why shard?", "what is a shard?"]
    assert cards_asking(deck=deck, questions=questions) == [first, second]
    assert cards_asking(deck=deck, questions=questions, other_than=[first.pk]) == [second]


def test_a_deck_not_yet_saved_asks_nothing(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert cards_asking(deck=Deck(slug="new", title="New"), questions=["What is a shard?"]) == []
