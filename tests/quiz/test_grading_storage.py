"""Golden tests: a question on what a registry, repository or store is for, answered "storing models", names the
function the subject's own name gives it, applied to what it holds: partly right, never more (storage.py). Storing
something the answer does not hold, another verb, a denial, or a subject that is no store earns nothing."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, Verdict
from tests.quiz.golden import graded

REGISTRY = "In MLflow, what is the purpose"
FEATURE_STORE = GradingCard(
    "What is a feature store?",
    "A central service that computes, versions and serves features consistently for training and online inference.",
)
SCHEDULER = GradingCard(
    "What is the purpose of a learning-rate scheduler?",
    "It changes the learning rate during training, for example warming it up and then decaying it.",
)


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (REGISTRY, "storing models"),
        (REGISTRY, "to store models"),
        (REGISTRY, "It keeps the models."),
        (FEATURE_STORE, "storing features"),
        (FEATURE_STORE, "It saves the features."),
    ],
)
def test_storing_what_the_store_holds_is_partly_right(subject, response):
    result = graded(subject, response)
    assert result.verdict is Verdict.PARTIAL, result


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (REGISTRY, "the model registry registers models"),
        (REGISTRY, "storing metrics and parameters"),
        (REGISTRY, "storing the registry"),
        (REGISTRY, "not storing models"),
        (REGISTRY, "storing models?"),
        (SCHEDULER, "storing learning rates"),
    ],
)
def test_other_things_stored_another_verb_or_no_store_earn_nothing(subject, response):
    result = graded(subject, response)
    assert result.verdict is Verdict.INCORRECT, result
