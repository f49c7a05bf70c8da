"""A deck page's cards as they stand with the signed-in student: new, due, learning or mastered (deck_standing)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.quiz import services
from apps.quiz.models import CardState
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _deck(cards: int):
    deck = make_deck()
    for n in range(cards):
        make_card(deck=deck, question=f"Serving question {n}?", answer=f"Answer {n}")
    return deck


def _answer_all(user, deck) -> None:
    session = services.session_start(user=user, deck=deck, size=deck.cards.count(), mode="recall", order="new")
    for item in session.items.all():
        services.answer_submit(
            user=user, session_id=session.pk, position=item.position, submission=services.Submission(response="x")
        )


def _standings(client, deck) -> list[str]:
    html = client.get(deck.get_absolute_url()).content.decode()
    return [" ".join(re.sub(r"<[^>]+>", " ", line).split()) for line in re.findall(r'card-standing">(.*?)</p>', html)]


def test_each_card_says_whether_it_is_new_due_learning_or_mastered_for_this_student(
    student_client, student, other_student
):
    deck = _deck(4)
    _answer_all(other_student, deck)  # another student's answers are not this one's
    assert _standings(student_client, deck) == ["New"] * 4
    cards = list(deck.cards.order_by("position"))
    _answer_all(student, _deck(1))  # nothing of another deck's
    session = services.session_start(user=student, deck=deck, size=3, mode="recall", order="new")
    for item in session.items.all():
        services.answer_submit(
            user=student, session_id=session.pk, position=item.position, submission=services.Submission(response="x")
        )
    now = timezone.now()
    answered = [card for card in cards if CardState.objects.filter(user=student, card=card).exists()]
    CardState.objects.filter(user=student, card=answered[0]).update(due=now - timedelta(minutes=5))
    CardState.objects.filter(user=student, card=answered[1]).update(
        due=now + timedelta(days=3, hours=1, minutes=5),
        state=CardState.State.REVIEW,
        mastered_until=now + timedelta(days=2),
    )
    CardState.objects.filter(user=student, card=answered[2]).update(
        due=now + timedelta(days=1, hours=1, minutes=5), state=CardState.State.LEARNING, mastered_until=None
    )
    by_card = dict(zip([card.pk for card in cards], _standings(student_client, deck), strict=True))
    assert by_card[answered[0].pk] == "Due now"
    assert by_card[answered[1].pk] == "Mastered Back in 3 days, 1 hour"
    assert by_card[answered[2].pk] == "Learning Back in 1 day, 1 hour"
    assert list(by_card.values()).count("New") == 1
    html = student_client.get(deck.get_absolute_url()).content.decode()
    assert f'href="{deck.get_absolute_url()}quiz/?order=due">Review the due card</a>' in html


def test_strangers_see_the_cards_without_any_standing_or_review_button(client, student):
    deck = _deck(2)
    _answer_all(student, deck)
    CardState.objects.update(due=timezone.now() - timedelta(hours=1))
    assert _standings(client, deck) == []
    assert "Review the" not in client.get(deck.get_absolute_url()).content.decode()


def test_the_standing_costs_one_query_whatever_the_number_of_cards(student_client, student):
    counts = []
    for size in (2, 6):
        deck = _deck(size)
        _answer_all(student, deck)
        with CaptureQueriesContext(connection) as queries:
            student_client.get(deck.get_absolute_url())
        counts.append(len(queries))
    assert counts[0] == counts[1]
