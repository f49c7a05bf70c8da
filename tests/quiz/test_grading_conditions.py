"""Golden tests: a condition after the point ("so you can roll back to an older model if the new one is worse") says
when the point applies; its words elaborate the point rather than make the answer mostly off target
(conditions.py). A condition alone, or one that opens the answer before something else, earns nothing."""

from __future__ import annotations

import pytest

from apps.quiz.grading import Verdict, grade
from tests.quiz.golden import card

VERSIONING = "What is model versioning"


@pytest.mark.parametrize(
    "response",
    [
        "so you can roll back to an older model if the new one is worse",
        "so you can roll back to an older model when the new one breaks",
        "so you can roll back to an older model",
    ],
)
def test_a_condition_after_one_point_keeps_it_partly_right(response):
    result = grade(card(VERSIONING), response)
    assert result.verdict is Verdict.PARTIAL, result
    assert "rollback" in result.matched, result


@pytest.mark.parametrize(
    "response",
    [
        "if the new one is worse",
        "if the new model is worse, retrain it from scratch with a bigger learning rate",
    ],
)
def test_a_condition_alone_or_first_earns_nothing(response):
    result = grade(card(VERSIONING), response)
    assert result.verdict is Verdict.INCORRECT, result
