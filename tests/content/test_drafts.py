"""Unpublished (draft) decks: out of students' sight, in their authors'."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.quiz import services
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
