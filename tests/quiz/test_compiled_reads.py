"""The quiz's hot reads, compiled once (apps.common.compiled), give what their querysets give through the ORM: the
question a visit resumes at and the question an answer is for, with every related row and annotation."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.content.services import card_save
from apps.quiz import selectors, services
from apps.quiz.models import CardState
from tests.common.test_compiled import fields_of
from tests.quiz.withdrawal_support import _answer

pytestmark = pytest.mark.django_db


def loaded(item) -> dict:
    """The item's fields and annotations, and those of every row select_related brought along with it."""
    rows = {"item": fields_of(item)}
    for name, related in item._state.fields_cache.items():
        rows[name] = related and fields_of(related)
        for inner, further in related._state.fields_cache.items() if related else ():
            rows[f"{name}.{inner}"] = further and fields_of(further)
    return rows


def test_the_question_a_visit_resumes_at(student, other_student, review, decks):
    kept_cards = decks[2]
    CardState.objects.create(user=student, card=kept_cards[2], deck=kept_cards[2].deck, due=timezone.now(),
                             set_aside_at=timezone.now())  # fmt: skip
    for user in (student, other_student):  # the set-aside card is the student's own, not the other's
        orm = selectors._next_item(review.pk, user.pk).first()
        compiled = selectors._NEXT_ITEM.first(session_id=review.pk, user_id=user.pk)
        assert loaded(compiled) == loaded(orm)
        assert (compiled.number, compiled.stale_draft) == (3, True)
        assert compiled.stale_gone is (user == student)


def test_the_question_an_answer_is_for(student, other_student, review, decks):
    kept_cards = decks[2]
    card_save(card=kept_cards[1], aliases=["a kept tool", "the kept one"], key_terms=["kept|retained"])
    _answer(student, review, 4, "kept 1")
    for user in (student, other_student):
        for position in range(1, 7):
            orm = services._item_for_answer(user.pk, review.pk, position).first()
            compiled = services._ITEM_FOR_ANSWER.first(user_id=user.pk, session_id=review.pk, position=position)
            assert (compiled and loaded(compiled)) == (orm and loaded(orm))
    fourth = services.item_for_answer(user=student, session_id=review.pk, position=4)
    assert (fourth.alias_texts, fourth.key_term_texts) == (["a kept tool", "the kept one"], ["kept|retained"])
    assert fourth.answer.response == "kept 1"
    assert fourth.session.answered_count == 3


def test_a_question_of_the_quiz_with_its_answer(student, other_student, review):
    for user in (student, other_student):
        for position in range(1, 7):
            orm = selectors._item(review.pk, user.pk, position).first()
            compiled = selectors._ITEM.first(session_id=review.pk, user_id=user.pk, position=position)
            assert (compiled and loaded(compiled)) == (orm and loaded(orm))
    second = selectors.session_item(session=review, position=2)
    assert (second.number, second.answer.response, second.answer.card_version.number) == (2, "no idea", 1)


@pytest.mark.parametrize("number", [2**15, 2**31, 2**63, 10**30])
def test_a_number_beyond_the_columns_range_is_no_such_question(student_client, student, review, number):
    assert student_client.get(f"/quiz/{number}/").status_code == 404
    assert student_client.get(f"/quiz/{review.pk}/q/{number}/").status_code == 404
    assert student_client.post(f"/quiz/{review.pk}/q/{number}/", {"response": "kept 1"}).status_code == 404
