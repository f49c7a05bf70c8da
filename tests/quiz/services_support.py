"""Helpers shared by the quiz service tests (test_services*.py): a deck of numbered tool cards, a quiz started on it
with the default options overridable, and the right answer to one of its questions, the option or the words.
"""

from __future__ import annotations

from apps.content.models import Deck
from apps.quiz import services
from apps.quiz.models import QuizSession
from apps.quiz.services import Submission
from tests.factories import make_card, make_deck


def _deck(size: int = 6) -> Deck:
    deck = make_deck()
    for i in range(size):
        make_card(deck=deck, question=f"Which tool does job {i}?", answer=f"Tool number {i}")
    return deck


def _start(user, deck, **options) -> QuizSession:
    options = {"size": 10, "mode": "mixed", "order": "new", **options}
    return services.session_start(user=user, deck=deck, **options)


def _answer_right(user, session: QuizSession, position: int, **extra):
    item = session.items.get(position=position)
    if item.mode == "choice":
        submission = Submission(option=item.correct_option, **extra)
    else:
        submission = Submission(response=item.card.short_answer or item.card.answer, **extra)
    return services.answer_submit(user=user, session_id=session.pk, position=position, submission=submission)
