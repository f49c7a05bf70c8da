"""Query counts of the quiz pages: starting a quiz, showing a question and submitting an answer, the progress page and
the results page take a constant number of queries whatever the size of the history.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.quiz import services
from apps.quiz.forms import question_token
from apps.quiz.models import CardState, QuizSession
from tests.quiz.views_support import _deck

pytestmark = pytest.mark.django_db


def _history(user, deck, sessions: int):
    for _ in range(sessions):
        quiz = services.session_start(user=user, deck=deck, size=deck.cards.count(), mode="recall", order="random")
        for item in quiz.items.all():
            services.answer_submit(
                user=user, session_id=quiz.pk, position=item.position, submission=services.Submission(response="x")
            )


def test_starting_a_quiz_takes_as_many_queries_for_three_questions_as_for_eight(student):
    deck = _deck(8)
    counts = []
    for size in (3, 8):
        with CaptureQueriesContext(connection) as queries:
            services.session_start(user=student, deck=deck, size=size, mode="mixed", order="new")
        counts.append(len(queries))
    assert counts[0] == counts[1], counts  # each card's options read its question: not a query per card


@pytest.mark.parametrize("scale", [1, 5])
def test_question_and_submit_use_a_constant_number_of_queries(
    student_client, student, django_assert_num_queries, scale, htmx
):
    deck = _deck(4 * scale)
    _history(student, deck, scale)
    session = services.session_start(user=student, deck=deck, size=3, mode="recall", order="new")
    with django_assert_num_queries(4):
        student_client.get(session.get_absolute_url())
    item = session.items.get(position=1)
    with django_assert_num_queries(13):
        student_client.post(
            reverse("quiz:item", args=[session.pk, 1]), {"token": question_token(item), "response": "x"}, **htmx
        )
    with django_assert_num_queries(4):  # "Next question": the HTMX GET that shows the next one
        next_question = student_client.get(session.get_absolute_url(), **htmx)
    assert 'data-state="question"' in next_question.content.decode()
    item = session.items.get(position=2)
    with django_assert_num_queries(13):  # without JavaScript: the POST that redirects to the feedback
        response = student_client.post(
            reverse("quiz:item", args=[session.pk, 2]), {"token": question_token(item), "response": "x"}
        )
    assert response.status_code == 303


@pytest.mark.parametrize("scale", [1, 5])
def test_progress_uses_a_constant_number_of_queries(student_client, student, django_assert_num_queries, scale):
    for _ in range(scale):
        _history(student, _deck(3), 1)
    with django_assert_num_queries(10):  # "Coming up" is one of them
        student_client.get(reverse("quiz:progress"))


@pytest.mark.parametrize("scale", [1, 5])
def test_the_results_page_uses_a_constant_number_of_queries(student_client, student, django_assert_num_queries, scale):
    deck = _deck(4 * scale)
    _history(student, deck, scale)
    session = QuizSession.objects.filter(user=student).latest("pk")
    CardState.objects.filter(user=student).update(due=timezone.now() - timedelta(minutes=1))
    # How many are due and when the next comes back is one; which missed cards were set aside since, another; the
    # deck's open quiz a retry would end, one more.
    with django_assert_num_queries(7):
        student_client.get(session.get_absolute_url())
