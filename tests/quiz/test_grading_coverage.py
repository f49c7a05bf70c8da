"""Golden tests: key-term coverage of long answers (derived and authored terms, alternatives, acronyms, feedback),
and no credit for echoing the question, keyword lists or padding."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from apps.quiz.grading import grade
from tests.quiz.golden import (
    CHECKPOINTING,
    CORRECT,
    DATA_PARALLEL,
    INCORRECT,
    JOB,
    MIXED_FLAG,
    MODEL_PARALLEL,
    ONNX_FLASH,
    PARTIAL,
    REGISTRY,
    TF_DATA,
    card,
    check,
)


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        (
            DATA_PARALLEL,
            "Every GPU keeps a full copy of the network and processes its own slice of each batch; the gradients "
            "are then averaged across GPUs with an all-reduce so all copies stay in sync.",
            CORRECT,
        ),
        (DATA_PARALLEL, "You split the training data across multiple GPUs.", PARTIAL),
        (
            DATA_PARALLEL,
            "Model parallelism: the network's layers are placed on different GPUs because the model is too large "
            "for one GPU's memory.",
            INCORRECT,
        ),
        (
            MODEL_PARALLEL,
            "When the network is too big for one GPU's memory, its layers or tensors are split across several "
            "devices, each computing part of the model.",
            CORRECT,
        ),
        (CHECKPOINTING, "It trades extra compute for less memory.", PARTIAL),
        (CHECKPOINTING, "It saves model checkpoints to disk every few epochs so training can resume.", INCORRECT),
        (REGISTRY, "It stores versions of models and handles moving them from staging to production.", CORRECT),
        (ONNX_FLASH, "interoperability", CORRECT),
        (TF_DATA, "GPU kernel scheduling", INCORRECT),
    ],
)
def test_key_term_coverage(prefix, response, verdict):
    assert grade(card(prefix), response).verdict is verdict


def test_terms_the_answer_offers_as_alternatives_are_covered_by_either():
    """ "FP16 or BF16": a response with FP16 alone is not missing BF16."""
    for response, other in (("FP16", "BF16"), ("BF16", "FP16")):
        result = grade(card(MIXED_FLAG), f"it runs the forward and backward passes in {response} to save memory")
        assert not any(other in term for term in result.missing), result
        assert result.verdict is CORRECT, result


def _syllabus(question: str, answer: str) -> SimpleNamespace:
    return SimpleNamespace(question=question, answer=answer, short_answer="", kind="syllabus", aliases=[], key_terms=[])


def test_a_chain_of_alternatives_is_one_term_any_of_them_covers():
    chain = _syllabus("Which formats does it compute in?", "It computes in FP16 or BF16 or FP8 to save memory.")
    for name in ("FP16", "BF16", "FP8"):
        result = grade(chain, f"in {name}, to save memory")
        assert result.verdict is CORRECT and not result.missing, (name, result)


@pytest.mark.parametrize(
    "answer",
    [
        "ONNX (Open Neural Network Exchange) is an open standard format so models move between frameworks.",
        "The Open Neural Network Exchange (ONNX) is an open standard format so models move between frameworks.",
    ],
)
def test_the_acronym_spelled_out_either_way_only_names_it_again(answer):
    result = grade(_syllabus("What is ONNX?", answer), "Open Neural Network Exchange")
    assert result.verdict is INCORRECT, result


def test_the_acronym_spelled_out_in_a_response_is_no_off_target_word():
    # Once "Incorrect": the four spelled-out words counted as content that earned nothing.
    result = grade(
        card("What is ONNX and what problem"), "Open Neural Network Exchange, for interoperability between frameworks"
    )
    assert result.verdict is PARTIAL, result


def test_coverage_feedback_names_covered_and_missing_terms():
    result = grade(card(DATA_PARALLEL), "Each GPU has a copy of the model and its own shard of the data.")
    assert result.verdict is PARTIAL
    assert "shard" in result.matched
    assert "gradients" in result.missing
    assert "Missing: " in result.feedback and "gradients" in result.feedback.split("Missing: ")[1]
    assert len(result.feedback) < 200


def test_coverage_feedback_does_not_claim_the_student_wrote_the_answers_synonym():
    # "copy" and "GPU" cover the answer's 'replicated' and 'device': covered, not "used".
    result = grade(card(DATA_PARALLEL), "Each GPU has a copy of the model and its own shard of the data.")
    assert {"replicated", "device"} <= set(result.matched)
    assert result.feedback.startswith("You covered 'replicated', 'device' and 'shard'.")
    assert "you used" not in result.feedback.lower()


def test_authored_key_terms_override_the_derived_ones():
    automatic = card(DATA_PARALLEL)
    authored = dataclasses.replace(automatic, key_terms=("NCCL|nickel",))
    good = "Each replica gets a shard of the mini-batch and the gradients are all-reduced."
    assert grade(automatic, good).verdict is CORRECT
    check(grade(authored, good), INCORRECT, 0.0, 0.39)
    check(grade(authored, "They talk through NCCL."), CORRECT, 1.0, 1.0)
    assert grade(authored, "nickel").verdict is CORRECT


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (DATA_PARALLEL, "splitting the model's layers across GPUs because it's too big for one GPU"),
        (MODEL_PARALLEL, "replicate the model on every GPU and give each a different part of the batch"),
    ],
)
def test_data_and_model_parallelism_the_wrong_way_round_are_wrong(prefix, response):
    """The same words as the other concept's answer, bound the other way: what is split and what is copied."""
    result = grade(card(prefix), response)
    assert result.verdict is INCORRECT, result
    assert "says the opposite of the answer" in result.feedback


