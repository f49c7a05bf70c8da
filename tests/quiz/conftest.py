"""Fixtures of the quiz tests: `decks`, a kept and a revised deck with their cards, and `review`, a student's
review of both whose revised deck is made a draft after its second question (test_withdrawal_*.py;
test_withdrawal_counts.py has a `review` of its own).
"""

from __future__ import annotations

import pytest

from tests.factories import make_deck
from tests.quiz.withdrawal_support import _answer, _cards, _draft, _review


@pytest.fixture
def decks():
    kept, revised = make_deck(title="Kept"), make_deck(title="Revised")
    return kept, revised, _cards(kept, 3, "kept"), _cards(revised, 2, "revised")


@pytest.fixture
def review(student, decks):
    """kept 0, revised 0 (answered), revised 1, kept 1, kept 2: the revised deck is made a draft after question 2."""
    _kept, revised, kept_cards, revised_cards = decks
    quiz = _review(student, [kept_cards[0], revised_cards[0], revised_cards[1], kept_cards[1], kept_cards[2]])
    _answer(student, quiz, 1, "kept 0")
    _answer(student, quiz, 2, "no idea")
    _draft(revised)
    return quiz
