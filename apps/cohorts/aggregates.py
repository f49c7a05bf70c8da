"""Per-cohort running totals for item statistics, kept in step with answers, overrides and enrolment.

They hold only the cohort's current students: joining adds a student's history, removing takes
it away. `cohort_stats_rebuild` recomputes them from the raw answers (the tests compare the two).
Every change for one student runs under that student's lock (apps.common.db.student_lock): the
answer signals arrive holding it and a join or removal takes it, so the two never both count
(or both miss) the same answer.
"""

from __future__ import annotations

from django.db import connection, transaction

from apps.common.db import student_lock
from apps.quiz.aggregates import Rescored, moves_by_student
from apps.quiz.models import Answer, Verdict

# Every statement here locks the rows it changes in one order, so two of them (two students' answers,
# an answer and a join) wait for each other instead of deadlocking: card totals before response
# counts, and within a table by cohort, card, mode, response key. An INSERT ... SELECT ... ORDER BY
# inserts (and on conflict locks) in that order; an UPDATE has no ORDER BY, so it locks first.

# Card totals, then (for a wrong answer) the response count, for each cohort the student is in. The
# responses read the cohorts back from the card upsert through a sort, which takes every row the
# upsert returns before it yields one: the card rows are all locked before any response row.
_ANSWER = """
WITH cards AS (
    INSERT INTO cohorts_cohortcardstat (cohort_id, card_id, attempts, students, score_sum, overrides)
    SELECT m.cohort_id, %(card)s, 1, %(first)s, %(score)s, %(overrides)s
    FROM cohorts_membership m WHERE m.student_id = %(user)s AND m.removed_at IS NULL
    ORDER BY m.cohort_id
    ON CONFLICT (cohort_id, card_id) DO UPDATE SET
        attempts = cohorts_cohortcardstat.attempts + 1,
        students = cohorts_cohortcardstat.students + EXCLUDED.students,
        score_sum = cohorts_cohortcardstat.score_sum + EXCLUDED.score_sum,
        overrides = cohorts_cohortcardstat.overrides + EXCLUDED.overrides
    RETURNING cohort_id
)
INSERT INTO cohorts_cohortresponsestat (cohort_id, card_id, mode, response_key, count, sample, sample_html)
SELECT cards.cohort_id, %(card)s, %(mode)s, %(key)s, 1, %(sample)s, %(sample_html)s
FROM cards WHERE %(counts)s
ORDER BY cards.cohort_id
ON CONFLICT (cohort_id, card_id, mode, response_key) DO UPDATE SET
    count = cohorts_cohortresponsestat.count + EXCLUDED.count
"""

# Rescored answers to one card move its totals (one row of changes a student) and, where an answer became right or
# wrong, its response counts (one row a student and response), summed over each cohort's current students. The card
# rows are locked by the sorted SELECT ... FOR UPDATE (locking follows the sort), then updated.
_RESCORE_CARD = """
WITH d AS (
    SELECT m.cohort_id, sum(d.delta) AS delta, sum(d.overrides) AS overrides
    FROM unnest(%(users)s::bigint[], %(deltas)s::float8[], %(overrides)s::int[]) AS d(user_id, delta, overrides)
    JOIN cohorts_membership m ON m.student_id = d.user_id AND m.removed_at IS NULL
    GROUP BY m.cohort_id
), locked AS MATERIALIZED (
    SELECT s.id, d.delta, d.overrides FROM cohorts_cohortcardstat s JOIN d ON d.cohort_id = s.cohort_id
    WHERE s.card_id = %(card)s
    ORDER BY s.cohort_id
    FOR UPDATE OF s
)
UPDATE cohorts_cohortcardstat s SET score_sum = s.score_sum + locked.delta, overrides = s.overrides + locked.overrides
FROM locked WHERE s.id = locked.id
"""

