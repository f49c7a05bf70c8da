"""Golden tests: a corrective contrast "X, not Y" whose X the answer gives (as the answer to the question) and
whose Y it does not is no contradiction: the student contrasts the result with the alternative. The same contrast
the other way round ("the sum, not the average") still denies what the answer says."""

from __future__ import annotations

import pytest

from apps.quiz.grading import Verdict, grade
from tests.quiz.golden import card

CORRECT, PARTIAL, INCORRECT = Verdict.CORRECT, Verdict.PARTIAL, Verdict.INCORRECT
DIVIDE = "When using gradient accumulation, why might you divide"


@pytest.mark.parametrize(
    "response",
    [
        "So that the accumulated gradient is the average over the effective batch, not the sum.",
        "so the accumulated gradient equals the mean over the effective batch, not the sum",
        "The accumulated gradient becomes the mean gradient of the effective batch, not a sum",
        "To get the average gradient over the effective batch but not the sum of the micro-batch gradients.",
    ],
)
def test_a_contrast_agreeing_with_the_answer_is_no_contradiction(response):
    result = grade(card(DIVIDE), response)
    assert result.verdict is not INCORRECT
    assert "opposite" not in result.feedback


@pytest.mark.parametrize(
    ("response", "verdicts"),
    [
        ("It makes the gradient the sum, not the average.", {INCORRECT}),
        ("The gradient is not the mean over the effective batch.", {INCORRECT}),
        # a fault: never correct, however many of the answer's words it names
        ("the accumulated gradient is the sum over the effective batch, not the mean", {PARTIAL, INCORRECT}),
    ],
)
def test_a_contrast_against_the_answer_still_denies_it(response, verdicts):
    assert grade(card(DIVIDE), response).verdict in verdicts


@pytest.mark.parametrize(
    "response",
    [
        # the answer's result set against what it replaces: the point of the answer, in two short words
        "so that you get the mean gradient rather than the sum",
        "the mean, not the sum",
        # said of what goes wrong without it: the contrast turns round
        "without dividing you would get the sum instead of the mean",
        "if you do not divide, the result is a sum and not a mean",
    ],
)
def test_a_corrective_contrast_agreeing_with_the_answer_makes_its_point(response):
    result = grade(card(DIVIDE), response)
    assert result.verdict is CORRECT, result


def test_the_same_contrast_the_other_way_round_earns_no_more_than_its_words():
    result = grade(card(DIVIDE), "to get the sum instead of the mean")
    assert result.verdict is not CORRECT, result


@pytest.mark.parametrize(
    "response",
    [
        # a denied sameness is the difference the answer names ("discrepancies")
        "what the model got in training does not match what it gets at inference",
        "feature values at inference that do not agree with those in training",
    ],
)
def test_a_denied_sameness_says_there_is_a_difference(response):
    assert grade(card("In the context of feature stores"), response).verdict is CORRECT


def test_a_denied_sameness_the_answer_affirms_is_still_a_denial():
    response = (
        "Every device keeps a replica of the model and takes a shard of the batch, but the replicas aren't "
        "identical, as gradients are never synchronized."
    )
    result = grade(card("What is data parallelism"), response)
    assert result.verdict is not CORRECT
    assert "'aren't identical' says the opposite" in result.feedback


@pytest.mark.parametrize(
    ("response", "opposite"),
    [
        # a sameness stated plainly where the answer names a difference
        ("features computed offline for training are identical to the ones computed online for inference", True),
        # ... but not one that should be, or is made to be: the remedy
        ("features computed offline for training and online for inference should be the same but drift apart", False),
        (
            "a feature store ensures the same features are computed offline and online, avoiding discrepancies at "
            "inference",
            False,
        ),
    ],
)
def test_a_sameness_where_the_answer_has_a_difference_says_the_opposite(response, opposite):
    result = grade(card("In the context of feature stores"), response)
    assert (result.verdict is CORRECT) is not opposite, result
    assert ("says the opposite" in result.feedback) is opposite, result
