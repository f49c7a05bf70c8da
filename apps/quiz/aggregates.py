"""Running totals per student and card and per student and deck, kept in step with answers.

Dashboards read these instead of scanning every answer, so a cohort page costs the
same with a thousand answers or a million. `stats_rebuild` recomputes them from the
raw answers (the tests compare the two), for repair after a bulk change.
"""

from __future__ import annotations

from django.db import connection, transaction

from .models import Answer, Verdict
from .signals import answer_recorded, answer_rescored

# One statement: the card totals, then the deck totals from what the card upsert returned
# (a first answer adds a card; the deck's sum of card means moves by this card's change of mean).
_ANSWER_UPSERT = """
WITH card AS (
    INSERT INTO quiz_studentcardstat (user_id, card_id, deck_id, attempts, score_sum, overrides, last_answered_at)
    VALUES (%(user)s, %(card)s, %(deck)s, 1, %(score)s, %(overrides)s, %(at)s)
    ON CONFLICT (user_id, card_id) DO UPDATE SET
        attempts = quiz_studentcardstat.attempts + 1,
        score_sum = quiz_studentcardstat.score_sum + EXCLUDED.score_sum,
        overrides = quiz_studentcardstat.overrides + EXCLUDED.overrides,
        last_answered_at = GREATEST(quiz_studentcardstat.last_answered_at, EXCLUDED.last_answered_at)
    RETURNING attempts, score_sum
), deck AS (
    INSERT INTO quiz_studentdeckstat
        (user_id, deck_id, cards_attempted, attempts, score_sum, mean_sum, last_answered_at)
    SELECT %(user)s, %(deck)s, CASE WHEN card.attempts = 1 THEN 1 ELSE 0 END, 1, %(score)s,
           card.score_sum / card.attempts
             - CASE WHEN card.attempts > 1 THEN (card.score_sum - %(score)s) / (card.attempts - 1) ELSE 0 END,
           %(at)s
    FROM card
    ON CONFLICT (user_id, deck_id) DO UPDATE SET
        cards_attempted = quiz_studentdeckstat.cards_attempted + EXCLUDED.cards_attempted,
        attempts = quiz_studentdeckstat.attempts + EXCLUDED.attempts,
        score_sum = quiz_studentdeckstat.score_sum + EXCLUDED.score_sum,
        mean_sum = quiz_studentdeckstat.mean_sum + EXCLUDED.mean_sum,
        last_answered_at = GREATEST(quiz_studentdeckstat.last_answered_at, EXCLUDED.last_answered_at)
)
SELECT attempts FROM card
"""

_CARD_ADJUST = """
UPDATE quiz_studentcardstat SET score_sum = score_sum + %(delta)s, overrides = overrides + %(overrides)s
WHERE user_id = %(user)s AND card_id = %(card)s
RETURNING attempts, deck_id
"""

_DECK_ADJUST = """
UPDATE quiz_studentdeckstat SET score_sum = score_sum + %(delta)s, mean_sum = mean_sum + %(delta)s / %(attempts)s
WHERE user_id = %(user)s AND deck_id = %(deck)s
"""


# Each statement takes %(users)s: those students' totals, or everyone's when it is None.
REBUILD_SQL = [
    "DELETE FROM quiz_studentcardstat WHERE (%(users)s::bigint[] IS NULL OR user_id = ANY(%(users)s))",
    "DELETE FROM quiz_studentdeckstat WHERE (%(users)s::bigint[] IS NULL OR user_id = ANY(%(users)s))",
    """
    INSERT INTO quiz_studentcardstat (user_id, card_id, deck_id, attempts, score_sum, overrides, last_answered_at)
    SELECT a.user_id, a.card_id, c.deck_id, count(*), sum(a.final_score),
           count(*) FILTER (WHERE a.override_verdict <> ''), max(a.answered_at)
    FROM quiz_answer a JOIN content_card c ON c.id = a.card_id
    WHERE (%(users)s::bigint[] IS NULL OR a.user_id = ANY(%(users)s))
    GROUP BY a.user_id, a.card_id, c.deck_id
    """,
    """
    INSERT INTO quiz_studentdeckstat
        (user_id, deck_id, cards_attempted, attempts, score_sum, mean_sum, last_answered_at)
    SELECT user_id, deck_id, count(*), sum(attempts), sum(score_sum), sum(score_sum / attempts), max(last_answered_at)
    FROM quiz_studentcardstat WHERE (%(users)s::bigint[] IS NULL OR user_id = ANY(%(users)s))
    GROUP BY user_id, deck_id
    """,
]


