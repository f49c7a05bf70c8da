"""Golden tests: "it" and "its" stand for the subject of the clause before (pronouns.py), so "The model is too big,
so its layers are split" splits the model, which data parallelism copies (bindings.py)."""

from __future__ import annotations

import pytest

from apps.quiz.grading import Verdict, grade
from tests.quiz.golden import card

DATA_PARALLEL = "What is data parallelism"
MODEL_PARALLEL = "What is model parallelism"


@pytest.mark.parametrize(
    "response",
    [
        "The model is too big for one GPU so its layers are split across several GPUs, each computing part of the "
        "forward pass.",
        "The model does not fit on one device, so it is split across several devices.",
        # "each" that is not the clause's subject leaves "its" and "it" the model's
        "The model does not fit on one GPU, so each of its layers is split across GPUs.",
        "The model does not fit on one GPU, so on each device it is split into layers.",
    ],
)
def test_a_pronoun_for_the_model_split_is_the_model_split(response):
    result = grade(card(DATA_PARALLEL), response)
    assert result.verdict is Verdict.INCORRECT, result
    assert "says the opposite of the answer" in result.feedback, result


@pytest.mark.parametrize(
    ("subject", "response"),
    [
        (
            DATA_PARALLEL,
            "The model is copied to every GPU and its copies each get a different shard of the batch; "
            "gradients are averaged with all-reduce.",
        ),
        (
            DATA_PARALLEL,
            "Each GPU holds a replica of the model, and it gets its own slice of the batch.",
        ),
        # "its own" after "each" is each GPU's, not the model's of the clause before
        (DATA_PARALLEL, "The model is copied to every GPU, each gets its own slice of the batch."),
        (
            MODEL_PARALLEL,
            "The model is too big for one GPU, so its layers are split across several GPUs.",
        ),
    ],
)
def test_a_pronoun_for_what_the_answer_treats_that_way_is_no_fault(subject, response):
    result = grade(card(subject), response)
    assert "says the opposite" not in result.feedback, result
    assert result.verdict is not Verdict.INCORRECT, result
