"""Golden tests: a conversion between number formats the other way round, however written, is a fault; the
answer's way round is not; "a small accuracy drop" is a claim that "increase accuracy" reverses."""

from __future__ import annotations

import pytest

from apps.quiz.directions import conversions
from apps.quiz.grading import Verdict, grade
from tests.quiz.golden import card

CORRECT, PARTIAL, INCORRECT = Verdict.CORRECT, Verdict.PARTIAL, Verdict.INCORRECT
QUANTIZATION = "What is quantization in the context"


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("converting int8 weights to fp32 to increase accuracy at deployment", INCORRECT),  # and reversed claim
        ("turning INT8 into FP32", INCORRECT),
        ("int8 -> fp32 weights", INCORRECT),
        ("going from int8 to fp32 for better accuracy", INCORRECT),
        ("It converts weights from 8-bit integers to 32-bit floats for better accuracy.", PARTIAL),
        ("quantization increases accuracy", INCORRECT),
    ],
)
def test_a_conversion_the_other_way_round_is_a_fault_however_written(response, verdict):
    result = grade(card(QUANTIZATION), response)
    assert result.verdict is verdict, result
    assert "opposite" in result.feedback


@pytest.mark.parametrize(
    "response",
    [
        "Converting weights from FP32 to INT8 to shrink the model and speed up inference.",
        "reducing the precision of weights/activations e.g. fp32 -> int8, smaller model, less memory bandwidth, "
        "faster inference, small accuracy drop",
        "lowering weight precision, converting fp32 weights to int8, so the model is smaller and faster",
    ],
)
def test_the_answers_way_round_costs_nothing(response):
    result = grade(card(QUANTIZATION), response)
    assert result.verdict is CORRECT, result
    assert "opposite" not in result.feedback


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("convert the model to ONNX", False),  # not number formats
        ("map values to the int8 range", False),
        ("cast fp16 activations to fp32", True),
    ],
)
def test_a_conversion_without_from_is_read_between_number_formats_only(text, found):
    assert bool(conversions(text, loose=True)) is found