_RESCORE_RESPONSES = """
INSERT INTO cohorts_cohortresponsestat (cohort_id, card_id, mode, response_key, count, sample, sample_html)
SELECT m.cohort_id, %(card)s, d.mode, d.response_key, sum(d.delta), min(d.sample), min(d.sample_html)
FROM unnest(%(users)s::bigint[], %(modes)s::text[], %(keys)s::text[], %(deltas)s::int[], %(samples)s::text[],
            %(samples_html)s::text[]) AS d(user_id, mode, response_key, delta, sample, sample_html)
JOIN cohorts_membership m ON m.student_id = d.user_id AND m.removed_at IS NULL
GROUP BY m.cohort_id, d.mode, d.response_key
ORDER BY m.cohort_id, d.mode, d.response_key
ON CONFLICT (cohort_id, card_id, mode, response_key) DO UPDATE SET
    count = cohorts_cohortresponsestat.count + EXCLUDED.count
"""

# Joining (sign +1) or leaving (sign -1) moves one student's whole history in or out of a cohort.
_MOVE_CARDS = """
INSERT INTO cohorts_cohortcardstat (cohort_id, card_id, attempts, students, score_sum, overrides)
SELECT %(cohort)s, s.card_id, %(sign)s * s.attempts, %(sign)s, %(sign)s * s.score_sum, %(sign)s * s.overrides
FROM quiz_studentcardstat s WHERE s.user_id = %(user)s
ORDER BY s.card_id
ON CONFLICT (cohort_id, card_id) DO UPDATE SET
    attempts = cohorts_cohortcardstat.attempts + EXCLUDED.attempts,
    students = cohorts_cohortcardstat.students + EXCLUDED.students,
    score_sum = cohorts_cohortcardstat.score_sum + EXCLUDED.score_sum,
    overrides = cohorts_cohortcardstat.overrides + EXCLUDED.overrides
"""
# sample_html: the HTML of the option the sample (min(a.response)) was chosen from, as that quiz showed it
# (SessionItem.options); '' for typed answers. Each group picks its first answer's id, and only that answer's
# option is read: an option is often KaTeX HTML of many KB, and a group can hold thousands of answers.
# REBUILD_SQL picks it alike.
_MOVE_RESPONSES = """
INSERT INTO cohorts_cohortresponsestat (cohort_id, card_id, mode, response_key, count, sample, sample_html)
SELECT %(cohort)s, g.card_id, g.mode, g.response_key, %(sign)s * g.n, g.sample,
    coalesce(i.options -> f.chosen_option ->> 'html', '')
FROM (
    SELECT a.card_id, a.mode, a.response_key, count(*) AS n, min(a.response) AS sample,
        (array_agg(a.id ORDER BY a.response, a.id))[1] AS first_id
    FROM quiz_answer a
    WHERE a.user_id = %(user)s AND a.final_verdict <> 'correct' AND a.response_key <> ''
    GROUP BY a.card_id, a.mode, a.response_key
) g
LEFT JOIN quiz_answer f ON f.id = g.first_id AND f.mode = 'choice'
LEFT JOIN quiz_sessionitem i ON i.id = f.item_id
ORDER BY g.card_id, g.mode, g.response_key
ON CONFLICT (cohort_id, card_id, mode, response_key) DO UPDATE SET
    count = cohorts_cohortresponsestat.count + EXCLUDED.count
"""

