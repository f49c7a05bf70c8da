"""Golden tests: a closed list asked for by number is judged by the answer's own items (items.py). As many items as
asked, one of them none of the answer's ("deployment", a word of an item's description), is partly right and says
how many are among those asked for; so is one of the items offered as a guess with another ("Deployments or Registry
maybe"). "model registry" names the Model Registry, not Models as well. Typos, the items' descriptions beside them,
and an open list ("Others include ...") are not held against the response."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, Verdict
from tests.quiz.golden import graded

MLFLOW = "What are the four main components"
SERVING = "Name three common techniques"
STAGES = GradingCard(
    "What are the three stages a model version moves through in a registry?",
    "1) Staging (validated before release); 2) Production (serving live traffic); 3) Archived (retired versions).",
)


@pytest.mark.parametrize(
    ("subject", "response", "note"),
    [
        (
            MLFLOW,
            "tracking, projects, model registry, and deployment",
            "Only 3 of your items are among the 4 asked for.",
        ),
        (MLFLOW, "Tracking, Models, Model Registry and Serving", "Only 3 of your items are among the 4 asked for."),
        (STAGES, "staging, production, serving live traffic", "Only 2 of your items are among the 3 asked for."),
    ],
)
def test_an_item_none_of_the_answers_keeps_a_full_list_partial(subject, response, note):
    result = graded(subject, response)
    assert result.verdict is Verdict.PARTIAL, result
    assert note in result.feedback, result


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (MLFLOW, "Tracking, Projects, Models and Model Registry"),
        (MLFLOW, "Trackng, Projcts, Modles, Model Regsitry"),
        (
            MLFLOW,
            "mlflow tracking (log runs), projects (packaging code), models (packaging format), registry (versions)",
        ),
        (STAGES, "Staging, Production and Archived"),
        (SERVING, "batching requests, KV cache, lower precision"),
    ],
)
def test_the_answers_items_typos_and_open_lists_stay_correct(subject, response):
    result = graded(subject, response)
    assert result.verdict is Verdict.CORRECT, result
    assert "asked for." not in result.feedback, result


@pytest.mark.parametrize(
    ("subject", "response", "offered"),
    [
        (MLFLOW, "Tracking, Projects, Models and Deployments or Registry maybe", "'deployments' or 'registry'"),
        (MLFLOW, "Tracking, Projects, Models, and Registry or Serving", "'registry' or 'serving'"),
        (
            MLFLOW,
            "Tracking, Projects, Models, Registry (or maybe it's called Deployments)",
            "'registry' or 'deployments'",
        ),
        (STAGES, "Staging, Production or Serving, and Archived", "'production' or 'serving'"),
    ],
)
def test_an_item_offered_as_a_guess_with_another_is_not_named(subject, response, offered):
    result = graded(subject, response)
    assert result.verdict is Verdict.PARTIAL, result
    assert f"You offer {offered}" in result.feedback, result


@pytest.mark.parametrize(
    "response",
    [
        "Tracking, Projects, Models or Model Registry",  # "or" before the last of a list: all four named
        "Tracking, Projects, Models, and Registry (also called the Model Registry or registry)",
    ],
)
def test_or_between_two_of_the_answers_items_is_no_guess(response):
    result = graded(MLFLOW, response)
    assert result.verdict is Verdict.CORRECT, result
