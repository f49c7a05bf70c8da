"""Golden tests: a question asking what something is and how two kinds of it differ, answered with the two kinds
only, is partly right at most and the feedback says what is left (sides.py); a clause of the response's own on
the thing itself ("pruning = removing weights", "cutting connections") answers both parts."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, Verdict
from tests.quiz.golden import graded

PRUNING = "What is pruning in neural networks"
CACHING = GradingCard(
    "What is caching in model serving, and how do exact and semantic caches differ?",
    "Caching stores responses and reuses them for repeated requests instead of running the model again. An exact "
    "cache returns a stored response only for an identical request; a semantic cache also reuses it for a request "
    "with a similar meaning, found by embedding similarity.",
)


@pytest.mark.parametrize(
    ("subject", "response", "noun"),
    [
        (
            PRUNING,
            "Structured pruning removes whole filters/channels; unstructured pruning removes individual weights.",
            "pruning",
        ),
        (
            CACHING,
            "An exact cache returns a stored response only for an identical request; a semantic cache also "
            "reuses it for a request with a similar meaning found by embedding similarity.",
            "caching",
        ),
    ],
)
def test_the_two_kinds_only_are_partial(subject, response, noun):
    result = graded(subject, response)
    assert result.verdict is Verdict.PARTIAL, result
    assert f"The question also asks what {noun} is." in result.feedback, result


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (
            PRUNING,
            "pruning = removing weights. unstructured removes individual weights; structured removes whole "
            "neurons/channels/filters",
        ),
        (
            PRUNING,
            "unstructured pruning doesn't give real speedups on normal hardware since the matrices are just "
            "sparse; structured pruning removes entire channels so the net stays dense and smaller",
        ),
        (
            CACHING,
            "Caching reuses stored responses for repeated requests instead of running the model again; an exact "
            "cache needs an identical request, a semantic cache also reuses it for a similar meaning, by embedding "
            "similarity.",
        ),
    ],
)
def test_a_clause_on_the_thing_itself_answers_both_parts(subject, response):
    result = graded(subject, response)
    assert result.verdict is Verdict.CORRECT, result
    assert "also asks what" not in result.feedback, result
