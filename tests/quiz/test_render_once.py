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


def test_browsing_and_taking_a_quiz_never_render_math(student_client, student, math_deck, katex_down):
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


def test_archiving_and_restoring_cards_need_no_renderer(client, instructor, math_deck, katex_down):
    # Only a change to a Markdown source runs KaTeX; a flag or a position does not.
    cards = list(math_deck.cards.order_by("pk")[:2])
    client.force_login(instructor)
    changelist = reverse("admin:content_card_changelist")
    selected = [card.pk for card in cards]
    response = client.post(changelist, {"action": "archive", "_selected_action": selected}, follow=True)
    assert "2 cards archived." in response.content.decode()
    assert list(math_deck.cards.filter(archived=True).order_by("pk")) == cards
    client.post(changelist, {"action": "restore", "_selected_action": selected})
    assert not math_deck.cards.filter(archived=True).exists()
    assert all('class="katex"' in card.question_html for card in math_deck.cards.all())
