"""Answers, overrides and an instructor's card move racing each other, on real connections.

Each race is held open by a lock another connection takes (not by sleeps), and each step waits
for a state it can see: a thread blocked on a lock, or finished.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.content.models import Card
from apps.content.services import card_mark
from apps.quiz import scheduling, services
from apps.quiz.aggregates import stats_rebuild
from apps.quiz.models import Answer, CardState, StudentCardStat, StudentDeckStat
from tests.conftest import make_user
from tests.factories import make_card, make_deck
from tests.locks import Background, holding, lock_waiters, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

STATE_FIELDS = ("deck_id", "state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses")


def _answer(user, quiz, response="CronJob"):
    return services.answer_submit(
        user=user, session_id=quiz.pk, position=1, submission=services.Submission(response=response)
    )


def _totals():
    cards = sorted(
        (s.user_id, s.card_id, s.deck_id, s.attempts, round(s.score_sum, 9)) for s in StudentCardStat.objects.all()
    )
    decks = sorted(
        (s.user_id, s.deck_id, s.cards_attempted, s.attempts, round(s.score_sum, 9), round(s.mean_sum, 9))
        for s in StudentDeckStat.objects.all()
    )
    return cards, decks


def _card_form(card: Card, *, deck: int) -> dict:
    return {
        "loaded_version": card_mark(Card.objects.get(pk=card.pk)),
        "deck": deck, "position": card.position, "kind": card.kind, "question": card.question,
        "answer": card.answer, "short_answer": card.short_answer, "explanation": card.explanation,
        **{f"{prefix}-{k}": v for prefix in ("aliases", "distractors", "key_terms")
           for k, v in {"TOTAL_FORMS": 0, "INITIAL_FORMS": 0, "MIN_NUM_FORMS": 0, "MAX_NUM_FORMS": 1000}.items()},
    }  # fmt: skip


def _lock_table(name: str, mode: str):
    def hold():
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {name} IN {mode} MODE")

    return hold


@pytest.mark.parametrize("answered_before", [False, True], ids=["first-answer", "second-answer"])
def test_an_answer_in_flight_while_an_instructor_moves_its_card_counts_in_the_new_deck(superuser, answered_before):
    old, new = make_deck(title="Old"), make_deck(title="New")
    card = make_card(deck=old, question="Which resource runs a task on a schedule?", answer="CronJob")
    student = make_user("sam")
    if answered_before:
        _answer(student, services.session_start(user=student, deck=old, size=1, mode="recall", order="new"))
    quiz = services.session_start(user=student, deck=old, size=1, mode="recall", order="new")
    # The request in flight read its question (the card, in the old deck) before the move.
    item = services.item_for_answer(user=student, session_id=quiz.pk, position=1)
    admin = Client()
    admin.force_login(superuser)
    url = reverse("admin:content_card_change", args=[card.pk])

    # The admin log is written last in the change view's transaction: holding its table keeps the move
    # uncommitted, the card row updated and card_moved done, while the answer runs.
    with holding(_lock_table("django_admin_log", "SHARE")):
        move = Background(lambda: admin.post(url, _card_form(card, deck=new.pk)).status_code)
        wait_until(lambda: lock_waiters() == 1, what="the move to wait for the admin log")
        answer = Background(
            lambda: services.answer_record(user=student, item=item, submission=services.Submission(response="CronJob"))
        )
        wait_until(lambda: not answer.running or lock_waiters() == 2, what="the answer to finish or wait")
    assert move.join() == 302
    _stored, created = answer.join()

    assert created and Card.objects.get(pk=card.pk).deck_id == new.pk
    assert CardState.objects.get(user=student, card=card).deck_id == new.pk
    incremental = _totals()
    assert {deck for _user, deck, *_rest in incremental[1]} == {new.pk}
    stats_rebuild()
    assert _totals() == incremental


def test_an_override_and_a_card_move_do_not_deadlock():
    old, new = make_deck(title="Old"), make_deck(title="New")
    card = make_card(deck=old, question="Which resource runs a task on a schedule?", answer="CronJob")
    student = make_user("sam")
    quiz = services.session_start(user=student, deck=old, size=1, mode="recall", order="new")
    _answer(student, quiz)

    def move():  # what CardAdmin.save_model does in the admin's transaction
        with transaction.atomic():
            moved = Card.objects.get(pk=card.pk)
            moved.deck = new
            moved.save()
            services.card_moved(card=moved)

    # Holding the answers table stops the move after its card UPDATE, as card_moved reads the answers,
    # and the override after its student lock, as it reads the answer: each then needs what the other holds
    # unless the override locks only the answer's row.
    with holding(_lock_table("quiz_answer", "ACCESS EXCLUSIVE")):
        mover = Background(move)
        wait_until(lambda: lock_waiters() == 1, what="the move to wait for the answers table")
        override = Background(
            lambda: services.answer_override(user=student, session_id=quiz.pk, position=1, verdict="incorrect")
        )
        wait_until(lambda: lock_waiters() == 2, what="the override to wait for the answers table")
    mover.join()
    override.join()

    assert Answer.objects.get().final_verdict == "incorrect"
    assert CardState.objects.get().deck_id == new.pk
    incremental = _totals()
    stats_rebuild()
    assert _totals() == incremental


class _StallingClock:
    """Stands in for services' clock: each reading a second after the last, from a real start.

    The first reading in the thread named `stall` waits for `go` before it returns, so that thread
    can be held between reading the time and whatever follows.
    """

    def __init__(self, *, stall: str):
        self._next, self._stall = timezone.now(), stall
        self._mutex, self.stalled, self.go = threading.Lock(), threading.Event(), threading.Event()

    def now(self) -> datetime:
        with self._mutex:
            self._next += timedelta(seconds=1)
            reading = self._next
        if threading.current_thread().name == self._stall and not self.stalled.is_set():
            self.stalled.set()
            assert self.go.wait(10)
        return reading


def test_two_tabs_answering_one_card_apply_their_reviews_in_answer_time_order(monkeypatch):
    deck = make_deck()
    card = make_card(deck=deck, question="Which resource runs a task on a schedule?", answer="CronJob")
    student = make_user("sam")
    first, second = (services.session_start(user=student, deck=deck, size=1, mode="recall", order="new") for _ in "ab")
    clock = _StallingClock(stall="tab-a")
    monkeypatch.setattr(services, "timezone", clock)

    # Tab A reads the clock, then stalls; tab B reads a later time and runs to the end, or until it
    # waits for tab A's lock. Only then does tab A go on.
    tab_a = Background(lambda: _answer(student, first), name="tab-a")
    assert clock.stalled.wait(10)
    tab_b = Background(lambda: _answer(student, second), name="tab-b")
    wait_until(lambda: not tab_b.running or lock_waiters() == 1, what="tab B to finish or wait")
    clock.go.set()
    tab_a.join()
    tab_b.join()

    answers = list(Answer.objects.filter(user=student, card=card).order_by("answered_at", "pk"))
    assert [a.pk for a in answers] == sorted(a.pk for a in answers)  # applied (inserted) in answered_at order
    stored = CardState.objects.get(user=student, card=card)
    replayed = CardState(user=student, card=card, deck=deck, due=stored.due)
    scheduling.replay(replayed, [(a.rating, a.answered_at) for a in answers])
    assert [getattr(stored, f) for f in STATE_FIELDS] == [getattr(replayed, f) for f in STATE_FIELDS]


def test_rerendering_every_card_does_not_hold_up_an_answer():
    """rerender_content locks each row it rewrites (NO KEY UPDATE): an answer, whose row refers to the card and
    its version, goes on meanwhile instead of waiting for the whole run (a minute on a large site)."""
    from apps.content.services import content_rerender

    student = make_user("alice")
    deck = make_deck()
    make_card(deck=deck, question="What runs a one-off batch job?", answer="Job")
    quiz = services.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    with holding(content_rerender):
        answering = Background(lambda: _answer(student, quiz, response="Job"))
        assert answering.finished_within(5), "the answer waited for the rerender's locks"
    answer, _ = answering.join()
    assert answer.final_verdict == "correct"


def test_a_card_set_aside_while_an_answer_to_it_is_in_flight_stays_set_aside():
    """The answer reads the card's memory state, then saves it whole after its totals: setting the card aside in
    between must not be undone by that save (the student would find the card back in their reviews)."""
    from apps.quiz import memory

    deck = make_deck()
    card = make_card(deck=deck, question="Which resource runs a task on a schedule?", answer="CronJob")
    student = make_user("sam")
    _answer(student, services.session_start(user=student, deck=deck, size=1, mode="recall", order="new"))
    quiz = services.session_start(user=student, deck=deck, size=1, mode="recall", order="new")

    # Holding the running totals stops the answer after it read the card's state, before it saves it.
    with holding(_lock_table("quiz_studentcardstat", "SHARE")):
        answer = Background(lambda: _answer(student, quiz))
        wait_until(lambda: lock_waiters() == 1, what="the answer to wait for the totals")
        aside = Background(lambda: memory.card_set_aside(user=student, card_id=card.pk, aside=True))
        wait_until(lambda: not aside.running or lock_waiters() == 2, what="setting aside to finish or wait")
    answer.join()
    aside.join()

    state = CardState.objects.get(user=student, card=card)
    assert state.set_aside_at is not None and state.reps == 2


def test_a_regrade_waits_for_an_answer_in_flight_to_the_card_and_regrades_it_too(instructor):
    """An answer read its question before the card was corrected, and commits while the regrade runs: the regrade
    must count it, or it stays graded against the mistake, its student unlocked while their schedule is rebuilt."""
    from apps.content.services import card_save
    from apps.quiz.regrade import answers_regrade

    deck = make_deck()
    card = make_card(deck=deck, question="Which object runs Jobs on a schedule?", answer="Deployment",
                     short_answer="Deployment")  # fmt: skip
    sam, ann = make_user("sam"), make_user("ann")
    _answer(sam, services.session_start(user=sam, deck=deck, size=1, mode="recall", order="new"))
    quiz = services.session_start(user=ann, deck=deck, size=1, mode="recall", order="new")
    stale = services.item_for_answer(user=ann, session_id=quiz.pk, position=1)  # read before the correction
    card.answer = card.short_answer = "CronJob"
    card_save(card=card, author=instructor, note="The answer was wrong")

    # Holding the running totals stops ann's answer after its row is written, before it commits.
    with holding(_lock_table("quiz_studentcardstat", "SHARE")):
        answer = Background(
            lambda: services.answer_record(user=ann, item=stale, submission=services.Submission(response="CronJob"))
        )
        wait_until(lambda: lock_waiters() == 1, what="the answer to wait for the totals")
        regrade = Background(lambda: answers_regrade(card=Card.objects.get(pk=card.pk), apply=True))
        wait_until(lambda: lock_waiters() == 2, what="the regrade to wait")
    stored, _created = answer.join()
    report = regrade.join()

    assert stored.final_verdict == "incorrect"  # graded against the card it had read
    assert sorted(row.answer.user.username for row in report.changed) == ["ann", "sam"]
    assert Answer.objects.get(pk=stored.pk).final_verdict == "correct"
