"""The database itself refuses rows that break single-row rules, whatever code writes them."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from apps.quiz import services
from apps.quiz.models import Answer
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def answer(student):
    deck = make_deck()
    for i in range(3):
        make_card(deck=deck, answer=f"Answer {i}")
    session = services.session_start(user=student, deck=deck, size=3, mode="recall", order="new")
    answer, _ = services.answer_submit(
        user=student, session_id=session.pk, position=1, submission=services.Submission(response="Answer 0")
    )
    return answer


@pytest.mark.parametrize(
    "changes",
    [
        {"final_score": 1.5},
        {"auto_score": -0.1},
        {"rating": 5},
        {"override_verdict": "correct", "final_verdict": "incorrect"},
    ],
)
def test_out_of_range_or_inconsistent_answers_are_refused(answer, changes):
    with pytest.raises(IntegrityError), transaction.atomic():
        Answer.objects.filter(pk=answer.pk).update(**changes)


def test_a_second_answer_for_the_same_session_and_card_is_refused(answer):
    other_item = answer.session.items.exclude(pk=answer.item_id).first()
    duplicate = Answer(
        session=answer.session, item=other_item, card=answer.card, user=answer.user, mode="recall",
        auto_verdict="correct", auto_score=1, final_verdict="correct", final_score=1, rating=3,
    )  # fmt: skip
    with pytest.raises(IntegrityError), transaction.atomic():
        duplicate.save()
