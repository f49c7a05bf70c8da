"""Cohort pages and totals when other connections write at the same moment: real threads, real transactions.

The windows are held open deterministically: by a hook on the page's own queries, or by a third
connection holding a lock until PostgreSQL reports the statement under test waiting for it.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from apps.cohorts import services as cohorts
from apps.cohorts.models import Assignment
from apps.quiz import services as quiz
from tests.cohorts.totals import rebuilt_snapshot, snapshot
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck
from tests.locks import Background, waited_for_student_lock

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("page", ["cohorts:dashboard", "cohorts:export_matrix"])
def test_a_student_joining_while_the_matrix_is_read_is_left_for_the_next_load(page):
    """The matrix reads its students once: a join committed between its queries is not half in the page."""
    deck = make_deck()
    make_card(deck=deck, question="Q?", answer="CronJob")
    teacher = make_instructor("carol")
    cohort = cohorts.cohort_create(name="Spring", instructor=teacher)
    Assignment.objects.create(cohort=cohort, deck=deck)
    cohorts.cohort_join(student=make_user("early_ann"), code=cohort.join_code)
    sam = make_user("late_sam")  # with an answer, so the deck totals have a row for the newcomer
    session = quiz.session_start(user=sam, deck=deck, size=1, mode="recall", order="new")
    quiz.answer_submit(user=sam, session_id=session.pk, position=1, submission=quiz.Submission(response="CronJob"))

    joined = []

    def join_after_the_students_are_read(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not joined and "cohorts_membership" in sql and '"auth_user"."username"' in sql:
            Background(lambda: cohorts.cohort_join(student=sam, code=cohort.join_code)).join()  # committed
            joined.append(sql)
        return result

    client = Client(raise_request_exception=False)
    client.force_login(teacher)
    with connection.execute_wrapper(join_after_the_students_are_read):
        response = client.get(reverse(page, args=[cohort.pk]))
    assert joined, "the hook did not fire: the matrix's query changed"
    assert response.status_code == 200
    assert "early_ann" in response.text and "late_sam" not in response.text
    assert "late_sam" in client.get(reverse(page, args=[cohort.pk])).text  # the next load shows the newcomer


def test_deleting_a_student_waits_for_their_answer_in_flight_before_taking_it_out_of_the_totals():
    """Else an answer committed while the account is deleted could stay in a cohort's totals."""
    deck = make_deck()
    make_card(deck=deck, question="Q?", answer="CronJob")
    cohort = cohorts.cohort_create(name="Spring", instructor=make_instructor("carol"))
    sam = make_user("sam")
    cohorts.cohort_join(student=sam, code=cohort.join_code)
    session = quiz.session_start(user=sam, deck=deck, size=1, mode="recall", order="new")
    quiz.answer_submit(user=sam, session_id=session.pk, position=1, submission=quiz.Submission(response="Job"))

    assert waited_for_student_lock(sam.pk, lambda: get_user_model().objects.get(pk=sam.pk).delete())
    assert not get_user_model().objects.filter(pk=sam.pk).exists()
    assert snapshot() == rebuilt_snapshot() == ({}, {})
