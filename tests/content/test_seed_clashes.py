"""A seed load meeting a question a card of the deck asks already, added or reworded in the admin since the last load:
it stops at the seed file's line, naming that card, and writes nothing, instead of adding a second card asking it."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from apps.content.models import Card, Deck
from apps.content.services import card_save
from tests.factories import make_card

pytestmark = pytest.mark.django_db

SEED = "Serving Flashcards\n\nWhat is KV caching?\n\nAnswer: Reuse\n\nWhy batch requests?\n\nAnswer: Throughput\n"
TWICE = "and a deck asks each question once: reword or delete one of the two, in the admin or in this file, then load"


def _load(path: Path, *options: str) -> str:
    out = StringIO()
    call_command("load_content", str(path), *options, stdout=out, stderr=out)
    return out.getvalue()


def _seed(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "serving-flashcards.txt"
    path.write_text(text)
    return path


def _state() -> list[tuple[int, str, str]]:
    return list(Card.objects.order_by("position").values_list("position", "question", "answer"))


def test_a_seed_question_a_card_added_in_the_admin_asks_stops_the_load_at_its_line(tmp_path):
    path = _seed(tmp_path, SEED)
    _load(path)
    deck = Deck.objects.get(slug="serving-flashcards")
    make_card(deck=deck, question="What is paged attention?", answer="Added in the admin")
    before = _state()
    grown = SEED.replace("Answer: Throughput", "Answer: More throughput") + (
        "\nWhat is speculative decoding?\n\nAnswer: Drafting\n\nwhat is  PAGED attention?\n\nAnswer: Paging\n"
    )
    _seed(tmp_path, grown)
    for options in ((), ("--dry-run",), ("--overwrite",)):
        with pytest.raises(CommandError) as caught:
            _load(path, *options)
        assert str(caught.value) == (
            f"{path}:15: the card at position 3 of Serving Flashcards (added in the admin) asks this question "
            f"already, {TWICE} again\nNothing was written."
        )
    assert _state() == before  # neither the new seed card, nor the changed answer, nor a move aside


def test_a_seed_question_a_loaded_card_was_reworded_into_in_the_admin_is_named_by_its_line(tmp_path):
    path = _seed(tmp_path, SEED)
    _load(path)
    batch = Card.objects.get(question="Why batch requests?")
    batch.question = "What is continuous batching?"
    card_save(card=batch)
    _seed(tmp_path, SEED + "\nWhat is continuous batching?\n\nAnswer: Batching per step\n")
    with pytest.raises(CommandError) as caught:
        _load(path)
    assert f"{path}:11: the card at position 2 of Serving Flashcards (loaded from line 7, its question reworded" in (
        str(caught.value)
    )
    assert Card.objects.count() == 2


def test_once_the_admins_card_is_reworded_the_load_goes_through(tmp_path):
    path = _seed(tmp_path, SEED)
    _load(path)
    added = make_card(deck=Deck.objects.get(), question="What is paged attention?", answer="Added in the admin")
    _seed(tmp_path, SEED + "\nWhat is paged attention?\n\nAnswer: Paging\n")
    with pytest.raises(CommandError):
        _load(path)
    added.question = "How does paged attention store the KV cache?"
    card_save(card=added)
    assert "1 created, 0 updated, 2 unchanged" in _load(path)
    assert Card.objects.filter(question="What is paged attention?").count() == 1
