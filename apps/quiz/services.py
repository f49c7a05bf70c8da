"""Writes of the quiz: starting sessions, answering, overriding, and the FSRS state they drive."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection, transaction
from django.db.models import OuterRef, QuerySet
from django.utils import timezone

from apps.common.compiled import CompiledQuery
from apps.common.db import insert_unless_exists, student_lock
from apps.content.models import Alias, Card, Deck, KeyTerm
from apps.content.services import card_version_record

from . import scheduling
from .aggregates import Rescored, answers_rescore, stats_rebuild, stats_record_answer
from .asked import numbered
from .grading import GradingCard, grade
from .memory import card_set_aside_at, card_state_rebuild
from .models import Answer, CardState, QuizSession, SessionItem, Verdict
from .picking import cards_to_ask, choice_options
from .textnorm import fold
from .withdrawal import QuestionWithdrawnError

MAX_RESPONSE_LENGTH = 2000


class NothingToStudyError(Exception):
    """The chosen deck or review has no cards to ask."""


class SessionFinishedError(Exception):
    """Answers cannot be added to a finished session."""


class InvalidSubmissionError(ValueError):
    """The submission does not fit the question (for example an option that is not offered)."""


class NotOverridableError(InvalidSubmissionError):
    """A verdict the student cannot change: a chosen option, or an answer they asked to be shown."""


@dataclass(frozen=True)
class Submission:
    response: str = ""
    option: int | None = None
    reveal: bool = False
    time_taken_ms: int | None = None


# --- starting a session ------------------------------------------------------------------


def session_start(
    *, user: AbstractBaseUser, deck: Deck | None, size: int, mode: str, order: str, now: datetime | None = None
) -> QuizSession:
    """Picks the cards, fixes each question's mode and options, and saves the session."""
    now = now or timezone.now()
    seed = secrets.randbits(48)
    rng = random.Random(seed)  # noqa: S311 - shuffling quiz options, not security
    cards = list(cards_to_ask(user=user, deck=deck, order=order, now=now, rng=rng)[:size])
    if not cards:
        if deck is None:
            raise NothingToStudyError("No cards are due for review right now.")
        if Card.objects.filter(deck=deck, archived=False).exists():
            raise NothingToStudyError("You have set aside every card of this deck: bring some back to quiz it.")
        raise NothingToStudyError("This deck has no cards.")
    return session_create(
        user=user, deck=deck, cards=cards, mode=mode, order=order, size=size, rng=rng, seed=seed, now=now
    )


def session_create(
    *,
    user: AbstractBaseUser,
    deck: Deck | None,
    cards: list[Card],
    mode: str,
    order: str,
    size: int,
    rng: random.Random,
    seed: int,
    now: datetime,
    retry: bool = False,
) -> QuizSession:
    """Saves a quiz of `cards`, in that order, each question's mode and options fixed by `rng` (from `seed`)."""
    options = choice_options(cards, rng) if mode != QuizSession.Mode.RECALL else {}
    first_is_choice = rng.random() < 0.5
    with transaction.atomic():
        session = QuizSession.objects.create(
            user=user, deck=deck, mode=mode, order=order, size=size, seed=seed, created_at=now, item_count=len(cards),
            retry=retry,
        )  # fmt: skip
        items = []
        for position, card in enumerate(cards, start=1):
            wants_choice = mode == QuizSession.Mode.CHOICE or (
                mode == QuizSession.Mode.MIXED and (position % 2 == 1) == first_is_choice
            )
            item = SessionItem(session=session, position=position, card=card, mode="recall")
            if wants_choice and card.pk in options:
                shown, correct = options[card.pk]
                item.mode, item.correct_option = "choice", correct
                item.options = [{"text": option.text, "html": option.html} for option in shown]
            items.append(item)
        SessionItem.objects.bulk_create(items)
    return session


# --- answering ---------------------------------------------------------------------------


def grading_card(card: Card, *, aliases: list[str], key_terms: list[str]) -> GradingCard:
    return GradingCard(
        question=card.question,
        answer=card.answer,
        short_answer=card.short_answer,
        kind=card.kind,
        aliases=tuple(aliases),
        key_terms=tuple(key_terms),
    )


def grading_cards(cards: QuerySet[Card]) -> dict[int, GradingCard]:
    """GradingCards keyed by card id, with aliases and key terms, in three queries."""
    return {
        card.pk: grading_card(
            card,
            aliases=[alias.text for alias in card.aliases.all()],
            key_terms=[term.term for term in card.key_terms.all()],
        )
        for card in cards.prefetch_related("aliases", "key_terms")
    }


