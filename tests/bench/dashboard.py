"""Cohort dashboards at scale: 1,000 students, 2,000 cards in 10 assigned decks, 1,000,000 answers.

The data is generated inside PostgreSQL (INSERT ... SELECT over generate_series: one bulk
statement per table, no row-by-row round trips), then the running totals are built the
way `rebuild_stats` builds them. An instructor then loads the matrix page, the item
statistics page and both CSV exports; each figure is the median server time of several.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import time

from .loadgen import HttpClient
from .server import Target

STUDENTS, DECKS, CARDS_PER_DECK, SESSIONS_PER_STUDENT, ITEMS_PER_SESSION = 1000, 10, 200, 50, 20
ANSWERS = STUDENTS * SESSIONS_PER_STUDENT * ITEMS_PER_SESSION
INSTRUCTOR, INSTRUCTOR_PASSWORD = "bench-instructor", "bench-instructor-2026"
TARGET_MS = 500.0
REPEATS = 9

# Each statement fills one table from generate_series; setseed makes runs comparable.
SEED_SQL = [
    "SELECT setseed(0.42)",
    """
    INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff, is_active,
                           date_joined)
    SELECT '!', false, 'dash-' || lpad(g::text, 4, '0'), '', '', '', false, true, now() - interval '90 days'
    FROM generate_series(1, %(students)s) g
    """,
    """
    INSERT INTO content_deck (title, slug, description, description_html, source, created_at, updated_at)
    SELECT 'Bench deck ' || d, 'bench-deck-' || d, '', '', '', now(), now() FROM generate_series(1, %(decks)s) d
    """,
    """
    INSERT INTO content_card (uid, deck_id, position, kind, question, question_html, question_text, answer,
                              answer_html, answer_text, short_answer, short_answer_html, explanation,
                              explanation_html, explanation_text, source_key, source_hash, source_distractors,
                              archived, created_at, updated_at)
    SELECT gen_random_uuid(), d.id, p, 'flashcard', 'Bench question ' || d.id || '.' || p || '?',
           '<p>Bench question ' || d.id || '.' || p || '?</p>', 'Bench question ' || d.id || '.' || p || '?',
           'Answer ' || p, '<p>Answer ' || p || '</p>', 'Answer ' || p, 'Answer ' || p, '<p>Answer ' || p || '</p>',
           '', '', '', '', '', '[]', false, now(), now()
    FROM content_deck d CROSS JOIN generate_series(1, %(cards_per_deck)s) p
    WHERE d.slug LIKE 'bench-deck-%%'
    """,
    """
    INSERT INTO content_cardversion (card_id, number, note, data, created_at)
    SELECT c.id, 1, 'bench', jsonb_build_object('question', c.question, 'answer', c.answer,
           'question_html', c.question_html, 'answer_html', c.answer_html, 'explanation_html', ''), now()
    FROM content_card c JOIN content_deck d ON d.id = c.deck_id WHERE d.slug LIKE 'bench-deck-%%'
    """,
    """
    UPDATE content_card c SET current_version_id = v.id FROM content_cardversion v
    WHERE v.card_id = c.id AND v.note = 'bench'
    """,
    # Card numbers 0..1999 in deck order, so answers can pick cards arithmetically.
    """
    CREATE TEMP TABLE bench_card AS
    SELECT row_number() OVER (ORDER BY d.slug, c.position) - 1 AS n, c.id, c.deck_id, c.current_version_id
    FROM content_card c JOIN content_deck d ON d.id = c.deck_id WHERE d.slug LIKE 'bench-deck-%%'
    """,
    "CREATE TEMP TABLE bench_user AS SELECT row_number() OVER (ORDER BY id) - 1 AS n, id FROM auth_user "
    "WHERE username LIKE 'dash-%%'",
    """
    INSERT INTO quiz_quizsession (user_id, deck_id, mode, "order", size, seed, created_at, finished_at, item_count,
                                  answered_count, score_sum)
    SELECT u.id, NULL, 'recall', 'random', %(items)s, s, now() - (s * interval '1 day') * 60 / %(sessions)s,
           now() - (s * interval '1 day') * 60 / %(sessions)s + interval '10 minutes', %(items)s, 0, 0
    FROM bench_user u CROSS JOIN generate_series(1, %(sessions)s) s
    """,
    # 7919 is prime to the 2,000 cards, so the 20 cards of a session are all different.
    """
    INSERT INTO quiz_sessionitem (session_id, position, card_id, mode, options, correct_option)
    SELECT q.id, p, c.id, 'recall', '[]'::jsonb, NULL
    FROM quiz_quizsession q JOIN bench_user u ON u.id = q.user_id
    CROSS JOIN generate_series(1, %(items)s) p
    JOIN bench_card c ON c.n = ((q.seed * %(items)s + p) * 7919 + u.n * 104729) %% (%(decks)s * %(cards_per_deck)s)
    """,
    # Stronger students and easier cards score more; about one wrong answer in three is a typical slip.
    """
    INSERT INTO quiz_answer (session_id, item_id, card_id, card_version_id, user_id, mode, response, response_key,
                             chosen_option, revealed, auto_verdict, auto_score, feedback, override_verdict,
                             final_verdict, final_score, rating, time_taken_ms, answered_at)
    SELECT q.id, i.id, i.card_id, c.current_version_id, q.user_id, 'recall', r.response, lower(r.response),
           NULL, false, v.verdict, r.score, '', r.override,
           CASE WHEN r.override = '' THEN v.verdict ELSE r.override END,
           CASE WHEN r.override = '' THEN r.score ELSE 1.0 END,
           CASE WHEN r.override <> '' OR v.verdict = 'correct' THEN 3 WHEN v.verdict = 'partial' THEN 2 ELSE 1 END,
           2000 + (random() * 20000)::int, q.created_at + i.position * interval '20 seconds'
    FROM quiz_sessionitem i JOIN quiz_quizsession q ON q.id = i.session_id
    JOIN bench_card c ON c.id = i.card_id JOIN bench_user u ON u.id = q.user_id
    CROSS JOIN LATERAL (
        SELECT CASE WHEN x < 0.62 + (u.n %% 10) * 0.03 - (c.n %% 7) * 0.04 THEN 'correct'
                    WHEN x < 0.75 THEN 'partial' ELSE 'incorrect' END AS verdict,
               x
        FROM (SELECT random() AS x) roll
    ) v
    -- A few wrong answers are overridden as right by the student ("I was right").
    CROSS JOIN LATERAL (
        SELECT CASE v.verdict WHEN 'correct' THEN 1.0 WHEN 'partial' THEN 0.5 ELSE 0.0 END AS score,
               CASE WHEN v.verdict = 'correct' THEN 'Answer ' || (c.n %% %(cards_per_deck)s + 1)
                    ELSE 'Wrong guess ' || (floor(v.x * 1000)::int %% 6) END AS response,
               CASE WHEN v.verdict = 'incorrect' AND v.x > 0.98 THEN 'correct' ELSE '' END AS override
    ) r
    """,
    # The counters each quiz keeps on its own row, as answer_record maintains them.
    """
    UPDATE quiz_quizsession q SET answered_count = a.n, score_sum = a.total
    FROM (SELECT session_id, count(*) AS n, sum(final_score) AS total FROM quiz_answer GROUP BY session_id) a
    WHERE a.session_id = q.id
    """,
    """
    INSERT INTO cohorts_cohort (name, join_code, created_at) VALUES ('Bench cohort', 'BENCHDASH', now())
    """,
    """
    INSERT INTO cohorts_cohort_instructors (cohort_id, user_id)
    SELECT c.id, u.id FROM cohorts_cohort c, auth_user u WHERE c.join_code = 'BENCHDASH' AND u.username = %(instructor)s
    """,
    """
    INSERT INTO cohorts_membership (cohort_id, student_id, joined_at)
    SELECT c.id, u.id, now() - interval '80 days' FROM cohorts_cohort c, bench_user u WHERE c.join_code = 'BENCHDASH'
    """,
    """
    INSERT INTO cohorts_assignment (cohort_id, deck_id, due_date, assigned_at)
    SELECT c.id, d.id, current_date + (row_number() OVER (ORDER BY d.slug))::int, now()
    FROM cohorts_cohort c, content_deck d WHERE c.join_code = 'BENCHDASH' AND d.slug LIKE 'bench-deck-%%'
    """,
    # FSRS-like states: cards answered well recently are in review, some still within their stability.
    """
    INSERT INTO quiz_cardstate (user_id, card_id, deck_id, state, step, stability, difficulty, due, last_review,
                                reps, lapses, mastered_until)
    SELECT s.user_id, s.card_id, s.deck_id, CASE WHEN s.score_sum / s.attempts >= 0.7 THEN 2 ELSE 1 END,
           NULL, 1 + 40 * s.score_sum / s.attempts, 5.0, s.last_answered_at + interval '3 days', s.last_answered_at,
           s.attempts, 0,
           CASE WHEN s.score_sum / s.attempts >= 0.7
                THEN s.last_answered_at + (1 + 40 * s.score_sum / s.attempts) * interval '1 day' END
    FROM quiz_studentcardstat s
    WHERE s.user_id IN (SELECT id FROM bench_user)
    """,
]


def seed(instructor_password_hash: str) -> float:
    """Fills the bench database; returns the seconds it took."""
    from django.db import connection, transaction

    from apps.cohorts.aggregates import REBUILD_SQL as COHORT_REBUILD_SQL
    from apps.quiz.aggregates import REBUILD_SQL

    started = time.monotonic()
    params = {
        "students": STUDENTS, "decks": DECKS, "cards_per_deck": CARDS_PER_DECK, "sessions": SESSIONS_PER_STUDENT,
        "items": ITEMS_PER_SESSION, "instructor": INSTRUCTOR,
    }  # fmt: skip
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff, "
            "is_active, date_joined) VALUES (%s, false, %s, '', '', '', true, true, now())",
            [instructor_password_hash, INSTRUCTOR],
        )
        before_states = SEED_SQL.index(next(s for s in SEED_SQL if "quiz_cardstate" in s))
        for statement in SEED_SQL[:before_states]:
            cursor.execute(statement, params)
        for statement in REBUILD_SQL:
            cursor.execute(statement, {"users": None})
        for statement in SEED_SQL[before_states:]:
            cursor.execute(statement, params)
        for statement in COHORT_REBUILD_SQL:
            cursor.execute(statement, {"cohort": None})
        cursor.execute("SELECT count(*) FROM quiz_answer WHERE user_id IN (SELECT id FROM bench_user)")
        (count,) = cursor.fetchone()
    # As autovacuum would soon after a bulk load: statistics for the planner, and the visibility
    # map that lets covering indexes answer without touching the table.
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    connection.close()
    if count != ANSWERS:
        raise RuntimeError(f"seeded {count} answers, expected {ANSWERS}")
    return time.monotonic() - started


async def _sign_in(client: HttpClient) -> None:
    page = await client.get("/accounts/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]
    response = await client.post(
        "/accounts/login/",
        {"csrfmiddlewaretoken": token, "username": INSTRUCTOR, "password": INSTRUCTOR_PASSWORD, "next": "/cohorts/"},
        headers={"Referer": f"http://127.0.0.1:{client.port}/accounts/login/"},
    )
    if response.status != 302:
        raise RuntimeError(f"instructor sign-in failed with {response.status}")


async def _measure(port: int, cohort_id: int) -> dict[str, tuple[float, int]]:
    client = HttpClient(port)
    await _sign_in(client)
    pages = {
        "dashboard_ms": f"/cohorts/{cohort_id}/",
        "item_stats_ms": f"/cohorts/{cohort_id}/?tab=items",
        "csv_export_ms": f"/cohorts/{cohort_id}/export/matrix.csv",
        "item_csv_export_ms": f"/cohorts/{cohort_id}/export/items.csv",
    }
    results = {}
    for name, path in pages.items():
        timings, size = [], 0
        for attempt in range(REPEATS + 1):
            response = await client.get(path)
            if response.status != 200:
                raise RuntimeError(f"GET {path} answered {response.status}")
            if attempt:  # the first request warms caches and is not counted
                timings.append(response.elapsed * 1000)
            size = len(response.body)
        results[name] = (statistics.median(timings), size)
    await client.close()
    return results


def run(target: Target, options: argparse.Namespace) -> bool:
    from django.contrib.auth.hashers import make_password

    from apps.cohorts.models import Cohort

    seconds = seed(make_password(INSTRUCTOR_PASSWORD))
    print(f"seeded {STUDENTS} students, {DECKS * CARDS_PER_DECK} cards in {DECKS} decks, {ANSWERS} answers "
          f"in {seconds:.0f} s", flush=True)  # fmt: skip
    cohort_id = Cohort.objects.get(join_code="BENCHDASH").pk
    results = asyncio.run(_measure(target.port, cohort_id))
    passed = True
    for name, (milliseconds, size) in results.items():
        print(f"{name}={milliseconds:.1f}", flush=True)
        print(f"  ({size / 1024:.0f} KiB; median of {REPEATS})", flush=True)
        passed = passed and milliseconds < TARGET_MS
    print(f"dashboard target: each under {TARGET_MS:.0f} ms: {'met' if passed else 'MISSED'}", flush=True)
    return passed
