"""What the student's pages say in the small cases: one day of study, one due card, a quiz ended with nothing
answered, a retry in the lists, and which page of the header they are on."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.quiz import services
from apps.quiz.retries import session_retry
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck():
    deck = make_deck(title="Serving")
    for n in range(3):
        make_card(deck=deck, question=f"Which object runs job {n}?", answer=f"Job {n}")
    return deck


def _quiz(student, deck, *responses: str, size: int = 0):
    quiz = services.session_start(user=student, deck=deck, size=size or len(responses), mode="recall", order="new")
    for position, response in enumerate(responses, start=1):
        services.answer_submit(
            user=student, session_id=quiz.pk, position=position, submission=services.Submission(response=response)
        )
    return quiz


def test_one_day_of_study_is_not_called_a_day_in_a_row(student_client, student, deck):
    _quiz(student, deck, "Job 0")
    html = student_client.get(reverse("quiz:progress")).content.decode()
    assert "<strong>You studied today.</strong>" in html and "in a row" not in html


def test_a_quiz_ended_with_nothing_answered_does_not_speak_of_answers_kept(student_client, student, deck):
    quiz = _quiz(student, deck, size=3)
    page = student_client.get(reverse("quiz:finish", args=[quiz.pk])).content.decode()
    assert "3 of 3 questions unanswered." in page and "Your answers so far are kept" not in page
    quiz = _quiz(student, deck, "Job 0", size=3)
    page = student_client.get(reverse("quiz:finish", args=[quiz.pk])).content.decode()
    assert "2 of 3 questions unanswered." in page and "Your answers so far are kept." in page


def test_a_retry_is_marked_in_the_lists_of_quizzes(student_client, student, deck):
    quiz = _quiz(student, deck, "no idea", "Job 1", "Job 2")
    session_retry(user=student, session=quiz)
    html = " ".join(student_client.get(reverse("quiz:history")).content.decode().split())
    assert len(re.findall(r'<span class="meta">The questions missed · Free recall</span>', html)) == 1
    assert len(re.findall(r'<span class="meta">Free recall</span>', html)) == 1


@pytest.mark.parametrize("page", ["quiz:progress", "quiz:history", "quiz:set_aside_list"])
def test_the_header_marks_my_progress_on_its_pages(student_client, page):
    html = student_client.get(reverse(page)).content.decode()
    assert f'<a href="{reverse("quiz:progress")}" aria-current="page">My progress</a>' in html


def test_the_header_marks_nothing_of_my_progress_elsewhere(student_client):
    html = student_client.get(reverse("quiz:review")).content.decode()
    assert f'<a href="{reverse("quiz:progress")}">My progress</a>' in html


def test_a_deck_showing_its_answers_opens_its_cards_with_their_answers_shown(client, deck):
    card = deck.cards.first()
    shown = client.get(deck.get_absolute_url(), {"answers": "shown"}).content.decode()
    assert f'href="{card.get_absolute_url()}?answers=shown"' in shown
    hidden = client.get(deck.get_absolute_url()).content.decode()
    assert f'href="{card.get_absolute_url()}"' in hidden and '?answers=shown" class' not in hidden
