"""Golden tests: a quality of the answer's thing said at the other end of its scale ("the entire budget" where the
answer gives "a small budget") says the opposite of the answer (opposites.py); negated, or said as a comparative
relative to something else ("a bigger budget" for the survivors), it does not."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, Verdict
from apps.quiz.opposites import opposed
from apps.quiz.textnorm import fold, tokenize
from tests.quiz.golden import graded

HYPERBAND = "What is the Hyperband"
ACCUMULATE = GradingCard(
    "How does gradient accumulation work?",
    "It adds up the gradients of several small mini-batches, then takes one optimizer step with their sum.",
)
WINDOW = GradingCard(
    "How does a micro-batching server decide when to run a batch?",
    "It waits a short window for requests to arrive, then runs whatever has arrived as one batch.",
)


@pytest.mark.parametrize(
    ("subject", "response", "phrase"),
    [
        (HYPERBAND, "Give every configuration the entire budget, then keep the top ones.", "entire budget"),
        (WINDOW, "It waits a long window for requests, then runs them as one batch.", "long window"),
        # the head of the answer's compound is the same thing: "batches" of "mini-batches"
        (ACCUMULATE, "It adds up gradients over several large batches, then takes a step.", "large batches"),
    ],
)
def test_the_other_end_of_the_answers_scale_says_the_opposite(subject, response, phrase):
    result = graded(subject, response)
    assert result.verdict is not Verdict.CORRECT, result
    assert f"'{phrase}' says the opposite of the answer." in result.feedback


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (HYPERBAND, "Many configurations get a small budget, not the entire one; the top ones get more, repeatedly."),
        (HYPERBAND, "Start many configurations on a small budget and give the best a bigger budget, repeatedly."),
        (WINDOW, "It waits a short window for requests to arrive, then runs them as one batch."),
        # "same" and "different" are no scale: what each is compared with is not read ("the same range as FP32")
        ("How does BF16 differ", "BF16 has a different range from FP16 but the same range as FP32, fewer bits."),
    ],
)
def test_the_same_end_negated_or_a_comparative_is_no_fault(subject, response):
    result = graded(subject, response)
    assert "says the opposite" not in result.feedback, result
    assert result.verdict is not Verdict.INCORRECT, result


@pytest.mark.parametrize(
    "response", ["It isn't the full budget.", "They don't get the entire budget.", "Never a long window."]
)
def test_a_contracted_negator_negates_the_scale_word(response):
    # The tokenizer drops apostrophes ("isnt"), so the negators are matched as it writes them.
    answer = tuple((t.norm, t.boundary) for t in tokenize(fold("Each gets a small budget within a short window.")))
    assert opposed(answer, tokenize(fold(response))) == ()
    assert opposed(answer, tokenize(fold(response.replace("n't", "").replace("Never", "A")))) != ()
