"""Math is typeset when content is saved: no page a student visits runs KaTeX, so none fails without it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.content import katex
from apps.quiz.forms import question_token
from apps.quiz.models import QuizSession
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def math_deck():
    deck = make_deck(title="Losses", description="About $\\ell_2$")
    for i in range(4):
        make_card(deck=deck, question=f"Loss {i} for $y_{i}$?", answer=f"$$\\sum_j (y_{i} - \\hat y_j)^2$$")
    return deck


def test_browsing_and_taking_a_quiz_never_render_math(student_client, student, math_deck, monkeypatch):
    monkeypatch.setenv("NODE_BINARY", "/nonexistent/node")
    katex._worker._stop()
    try:
        with pytest.raises(katex.KatexUnavailableError):
            katex.render_tex("x")  # from here on, any render on a request would fail it
        card = math_deck.cards.first()
        for url in (reverse("content:home"), math_deck.get_absolute_url(), card.get_absolute_url()):
            page = student_client.get(url)
            assert page.status_code == 200 and 'class="katex"' in page.content.decode(), url
        started = student_client.post(
            reverse("quiz:start", args=[math_deck.slug]), {"size": 2, "mode": "recall", "order": "new"}
        )
        session = QuizSession.objects.get(user=student)
        assert started["Location"] == session.get_absolute_url()
        question = student_client.get(session.get_absolute_url()).content.decode()
        assert 'class="katex"' in question
        item = session.items.get(position=1)
        answered = student_client.post(
            reverse("quiz:item", args=[session.pk, 1]), {"token": question_token(item), "response": "the sum"}
        )
        feedback = student_client.get(answered["Location"]).content.decode()
        assert 'class="katex-display"' in feedback  # the model answer, typeset
        assert student_client.get(reverse("quiz:progress")).status_code == 200
    finally:
        monkeypatch.undo()
        katex._worker._stop()
