"""Golden tests: an open list question ("What factors must be controlled ...?") whose answer lists four or more
items is judged by item (factors.py): naming fewer than half of them is partly right at most, and the feedback says
how many; a term shared by two items ("versions") counts once."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, Verdict
from tests.quiz.golden import graded

REPRODUCIBLE = "What factors must be controlled"
LATENCY = GradingCard(
    "What factors affect the latency of a served model?",
    "Model size, numeric precision, batch size, the hardware it runs on, and the network round trip. Caching "
    "repeated requests hides part of it.",
)


@pytest.mark.parametrize(
    ("subject", "response", "note"),
    [
        (REPRODUCIBLE, "random seeds and deterministic algorithms", "That names 2 of the 5 factors in the answer."),
        (REPRODUCIBLE, "fix the random seeds and pin library versions", "That names 2 of the 5 factors in the answer."),
        (LATENCY, "the model size and the numeric precision", "That names 2 of the 5 factors in the answer."),
        # One factor, in a word or in code, is still one real point: it was incorrect, the list's note in the way.
        (REPRODUCIBLE, "seeds", "That names 1 of the 5 factors in the answer."),
        (REPRODUCIBLE, "torch.manual_seed(0)", "That names 1 of the 5 factors in the answer."),
        (LATENCY, "batch size", "That names 1 of the 5 factors in the answer."),
    ],
)
def test_fewer_than_half_of_the_items_is_partial(subject, response, note):
    result = graded(subject, response)
    assert result.verdict is Verdict.PARTIAL, result
    assert note in result.feedback, result


@pytest.mark.parametrize("response", ["Use a bigger GPU.", "Use a newer framework.", "Change the code often."])
def test_a_word_shared_with_a_factor_names_none(response):
    """Each was lifted to partial with the one-factor answers above: a word of a factor, said of something else."""
    assert graded(REPRODUCIBLE, response).verdict is Verdict.INCORRECT


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (REPRODUCIBLE, "seeds, versions of libs, data versioning, deterministic GPU algorithms"),
        (REPRODUCIBLE, "Seeds, library versions, data versions and deterministic GPU settings."),
        (LATENCY, "model size, numeric precision, batch size and the hardware"),
    ],
)
def test_half_or_more_of_the_items_is_not_held_against_it(subject, response):
    result = graded(subject, response)
    assert result.verdict is Verdict.CORRECT, result
    assert "in the answer." not in result.feedback, result
