"""Shared by the withdrawal tests (test_withdrawal_services.py, test_withdrawal_pages.py and the `decks` and
`review` fixtures of tests/quiz/conftest.py): cards of a deck, a review asking given cards, answering a question
through the service or posting it as the page does, and making a deck a draft.
"""

from __future__ import annotations

import random

from django.urls import reverse
from django.utils import timezone

from apps.content.models import Card, Deck
from apps.quiz import services
from apps.quiz.forms import question_token
from apps.quiz.models import QuizSession
from tests.factories import make_card


def _cards(deck: Deck, n: int, name: str) -> list[Card]:
    return [make_card(deck=deck, question=f"Which {name} tool does job {i}?", answer=f"{name} {i}") for i in range(n)]


def _review(user, cards: list[Card]) -> QuizSession:
    """A review of due cards asking `cards` in this order (free recall)."""
    return services.session_create(
        user=user, deck=None, cards=cards, mode="recall", order="due", size=len(cards),
        rng=random.Random(1), seed=1, now=timezone.now(),
    )  # fmt: skip


def _answer(user, quiz: QuizSession, position: int, response: str = "no idea"):
    submission = services.Submission(response=response)
    return services.answer_submit(user=user, session_id=quiz.pk, position=position, submission=submission)


def _post(client, quiz: QuizSession, position: int, *, headers: dict | None = None, **data):
    item = quiz.items.get(position=position)
    url = reverse("quiz:item", args=[quiz.pk, position])
    return client.post(url, {"token": question_token(item), **data}, **(headers or {}))


def _draft(deck: Deck) -> None:
    Deck.objects.filter(pk=deck.pk).update(published=False)