# Each statement takes %(cohort)s: one cohort's totals, or every cohort's when it is None.
REBUILD_SQL = [
    "DELETE FROM cohorts_cohortcardstat WHERE (%(cohort)s::bigint IS NULL OR cohort_id = %(cohort)s)",
    "DELETE FROM cohorts_cohortresponsestat WHERE (%(cohort)s::bigint IS NULL OR cohort_id = %(cohort)s)",
    """
    INSERT INTO cohorts_cohortcardstat (cohort_id, card_id, attempts, students, score_sum, overrides)
    SELECT m.cohort_id, s.card_id, sum(s.attempts), count(*), sum(s.score_sum), sum(s.overrides)
    FROM cohorts_membership m JOIN quiz_studentcardstat s ON s.user_id = m.student_id
    WHERE m.removed_at IS NULL AND (%(cohort)s::bigint IS NULL OR m.cohort_id = %(cohort)s)
    GROUP BY m.cohort_id, s.card_id
    """,
    """
    INSERT INTO cohorts_cohortresponsestat (cohort_id, card_id, mode, response_key, count, sample, sample_html)
    SELECT g.cohort_id, g.card_id, g.mode, g.response_key, g.n, g.sample,
        coalesce(i.options -> f.chosen_option ->> 'html', '')
    FROM (
        SELECT m.cohort_id, a.card_id, a.mode, a.response_key, count(*) AS n, min(a.response) AS sample,
            (array_agg(a.id ORDER BY a.response, a.id))[1] AS first_id
        FROM cohorts_membership m JOIN quiz_answer a ON a.user_id = m.student_id
        WHERE m.removed_at IS NULL AND (%(cohort)s::bigint IS NULL OR m.cohort_id = %(cohort)s)
          AND a.final_verdict <> 'correct' AND a.response_key <> ''
        GROUP BY m.cohort_id, a.card_id, a.mode, a.response_key
    ) g
    LEFT JOIN quiz_answer f ON f.id = g.first_id AND f.mode = 'choice'
    LEFT JOIN quiz_sessionitem i ON i.id = f.item_id
    """,
]


def _is_wrong(answer: Answer) -> bool:
    return answer.final_verdict != Verdict.CORRECT and bool(answer.response_key)


def _shown_html(answer: Answer) -> str:
    """The chosen option's HTML as the quiz showed it ('' for a typed answer), from the item answer_record holds."""
    if answer.mode != "choice" or answer.chosen_option is None:
        return ""
    return answer.item.options[answer.chosen_option].get("html", "")


def on_answer_recorded(sender, *, answer: Answer, first_on_card: bool, **kwargs) -> None:
    params = {
        "user": answer.user_id, "card": answer.card_id, "first": int(first_on_card), "score": answer.final_score,
        "overrides": int(bool(answer.override_verdict)), "mode": answer.mode, "key": answer.response_key,
        "delta": 1, "sample": answer.response, "sample_html": _shown_html(answer), "counts": _is_wrong(answer),
    }  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(_ANSWER, params)


def on_answers_rescored(sender, *, card_id: int, rescored: list[Rescored], **kwargs) -> None:
    responses: dict[tuple[int, str, str], list] = {}
    for row in rescored:
        answer = row.answer
        wrong_after = _is_wrong(answer)
        if answer.response_key and row.wrong_before != wrong_after:
            key = (answer.user_id, answer.mode, answer.response_key)
            response = responses.setdefault(key, [0, answer.response, _shown_html(answer)])
            response[0] += 1 if wrong_after else -1
    with connection.cursor() as cursor:
        cursor.execute(_RESCORE_CARD, moves_by_student(card_id=card_id, rescored=rescored))
        if responses:
            keys = list(responses)
            cursor.execute(_RESCORE_RESPONSES, {
                "card": card_id, "users": [k[0] for k in keys], "modes": [k[1] for k in keys],
                "keys": [k[2] for k in keys], "deltas": [responses[k][0] for k in keys],
                "samples": [responses[k][1] for k in keys], "samples_html": [responses[k][2] for k in keys],
            })  # fmt: skip


def cohort_stats_move(*, cohort_id: int, user_id: int, joining: bool) -> None:
    """Adds (joining) or takes away (leaving) one student's history; call inside the membership change."""
    params = {"cohort": cohort_id, "user": user_id, "sign": 1 if joining else -1}
    student_lock(user_id)
    with connection.cursor() as cursor:
        cursor.execute(_MOVE_CARDS, params)
        cursor.execute(_MOVE_RESPONSES, params)


def cohort_stats_rebuild(*, cohort_id: int | None = None) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        for statement in REBUILD_SQL:
            cursor.execute(statement, {"cohort": cohort_id})
