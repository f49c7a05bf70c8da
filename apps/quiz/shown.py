"""Checking after all an answer typed before "Show answer": on a phone "Check answer" and "Show answer" sit one
above the other, and a tap on the wrong one scored 0 what the student had typed, with no way back."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from apps.common.db import student_lock

from .aggregates import Rescored, answers_rescore
from .grading import grade
from .memory import card_state_rebuild
from .models import Answer
from .services import (
    NotOverridableError,
    answer_finalize,
    grading_card,
    item_for_answer,
    response_key,
)


def answer_check_typed(*, user: AbstractBaseUser, session_id: int, position: int) -> Answer:
    """Grades what was typed before "Show answer" as if "Check answer" had been pressed, and stores that verdict.

    Fair, since the words were sent before the answer was shown, and cannot change since. Checked already (a
    double click, a second tab), the answer comes back as it is. Raises NotOverridableError for an answer shown
    with nothing typed, and Answer.DoesNotExist for a question not answered or another student's.
    """
    item = item_for_answer(user=user, session_id=session_id, position=position)
    with transaction.atomic():
        student_lock(user.pk)
        answer = Answer.objects.select_for_update(of=("self",)).select_related("card").get(item=item)
        if answer.mode == "recall" and not answer.revealed:
            return answer
        if answer.mode != "recall" or not answer.response:
            raise NotOverridableError("Only an answer typed before “Show answer” can be checked.")
        card = grading_card(item.card, aliases=item.alias_texts, key_terms=item.key_term_texts)
        result = grade(card, answer.response)
        before = Rescored(answer, answer.final_verdict, answer.final_score, False, counted_before=False)
        answer.revealed = False
        answer.response_key = response_key(answer.response)
        answer.auto_verdict, answer.auto_score, answer.feedback = str(result.verdict), result.score, result.feedback
        answer_finalize(answer)
        fields = ["revealed", "response_key", "auto_verdict", "final_verdict", "auto_score", "final_score", "feedback",
                  "rating"]  # fmt: skip
        answers_rescore(card_id=answer.card_id, rescored=[before], fields=fields)
        card_state_rebuild(user=user, card=answer.card)
    return answer