def test_an_authored_key_term_that_only_repeats_the_question_earns_nothing():
    # "batch" is in the Job card's question: copying the question is no evidence; its synonym "one-off" is.
    authored = dataclasses.replace(card(JOB), key_terms=("batch|one-off",))
    check(grade(authored, "batch"), INCORRECT, 0.0, 0.0)
    check(grade(authored, "a one-off"), CORRECT, 1.0, 1.0)
    assert grade(authored, "CronJob").missing == ("one-off",)
    # With only question words given, the card grades as if it had no key terms: the term "Job" is wanted.
    alone = dataclasses.replace(card(JOB), key_terms=("batch",))
    assert grade(alone, "batch").feedback == "The expected answer is Job."
    assert grade(alone, "Job").verdict is CORRECT


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("Copies of the model on every GPU, a split of the batch each, gradients synchronised.", CORRECT),
        ("copy of the model, split the batch, allreduce", CORRECT),
        ("copy of the model; all-reduce", PARTIAL),
        ("all reduce", PARTIAL),
        ("each GPU gets a split of the batch", PARTIAL),
        ("the model is big", INCORRECT),
    ],
)
def test_authored_terms_accept_their_pipe_separated_synonyms(response, verdict):
    authored = dataclasses.replace(
        card(DATA_PARALLEL),
        key_terms=("replica|copy of the model", "shard|split the batch", "all-reduce|allreduce|synchronise gradients"),
    )
    assert grade(authored, response).verdict is verdict


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (DATA_PARALLEL, "What is data parallelism in distributed training?"),
        (DATA_PARALLEL, "data parallelism in distributed training"),
        (JOB, "What resource type is typically used to run a one-time batch training job?"),
        (DATA_PARALLEL, "banana kettle umbrella violin"),
        (DATA_PARALLEL, "I don't know"),
        # what the question's acronym stands for, which the model answer spells out, only names it again
        ("What is ONNX and what problem", "Open Neural Network Exchange"),
        (ONNX_FLASH, "Open Neural Network Exchange"),
    ],
)
def test_echoing_the_question_or_unrelated_words_is_incorrect(prefix, response):
    check(grade(card(prefix), response), INCORRECT, 0.0, 0.39)


def test_keyword_lists_and_padding_are_not_rewarded():
    data_parallel = card(DATA_PARALLEL)
    keywords = "gpu model batch gradient optimizer epoch loss tensor layer kernel cuda"
    assert grade(data_parallel, keywords).verdict is not CORRECT
    good = "Each GPU has a replica of the model and a shard of the batch; gradients are all-reduced and averaged."
    padding = " ".join(["Transformers use attention heads, tokenizers, embeddings and positional encodings."] * 30)
    assert grade(data_parallel, good + " " + padding).score < grade(data_parallel, good).score
    ml_dump = " ".join(["tensor kernel epoch dropout attention embedding optimizer scheduler"] * 25)
    assert grade(data_parallel, ml_dump).verdict is INCORRECT
