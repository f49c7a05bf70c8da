"""The fuzzing world (tests/security/fuzzing.py): every persona signed in on a client of its own, two decks with an
assignment each in two cohorts, and quizzes partly answered, checked consistent before the first example.
"""

from __future__ import annotations

import pytest
from django.test import Client

from apps.cohorts import deadlines
from apps.cohorts import services as cohorts
from apps.quiz import services as quiz
from tests.conftest import make_instructor
from tests.security.fuzzing import World, _answer_some, _deck, check_consistency


@pytest.fixture
def world(student, other_student, instructor, superuser) -> World:
    users = {
        "anonymous": None,
        "student": student,
        "other_student": other_student,
        "instructor": instructor,
        "other_instructor": make_instructor("dave"),
        "superuser": superuser,
    }
    deck, other_deck = _deck("containers", "Containers"), _deck("training", "Training")
    cohort = cohorts.cohort_create(name="Spring", instructor=instructor)
    other_cohort = cohorts.cohort_create(name="Autumn", instructor=users["other_instructor"])
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    deadlines.assignment_set(cohort=other_cohort, deck=other_deck, due_date=None)
    cohorts.cohort_join(student=student, code=cohort.join_code)
    cohorts.cohort_join(student=other_student, code=other_cohort.join_code)
    session = quiz.session_start(user=student, deck=deck, size=5, mode="mixed", order="new")
    _answer_some(student, session, 3)
    recall = quiz.session_start(user=student, deck=other_deck, size=2, mode="recall", order="new")
    _answer_some(student, recall, 1)
    quiz.answer_override(user=student, session_id=recall.pk, position=1, verdict="incorrect")
    _answer_some(
        other_student, quiz.session_start(user=other_student, deck=other_deck, size=3, mode="mixed", order="new"), 2
    )
    clients = {}
    for persona, user in users.items():
        clients[persona] = Client()
        if user is not None:
            clients[persona].force_login(user)
    check_consistency()
    return World(users, clients, deck, other_deck, cohort, other_cohort, session)