def _grade(item: SessionItem, submission: Submission) -> tuple[str, float, str, str]:
    """(verdict, score, feedback, stored response) for a submission to `item`."""
    if submission.reveal:
        # What was typed before "Show answer" is kept, not graded, beside the model answer (an Anki habit: type,
        # then show the answer to compare). Dropping it lost the student's words for a bare "None given".
        typed = submission.response.strip()[:MAX_RESPONSE_LENGTH] if item.mode == "recall" else ""
        return Verdict.INCORRECT, 0.0, "You asked to see the answer.", typed
    if item.mode == "choice":
        if submission.option is None or not 0 <= submission.option < len(item.options):
            raise InvalidSubmissionError("Choose one of the options shown.")
        chosen = item.options[submission.option]["text"]
        if submission.option == item.correct_option:
            return Verdict.CORRECT, 1.0, "", chosen
        return Verdict.INCORRECT, 0.0, "Not this one: the right answer is marked below.", chosen
    response = submission.response.strip()
    if not response:
        raise InvalidSubmissionError("Type an answer, or choose “Show answer” if you do not know.")
    if len(response) > MAX_RESPONSE_LENGTH:
        raise InvalidSubmissionError(f"Answers are limited to {MAX_RESPONSE_LENGTH:,} characters.")
    # item_for_answer brought the aliases and key terms along with the item.
    result = grade(grading_card(item.card, aliases=item.alias_texts, key_terms=item.key_term_texts), response)
    return Verdict(str(result.verdict)), result.score, result.feedback, response


def response_key(response: str) -> str:
    """The response folded for counting alike answers: "  The JOB. " and "the job" share a key."""
    return " ".join(fold(response).casefold().split()).strip(" .,;:!?\"'")[:200]


def _card_states(user_id: int, card_id: int) -> QuerySet[CardState]:
    return CardState.objects.filter(user_id=user_id, card_id=card_id)


_CARD_STATE = CompiledQuery(_card_states, user_id=30001, card_id=30002)


def _card_state(*, user: AbstractBaseUser, card: Card, deck_id: int, at: datetime) -> CardState:
    """The student's memory state of `card`, or a new one in `deck_id`; the caller holds the student's lock."""
    return _CARD_STATE.first(user_id=user.pk, card_id=card.pk) or CardState(
        user=user, card=card, deck_id=deck_id, due=at
    )


def _item_for_answer(user_id: int, session_id: int, position: int) -> QuerySet[SessionItem]:
    return (
        numbered(SessionItem.objects)
        .select_related("session", "session__deck", "card__deck", "card__current_version", "answer")
        .annotate(
            alias_texts=ArraySubquery(Alias.objects.filter(card=OuterRef("card")).order_by("pk").values("text")),
            key_term_texts=ArraySubquery(KeyTerm.objects.filter(card=OuterRef("card")).order_by("pk").values("term")),
            card_set_aside_at=card_set_aside_at(user_id=user_id),  # for the feedback's "Set this card aside"
        )
        .filter(session_id=session_id, session__user_id=user_id, position=position)
    )


# Every answer runs it: its ORM build and compilation took longer than grading the answer and storing it.
_ITEM_FOR_ANSWER = CompiledQuery(_item_for_answer, user_id=30001, session_id=30002, position=30003)


def item_for_answer(*, user: AbstractBaseUser, session_id: int, position: int) -> SessionItem:
    """The question with its quiz, card, current version, any answer, and what grading needs: one query.

    Raises QuizSession.DoesNotExist for another user's quiz, SessionItem.DoesNotExist for a wrong position.
    """
    item = _ITEM_FOR_ANSWER.first(user_id=user.pk, session_id=session_id, position=position)
    if item is None:
        if not QuizSession.objects.filter(pk=session_id, user=user).exists():
            raise QuizSession.DoesNotExist
        raise SessionItem.DoesNotExist
    return item


# score_sum only grows here: a score in [0, 1] added to a total in [0, n] rounds to a total in
# [0, n + 1] (rounding is monotonic and n + 1 is exact), so it stays within session_score_in_range.
_COUNT_ANSWER = """
UPDATE quiz_quizsession SET
    answered_count = answered_count + 1,
    score_sum = score_sum + %(score)s,
    finished_at = CASE WHEN answered_count + 1 >= item_count THEN %(now)s ELSE finished_at END
WHERE id = %(session)s AND finished_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM quiz_sessionitem WHERE id = %(item)s AND withdrawn <> '')
RETURNING answered_count, score_sum, finished_at
"""


