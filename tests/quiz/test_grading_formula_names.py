"""Golden tests: a formula written with descriptive names reads as the answer's symbols, when the answer says
what its symbols stand for ("where s is the scale, z is the zero-point")."""

from __future__ import annotations

import pytest

from apps.quiz.glossary import glossary
from apps.quiz.grading import Verdict, grade
from tests.quiz.golden import card

AFFINE = "Give the standard affine quantization"


@pytest.mark.parametrize(
    "response",
    [
        "q = round(r / scale) + zero_point",
        "q = round(real_value / scale) + zero-point",
        "quantized = round(real / scale) + zeropoint",
        "round(r/scale) + zero_point",
        "q = round(x / scale) + zero_point, where x is the real value",
        # a name of two words as written in prose is one symbol, not a product of one per word ("z z")
        "q = round(real/scale) + zero point",
        "q = round(r/s) + zero point",
    ],
)
def test_descriptive_names_read_as_the_answers_symbols(response):
    result = grade(card(AFFINE), response)
    assert result.verdict is Verdict.CORRECT and result.score == 1.0, result


@pytest.mark.parametrize(
    ("response", "shown"),
    [
        ("q = round(scale / r) + zero_point", "q = round(scale/r) + zero_point"),
        ("q = round(r * scale) + zero_point", "q = round(r*scale) + zero_point"),
    ],
)
def test_a_wrong_formula_with_names_is_wrong_and_quoted_as_written(response, shown):
    result = grade(card(AFFINE), response)
    assert result.verdict is Verdict.INCORRECT, result
    assert f"Your formula {shown} does not match" in result.feedback


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        # the real value by another letter, as many textbooks write it
        ("q = round(x/s) + z", Verdict.CORRECT),
        ("q = round(x / scale + zero_point)", Verdict.CORRECT),
        # a letter in another place, or two letters changed, is another formula
        ("q = round(s/x) + z", Verdict.INCORRECT),
        ("q = round(x/y) + z", Verdict.INCORRECT),
        ("q = round(scale / real value) + zero point", Verdict.INCORRECT),
    ],
)
def test_one_symbol_by_another_letter_is_the_same_formula(response, verdict):
    assert grade(card(AFFINE), response).verdict is verdict


def test_the_glossary_of_an_answer():
    names = glossary(r"$q = \mathrm{round}(r/s) + z$, where $s$ is the scale and z the zero-point.")
    assert names["scale"] == "s" and names["zeropoint"] == "z"
    assert "r" not in names


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        # a word the answer does not name, standing where z is: a formula, close to the answer's but not it
        ("q = round(r / scale) + offset", Verdict.PARTIAL),
        ("q = round(r / s) + bias", Verdict.PARTIAL),
        # ... unless the response says what it is in the answer's words
        ("q = round(r / scale) + offset, where offset is the zero point", Verdict.CORRECT),
        ("q = round(r/s) + offset, where offset = zero-point", Verdict.CORRECT),
        ("q = round(r / scale) + offset where offset is the scale", Verdict.INCORRECT),
        ("q = round(r / scale * offset)", Verdict.INCORRECT),
        ("q = round(r/s) + z, where z is the offset", Verdict.CORRECT),
    ],
)
def test_an_unknown_word_in_a_formula_is_a_symbol_of_its_own(response, verdict):
    assert grade(card(AFFINE), response).verdict is verdict


@pytest.mark.parametrize(
    ("response", "verdicts"),
    [
        (
            "Accumulate grads over N micro batches, then step once; effective batch = N * micro-batch size",
            {Verdict.CORRECT},
        ),
        (
            "Accumulate gradients over N micro-batches, then step; effective batch is N x micro batch size",
            {Verdict.CORRECT},
        ),
        ("effective batch = N * micro-batch size", {Verdict.PARTIAL}),  # the product alone: how, not what
        ("effective batch = N + micro-batch size", {Verdict.PARTIAL, Verdict.INCORRECT}),
    ],
)
def test_a_symbol_times_a_name_in_words_is_the_answers_expression(response, verdicts):
    assert grade(card("What is gradient accumulation and how"), response).verdict in verdicts


def test_a_formula_whose_letters_mean_other_things_is_shown_in_the_answers_letters():
    # Written exactly as the answer's, but "s is the zero point": the note must not read "q = round(r/s) + z does
    # not match q = round(r/s) + z".
    result = grade(card(AFFINE), "q=round(r/s)+z where s is the zero point and z the scale")
    assert result.verdict is Verdict.INCORRECT, result
    assert "Your formula q = round(r/z) + s does not match q = round(r/s) + z." in result.feedback, result
