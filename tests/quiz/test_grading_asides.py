"""Golden tests: a response that covers only what the answer's point is about ("frameworks" of "interoperability
between different ML frameworks") is at most partly right, and that word alone wrong (asides.py), unless it relates
it as the answer does ("moved between frameworks"); saying one of what the answer relates several of ("a single
framework", "framework-specific") says the opposite and earns nothing for it (opposites.py)."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, Verdict
from tests.quiz.golden import ONNX_FLASH, graded

CONTAINER = GradingCard(
    "What is the main benefit of shipping a service as a container image?",
    "It runs the same service reproducibly across different host machines.",
)


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (ONNX_FLASH, "It is faster than other frameworks"),
        (CONTAINER, "It works on host machines"),
    ],
)
def test_only_what_the_point_is_about_is_partly_right(subject, response):
    result = graded(subject, response)
    assert result.verdict is Verdict.PARTIAL, result
    assert "say what it says of it" in result.feedback


@pytest.mark.parametrize(
    ("subject", "response"),
    [(ONNX_FLASH, "frameworks"), (ONNX_FLASH, "ML frameworks"), (CONTAINER, "machines")],
)
def test_the_word_for_what_the_point_is_about_alone_earns_nothing(subject, response):
    result = graded(subject, response)
    assert result.verdict is Verdict.INCORRECT, result
    assert "say what it says of it" in result.feedback


@pytest.mark.parametrize(
    ("subject", "response", "phrase"),
    [
        (ONNX_FLASH, "It is tied to a single framework", "single framework"),
        (ONNX_FLASH, "It makes the model framework-specific", "framework-specific"),
        (ONNX_FLASH, "It locks a model to one framework", "one framework"),
        (ONNX_FLASH, "It ties the model to a single framework. Other formats do not.", "single framework"),
        (CONTAINER, "It only ever runs on one machine", "one machine"),
    ],
)
def test_one_of_what_the_answer_relates_several_of_is_wrong(subject, response, phrase):
    result = graded(subject, response)
    assert result.verdict is Verdict.INCORRECT, result
    assert f"'{phrase}' says the opposite of the answer." in result.feedback


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (ONNX_FLASH, "interoperability"),
        (ONNX_FLASH, "Models can be moved between different frameworks"),
        (ONNX_FLASH, "models aren't tied to one framework"),
        (ONNX_FLASH, "export it from one framework and run it in another"),
        (ONNX_FLASH, "export from one framework, run in another"),
        (ONNX_FLASH, "cross-framework compatibility"),
        (CONTAINER, "It runs reproducibly on any machine"),
    ],
)
def test_the_point_or_the_answers_relation_is_right(subject, response):
    result = graded(subject, response)
    assert result.verdict is Verdict.CORRECT, result
    assert "says the opposite" not in result.feedback


def test_in_a_comparison_one_thing_may_be_single():
    result = graded("Compare PyTorch's DataParallel", "DDP scales across multiple nodes; DP is single node only.")
    assert "says the opposite" not in result.feedback, result


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("it lets a PyTorch model run in TensorFlow", Verdict.CORRECT),
        ("you can train in PyTorch and run the model in another runtime like TensorRT", Verdict.CORRECT),
        ("you can deploy PyTorch models in ONNX Runtime", Verdict.CORRECT),  # a name of two words
        ("TensorFlow and PyTorch are fast", Verdict.PARTIAL),  # two named, nothing moved between them
        ("PyTorch", Verdict.INCORRECT),  # one product named is no framework of the answer's
        ("it only works in PyTorch", Verdict.INCORRECT),
    ],
)
def test_a_model_moved_between_two_named_frameworks_is_interoperability(response, verdict):
    assert graded(ONNX_FLASH, response).verdict is verdict