def _card_deck(*, card_id: int) -> int:
    """The card's deck as committed, read FOR KEY SHARE: call before the student's lock.

    A card move takes the row FOR UPDATE (card_moved) after its UPDATE, so an answer that comes later waits
    here and counts under the new deck, and a move waits for an answer that got here first, then finds it
    committed and moves its totals. KEY SHARE rather than SHARE: an ordinary edit of the card (a plain
    UPDATE, a version recorded) does not hold students' answers up. Card, then student: the move's order.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT deck_id FROM content_card WHERE id = %s FOR KEY SHARE", [card_id])
        return cursor.fetchone()[0]


def answer_submit(
    *, user: AbstractBaseUser, session_id: int, position: int, submission: Submission, now: datetime | None = None
) -> tuple[Answer, bool]:
    """Grades and stores one answer; returns (answer, created). See answer_record."""
    item = item_for_answer(user=user, session_id=session_id, position=position)
    return answer_record(user=user, item=item, submission=submission, now=now)


def answer_record(
    *, user: AbstractBaseUser, item: SessionItem, submission: Submission, now: datetime | None = None
) -> tuple[Answer, bool]:
    """Grades and stores the answer to `item` (from item_for_answer); returns (answer, created).

    Idempotent: a repeated submit (double click, resend, second tab) returns the stored answer
    unchanged. A unique (quiz, card) row decides which of two racing submits wins. `now` (by default
    the time the student's lock is taken) is moved up to the card's last review if it is earlier. A question withdrawn
    (withdrawal.py), even after `item` was read, raises QuestionWithdrawnError and stores nothing.
    """
    if hasattr(item, "answer"):
        return item.answer, False
    if item.session.finished_at is not None:
        raise SessionFinishedError("This quiz is finished.")
    if item.withdrawn:
        raise QuestionWithdrawnError(item.withdrawn)
    verdict, score, feedback, response = _grade(item, submission)
    rating = scheduling.rating_for(verdict)
    answer = Answer(
        session=item.session,
        item=item,
        card=item.card,
        user=user,
        mode=item.mode,
        response=response,
        # Not among the cohort's common wrong answers: an answer shown was not given.
        response_key="" if submission.reveal else response_key(response),
        # A recall form may carry a stray `option`; storing it would misreport the answer.
        chosen_option=submission.option if item.mode == "choice" and not submission.reveal else None,
        revealed=submission.reveal,
        auto_verdict=verdict,
        auto_score=score,
        feedback=feedback,
        final_verdict=verdict,
        final_score=score,
        rating=rating,
        time_taken_ms=submission.time_taken_ms,
    )
    with transaction.atomic():
        answer.card_version = item.card.current_version or card_version_record(card=item.card)
        # Not item.card.deck_id: the card may have moved since the item was read.
        deck_id = _card_deck(card_id=item.card_id)
        student_lock(user.pk)
        # The time is read under the lock, and a review never goes before the card's last one (another
        # app server's clock may lag): reviews are applied in answered_at order, as card_state_rebuild
        # replays them, and a tie keeps insertion (id) order, as the replay does too.
        at = now or timezone.now()
        state = _card_state(user=user, card=item.card, deck_id=deck_id, at=at)
        if state.last_review is not None and state.last_review > at:
            at = state.last_review
        answer.answered_at = at
        if not insert_unless_exists(answer, conflict=("session", "card")):
            # A twin submit won: answer as it did, with the quiz's counters as they are now.
            existing = Answer.objects.select_related("card_version").get(item=item)
            item.session.refresh_from_db(fields=["answered_count", "score_sum", "finished_at"])
            existing.item, item.answer = item, existing
            return existing, False
        with connection.cursor() as cursor:
            cursor.execute(_COUNT_ANSWER, {"score": score, "now": at, "session": item.session_id, "item": item.pk})
            counted = cursor.fetchone()
        if counted is None:  # ended, or the question withdrawn, in another tab since the item was read: undo the insert
            item.refresh_from_db(fields=["withdrawn"])
            if item.withdrawn:
                raise QuestionWithdrawnError(item.withdrawn)
            raise SessionFinishedError("This quiz is finished.")
        session = item.session
        session.answered_count, session.score_sum, session.finished_at = counted
        stats_record_answer(answer=answer, deck_id=deck_id)
        scheduling.review(state, rating=rating, at=at)
        state.save()
    item.answer = answer
    return answer, True


def session_finish(*, user: AbstractBaseUser, session_id: int, now: datetime | None = None) -> QuizSession:
    """Ends a session early; unanswered questions stay unanswered."""
    with transaction.atomic():
        session = QuizSession.objects.select_for_update().get(pk=session_id, user=user)
        if session.finished_at is None:
            session.finished_at = now or timezone.now()
            session.save(update_fields=["finished_at"])
    return session


def sessions_end_unfinished(
    *, user: AbstractBaseUser, deck: Deck | None, keep: int, now: datetime | None = None
) -> int:
    """Ends the user's other open quizzes on `deck` (None: reviews), as a new one starts; returns how many.

    The start page offered to resume the latest and the student chose a new one: left open, it came back as
    "unfinished" on the home page and the start page once the new one was done, and again after each. Its answers
    stay, as for a quiz ended by hand.
    """
    open_ones = QuizSession.objects.filter(user=user, deck=deck, finished_at__isnull=True).exclude(pk=keep)
    # Locked in id order, as a regrade rescoring some of them locks them (aggregates.RESCORE_SESSIONS).
    locked = open_ones.order_by("pk").select_for_update().values("pk")
    with transaction.atomic():
        return QuizSession.objects.filter(pk__in=locked).update(finished_at=now or timezone.now())


def answer_finalize(answer: Answer) -> None:
    """The final verdict, score and FSRS rating from the grader's verdict and the student's correction. A correction
    the grader agrees with is none: stored so, it would count in the cohort's override rate."""
    if answer.override_verdict == answer.auto_verdict:
        answer.override_verdict = ""
    if answer.override_verdict:
        answer.final_verdict = answer.override_verdict
        answer.final_score = 1.0 if answer.override_verdict == Verdict.CORRECT else 0.0
    else:
        answer.final_verdict, answer.final_score = answer.auto_verdict, answer.auto_score
    answer.rating = scheduling.rating_for(answer.final_verdict)


def answer_override(*, user: AbstractBaseUser, session_id: int, position: int, verdict: str) -> Answer:
    """Records the student's own verdict beside the grader's; "" undoes it. Scores use the final verdict.

    A partly right answer may go either way. A verdict the grader already gave is no correction: it is stored
    as none (so undoing an earlier one), else it would count in the cohort's override rate.
    """
    if verdict not in {"", Verdict.CORRECT, Verdict.INCORRECT}:
        raise InvalidSubmissionError("An override is either “I was right” or “I was wrong”.")
    with transaction.atomic():
        student_lock(user.pk)
        # Only the answer's row: locking the joined card too would wait for an instructor moving it, who
        # holds the card and waits for this student's lock (a deadlock).
        answer = (
            Answer.objects.select_for_update(of=("self",))
            .select_related("card")
            .get(session_id=session_id, session__user=user, item__position=position)
        )
        if answer.mode != "recall" or answer.revealed:
            raise NotOverridableError("Only free-recall answers can be marked right or wrong by hand.")
        before = Rescored(answer, answer.final_verdict, answer.final_score, bool(answer.override_verdict))
        answer.override_verdict = verdict
        answer_finalize(answer)
        answers_rescore(
            card_id=answer.card_id,
            rescored=[before],
            fields=["override_verdict", "final_verdict", "final_score", "rating"],
        )
        card_state_rebuild(user=user, card=answer.card)
    return answer


def card_moved(*, card: Card) -> None:
    """After a card moved to another deck: its memory states and the per-deck running totals follow it.

    Call in the transaction that updated the card, after the UPDATE: the row lock taken here waits for every
    answer that read the card's deck (_card_deck, FOR KEY SHARE) to commit, so each answer counted under the
    old deck is listed below, and none can start until the move commits.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM content_card WHERE id = %s FOR UPDATE", [card.pk])
    students = list(Answer.objects.filter(card=card).values_list("user_id", flat=True).distinct())
    if not students:
        return
    with transaction.atomic():
        student_lock(*students)
        CardState.objects.filter(card=card).exclude(deck_id=card.deck_id).update(deck_id=card.deck_id)
        stats_rebuild(user_ids=students)
