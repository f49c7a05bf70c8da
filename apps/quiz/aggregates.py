"""Running totals per student and card and per student and deck, kept in step with answers.

Dashboards read these instead of scanning every answer, so a cohort page costs the
same with a thousand answers or a million. `stats_rebuild` recomputes them from the
raw answers (the tests compare the two), for repair after a bulk change.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction

from apps.common.db import rows_update

from .models import Answer, Verdict
from .signals import answer_recorded, answers_rescored

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

# Moves students' totals of one card, and so of its deck, by a change of score and overrides: one row a student.
_CARDS_ADJUST = """
WITH d AS (
    SELECT * FROM unnest(%(users)s::bigint[], %(deltas)s::float8[], %(overrides)s::int[])
        AS d(user_id, delta, overrides)
), card AS (
    UPDATE quiz_studentcardstat s SET score_sum = s.score_sum + d.delta, overrides = s.overrides + d.overrides
    FROM d WHERE s.card_id = %(card)s AND s.user_id = d.user_id
    RETURNING s.user_id, s.deck_id, s.attempts, d.delta
), deck AS (
    UPDATE quiz_studentdeckstat s
    SET score_sum = s.score_sum + card.delta, mean_sum = s.mean_sum + card.delta / card.attempts
    FROM card WHERE s.user_id = card.user_id AND s.deck_id = card.deck_id
)
SELECT user_id FROM card
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


def stats_rebuild(*, user_ids: list[int] | None = None) -> None:
    """Recomputes the running totals from the raw answers, for these students or (None) everyone."""
    with transaction.atomic(), connection.cursor() as cursor:
        for statement in REBUILD_SQL:
            cursor.execute(statement, {"users": user_ids})


# Summed afresh rather than moved by (final - before): float differences drift, and a total a hair
# below 0 or above answered_count breaks session_score_in_range. A quiz holds at most 100 answers. The quizzes
# are locked in id order first, as services.sessions_end_unfinished locks a student's: never a deadlock.
RESCORE_SESSIONS = """
WITH locked AS MATERIALIZED (
    SELECT id FROM quiz_quizsession WHERE id = ANY(%(sessions)s) ORDER BY id FOR UPDATE
)
UPDATE quiz_quizsession s SET score_sum = t.total
FROM (
    SELECT session_id, coalesce(sum(final_score), 0) AS total FROM quiz_answer
    WHERE session_id IN (SELECT id FROM locked) GROUP BY session_id
) t
WHERE s.id = t.session_id
"""


@dataclass(frozen=True)
class Rescored:
    """An answer (as it is now) whose final verdict or score changed (an override, a check after "Show answer", a
    regrade), with what they were. `counted_before`: False when it had no response key before (a shown answer,
    checked after all), so it was among nobody's wrong answers whatever its verdict."""

    answer: Answer
    verdict_before: str
    score_before: float
    overridden_before: bool
    counted_before: bool = True

    @property
    def score_delta(self) -> float:
        return self.answer.final_score - self.score_before

    @property
    def overrides_delta(self) -> int:
        return int(bool(self.answer.override_verdict)) - int(self.overridden_before)

    @property
    def wrong_before(self) -> bool:
        return self.counted_before and self.verdict_before != Verdict.CORRECT

    @property
    def moves(self) -> bool:
        return bool(self.score_delta or self.overrides_delta or not self.counted_before)


def moves_by_student(*, card_id: int, rescored: list[Rescored]) -> dict:
    """The rescored answers' changes summed per student, as the arrays the statements moving totals unnest:
    `card`, and `users`, `deltas` (of score) and `overrides` in step."""
    moves: dict[int, tuple[float, int]] = {}
    for row in rescored:
        delta, overrides = moves.get(row.answer.user_id, (0.0, 0))
        moves[row.answer.user_id] = (delta + row.score_delta, overrides + row.overrides_delta)
    return {
        "card": card_id,
        "users": list(moves),
        "deltas": [delta for delta, _ in moves.values()],
        "overrides": [overrides for _, overrides in moves.values()],
    }


def answers_rescore(*, card_id: int, rescored: list[Rescored], fields: list[str]) -> None:
    """Saves the `fields` of answers to one card whose final verdict or score changed, then moves their quizzes'
    scores and the running totals with them, and tells other apps' totals: a constant number of statements, however
    many answers (a regrade changes thousands). The caller holds the students' locks."""
    if not rescored:
        return
    rows_update([row.answer for row in rescored], fields)
    with connection.cursor() as cursor:
        cursor.execute(RESCORE_SESSIONS, {"sessions": sorted({row.answer.session_id for row in rescored})})
    if not (moving := [row for row in rescored if row.moves]):
        return
    params = moves_by_student(card_id=card_id, rescored=moving)
    with connection.cursor() as cursor:
        cursor.execute(_CARDS_ADJUST, params)
        moved = {user_id for (user_id,) in cursor.fetchall()}
    if missing := sorted(set(params["users"]) - moved):  # totals missing (answers bulk-loaded): rebuilt from scratch
        stats_rebuild(user_ids=missing)
    answers_rescored.send(sender=Answer, card_id=card_id, rescored=moving)
