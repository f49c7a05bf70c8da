"""Golden tests: a two-part question is answered on both parts when both parts of the model answer are named,
even when the answer puts them in one sentence."""

from __future__ import annotations

import pytest

from apps.quiz.grading import Verdict, grade
from tests.quiz.golden import card

CORRECT, PARTIAL = Verdict.CORRECT, Verdict.PARTIAL
MODEL_PARALLEL = "What is model parallelism"
GA = "What is gradient accumulation and how"
CHECKPOINTING = "What is gradient (activation) checkpointing"
BF16 = "How does BF16 differ"


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        # "splits ... layers ... across devices because the model is too large to fit": two parts in one sentence
        (
            MODEL_PARALLEL,
            "unlike data parallelism the model isn't replicated - different GPUs hold different layers. You need it "
            "when the model won't fit in one GPU's memory",
            CORRECT,
        ),
        (
            MODEL_PARALLEL,
            "Different layers of the model live on different GPUs, which is needed because the network is too big "
            "for a single device's memory.",
            CORRECT,
        ),
        # the second part in the question's own words: "effective batch size"
        (
            GA,
            "Accumulate grads for N micro batches and only then call optimizer.step(); effective batch size = N * "
            "micro batch size",
            CORRECT,
        ),
        # counter-cases: one part only stays partial
        (MODEL_PARALLEL, "You need it when the model is too large to fit in one device's memory.", PARTIAL),
        # "single" of the answer's "splits a single model's layers" is a word of quantity, not its first part
        (MODEL_PARALLEL, "It's needed when the model is too large to fit into a single GPU.", PARTIAL),
        (CHECKPOINTING, "recomputing activations in the backward pass instead of storing them", PARTIAL),
        (BF16, "BF16 has 8 exponent bits and 7 mantissa bits while FP16 has 5 exponent and 10 mantissa bits.", PARTIAL),
        (GA, "It produces a larger effective batch size.", Verdict.INCORRECT),
    ],
)
def test_both_parts_of_a_two_part_question(prefix, response, verdict):
    result = grade(card(prefix), response)
    assert result.verdict is verdict, result


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        # "mini-batches", "small batches" are the answer's micro-batches; "don't update" agrees with "without
        # stepping"
        (
            "You don't update the weights after every mini-batch; you accumulate the gradients over several "
            "mini-batches and then step once, so you get a big effective batch without needing the memory",
            PARTIAL,
        ),
        ("It uses a bigger batch.", Verdict.INCORRECT),
    ],
)
def test_mini_batches_are_the_answers_micro_batches(response, verdict):
    result = grade(card(GA), response)
    assert result.verdict is verdict, result
    assert "opposite" not in result.feedback
