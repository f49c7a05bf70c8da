"""Golden tests: a response doing at every single unit what the answer does once every N units ("stepping the
optimizer after every micro-batch" where the answer steps once after N micro-batches) says the opposite of the
answer (cadence.py); with a count of its own, or denied ("instead of every batch"), it states the answer."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, Verdict
from tests.quiz.golden import graded

ACCUMULATION = "What is gradient accumulation and how"
SYNC = GradingCard(
    "How does local SGD reduce communication between workers?",
    "Each worker runs several local optimizer steps on its own data and the workers average their weights "
    "only every K steps, instead of all-reducing gradients after each step.",
)


@pytest.mark.parametrize(
    ("subject", "response", "phrase"),
    [
        (ACCUMULATION, "stepping the optimizer after every micro-batch and averaging the weights at the end", "after"),
        (ACCUMULATION, "You sum the gradients and take an optimizer step after every single micro-batch.", "step"),
        (ACCUMULATION, "update the weights for each batch, so the batch is effectively larger", "update"),
        (SYNC, "Workers average their weights after every step, with no all-reduce.", "average"),
        # the action written as code: a piece of a dotted name, its call's brackets no end of the clause
        (ACCUMULATION, "you call optimizer.step after every micro-batch", "optimizer.step"),
        (ACCUMULATION, "you call optimizer.step() after each micro-batch", "optimizer.step"),
    ],
)
def test_each_unit_for_once_every_n_units_is_a_fault(subject, response, phrase):
    result = graded(subject, response)
    assert result.verdict is Verdict.INCORRECT, result
    assert "says the opposite of the answer" in result.feedback, result
    assert phrase in result.feedback.split("says the opposite")[0].rsplit(". ", 1)[-1], result


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (
            ACCUMULATION,
            "You don't update the weights after every mini-batch; you sum the gradients over N micro-batches "
            "and then do a single optimizer step, so the effective batch is N times the micro-batch size.",
        ),
        (ACCUMULATION, "Doing one optimizer step every N mini-batches instead of every batch."),
        (ACCUMULATION, "compute gradients for every micro-batch, sum them, and step the optimizer once after N"),
        (SYNC, "Each worker takes several local optimizer steps and the weights are averaged only every K steps."),
    ],
)
def test_a_count_of_its_own_or_a_denial_is_no_fault(subject, response):
    result = graded(subject, response)
    assert "says the opposite" not in result.feedback, result
    assert result.verdict is not Verdict.INCORRECT, result
