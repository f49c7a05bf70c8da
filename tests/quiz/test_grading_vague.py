"""Golden tests: answers that say less than their words suggest (vague.py). A topic named without anything said of
it, a comparative said of nothing that only a synonym links to the answer, and another means to the answer's end
earn nothing; the parts of a formula named without the formula asked for are partly right at most. What is really
said in the same words keeps its credit."""

from __future__ import annotations

import pytest

from apps.quiz.grading import CORRECT_AT, GradingCard, Verdict, grade
from tests.quiz.golden import (
    AFFINE,
    DATA_PARALLEL,
    DIVIDE_LOSS,
    DYNAMIC_BATCHING,
    MIXED_FLAG,
    QUANTIZATION,
    card,
    graded,
)

CORRECT, PARTIAL, INCORRECT = Verdict.CORRECT, Verdict.PARTIAL, Verdict.INCORRECT
TENSORRT = "What is NVIDIA TensorRT"
HYPERBAND = "What is the Hyperband"
VERSIONING = "What is model versioning"

# A small card of our own: the rules are not the seed decks'.
CACHING = GradingCard(
    "Why do serving systems keep a cache of recent predictions?",
    "Repeated requests are answered from the cache without running the model, which lowers latency and cost.",
)


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (DATA_PARALLEL, "Something to do with the gradients."),
        (DATA_PARALLEL, "it has to do with replicas"),
        (VERSIONING, "stuff about rollbacks"),
        (CACHING, "Something related to latency."),
    ],
)
def test_a_topic_named_with_nothing_said_of_it_earns_nothing(subject, response):
    result = graded(subject, response)
    assert result.verdict is INCORRECT, result
    assert result.feedback == "That names a topic without saying anything about it."


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (VERSIONING, "So you can roll back to a previous model."),
        (CACHING, "Repeated requests skip the model, so latency drops."),
    ],
)
def test_a_statement_about_the_topic_keeps_its_credit(subject, response):
    result = graded(subject, response)
    assert result.verdict is not INCORRECT, result


@pytest.mark.parametrize("subject", [TENSORRT, DYNAMIC_BATCHING, HYPERBAND, MIXED_FLAG])
@pytest.mark.parametrize("response", ["It gets two times bigger.", "Much higher than before."])
def test_a_comparative_said_of_nothing_is_no_point(subject, response):
    result = grade(card(subject), response)
    assert result.verdict is INCORRECT, result


def test_a_comparative_said_of_something_still_counts():
    # "smaller" said of the models: what moves, and which way, as the answer says
    assert grade(card(QUANTIZATION), "Models get smaller.").verdict is PARTIAL
    assert grade(CACHING, "Less latency.").verdict is not INCORRECT


@pytest.mark.parametrize(
    "response",
    ["Scale and zero-point.", "the scale factor together with the zero point"],
)
def test_the_parts_of_a_formula_without_the_formula_are_partly_right_at_most(response):
    result = grade(card(AFFINE), response)
    assert result.verdict is PARTIAL, result
    assert result.score < CORRECT_AT
    assert "asks for the formula itself" in result.feedback


@pytest.mark.parametrize("response", ["it uses a scale", "idk something with a scale"])
def test_one_part_of_a_formula_alone_is_not_partly_right(response):
    result = grade(card(AFFINE), response)
    assert result.verdict is INCORRECT, result
    assert "asks for the formula itself" in result.feedback


def test_the_formula_said_in_words_is_still_right():
    result = grade(card(AFFINE), "Divide the real value by the scale, round it, then add the zero-point.")
    assert result.verdict is CORRECT, result


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (DIVIDE_LOSS, "Raising the learning rate so it behaves like one large batch."),
        (DIVIDE_LOSS, "Using a warmup schedule to match a big batch."),
    ],
)
def test_another_means_to_the_answers_end_earns_nothing(subject, response):
    result = grade(card(subject), response)
    assert result.verdict is INCORRECT, result


def test_a_to_of_a_link_is_no_purpose_a_means_serves():
    # "linked to their data": no "Increasing the learning rate to imitate ..."; the answer's points stand
    response = "giving models versions linked to their data, code and params; enables rollback, reproducibility, audits"
    assert grade(card(VERSIONING), response).verdict is CORRECT


def test_the_answers_end_alone_or_with_the_questions_means_keeps_its_credit():
    assert grade(card(DIVIDE_LOSS), "to match one big batch").verdict is PARTIAL
    assert grade(card(DIVIDE_LOSS), "Dividing the loss so the accumulated gradient matches one big batch").verdict in (
        PARTIAL,
        CORRECT,
    )


BAYESIAN = "How does Bayesian optimization improve"


@pytest.mark.parametrize("response", ["Checks every combination on a grid.", "Each combination of the grid."])
def test_a_word_or_two_about_the_baseline_compared_against_is_no_point(response):
    # "over grid/random search": speaking of the grid describes what the subject improves on, not the subject
    result = grade(card(BAYESIAN), response)
    assert result.verdict is INCORRECT, result


@pytest.mark.parametrize("response", ["It needs fewer trials.", "Fewer trials than grid search."])
def test_the_baseline_named_as_what_the_subject_beats_keeps_the_point(response):
    result = grade(card(BAYESIAN), response)
    assert result.verdict is PARTIAL, result


PRUNING = "What is pruning in neural networks"
TEMPERATURE = "In knowledge distillation, what is the role"


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        # the answer's words shuffled, nothing joining them: graded correct at 100 %
        (PRUNING, "components producing often models pruning individual weights special pruning"),
        (TEMPERATURE, "targets classes softer produces gradient distribution reveal Temperature richer"),
    ],
)
def test_a_string_of_the_answers_words_is_partly_right_at_most(subject, response):
    result = graded(subject, response)
    assert result.verdict is PARTIAL, result
    assert "say how they fit together" in result.feedback


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        ("What is mixed precision", "FP16 or BF16 for the computations, with an FP32 master copy of the weights"),
        ("What is mixed precision", "FP16/BF16 compute; FP32 master weights; loss scaling"),  # a list, punctuated
        (TEMPERATURE, "Softer targets: T flattens the distribution and reveals how classes relate"),
        # telegraphic sentences, in the answer's order: the cap marked these correct answers partly right
        (PRUNING, "Pruning removes individual weights producing smaller sparse models"),
        (TEMPERATURE, "Temperature softens teacher probabilities revealing richer class similarities"),
    ],
)
def test_the_same_words_said_as_a_sentence_or_a_list_keep_their_credit(subject, response):
    assert graded(subject, response).verdict is not INCORRECT
    assert "say how they fit together" not in graded(subject, response).feedback
