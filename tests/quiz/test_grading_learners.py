"""Golden tests: which model learns from which (learners.py). Said the other way round, by size alone, it is a
fault however many of the answer's words it uses; said the right way round, or not at all, it is none."""

from __future__ import annotations

import pytest

from apps.quiz.grading import Verdict, grade
from apps.quiz.learners import relations
from tests.quiz.golden import card

CORRECT, PARTIAL, INCORRECT = Verdict.CORRECT, Verdict.PARTIAL, Verdict.INCORRECT
DISTILLATION = "What is knowledge distillation"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Knowledge distillation trains a small 'student' model to mimic a large 'teacher'.", [("small", "large")]),
        ("a big model learns from a small model's outputs", [("large", "small")]),
        ("a big model that learns from a small one", [("large", "small")]),  # "that": the big model learns
        ("The student learns from the teacher's soft outputs.", []),  # no sizes: roles.py reads teacher and student
        ("a large model does not mimic a small one", []),  # denied
        ("the large teacher, and a small student that copies it", []),  # nothing bigger after the verb
        ("small models are fast. Large ones learn more.", []),  # the sentence ends before a size follows the verb
    ],
)
def test_the_learner_and_what_it_learns_from_are_read_by_size(text, found):
    assert [(learner, source) for learner, source, _phrase in relations(text)] == found


@pytest.mark.parametrize(
    "response",
    [
        "a big model learns from a small model's outputs",
        "A huge network that imitates a tiny one",
        "distillation: the larger model copies the smaller model's predictions",
    ],
)
def test_the_big_model_learning_from_the_small_one_is_wrong(response):
    result = grade(card(DISTILLATION), response)
    assert result.verdict is INCORRECT, result
    assert "opposite" in result.feedback


def test_the_answers_own_words_the_wrong_way_round_are_never_fully_right():
    result = grade(card(DISTILLATION), "a large model is trained to mimic a smaller model's soft predictions")
    assert result.verdict is PARTIAL, result
    assert "'a large model is trained to mimic a smaller' says the opposite of the answer." in result.feedback


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("a smaller student model is trained to mimic a larger teacher's soft predictions", CORRECT),
        ("compressing a large teacher into a small student that mimics its soft outputs", CORRECT),
        ("a small model learns from a big model's outputs", PARTIAL),
    ],
)
def test_the_small_model_learning_from_the_big_one_is_no_fault(response, verdict):
    result = grade(card(DISTILLATION), response)
    assert result.verdict is verdict, result
    assert "opposite" not in result.feedback
