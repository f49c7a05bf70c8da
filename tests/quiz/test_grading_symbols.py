"""Golden tests: a name the answer writes in words inside its maths ("$N \\times (\\text{micro-batch size})$") may be
written as a symbol for it ("$N \\times b$", "$N \\times B_{micro}$"): that is the answer's expression, one real
point of it (symbols.py). The same symbols in another expression are not."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard
from apps.quiz.symbols import abbreviated
from tests.quiz.golden import CORRECT, INCORRECT, PARTIAL, graded

ACCUMULATION = "What is gradient accumulation and how"
SPEEDUP = GradingCard(
    "How long does a pipeline of stages take?",
    r"The stages overlap, so the total is $S + (\text{number of batches}) - 1$ steps instead of their product.",
)


def test_each_worded_name_gets_its_initials_and_subscripted_forms():
    forms = abbreviated(r"The effective batch size is $N \times (\text{micro-batch size})$.")
    assert {"b*n", "mbs*n", "b_micro*n"} <= forms
    assert abbreviated("No maths here, and $N$ alone is a name.") == frozenset()


@pytest.mark.parametrize(
    ("subject", "response", "verdict"),
    [
        (ACCUMULATION, r"effective batch size = $N \times b$", PARTIAL),
        (ACCUMULATION, r"effective batch size = $N \times B_{\text{micro}}$", PARTIAL),
        (
            ACCUMULATION,
            r"sum the gradients of $N$ micro-batches, then step once; the effective batch is $N \times b$",
            CORRECT,
        ),
        (SPEEDUP, r"$S + n - 1$ steps, since the stages overlap", CORRECT),
    ],
)
def test_a_symbol_for_a_worded_name_is_the_answers_expression(subject, response, verdict):
    result = graded(subject, response)
    assert result.verdict is verdict, result
    assert "the formula" in result.matched, result


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (ACCUMULATION, r"effective batch size = $N + b$"),
        (ACCUMULATION, r"effective batch size = $b / N$"),
    ],
)
def test_the_same_symbols_in_another_expression_earn_nothing(subject, response):
    result = graded(subject, response)
    assert result.verdict is INCORRECT, result
    assert "the formula" not in result.matched, result
