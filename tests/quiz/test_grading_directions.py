"""Golden tests: claims of direction (directions.py). "Saves" lowers what a computation spends ("saves memory") but
not what it keeps ("saves the model"), and "at the cost of" / "at the expense of" is more of it: a response that
swaps the answer's trade-off says the opposite."""

from __future__ import annotations

import pytest

from apps.quiz.directions import claims
from tests.quiz.golden import CHECKPOINTING, CORRECT, INCORRECT, PARTIAL, graded


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It saves memory at the cost of extra compute.", {(-1, "memory"), (1, "compute")}),
        ("It saves compute at the expense of memory.", {(-1, "compute"), (1, "memory")}),
        ("It saves the model to disk.", set()),
    ],
)
def test_saving_and_paying_are_directions(text, expected):
    assert {(claim.sense, claim.head) for claim in claims(text)} == expected


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("saves compute at the cost of memory", INCORRECT),
        ("saves compute, costs memory", INCORRECT),
        ("saves memory at the cost of compute", CORRECT),
        ("It saves memory at the expense of more compute", PARTIAL),
    ],
)
def test_the_trade_off_said_the_other_way_round_is_wrong(response, verdict):
    result = graded(CHECKPOINTING, response)
    assert result.verdict is verdict, result
    assert ("says the opposite" in result.feedback) is (verdict is INCORRECT), result
