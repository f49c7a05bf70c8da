"""Which questions of an open quiz are still asked: the reads behind withdrawal.py, which selectors and services
use too (their query counts stay as they were: these are parts of the queries they already make)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from apps.content.selectors import sees_drafts

from .models import Answer, CardState, QuizSession, SessionItem


def skips_drafts(*, session: QuizSession, user: AbstractBaseUser) -> bool:
    """Whether the quiz stops asking the cards of draft decks: a review always does, as a new one would not pick them;
    a deck's quiz does for a student (one who authors decks may try out a draft's quiz). Asks no query of a student."""
    return session.deck_id is None or not sees_drafts(user)


# A question's card in a deck made a draft since: withdrawn from reviews, and from a deck's quiz but for its authors.
DRAFT = Q(card__deck__published=False)


def gone(*, user_id: int | OuterRef) -> Q:
    """A question whose card is asked of the user (an id, or an OuterRef to one) in no quiz any more: archived, or
    set aside by them. With DRAFT, the one rule of these reads; withdrawal._WITHDRAW says it in SQL, and is_stale of
    a question already loaded."""
    aside = CardState.objects.filter(user_id=user_id, card=OuterRef("card"), set_aside_at__isnull=False)
    return Q(card__archived=True) | Q(Exists(aside))


def _unanswered() -> Exists:
    return ~Exists(Answer.objects.filter(item=OuterRef("pk")))


def stale_annotations(*, session_id: int, user_id: int) -> dict[str, Exists]:
    """Whether some question of the user's quiz, still asked and not answered, is gone (`stale_gone`) or of a deck
    made a draft since (`stale_draft`): to annotate the question a page reads with (not correlated, so PostgreSQL
    computes them once), so that a quiz costs no query more. See needs_withdrawal."""
    asked = SessionItem.objects.filter(_unanswered(), session_id=session_id, withdrawn="")
    return {
        "stale_gone": Exists(asked.filter(gone(user_id=user_id))),
        "stale_draft": Exists(asked.filter(DRAFT)),
    }


def needs_withdrawal(item: SessionItem, *, session: QuizSession, user: AbstractBaseUser) -> bool:
    """For a question read with stale_annotations: whether some questions of its quiz are to be withdrawn. Asks the
    permission of drafts only of one who may see them, and only when some card of the quiz is in a draft."""
    return item.stale_gone or (item.stale_draft and skips_drafts(session=session, user=user))


def is_stale(item: SessionItem, *, session: QuizSession, user: AbstractBaseUser) -> bool:
    """Whether this question (its card, deck and any answer loaded, and memory.card_set_aside_at) is to be withdrawn:
    still asked, not answered, and its card archived, set aside or (see skips_drafts) in a draft deck."""
    if item.withdrawn or hasattr(item, "answer"):
        return False
    if item.card.archived or item.card_set_aside_at is not None:
        return True
    return not item.card.deck.published and skips_drafts(session=session, user=user)


def numbered(items: QuerySet[SessionItem]) -> QuerySet[SessionItem]:
    """The questions with `number`, their place among those still asked, which the pages show ("question 3 of 8");
    `position` stays in the addresses."""
    before = (
        SessionItem.objects.filter(session=OuterRef("session"), position__lt=OuterRef("position"))
        .exclude(withdrawn="")
        .order_by()
        .values("session")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return items.annotate(number=F("position") - Coalesce(Subquery(before), 0))


def with_asked_count(sessions: QuerySet[QuizSession]) -> QuerySet[QuizSession]:
    """The quizzes with `asked_count`: item_count less the questions to be withdrawn when the quiz is next opened
    (not answered, and archived, set aside, or in a review of a deck made a draft since), so that "2 of 4 answered"
    offered before the quiz is opened counts what it will ask; and only those that still ask something (one whose
    every question left is stale ends when opened, as withdrawal does). Part of the query that reads them. A deck's
    quiz keeps its draft's cards: a student cannot open it, and one who authors decks is asked them."""
    stale = (
        SessionItem.objects.filter(
            gone(user_id=OuterRef("session__user_id")) | (Q(session__deck__isnull=True) & DRAFT),
            _unanswered(),
            session=OuterRef("pk"),
            withdrawn="",
        )
        .order_by()
        .values("session")
        .annotate(n=Count("pk"))
        .values("n")
    )
    asked = sessions.annotate(asked_count=F("item_count") - Coalesce(Subquery(stale), 0))
    return asked.filter(asked_count__gt=F("answered_count"))
