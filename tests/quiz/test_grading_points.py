"""Golden tests: a short answer that makes one real point of the model answer in a word or two of its own is
partly right, as a person marks it, however little of a long answer it covers; a subject-matter word, a circular
definition, a denial or extra off-target words earn no such credit. A comparison answered with "there is no
difference" is wrong whatever words of the answer it names."""

from __future__ import annotations

import pytest

from apps.quiz.grading import PARTIAL_AT, Verdict, grade
from tests.quiz.golden import ALL_REDUCE_CARD, DIVIDE_LOSS, KERAS, MIXED_FLAG, SYSTOLIC, TF_DATA, card

CORRECT, PARTIAL, INCORRECT = Verdict.CORRECT, Verdict.PARTIAL, Verdict.INCORRECT
TRACKING = "What is the purpose of experiment tracking"
VERSIONING = "What is model versioning"
DP_DDP = "Compare PyTorch's DataParallel"


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (TRACKING, "Reproducibility."),
        (MIXED_FLAG, "It speeds up training."),
        (VERSIONING, "So you can roll back to a previous model."),
        (SYSTOLIC, "Lots of multiply-accumulates in parallel."),
        # prefetching is loading data ahead of time: the ingestion the answer names (synonyms.py)
        (TF_DATA, "Prefetching."),
        (TF_DATA, "It prefetches."),
        # everyday words for the answer's terms (synonyms.py): "earlier" for "previous", GPT for an LLM
        (VERSIONING, "So you can go back to an earlier model."),
        ("What is model parallelism", "when it is a big model, e.g. GPT"),
        # an acronym in parentheses after what it stands for is the name, weighed as such, not an aside
        ("How do GPUs and TPUs differ", "TPUs are ASICs."),
    ],
)
def test_one_real_point_in_a_word_or_two_is_partly_right(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is PARTIAL, result
    assert result.score >= PARTIAL_AT
    assert result.feedback.startswith("You covered ")


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        # the answer's subject matter, used throughout it, is no point
        (ALL_REDUCE_CARD, "It involves the workers."),
        # the subject defined by its own name
        (ALL_REDUCE_CARD, "All-reduce reduces all the gradients."),
        # the point named, and a term of the answer denied
        (DIVIDE_LOSS, "the sum, not the average"),
        # more words of its own than a point, most of them off target
        (TRACKING, "Reproducibility, blockchains and bananas."),
        # a point of the answer turned the wrong way
        (MIXED_FLAG, "It increases memory usage."),
        # a benefit from the end of the answer, where the question asks only what the thing is
        ("What is data parallelism", "It is faster."),
    ],
)
def test_no_credit_for_a_word_that_is_no_point_or_comes_with_a_wrong_one(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is INCORRECT, result
    assert result.score == 0.0


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (KERAS, "There is no real difference; both save the same thing."),
        (KERAS, "Saving only weights also keeps the architecture, so basically no difference."),
        (DP_DDP, "They are the same thing."),
        (DP_DDP, "They are basically identical."),
    ],
)
def test_a_comparison_answered_with_no_difference_is_wrong(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is INCORRECT, result
    assert "they are not the same" in result.feedback


def test_saying_they_are_not_the_same_is_no_denial_of_the_difference():
    result = grade(card(KERAS), "They are not the same thing: the full model keeps the architecture too.")
    assert result.verdict is not INCORRECT, result


ONNX = "What is ONNX and"


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        # "ONNX is an open, framework-agnostic standard format for representing machine learning models": its kind
        ("A file format for models.", PARTIAL),
        ("A standard format for ML models.", PARTIAL),
        # traps: the kind of something else, or the kind denied
        ("A file format for images.", INCORRECT),
        ("A format for storing datasets.", INCORRECT),
        ("It is not a format for models, it is a framework.", INCORRECT),
    ],
)
def test_naming_what_kind_of_thing_it_is_is_partly_right(response, verdict):
    result = grade(card(ONNX), response)
    assert result.verdict is verdict, result


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        # "A systolic array is a grid of processing elements ... minimizing memory reads/writes": not a memory
        (SYSTOLIC, "A type of GPU memory.", INCORRECT),
        (SYSTOLIC, "It's a type of cache memory on the chip", INCORRECT),
        # the kind the answer names, however qualified, keeps its credit
        (SYSTOLIC, "A kind of grid of multiply-accumulate units.", PARTIAL),
        (ONNX, "A kind of file format for models.", PARTIAL),
    ],
)
def test_putting_it_in_another_kind_of_thing_is_wrong(prefix, response, verdict):
    result = grade(card(prefix), response)
    assert result.verdict is verdict, result


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        # two right items of three: the wrong one's words are one wrong item, not most of the answer
        ("batching; caching; hiring more engineers", PARTIAL),
        # no item right: still wrong
        ("more dropout, a larger learning rate and a new optimizer", INCORRECT),
    ],
)
def test_a_list_question_judges_off_target_words_by_item(response, verdict):
    result = grade(card("Name three common techniques"), response)
    assert result.verdict is verdict, result


def test_a_models_predictions_are_its_outputs():
    # "soft outputs (probability distributions)" in the answer; predictions and logits are what a model outputs
    response = (
        "Shrinking a large teacher model into a small student model, which is trained on the teacher's softened "
        "predictions."
    )
    result = grade(card("What is knowledge distillation"), response)
    assert result.verdict is CORRECT, result
