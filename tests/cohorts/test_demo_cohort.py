"""`make run`'s demo cohort: the demo student's earlier answers count in its item statistics."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from apps.cohorts.analytics import cohort_items
from apps.cohorts.models import Cohort
from apps.quiz import services as quiz
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def test_the_demo_student_s_earlier_answers_count_in_the_demo_cohort(settings):
    settings.DEBUG = True
    call_command("create_demo_accounts", verbosity=0)
    from django.contrib.auth import get_user_model

    student = get_user_model().objects.get(username="student")
    deck = make_deck()
    make_card(deck=deck, answer="Job")
    session = quiz.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    quiz.answer_submit(user=student, session_id=session.pk, position=1, submission=quiz.Submission(response="Job"))

    call_command("create_demo_cohort", verbosity=0)
    call_command("create_demo_cohort", verbosity=0)  # run again by a second `make run`: nothing doubles

    cohort = Cohort.objects.get(instructors__username="instructor")
    rows, _ = cohort_items(cohort=cohort)
    answered = [row for row in rows if row.attempts]
    assert [(row.attempts, row.students) for row in answered] == [(1, 1)]
