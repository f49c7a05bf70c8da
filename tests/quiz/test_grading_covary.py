"""Golden tests: claims that two things move together ("a higher T produces softer probabilities"). The mirror
of the answer's claim about the other end agrees with it; the same end moved the other way reverses it."""

from __future__ import annotations

import pytest

from apps.quiz.covary import covariations, judge
from apps.quiz.grading import Verdict, grade
from tests.quiz.golden import card

CORRECT, PARTIAL, INCORRECT = Verdict.CORRECT, Verdict.PARTIAL, Verdict.INCORRECT
TEMPERATURE = "In knowledge distillation, what is the role"
ANSWER = "Temperature softens the distribution. A higher $T$ produces softer probabilities."


@pytest.mark.parametrize(
    ("response", "agree", "reversed_"),
    [
        ("lower T makes it sharper, higher T softer", 2, 0),
        ("higher T makes it softer, lower T sharper", 2, 0),
        ("As T increases the output gets softer", 1, 0),
        ("a bigger temperature gives smoother, flatter probabilities", 1, 0),
        ("higher temperature makes the distribution sharper", 0, 1),
        ("lower T makes it softer", 0, 1),
        ("higher T makes it sharper, lower T softer", 0, 2),
        ("a higher temperature does not make it sharper", 0, 0),  # a denial is not a claim of covariation
        ("a lower loss makes it sharper", 0, 0),  # another cause
    ],
)
def test_covariations_agree_or_reverse(response, agree, reversed_):
    found, flipped = judge(covariations(ANSWER), response)
    assert (found, len(flipped)) == (agree, reversed_)


@pytest.mark.parametrize(
    ("response", "verdicts"),
    [
        ("lower T makes it sharper, higher T softer", {PARTIAL, CORRECT}),
        ("higher T makes it softer, lower T sharper", {PARTIAL, CORRECT}),
        ("A higher temperature makes the probabilities softer.", {PARTIAL, CORRECT}),
        ("higher temperature makes the distribution sharper", {INCORRECT}),
        ("higher T makes it sharper, lower T softer", {INCORRECT}),
        ("lower T makes it softer", {INCORRECT}),
    ],
)
def test_temperature_responses(response, verdicts):
    assert grade(card(TEMPERATURE), response).verdict in verdicts


def test_the_mirrored_claim_scores_above_the_reversed_one():
    temperature = card(TEMPERATURE)
    right = grade(temperature, "lower T makes it sharper, higher T softer")
    wrong = grade(temperature, "higher temperature makes the distribution sharper")
    assert right.score > wrong.score + 0.2
    assert "opposite" in wrong.feedback and "opposite" not in right.feedback
