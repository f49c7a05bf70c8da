"""Quizzing again the questions of a quiz that were not right ("Quiz the ones you missed")."""

from __future__ import annotations

import random
import secrets
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from apps.content.models import Card

from .asked import DRAFT, gone, skips_drafts
from .models import CardState, QuizSession, SessionItem, Verdict
from .selectors import session_items
from .services import NothingToStudyError, session_create


def _still_asked(*, card: Card, session: QuizSession, user: AbstractBaseUser) -> bool:
    """Whether a card missed in `session` may be quizzed again: not archived, and not of a deck made a draft since,
    which reviews skip and students may not read (as the quiz withdraws it, see asked.is_stale). It may have moved
    there from the quiz's own deck."""
    return not card.archived and (card.deck.published or not skips_drafts(session=session, user=user))


def missed_cards(*, session: QuizSession, items: list[SessionItem], user: AbstractBaseUser) -> tuple[list[Card], int]:
    """Of the `user`'s quiz's `items` (selectors.session_items: cards, decks and answers loaded), the cards the
    student answered not quite right (partly right, wrong, or answer shown) that are still asked, and not set aside
    since, in the quiz's order; and how many were missed in all. The results page offers them, and session_retry asks
    them. One query when some were missed, none otherwise."""
    missed = [item.card for item in items if hasattr(item, "answer") and item.answer.final_verdict != Verdict.CORRECT]
    asked = [card for card in missed if _still_asked(card=card, session=session, user=user)]
    if asked:
        states = CardState.objects.filter(user_id=session.user_id, card__in=asked, set_aside_at__isnull=False)
        aside = set(states.values_list("card_id", flat=True))
        asked = [card for card in asked if card.pk not in aside]
    return asked, len(missed)


def session_retry(*, user: AbstractBaseUser, session: QuizSession, now: datetime | None = None) -> QuizSession:
    """A new quiz, in the same mode, of the cards missed in `session` (the caller checked it is the user's), shuffled
    so that their order is no clue."""
    cards, missed = missed_cards(session=session, items=session_items(session=session), user=user)
    if not cards:
        if missed:
            raise NothingToStudyError(
                "The questions you missed are no longer asked (archived, their deck withdrawn, or set aside by you): "
                "there is nothing to retry."
            )
        raise NothingToStudyError("You answered every question of this quiz right: there is nothing to retry.")
    pending = _pending_retry(user=user, session=session, cards=cards)
    if pending is not None:
        return pending
    seed = secrets.randbits(48)
    rng = random.Random(seed)  # noqa: S311 - shuffling quiz questions, not security
    rng.shuffle(cards)
    return session_create(
        user=user, deck=session.deck, cards=cards, mode=session.mode, order=QuizSession.Order.RANDOM,
        size=len(cards), rng=rng, seed=seed, now=now or timezone.now(), retry=True,
    )  # fmt: skip


def _pending_retry(*, user: AbstractBaseUser, session: QuizSession, cards: list[Card]) -> QuizSession | None:
    """The retry of these very cards made since `session` and not yet begun: a double tap on the button, or the
    button pressed again after Back, resumes it rather than leaving a second quiz unfinished."""
    latest = (
        QuizSession.objects.filter(
            user=user, deck=session.deck, mode=session.mode, finished_at__isnull=True, answered_count=0,
            created_at__gte=session.created_at,
        )
        .exclude(pk=session.pk)
        .order_by("-created_at")
        .first()
    )  # fmt: skip
    if latest is None:
        return None
    # Only its questions still asked: those withdrawn, or to be withdrawn when it is next opened (set aside, archived,
    # or of a deck made a draft since), are no longer among `cards`, and the retry resumed would not ask them either.
    asked = latest.items.filter(withdrawn="").exclude(gone(user_id=user.pk))
    if session.deck_id is None:
        asked = asked.exclude(DRAFT)
    if set(asked.values_list("card_id", flat=True)) != {card.pk for card in cards}:
        return None
    return latest
