"""Quizzing again the questions of a quiz that were not right ("Quiz the ones you missed")."""

from __future__ import annotations

import random
import secrets
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from apps.content.models import Card

from .models import Answer, QuizSession, Verdict
from .services import NothingToStudyError, session_create


def session_missed_cards(*, session: QuizSession) -> list[Card]:
    """The cards the student answered not quite right in `session` (partly right, wrong, or answer shown), in the
    quiz's order; archived ones are asked no more."""
    missed = Answer.objects.filter(session=session).exclude(final_verdict=Verdict.CORRECT).filter(card__archived=False)
    return [answer.card for answer in missed.select_related("card").order_by("item__position")]


def session_retry(*, user: AbstractBaseUser, session: QuizSession, now: datetime | None = None) -> QuizSession:
    """A new quiz, in the same mode, of the cards missed in `session` (the caller checked it is the user's), shuffled
    so that their order is no clue."""
    cards = session_missed_cards(session=session)
    if not cards:
        if Answer.objects.filter(session=session).exclude(final_verdict=Verdict.CORRECT).exists():
            raise NothingToStudyError(
                "The questions you missed are no longer asked (their cards were archived): there is nothing to retry."
            )
        raise NothingToStudyError("You answered every question of this quiz right: there is nothing to retry.")
    seed = secrets.randbits(48)
    rng = random.Random(seed)  # noqa: S311 - shuffling quiz questions, not security
    rng.shuffle(cards)
    return session_create(
        user=user, deck=session.deck, cards=cards, mode=session.mode, order=QuizSession.Order.RANDOM,
        size=len(cards), rng=rng, seed=seed, now=now or timezone.now(),
    )  # fmt: skip
