"""Multiple-choice answers given through the quiz itself: the options it builds, the answer it records."""

from __future__ import annotations

from apps.content.models import Card, Deck
from apps.quiz import services as quiz
from apps.quiz.models import Answer


def choose(student, *, deck: Deck, card: Card, text: str) -> Answer:
    """`student` takes a multiple-choice quiz of the whole deck and, on `card`, picks the option written `text`."""
    session = quiz.session_start(user=student, deck=deck, size=deck.cards.count(), mode="choice", order="new")
    item = session.items.get(card=card)
    assert item.mode == "choice", "too few cards in the deck for four options"
    option = next(i for i, shown in enumerate(item.options) if shown["text"] == text)
    answer, _ = quiz.answer_submit(
        user=student, session_id=session.pk, position=item.position, submission=quiz.Submission(option=option)
    )
    return answer
