"""Golden tests: an answer that offers the right thing and another, unsure which ("FP16 or INT8, not sure"), is
partly right at most, as a short answer offered with another term is; a hedge on a detail, or two offers both in
the answer, is not held against it (hedges.py)."""

from __future__ import annotations

import pytest

from apps.quiz.grading import Verdict
from tests.quiz.golden import MIXED_FLAG, ONNX_FLASH, graded

LOSS_SCALING = "What is loss scaling"
MIXED = "What is mixed precision training"
NOTE = "You offer two answers, unsure which"


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (ONNX_FLASH, "Portability, or maybe it makes the model smaller."),  # was correct
        (ONNX_FLASH, "Either interoperability between frameworks or faster training, I'm not sure"),  # was correct
        (MIXED_FLAG, "Uses FP16 or INT8, not sure, to make it faster"),
        (LOSS_SCALING, "It stops small gradients underflowing in FP16, or maybe it prevents overfitting"),
    ],
)
def test_the_right_thing_offered_with_another_unsure_which_is_partial_at_most(subject, response):
    result = graded(subject, response)
    assert result.verdict is Verdict.PARTIAL, result
    assert NOTE in result.feedback, result


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (ONNX_FLASH, "interoperability between frameworks, or maybe portability"),  # the second says the first again
        (ONNX_FLASH, "I think it's interoperability between frameworks or runtimes"),  # "I think" is not unsure
        (MIXED, "maybe FP16 or BF16 for compute with FP32 master weights"),  # both in the answer
        (LOSS_SCALING, "The loss is scaled up (maybe by 1024 or 65536) so small gradients don't underflow in FP16"),
        # a whole right answer, unsure of a detail in a remark: it was marked down to partial
        (
            "What is gradient (activation) checkpointing",
            "Instead of storing all activations in the forward pass, it keeps only some checkpoints and recomputes "
            "the rest during backward, saving memory at the cost of extra compute, maybe one more forward pass or a "
            "bit more.",
        ),
        (
            "What factors must be controlled",
            "Fix all random seeds, pin library and framework versions, version data and code, use deterministic GPU "
            "ops and log the exact config. Even then bitwise reproducibility is not certain across GPUs or drivers.",
        ),
    ],
)
def test_a_hedge_on_a_detail_or_between_two_right_things_is_not_held_against_it(subject, response):
    result = graded(subject, response)
    assert NOTE not in result.feedback, result
    unhedged = response.replace("maybe ", "").replace("not certain", "certain")
    assert result.verdict is graded(subject, unhedged).verdict, result
