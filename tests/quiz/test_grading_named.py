"""Golden tests: a question asking which formats or data types something uses is answered by naming them
(named.py). A response naming none of the answer's names (FP16 or BF16, FP32) is partly right at most, and the
feedback says what is left; naming them, or a question asking for something said in words, is not held against it."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, Verdict, grade
from tests.quiz.golden import card, graded

MIXED = "What is mixed precision training and what"
TENSORRT = "What is NVIDIA TensorRT"
PTQ = GradingCard(
    "What is post-training quantization and which data types does it convert between?",
    "It converts a trained model's FP32 weights and activations to INT8 without retraining, using a small "
    "calibration set to choose the scales.",
)


@pytest.mark.parametrize(
    ("subject", "response", "noun"),
    [
        (MIXED, "using lower precision floats for most of the computations to save memory", "numeric formats"),
        (
            MIXED,
            "most of the math in a lower-precision float while a master copy of the weights stays in higher "
            "precision, which reduces memory use and speeds up training on tensor cores",
            "numeric formats",
        ),
        (
            PTQ,
            "converting a trained model's weights and activations to lower precision without retraining, with a "
            "calibration set to choose the scales",
            "data types",
        ),
    ],
)
def test_naming_none_of_what_the_question_asks_is_partial(subject, response, noun):
    result = graded(subject, response)
    assert result.verdict is Verdict.PARTIAL, result
    assert f"The question also asks which {noun}; name them." in result.feedback, result


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (MIXED, "Using FP16 or BF16 for most operations and FP32 master weights."),
        (MIXED, "compute in bf16, keep an fp32 master copy of the weights; saves memory and is faster on tensor cores"),
        (PTQ, "FP32 weights and activations of a trained model converted to INT8, no retraining, calibrated scales"),
        (
            TENSORRT,
            "NVIDIA's inference optimizer and runtime: it fuses layers, calibrates lower precision and "
            "auto-tunes kernels",
        ),
    ],
)
def test_naming_them_or_another_question_is_not_held_against_it(subject, response):
    result = graded(subject, response)
    assert result.verdict is Verdict.CORRECT, result
    assert "name them" not in result.feedback, result


@pytest.mark.parametrize(
    "response",
    [
        "most of the math in half precision while a master copy of the weights stays in single precision, which saves "
        "memory and is faster on tensor cores",
        "most of the math in bfloat16 while a master copy of the weights stays in float32, which saves memory and is "
        "faster on tensor cores",
    ],
)
def test_the_names_spelled_out_name_them(response):
    result = grade(card(MIXED), response)
    assert result.verdict is Verdict.CORRECT, result
    assert "name them" not in result.feedback, result
