"""The cohort running totals behind item statistics always equal a recomputation from the raw answers."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from apps.cohorts import services as cohorts
from apps.cohorts.aggregates import cohort_stats_rebuild
from apps.cohorts.models import CohortResponseStat
from apps.content.models import Distractor
from apps.content.services import card_save
from apps.quiz import services as quiz
from apps.quiz import shown
from tests.cohorts.choices import choose
from tests.cohorts.totals import rebuilt_snapshot, snapshot
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck
from tests.locks import waited_for_student_lock

pytestmark = pytest.mark.django_db


def _play(rng, student, deck) -> None:
    session = quiz.session_start(user=student, deck=deck, size=4, mode="mixed", order="random")
    for item in session.items.all():
        if item.mode == "choice":
            submission = quiz.Submission(option=rng.randrange(4))
        else:
            response = rng.choice([item.card.answer, "CronJob", "no idea", " cronjob! "])
            submission = quiz.Submission(response=response, reveal=rng.random() < 0.2)
        quiz.answer_submit(user=student, session_id=session.pk, position=item.position, submission=submission)
        checked = not submission.reveal
        if submission.reveal and rng.random() < 0.7:  # checked after all: now among the wrong answers, or not
            shown.answer_check_typed(user=student, session_id=session.pk, position=item.position)
            checked = True
        if item.mode == "recall" and checked and rng.random() < 0.4:
            verdict = rng.choice(["correct", "incorrect", ""])
            quiz.answer_override(user=student, session_id=session.pk, position=item.position, verdict=verdict)


def test_incremental_cohort_totals_equal_a_recomputation():
    rng = random.Random(11)
    deck = make_deck()
    for i in range(6):
        make_card(deck=deck, question=f"Which resource {i}?", answer=f"Resource {i}")
    teacher = make_instructor("carol")
    first = cohorts.cohort_create(name="First", instructor=teacher)
    second = cohorts.cohort_create(name="Second", instructor=teacher)
    students = [make_user(f"s{i}") for i in range(4)]
    _play(rng, students[0], deck)  # history from before joining any cohort
    for student in students[:3]:
        cohorts.cohort_join(student=student, code=first.join_code)
    cohorts.cohort_join(student=students[1], code=second.join_code)
    for _round in range(3):
        for student in students:
            _play(rng, student, deck)
    cohorts.cohort_remove_student(cohort=first, student_id=students[2].pk)
    _play(rng, students[2], deck)  # answers after removal do not count in First
    cohorts.cohort_join(student=students[3], code=first.join_code)
    cohorts.cohort_remove_student(cohort=second, student_id=students[1].pk)
    cohorts.cohort_join(student=students[1], code=second.join_code)  # re-joining brings the history back
    _play(rng, students[1], deck)

    incremental = snapshot()
    assert {cohort for cohort, _ in incremental[0]} == {first.pk, second.pk}
    assert any(key[3] == "cronjob" for key in incremental[1])
    # An option chosen keeps the HTML it was shown as; a typed answer has none.
    assert all(bool(s.sample_html) == (s.mode == "choice") for s in CohortResponseStat.objects.all())
    cohort_stats_rebuild()
    assert snapshot() == incremental
    assert all(bool(s.sample_html) == (s.mode == "choice") for s in CohortResponseStat.objects.all())


def test_a_wrong_option_keeps_the_html_it_was_shown_as_through_an_edit_a_join_and_a_rebuild():
    """The statistics show what the students saw, not the distractor as an instructor rewrote it since."""
    deck = make_deck()
    card = make_card(deck=deck, question="Which norm?", answer="The max norm")
    for i in range(4):
        make_card(deck=deck, question=f"Other {i}?", answer=f"Norm {i}")
    old, new = r"$\lVert x \rVert_1$", r"$\lVert x \rVert_2$"
    card_save(card=card, distractors=[old])
    shown_old = Distractor.objects.get(card=card).text_html
    teacher = make_instructor("carol")
    first, second = (cohorts.cohort_create(name=name, instructor=teacher) for name in ("First", "Second"))
    ann, bob, cat = (make_user(name) for name in ("ann", "bob", "cat"))
    for student in (ann, cat):
        cohorts.cohort_join(student=student, code=first.join_code)
    choose(ann, deck=deck, card=card, text=old)  # counted as it is recorded
    choose(bob, deck=deck, card=card, text=old)  # counted when bob joins
    card_save(card=card, distractors=[new])
    shown_new = Distractor.objects.get(card=card).text_html
    assert shown_new != shown_old and 'class="katex"' in shown_old
    choose(cat, deck=deck, card=card, text=new)
    for cohort in (first, second):
        cohorts.cohort_join(student=bob, code=cohort.join_code)

    def shown() -> dict:
        stats = CohortResponseStat.objects.filter(mode="choice")
        return {(s.cohort_id, s.sample, s.count): s.sample_html for s in stats}

    expected = {(first.pk, old, 2): shown_old, (first.pk, new, 1): shown_new, (second.pk, old, 1): shown_old}
    assert shown() == expected
    cohort_stats_rebuild()
    assert shown() == expected


@pytest.mark.django_db(transaction=True)
def test_joining_and_leaving_wait_for_the_students_answer_in_flight():
    """Else an answer committed mid-join could be counted twice (or an answer mid-removal kept)."""
    cohort = cohorts.cohort_create(name="First", instructor=make_instructor("carol"))
    student = make_user("sam")

    assert waited_for_student_lock(student.pk, lambda: cohorts.cohort_join(student=student, code=cohort.join_code))
    assert waited_for_student_lock(
        student.pk, lambda: cohorts.cohort_remove_student(cohort=cohort, student_id=student.pk)
    )
    assert cohort.memberships.get().removed_at is not None


@pytest.mark.parametrize("how", ["delete page", "delete selected action"])
def test_deleting_students_in_the_admin_takes_their_answers_out_of_the_cohort_totals(client, superuser, how):
    """Memberships and the student's own totals cascade away with the account; the cohorts' totals must follow."""
    rng = random.Random(5)
    deck = make_deck()
    for i in range(4):
        make_card(deck=deck, question=f"Which resource {i}?", answer=f"Resource {i}")
    teacher = make_instructor("carol")
    first = cohorts.cohort_create(name="First", instructor=teacher)
    second = cohorts.cohort_create(name="Second", instructor=teacher)
    sam, ann, stays = make_user("sam"), make_user("ann"), make_user("stays")
    for student in (sam, ann, stays):
        cohorts.cohort_join(student=student, code=first.join_code)
        _play(rng, student, deck)
    cohorts.cohort_join(student=sam, code=second.join_code)
    cohorts.cohort_join(student=ann, code=second.join_code)
    cohorts.cohort_remove_student(cohort=second, student_id=ann.pk)  # out of Second already: nothing to take twice
    _play(rng, sam, deck)
    _play(rng, ann, deck)
    assert snapshot() == rebuilt_snapshot()

    client.force_login(superuser)
    if how == "delete page":
        gone = [sam]
        response = client.post(reverse("admin:auth_user_delete", args=[sam.pk]), {"post": "yes"})
    else:
        gone = [sam, ann]
        data = {"action": "delete_selected", "_selected_action": [sam.pk, ann.pk], "post": "yes"}
        response = client.post(reverse("admin:auth_user_changelist"), data)
    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk__in=[user.pk for user in gone]).exists()

    incremental = snapshot()
    assert incremental == rebuilt_snapshot()
    # Second had only sam left; First keeps the others' answers.
    assert {cohort for cohort, _card in incremental[0]} == {first.pk}
