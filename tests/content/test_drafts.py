"""Unpublished (draft) decks: out of students' sight, in their authors'."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.cohorts import services as cohorts
from apps.cohorts.models import Assignment
from apps.quiz import services
from apps.quiz.forms import question_token
from apps.quiz.models import QuizSession
from tests.conftest import make_instructor
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft():
    deck = make_deck(title="Linear Algebra for ML", published=False)
    make_card(deck=deck, question="What is a rank?", answer="The dimension of the column space")
    return deck


def test_students_and_visitors_do_not_see_a_draft(client, student, draft):
    card = draft.cards.get()
    for signed_in in (False, True):
        if signed_in:
            client.force_login(student)
        assert "Linear Algebra for ML" not in client.get(reverse("content:home")).content.decode()
        assert client.get(draft.get_absolute_url()).status_code == 404
        assert client.get(reverse("content:card", args=[draft.slug, card.pk])).status_code == 404
    assert client.get(reverse("quiz:start", args=[draft.slug])).status_code == 404
    assert (
        client.post(reverse("quiz:start", args=[draft.slug]), {"size": 5, "mode": "recall", "order": "new"}).status_code
        == 404
    )
    assert not QuizSession.objects.exists()


def test_authors_see_a_draft_marked_as_one_and_may_try_it(client, draft):
    client.force_login(make_instructor("carol"))
    home = client.get(reverse("content:home")).content.decode()
    assert "Linear Algebra for ML" in home and "Draft" in home and "Hidden from students" in home
    assert client.get(draft.get_absolute_url()).status_code == 200
    assert client.get(reverse("quiz:start", args=[draft.slug])).status_code == 200


def test_a_deck_hidden_after_study_leaves_the_students_reviews(student, draft):
    draft.published = True
    draft.save()
    session = services.session_start(user=student, deck=draft, size=1, mode="recall", order="new")
    services.answer_submit(
        user=student, session_id=session.pk, position=1, submission=services.Submission(response="no idea")
    )
    later = timezone.now() + timedelta(days=30)
    assert (
        services.session_start(user=student, deck=None, size=5, mode="recall", order="due", now=later).item_count == 1
    )
    draft.published = False
    draft.save()
    with pytest.raises(services.NothingToStudyError):
        services.session_start(user=student, deck=None, size=5, mode="recall", order="due", now=later)


def test_an_empty_deck_offers_no_quiz(client):
    empty = make_deck(title="Coming soon")
    assert "Start a quiz" not in client.get(empty.get_absolute_url()).content.decode()
    assert "No cards yet." in client.get(empty.get_absolute_url()).content.decode()


def test_a_deck_made_a_draft_after_study_leaves_no_trace_for_the_student(client, student, draft):
    """Once a 500 on My progress (its running totals named a deck the page no longer listed)."""
    draft.published = True
    draft.save()
    teacher = make_instructor("carol")
    cohort = cohorts.cohort_create(name="Spring", instructor=teacher)
    Assignment.objects.create(cohort=cohort, deck=draft)
    cohorts.cohort_join(student=student, code=cohort.join_code)
    session = services.session_start(user=student, deck=draft, size=1, mode="recall", order="new")
    draft.published = False
    draft.save()

    client.force_login(student)
    progress = client.get(reverse("quiz:progress"))
    assert progress.status_code == 200
    assert "Linear Algebra for ML" not in progress.content.decode()  # nor its quiz under "Recent quizzes"
    assert client.get(session.get_absolute_url()).status_code == 404
    item = session.items.get()
    url = reverse("quiz:item", args=[session.pk, 1])
    assert client.post(url, {"token": question_token(item), "response": "rank"}).status_code == 404
    assert "0 decks assigned" in client.get(reverse("cohorts:list")).content.decode()

    client.force_login(teacher)
    dashboard = client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode()
    assert "Linear Algebra for ML" in dashboard and "Draft" in dashboard  # the instructor is told why
    assert client.get(reverse("cohorts:manage", args=[cohort.pk])).content.decode().count("hidden from students") == 1


def test_a_students_pages_ask_no_permission_query_for_drafts(client, student, draft):
    client.force_login(student)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("content:home")).status_code == 200
    assert not [q for q in queries.captured_queries if "auth_permission" in q["sql"]]
