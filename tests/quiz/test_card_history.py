"""A card's page tells a signed-in student their own answers to it and when it comes back (selectors.card_history)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.quiz import services
from apps.quiz.models import CardState
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def card():
    return make_card(deck=make_deck(title="Serving"), question="What runs a batch job once?", answer="Job")


def _answer(user, card, response: str):
    session = services.session_start(user=user, deck=card.deck, size=1, mode="recall", order="random")
    services.answer_submit(
        user=user, session_id=session.pk, position=1, submission=services.Submission(response=response)
    )
    return session


def _history(client, card) -> str:
    html = client.get(card.get_absolute_url()).content.decode()
    start = html.find('<section class="card-history"')
    return "" if start < 0 else html[start : html.index("</section>", start)]


def test_a_visitor_sees_no_history_and_a_new_student_is_offered_a_quiz(client, student, card):
    assert _history(client, card) == ""
    client.force_login(student)
    history = _history(client, card)
    assert "You have not answered this card yet" in history
    assert f'href="/decks/{card.deck.slug}/quiz/"' in history


def test_a_student_sees_their_own_answers_latest_first_and_when_the_card_comes_back(
    client, student, other_student, card
):
    first = _answer(student, card, "Job")
    second = _answer(student, card, "no idea")
    _answer(other_student, card, "CronJob")
    client.force_login(student)
    history = _history(client, card)
    assert "2 answers · comes back for review in" in history
    assert history.index("Incorrect") < history.index("Correct</span>")  # the latest first
    assert f'href="/quiz/{second.pk}/q/1/"' in history and f'href="/quiz/{first.pk}/q/1/"' in history
    assert history.count("<li>") == 2  # not bob's


def test_a_due_card_says_so_with_the_way_to_review_it_and_corrections_are_marked(client, student, card):
    session = _answer(student, card, "no idea")
    services.answer_override(user=student, session_id=session.pk, position=1, verdict="correct")
    CardState.objects.filter(user=student, card=card).update(due=timezone.now() - timedelta(hours=1))
    client.force_login(student)
    history = _history(client, card)
    assert "due for review now" in history and 'href="/quiz/review/"' in history
    assert "(your correction)" in history and ">Correct</span>" in history


def test_the_latest_five_are_listed_of_more_in_the_same_queries_whatever_their_number(client, student, card):
    _answer(student, card, "Job")
    client.force_login(student)
    with CaptureQueriesContext(connection) as one:
        client.get(card.get_absolute_url())
    for _ in range(6):
        _answer(student, card, "Job")
    with CaptureQueriesContext(connection) as seven:
        history = _history(client, card)
    assert len(seven) == len(one)
    assert history.count("<li>") == 5 and "The latest 5 of 7." in history


def test_an_archived_card_is_not_said_to_be_due_for_a_review_that_skips_it(client, student, card):
    _answer(student, card, "no idea")
    CardState.objects.filter(user=student, card=card).update(due=timezone.now() - timedelta(days=1))
    card.archived = True
    card.save(update_fields=["archived"])
    client.force_login(student)
    history = _history(client, card)
    assert "1 answer · archived: it comes back for review no more" in history
    assert "due for review now" not in history and "review due cards" not in history
