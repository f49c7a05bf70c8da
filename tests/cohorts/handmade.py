"""A small cohort whose every statistic is worked out by hand (tests/cohorts/test_analytics.py shows the sums).

s1, s2, s3 in the cohort; s4 in another cohort and s5 removed, both with answers that must not count.
Deck "Ops" (Q1?, Q2?, Q3?, and an archived card) is due in two days; deck "Empty" has no due date.

- s1: Q1 right, Q2 right, Q3 wrong ("Deployment"), yesterday; flags: none.
- s2: Q1 right, Q2 wrong ("CronJob"), ten days ago; flags: inactive, behind (Q3 not attempted).
- s3: Q1 wrong as a choice ("A Pod") then right, Q2 wrong ("  cronjob. "), Q3 "Job" graded correct but
  overridden to incorrect; flags: low_accuracy (25 %).
- Item statistics: Q1 discrimination 0.5; Q3 override rate 50 %; Q2's common wrong answer "cronjob" x 2.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from apps.cohorts.aggregates import cohort_stats_rebuild
from apps.cohorts.models import Assignment, Cohort, Membership
from apps.content.services import card_version_record
from apps.quiz.aggregates import stats_rebuild
from apps.quiz.models import Answer, CardState, QuizSession, SessionItem
from apps.quiz.services import response_key
from tests.conftest import make_user
from tests.factories import make_card, make_deck

NOW = timezone.now()


def answer(user, card, score, *, mode="recall", response="x", override="", days_ago=1):
    at = NOW - timedelta(days=days_ago)
    session = QuizSession.objects.create(user=user, deck=card.deck, size=1, seed=1, created_at=at)
    item = SessionItem.objects.create(
        session=session, position=1, card=card, mode=mode, correct_option=0 if mode == "choice" else None,
        options=[{"text": "right", "html": "right"}, {"text": response, "html": response}] if mode == "choice" else [],
    )  # fmt: skip
    auto = 1.0 if override == "incorrect" else score
    verdict = "correct" if score == 1 else "incorrect" if score == 0 else "partial"
    Answer.objects.create(
        session=session, item=item, card=card, card_version=card.current_version or card_version_record(card=card),
        user=user, mode=mode, response=response, response_key=response_key(response),
        chosen_option=1 if mode == "choice" else None, auto_verdict="correct" if override else verdict,
        auto_score=auto, override_verdict=override, final_verdict=verdict, final_score=score, rating=3,
        answered_at=at,
    )  # fmt: skip


def make_hand_cohort() -> Cohort:
    """s1, s2, s3 in the cohort; s4 in another cohort and s5 removed, both with answers that must not count."""
    deck = make_deck(title="Ops")
    c1, c2, c3 = (make_card(deck=deck, question=f"Q{i}?", answer=f"A{i}") for i in (1, 2, 3))
    make_card(deck=deck, question="Archived?", answer="x", archived=True)
    empty = make_deck(title="Empty")
    make_card(deck=empty)
    cohort = Cohort.objects.create(name="Hand")
    Assignment.objects.create(cohort=cohort, deck=deck, due_date=(NOW + timedelta(days=2)).date())
    Assignment.objects.create(cohort=cohort, deck=empty)
    s1, s2, s3, s4, s5 = (make_user(name) for name in ("s1", "s2", "s3", "s4", "s5"))
    for student in (s1, s2, s3):
        Membership.objects.create(cohort=cohort, student=student, joined_at=NOW - timedelta(days=30))
    Membership.objects.create(cohort=Cohort.objects.create(name="Other"), student=s4)
    Membership.objects.create(cohort=cohort, student=s5, joined_at=NOW - timedelta(days=30), removed_at=NOW)

    answer(s1, c1, 1.0)
    answer(s1, c2, 1.0)
    answer(s1, c3, 0.0, response="Deployment")
    answer(s2, c1, 1.0, days_ago=10)
    answer(s2, c2, 0.0, response="CronJob", days_ago=10)
    answer(s3, c1, 0.0, mode="choice", response="A Pod")
    answer(s3, c1, 1.0)
    answer(s3, c2, 0.0, response="  cronjob. ")
    answer(s3, c3, 0.0, response="Job", override="incorrect")
    for outsider in (s4, s5):
        for card in (c1, c2, c3):
            answer(outsider, card, 0.0, response="Outsider")
    stats_rebuild()
    cohort_stats_rebuild()
    # s1 has mastered c1 (recalled, not due until after NOW) and has let c2 slip.
    for card, until in ((c1, NOW + timedelta(days=3)), (c2, NOW - timedelta(hours=1))):
        due = NOW + timedelta(days=4)
        CardState.objects.create(user=s1, card=card, deck=deck, due=due, state=2, stability=5, mastered_until=until)
    return cohort
