"""Every write to the cohort totals locks rows in one order, so two of them cannot deadlock.

The order: card totals before wrong-answer counts; within each, by cohort, then card, then mode and
response. The order tests hold one row from a third connection, wait until PostgreSQL reports the
statement under test waiting for it, and look at which rows the statement had locked by then: exactly
the rows that come before it. The students' memberships and histories are stored in the opposite order,
so a statement that followed the tables' scan order fails them. (Grouping a student's wrong answers,
PostgreSQL sorts them by the same keys for a short history anyway; the ORDER BY keeps it so for a long
one, which the planner hashes.) The last test plays the deadlock itself, step by step.
"""

from __future__ import annotations

import pytest
from django.db import transaction

from apps.cohorts import services as cohorts
from apps.cohorts.models import Cohort, CohortCardStat, CohortResponseStat
from apps.content.models import Card
from apps.quiz import services as quiz
from tests.cohorts.totals import rebuilt_snapshot, snapshot
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck
from tests.locks import while_waiting

pytestmark = pytest.mark.django_db(transaction=True)

WRONG = "Job"  # a wrong answer to every card here, counted as "job"


def _answer(student, card: Card, response: str) -> None:
    session = quiz.session_start(user=student, deck=card.deck, size=card.deck.cards.count(), mode="recall", order="new")
    position = session.items.get(card=card).position
    quiz.answer_submit(user=student, session_id=session.pk, position=position, submission=quiz.Submission(response))


def _override(student, card: Card, verdict: str) -> None:
    item = card.answers.get(user=student).item
    quiz.answer_override(user=student, session_id=item.session_id, position=item.position, verdict=verdict)


def _hold(stat) -> None:
    """Locks one totals row, as any transaction that moved it holds it until it ends."""
    list(type(stat).objects.select_for_update().filter(pk=stat.pk).values_list("pk"))


def _names(stat) -> tuple:
    cohort, card = Cohort.objects.get(pk=stat.cohort_id).name, Card.objects.get(pk=stat.card_id).question
    return ("card", cohort, card) if isinstance(stat, CohortCardStat) else ("response", cohort, card)


def _locked() -> set[tuple]:
    """The totals rows some other transaction holds: SKIP LOCKED returns (and at once lets go of) the others."""
    rows = set()
    for model in (CohortCardStat, CohortResponseStat):
        with transaction.atomic():
            free = set(model.objects.select_for_update(skip_locked=True).values_list("pk", flat=True))
        rows |= {_names(stat) for stat in model.objects.exclude(pk__in=free)}
    return rows


@pytest.fixture
def world():
    """Mon (made first, so first in cohort order) and Tue; cards Q1 and Q2 (Q1 first) in one deck.

    ann joins Tue before Mon. cat, in both, answered both cards wrong, Q2 first, so every totals row exists.
    """
    deck = make_deck()
    q1, q2 = (make_card(deck=deck, question=f"Q{i}?", answer=f"CronJob {i}") for i in (1, 2))
    teacher = make_instructor("carol")
    mon, tue = (cohorts.cohort_create(name=name, instructor=teacher) for name in ("Mon", "Tue"))
    cat = make_user("cat")
    for cohort in (tue, mon):
        cohorts.cohort_join(student=cat, code=cohort.join_code)
    for card in (q2, q1):
        _answer(cat, card, WRONG)
    ann = make_user("ann")
    for cohort in (tue, mon):
        cohorts.cohort_join(student=ann, code=cohort.join_code)
    return {"q1": q1, "q2": q2, "mon": mon, "tue": tue, "ann": ann}


def _stat(world, cohort: str, card: str, *, response: bool = False):
    model = CohortResponseStat if response else CohortCardStat
    return model.objects.get(cohort=world[cohort], card=world[card])


def test_an_answer_locks_the_card_totals_by_cohort_before_the_wrong_answer_counts(world):
    ann, q1 = world["ann"], world["q1"]
    held = _stat(world, "tue", "q1")
    locked = while_waiting([lambda: _hold(held)], [lambda: _answer(ann, q1, WRONG)], _locked)
    assert locked == {("card", "Mon", "Q1?"), ("card", "Tue", "Q1?")}

    held = _stat(world, "tue", "q2", response=True)
    locked = while_waiting([lambda: _hold(held)], [lambda: _answer(ann, world["q2"], WRONG)], _locked)
    assert locked == {("card", "Mon", "Q2?"), ("card", "Tue", "Q2?"), ("response", "Mon", "Q2?"), _names(held)}
    assert snapshot() == rebuilt_snapshot()


def test_an_override_locks_the_card_totals_by_cohort_before_the_wrong_answer_counts(world):
    ann, q1 = world["ann"], world["q1"]
    _answer(ann, q1, WRONG)
    held = _stat(world, "tue", "q1")
    locked = while_waiting([lambda: _hold(held)], [lambda: _override(ann, q1, "correct")], _locked)
    assert locked == {("card", "Mon", "Q1?"), ("card", "Tue", "Q1?")}

    held = _stat(world, "tue", "q1", response=True)
    locked = while_waiting([lambda: _hold(held)], [lambda: _override(ann, q1, "")], _locked)
    assert locked == {("card", "Mon", "Q1?"), ("card", "Tue", "Q1?"), ("response", "Mon", "Q1?"), _names(held)}
    assert snapshot() == rebuilt_snapshot()


@pytest.mark.parametrize("joining", [True, False], ids=["join", "removal"])
def test_joining_or_leaving_locks_the_card_totals_by_card_before_the_wrong_answer_counts(world, joining):
    bob = make_user("bob")
    for card in (world["q2"], world["q1"]):  # Q2 first: bob's history is stored in the opposite order
        _answer(bob, card, WRONG)
    mon = world["mon"]

    def join():
        cohorts.cohort_join(student=bob, code=mon.join_code)

    def leave():
        cohorts.cohort_remove_student(cohort=mon, student_id=bob.pk)

    move, back = (join, leave) if joining else (leave, join)
    back() if not joining else None  # to leave, bob is in Mon first

    held = _stat(world, "mon", "q2")
    assert while_waiting([lambda: _hold(held)], [move], _locked) == {("card", "Mon", "Q1?"), ("card", "Mon", "Q2?")}
    back()

    held = _stat(world, "mon", "q2", response=True)
    locked = while_waiting([lambda: _hold(held)], [move], _locked)
    assert locked == {("card", "Mon", "Q1?"), ("card", "Mon", "Q2?"), ("response", "Mon", "Q1?"), _names(held)}
    assert snapshot() == rebuilt_snapshot()


def test_two_students_in_the_same_two_cohorts_answering_the_same_card_at_once_both_succeed(world):
    """The natural race: ann joined Tue then Mon, bob Mon then Tue, and both answer Q1 while its totals are busy.

    Tue's row is freed first: had ann taken it and then waited for Mon's, which bob (first in line for
    it) would take next and then wait for Tue's, the two would deadlock.
    """
    bob = make_user("bob")
    for cohort in (world["mon"], world["tue"]):
        cohorts.cohort_join(student=bob, code=cohort.join_code)
    q1 = world["q1"]
    tue, mon = _stat(world, "tue", "q1"), _stat(world, "mon", "q1")
    while_waiting(
        [lambda: _hold(tue), lambda: _hold(mon)],
        [lambda: _answer(bob, q1, "CronJob 1"), lambda: _answer(world["ann"], q1, "CronJob 1")],
    )
    assert CohortCardStat.objects.get(pk=mon.pk).attempts == CohortCardStat.objects.get(pk=tue.pk).attempts == 3
    assert snapshot() == rebuilt_snapshot()
