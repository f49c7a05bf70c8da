"""Questions withdrawn from an open quiz: a review's card whose deck was made a draft since it started (students may not
read drafts, and a new review would not ask it), or any quiz's card archived since (no quiz asks it any more) or set
aside by the student since (they asked for it not to be).

Withdrawn when the student next opens the quiz or one of its questions, or answers it; not when the deck or card
changes, so a deck made a draft and published again before that takes nothing away, and a question withdrawn stays so
if its deck is published again (the student was told; its card, still due, comes in the next review). A withdrawn
question keeps its place (position): the addresses of the others, and their forms open in other tabs, still mean
what they did. It leaves the quiz's count (item_count), so "question 3 of 8", the progress bar and the results count
only the questions asked. Answered questions are never withdrawn: their answers and scores stay as they were.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone

from apps.common.db import student_lock

from .asked import is_stale, needs_withdrawal, skips_drafts
from .models import QuizSession, SessionItem
from .selectors import session_next_item

Withdrawn = SessionItem.Withdrawn


class QuestionWithdrawnError(Exception):
    """An answer to a question withdrawn from its quiz: it is not stored."""


@dataclass
class Withdrawal:
    """The questions withdrawn: each one's reason by position, and the decks of each reason (for the wording)."""

    reasons: dict[int, str] = field(default_factory=dict)
    decks: dict[str, set[int]] = field(default_factory=dict)

    def add(self, reason: str, deck_id: int, position: int) -> None:
        self.reasons[position] = reason
        self.decks.setdefault(reason, set()).add(deck_id)

    def __bool__(self) -> bool:
        return bool(self.reasons)

    def __len__(self) -> int:
        return len(self.reasons)

    @property
    def note(self) -> str:
        """What the student is told: "2 questions were withdrawn: their deck is being revised." """
        counts = Counter(self.reasons.values())
        sentences = []
        for reason in (Withdrawn.DRAFT, Withdrawn.ARCHIVED, Withdrawn.ASIDE):
            if n := counts[reason]:
                were = "1 question was" if n == 1 else f"{n} questions were"
                sentences.append(f"{were} withdrawn: {_why(reason, n=n, decks=len(self.decks[reason]))}.")
        return " ".join(sentences)


def _why(reason: str, *, n: int = 1, decks: int = 1) -> str:
    if reason == Withdrawn.ARCHIVED:
        return "its card is no longer asked" if n == 1 else "their cards are no longer asked"
    if reason == Withdrawn.ASIDE:
        return "you set its card aside" if n == 1 else "you set their cards aside"
    if n == 1:
        return "its deck is being revised"
    return "their deck is being revised" if decks == 1 else "their decks are being revised"


def withdrawal_of(items: list[SessionItem]) -> Withdrawal:
    """The questions withdrawn among `items` (selectors.session_items, cards loaded), for the results."""
    withdrawal = Withdrawal()
    for item in items:
        if item.withdrawn:
            withdrawal.add(item.withdrawn, item.card.deck_id, item.position)
    return withdrawal


def refusal_note(item: SessionItem, withdrawal: Withdrawal | None = None, *, answered: bool = True) -> str:
    """Why `item` is not asked: withdrawn now, with the others of `withdrawal`, or before; and, for an answer sent
    to it, that the answer was not saved."""
    several = withdrawal is not None and len(withdrawal) > 1
    note = withdrawal.note if several else f"This question was withdrawn: {_why(item.withdrawn)}."
    return f"{note} Your answer{' to this question' if several else ''} was not saved." if answered else note


# Only questions not answered, under the student's lock: no answer is on its way in meanwhile (answer_record takes
# the lock too, and refuses an answer to a question withdrawn before it took it). And only of a quiz still open, its
# row locked until _UNCOUNT: ended in another tab ("End the quiz here", a new quiz) since the page read it, it keeps
# its questions and its count, as any finished quiz does.
_WITHDRAW = """
WITH open AS (SELECT id FROM quiz_quizsession WHERE id = %(session)s AND finished_at IS NULL FOR NO KEY UPDATE)
UPDATE quiz_sessionitem i
SET withdrawn = CASE WHEN c.archived THEN 'archived' WHEN %(skip_drafts)s AND NOT d.published THEN 'draft'
                     ELSE 'aside' END
FROM open, content_card c JOIN content_deck d ON d.id = c.deck_id
WHERE i.session_id = open.id AND i.card_id = c.id AND i.withdrawn = ''
    AND (c.archived OR (%(skip_drafts)s AND NOT d.published) OR EXISTS (
        SELECT 1 FROM quiz_cardstate s WHERE s.user_id = %(user)s AND s.card_id = c.id AND s.set_aside_at IS NOT NULL
    ))
    AND NOT EXISTS (SELECT 1 FROM quiz_answer a WHERE a.item_id = i.id)
RETURNING i.withdrawn, c.deck_id, i.position
"""

# A quiz whose every question left is answered ends, as it would have with its last answer.
_UNCOUNT = """
UPDATE quiz_quizsession SET
    item_count = item_count - %(n)s,
    finished_at = CASE WHEN finished_at IS NULL AND answered_count >= item_count - %(n)s THEN %(now)s
                       ELSE finished_at END
WHERE id = %(session)s
RETURNING item_count, finished_at
"""


def session_withdraw(*, user: AbstractBaseUser, session: QuizSession) -> Withdrawal:
    """Withdraws the questions of the user's quiz no longer to be asked, and updates `session`'s counters in place.
    Four queries (one when none is), however long the quiz."""
    withdrawal = Withdrawal()
    skip_drafts = skips_drafts(session=session, user=user)
    with transaction.atomic():
        student_lock(user.pk)
        with connection.cursor() as cursor:
            cursor.execute(_WITHDRAW, {"session": session.pk, "skip_drafts": skip_drafts, "user": session.user_id})
            for reason, deck_id, position in cursor.fetchall():
                withdrawal.add(reason, deck_id, position)
            if withdrawal:
                n = len(withdrawal)
                cursor.execute(_UNCOUNT, {"n": n, "now": timezone.now(), "session": session.pk})
                session.item_count, session.finished_at = cursor.fetchone()
    return withdrawal


def session_resume(*, user: AbstractBaseUser, session: QuizSession) -> tuple[SessionItem | None, Withdrawal]:
    """The question a visit to the user's quiz resumes at (None: the results), once the questions no longer to be
    asked are withdrawn, and those withdrawn now. One query, as before withdrawal, when there are none."""
    if session.finished_at:
        return None, Withdrawal()
    item = session_next_item(session=session)
    if item is None or not needs_withdrawal(item, session=session, user=user):
        return item, Withdrawal()
    withdrawal = session_withdraw(user=user, session=session)
    if session.finished_at:
        return None, withdrawal
    return session_next_item(session=session), withdrawal


def question_withdraw(*, user: AbstractBaseUser, session: QuizSession, item: SessionItem) -> Withdrawal | None:
    """For a question of the user's open quiz `session`, not answered (from selectors.session_item or
    item_for_answer): None while it is asked; else what was withdrawn with it now (nothing, if it was before), and its
    `withdrawn` set. A finished quiz withdraws nothing: it asks nothing more anyway."""
    if session.finished_at or not (item.withdrawn or is_stale(item, session=session, user=user)):
        return None
    withdrawal = Withdrawal() if item.withdrawn else session_withdraw(user=user, session=session)
    item.withdrawn = item.withdrawn or withdrawal.reasons.get(item.position, "")
    return withdrawal if item.withdrawn else None
