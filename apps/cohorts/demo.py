"""Classmates for the demo cohort: students with three weeks of answers, so that a first look at the dashboards,
item statistics and charts shows a class at work (a strong student, a struggling one, two who stopped coming)
rather than one empty row. Development only; every answer goes through the quiz services, as a student's would.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from apps.content.models import Deck
from apps.quiz import services as quiz
from apps.quiz.models import Answer, QuizSession, SessionItem

from .deadlines import assignment_set
from .models import Cohort, Membership
from .services import cohort_create, cohort_join

DEMO_NAME = "Demo cohort"
HISTORY_DAYS = 21


@dataclass(frozen=True)
class Classmate:
    username: str
    name: tuple[str, str]
    skill: float  # chance of knowing a card the first time; it grows with each review
    every: int  # days between sessions
    idle: int  # days since the last session


CLASSMATES = (
    Classmate("ada", ("Ada", "Lovelace"), 0.85, 2, 0),
    Classmate("grace", ("Grace", "Hopper"), 0.7, 3, 1),
    Classmate("alan", ("Alan", "Turing"), 0.55, 2, 2),
    Classmate("edsger", ("Edsger", "Dijkstra"), 0.3, 3, 1),
    Classmate("barbara", ("Barbara", "Liskov"), 0.75, 2, 9),
    Classmate("ken", ("Ken", "Thompson"), 0.5, 4, 15),
)


def demo_cohort_find(*, instructor: AbstractBaseUser) -> Cohort | None:
    return Cohort.objects.filter(name__iexact=DEMO_NAME, instructors=instructor).first()


@transaction.atomic
def demo_cohort_create(*, instructor: AbstractBaseUser, student: AbstractBaseUser) -> Cohort:
    """The demo cohort, taught by `instructor`, with `student` enrolled and every published deck assigned (a draft
    cannot be: its students could not open it)."""
    cohort = cohort_create(name=DEMO_NAME, instructor=instructor)
    # Through the service, so the cohort's running totals take in the student's earlier answers.
    cohort_join(student=student, code=cohort.join_code)
    for deck in Deck.objects.filter(published=True).order_by("pk"):
        assignment_set(cohort=cohort, deck=deck, due_date=None)
    return cohort


def demo_classmates_ensure(*, cohort: Cohort, count: int, now: datetime | None = None) -> int:
    """Enrols up to `count` classmates in `cohort`, giving each a history the first time; returns the number of
    answers recorded. Classmates cannot sign in (no password): they exist to be looked at."""
    now = now or timezone.now()
    decks = list(Deck.objects.filter(assignments__cohort=cohort).order_by("pk"))
    recorded = 0
    for number, classmate in enumerate(CLASSMATES[:count]):
        first, last = classmate.name
        user, created = get_user_model().objects.get_or_create(
            username=classmate.username,
            defaults={"first_name": first, "last_name": last, "email": f"{classmate.username}@example.com"},
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        cohort_join(student=user, code=cohort.join_code)
        if decks and not Answer.objects.filter(user=user).exists():
            recorded += _history(user=user, classmate=classmate, decks=decks, now=now, rng=random.Random(number))  # noqa: S311 - demo data
            Membership.objects.filter(cohort=cohort, student=user).update(joined_at=now - timedelta(days=HISTORY_DAYS))
    return recorded


@transaction.atomic
def _history(
    *, user: AbstractBaseUser, classmate: Classmate, decks: list[Deck], now: datetime, rng: random.Random
) -> int:
    seen: dict[int, int] = {}  # card -> times answered: practice makes a card easier
    recorded = 0
    for days_ago in range(HISTORY_DAYS, classmate.idle - 1, -classmate.every):
        start = now - timedelta(days=days_ago, hours=rng.randint(1, 10), minutes=rng.randint(0, 59))
        order = QuizSession.Order.DUE if seen and rng.random() < 0.5 else QuizSession.Order.NEW
        try:
            session = quiz.session_start(
                user=user, deck=rng.choice(decks), size=rng.randint(5, 10), mode="mixed", order=order, now=start
            )
        except quiz.NothingToStudyError:
            continue
        at = start
        for position in range(1, session.item_count + 1):
            item = quiz.item_for_answer(user=user, session_id=session.pk, position=position)
            at += timedelta(seconds=rng.randint(8, 70))
            knows = rng.random() < min(0.97, classmate.skill + 0.06 * seen.get(item.card_id, 0))
            seen[item.card_id] = seen.get(item.card_id, 0) + 1
            quiz.answer_record(user=user, item=item, submission=_submission(item, knows=knows, rng=rng), now=at)
            recorded += 1
    return recorded


def _submission(item: SessionItem, *, knows: bool, rng: random.Random) -> quiz.Submission:
    took = rng.randint(4_000, 60_000)
    if item.mode == "choice":
        wrong = [i for i in range(len(item.options)) if i != item.correct_option]
        return quiz.Submission(option=item.correct_option if knows else rng.choice(wrong), time_taken_ms=took)
    card = item.card
    if knows:
        return quiz.Submission(response=card.short_answer or card.answer, time_taken_ms=took)
    if rng.random() < 0.4:
        return quiz.Submission(reveal=True, time_taken_ms=took)
    return quiz.Submission(response="I am not sure, something about the learning rate", time_taken_ms=took)