def stats_record_answer(*, answer: Answer, deck_id: int) -> None:
    """Adds a new answer to the running totals. One statement; call inside the answer's transaction."""
    params = {
        "user": answer.user_id,
        "card": answer.card_id,
        "deck": deck_id,
        "score": answer.final_score,
        "overrides": 1 if answer.override_verdict else 0,
        "at": answer.answered_at,
    }
    with connection.cursor() as cursor:
        cursor.execute(_ANSWER_UPSERT, params)
        (attempts,) = cursor.fetchone()
    answer_recorded.send(sender=Answer, answer=answer, first_on_card=attempts == 1)


def stats_record_override(
    *, answer: Answer, score_before: float, verdict_before: str, overridden_before: bool, counted_before: bool = True
) -> None:
    """Moves the running totals by an override's change of final score, then tells other apps' totals.

    `counted_before`: False when the answer had no response key before (a shown answer, checked after all), so
    it was among nobody's wrong answers whatever its verdict.
    """
    delta = answer.final_score - score_before
    overrides = int(bool(answer.override_verdict)) - int(overridden_before)
    wrong_before = counted_before and verdict_before != Verdict.CORRECT
    if not delta and not overrides and counted_before:
        return
    params = {"user": answer.user_id, "card": answer.card_id, "delta": delta, "overrides": overrides}
    with connection.cursor() as cursor:
        cursor.execute(_CARD_ADJUST, params)
        row = cursor.fetchone()
        if row is None:  # totals missing (e.g. answers bulk-loaded): rebuild this student's from scratch
            stats_rebuild(user_ids=[answer.user_id])
        else:
            attempts, deck_id = row
            cursor.execute(_DECK_ADJUST, {**params, "attempts": attempts, "deck": deck_id})
    answer_rescored.send(
        sender=Answer,
        answer=answer,
        score_delta=delta,
        overrides_delta=overrides,
        wrong_before=wrong_before,
    )


def stats_rebuild(*, user_ids: list[int] | None = None) -> None:
    """Recomputes the running totals from the raw answers, for these students or (None) everyone."""
    with transaction.atomic(), connection.cursor() as cursor:
        for statement in REBUILD_SQL:
            cursor.execute(statement, {"users": user_ids})


# Summed afresh rather than moved by (final - before): float differences drift, and a total a hair
# below 0 or above answered_count breaks session_score_in_range. A quiz holds at most 100 answers.
RESCORE_SESSION = """
UPDATE quiz_quizsession
SET score_sum = (SELECT coalesce(sum(final_score), 0) FROM quiz_answer WHERE session_id = %(session)s)
WHERE id = %(session)s
"""


def answer_rescore(
    *,
    answer: Answer,
    fields: list[str],
    score_before: float,
    verdict_before: str,
    overridden_before: bool,
    counted_before: bool = True,
) -> None:
    """Saves the `fields` of an answer whose final verdict or score changed (an override, a check after "Show
    answer", a regrade), then moves its quiz's score and the running totals with it (see stats_record_override)."""
    answer.save(update_fields=fields)
    with connection.cursor() as cursor:
        cursor.execute(RESCORE_SESSION, {"session": answer.session_id})
    stats_record_override(
        answer=answer,
        score_before=score_before,
        verdict_before=verdict_before,
        overridden_before=overridden_before,
        counted_before=counted_before,
    )
