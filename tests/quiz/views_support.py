"""Helpers shared by the quiz view tests (test_views*.py): a deck of numbered tool cards, a quiz session on it, and
posting an answer to one of its questions with the question's token.
"""

from __future__ import annotations

from django.urls import reverse

from apps.quiz import services
from apps.quiz.forms import question_token
from apps.quiz.models import QuizSession
from tests.factories import make_card, make_deck


def _deck(size: int = 6):
    deck = make_deck()
    for i in range(size):
        make_card(deck=deck, question=f"Which tool does job {i}?", answer=f"Tool number {i}")
    return deck


def _session(user, *, size=4, mode="recall", deck=None) -> QuizSession:
    return services.session_start(user=user, deck=deck or _deck(), size=size, mode=mode, order="new")


def _post_answer(client, session, position=1, *, headers: dict | None = None, **data):
    item = session.items.get(position=position)
    url = reverse("quiz:item", args=[session.pk, position])
    return client.post(url, {"token": question_token(item), **data}, **(headers or {}))
