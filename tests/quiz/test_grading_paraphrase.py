"""Golden tests: paraphrases the synonym table cannot see word by word (paraphrase.py). A compound said with a
synonym for one of its pieces ("low delay" for "low-latency") earns the compound, unless its words only echo the
question; a factor too large against what the answer names ("W times too large compared with a single process") is
a sum, and the corrective contrast "a single process rather than a sum"."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, Verdict, grade
from tests.quiz.golden import graded

WINDOW = GradingCard(
    "What does a short batching window on an inference server buy?",
    "Low-latency replies, at some cost in throughput.",
    "",
    "free",
)
ECHO = GradingCard(
    "What does a short batching window buy, besides a low delay?",
    "Low-latency replies, at some cost in throughput.",
    "",
    "free",
)
WORKERS = GradingCard(
    "Why are the all-reduced gradients divided by the number of workers?",
    "The all-reduce adds up the gradients of every worker. Dividing by the worker count turns that sum into the mean "
    "gradient, the one a single process would compute on the whole global batch.",
    "",
    "free",
)


@pytest.mark.parametrize(
    ("response", "verdict"),
    [("Low delay.", Verdict.PARTIAL), ("A low lag", Verdict.PARTIAL), ("Replies with low delay.", Verdict.CORRECT)],
)
def test_a_compound_said_with_a_synonym_for_one_piece_earns_it(response, verdict):
    result = grade(WINDOW, response)
    assert result.verdict is verdict, result
    assert "Low-latency" in result.matched


def test_a_compound_needs_its_words_side_by_side():
    assert "Low-latency" not in grade(WINDOW, "Delay is low.").matched


def test_a_compound_whose_words_echo_the_question_earns_nothing():
    # "low delay" only repeats the question's words
    assert "Low-latency" not in grade(ECHO, "Low delay replies.").matched


def test_a_factor_too_large_against_what_it_should_be_is_a_sum_rather_than_that():
    result = grade(
        WORKERS,
        "Without it the gradient is W times too large compared with a single process on the whole global batch.",
    )
    assert result.verdict is Verdict.CORRECT, result
    assert "sum" in result.matched


@pytest.mark.parametrize(
    "response",
    [
        "Without it the gradient is W times too small compared with a single process.",  # smaller is no sum
        "Otherwise the gradient is at times too large compared with a single process.",  # "at times" is no factor
        "Otherwise the gradient is W times larger.",  # a factor alone: of what?
        "Otherwise it is W times too large compared with the GPU memory.",  # against what the answer never names
    ],
)
def test_a_factor_that_is_no_sum_earns_no_sum(response):
    result = grade(WORKERS, response)
    assert "sum" not in result.matched
    assert result.verdict is not Verdict.CORRECT


REBUILD = GradingCard(
    "What must you do before loading a weights-only checkpoint?",
    "Reconstruct the model's architecture in code, with the same layers and shapes as when its weights were saved.",
    "",
    "free",
)


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("Define the architecture again.", Verdict.CORRECT),  # redefine: among the ways to reconstruct it
        ("You build the whole model again in code.", Verdict.CORRECT),
        ("Define the architecture.", Verdict.PARTIAL),  # the architecture, but not that it is made again
        ("Train the architecture again.", Verdict.PARTIAL),  # retraining is no rebuilding
        # denied: no redefining (these were graded correct)
        ("You don't need to define the architecture again.", Verdict.PARTIAL),
        ("Never define the architecture again.", Verdict.PARTIAL),
    ],
)
def test_a_verb_done_again_is_the_verb_with_re(response, verdict):
    result = grade(REBUILD, response)
    assert result.verdict is verdict, result


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        # Each was partly right: "fwd", "mem", "arch" and "probs" earned nothing, and counted as words off the point.
        ("What does the '--mixed-precision'", "fwd fp16, master weights fp32 -> less mem, more throughput"),
        ("What does the '--mixed-precision'", "uses fp16/bf16 for fwd/bwd -> less memory and faster"),
        ("In Keras, what is the difference", ".keras = whole model (arch, weights, optimizer); weights only = params, "
         "need to recreate the model first"),
    ],
)  # fmt: skip
def test_the_shorthand_of_notes_reads_as_the_words_it_stands_for(subject, response):
    result = graded(subject, response)
    assert result.verdict is Verdict.CORRECT, result


@pytest.mark.parametrize(
    "response",
    [
        "features in production differ from training",
        "when the features in training are not the same as the features when the model serves in production",
    ],
)
def test_production_is_where_a_model_serves_its_inferences(response):
    # Training-serving skew: "features computed offline for training and online for inference".
    result = graded("In the context of feature stores", response)
    assert "inference" in result.matched, result
    assert result.verdict is Verdict.CORRECT, result
