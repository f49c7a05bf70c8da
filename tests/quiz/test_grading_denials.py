"""Golden tests: a response that rules out the answer, denies what it affirms or claims the other direction loses
its credit; negation that agrees with the answer costs nothing."""

from __future__ import annotations

import pytest

from apps.quiz.grading import grade
from tests.quiz.golden import (
    ALL_REDUCE_CARD,
    BF16,
    CHECKPOINTING,
    CORRECT,
    DATA_PARALLEL,
    DDP,
    DISTILLATION,
    DYNAMIC_BATCHING,
    FEATURE_SKEW,
    GA_DIVIDE,
    INCORRECT,
    JOB,
    LOSS_SCALING,
    MIXED_FLAG,
    MODEL_PARALLEL,
    ONNX_FLASH,
    ONNX_SYLLABUS,
    PARTIAL,
    PTQ_QAT,
    QUANTIZATION,
    REGISTRY,
    TF_DATA,
    card,
    check,
)


@pytest.mark.parametrize(
    ("prefix", "response", "ruled_out"),
    [
        (JOB, "not a Job", "Job"),
        (JOB, "Not a job.", "Job"),
        (JOB, "isn't a Job", "Job"),
        (JOB, "Definitely not a Kubernetes Job", "Job"),
        (JOB, "never a Job", "Job"),
        (JOB, "I don't think it's a Job", "Job"),
        (JOB, "a Deployment rather than a Job", "Job"),
        (JOB, "instead of a Job, a Deployment", "Job"),
        (JOB, "neither a Deployment nor a Job", "Job"),
        (JOB, "not a Job but a Deployment", "Job"),
        # taken back in the next clause
        (JOB, "Job? No.", "Job"),
        (JOB, "A Job. Definitely not.", "Job"),
        (JOB, "Job... no, it isn't", "Job"),
        (JOB, "Job? Nope, a CronJob", "Job"),
        (DDP, "Not DDP, Horovod", "DDP"),
        (DDP, "Horovod rather than DDP", "DDP"),
        (DDP, "anything except PyTorch DDP", "PyTorch DDP"),
    ],
)
def test_a_response_that_rules_out_the_answer_earns_nothing_for_it(prefix, response, ruled_out):
    result = grade(card(prefix), response)
    check(result, INCORRECT, 0.0, 0.0)
    assert "rules out" in result.feedback
    assert result.matched == ()


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        # the negation is about another term, or in another clause, or not a negation at all
        (JOB, "Job, not a Deployment"),
        (JOB, "A Job. Not a Deployment."),
        (JOB, "It's not a Deployment, it's a Job"),
        (JOB, "not a Deployment but a Job"),
        (JOB, "Not a CronJob but a Job"),
        (JOB, "Job (not CronJob)"),
        (JOB, "a Job rather than a Deployment"),
        (JOB, "No, a Job"),
        (JOB, "I'm not sure, but I think it's a Job"),
        (JOB, "not sure, Job"),
        (JOB, "Isn't it a Job?"),
        (JOB, "Job, no?"),
        (JOB, "Job. No doubt."),
        (JOB, "Job. Not sure, though."),
        (JOB, "Job. No CronJob needed."),
        (DDP, "DDP, not Horovod"),
        (DDP, "Not DP, DDP"),
        (DDP, "not DataParallel but DistributedDataParallel"),
    ],
)
def test_negation_elsewhere_in_a_right_answer_costs_nothing(prefix, response):
    check(grade(card(prefix), response), CORRECT, 1.0, 1.0)


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("not TensorFlow but PyTorch", PARTIAL),  # names only the product: partly right, as "PyTorch" is
        ("PyTorch, not TensorFlow", PARTIAL),
        ("not PyTorch", INCORRECT),
    ],
)
def test_negation_and_the_product_a_term_belongs_to(response, verdict):
    assert grade(card(DDP), response).verdict is verdict


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (BF16, "BF16 has the same exponent range as FP32 with 8 exponent bits, so it does not need loss scaling."),
        (
            ALL_REDUCE_CARD,
            "It sums the gradients from all workers and gives every worker the same result, so there are no "
            "synchronisation issues because all-reduce keeps the replicas identical.",
        ),
    ],
)
def test_negation_in_a_prose_answer_is_not_read_as_ruling_out_a_key_term(prefix, response):
    assert grade(card(prefix), response).verdict is CORRECT


@pytest.mark.parametrize(
    ("prefix", "response", "verdict", "phrase"),
    [
        (QUANTIZATION, "increase precision of weights from int8 to fp32", INCORRECT, "'increase precision'"),
        (QUANTIZATION, "raise the precision", INCORRECT, "'raise the precision'"),
        (BF16, "BF16 has more mantissa bits than FP16 so it is more precise.", INCORRECT, "'more precise'"),
        # the main claim right, a secondary one reversed: partly right
        (QUANTIZATION, "It reduces precision to INT8, which increases the memory bandwidth", PARTIAL, "'increases"),
        (BF16, "BF16 has the same exponent range as FP32 but more precision than FP16", PARTIAL, "'more precision'"),
        # "memory use" measures memory: a claim about memory, which the answer reduces
        (CHECKPOINTING, "It increases memory use but reduces compute.", INCORRECT, "'increases memory use'"),
        # "extra" and "additional" say more, as "increase" does: the trade-off the wrong way round
        (CHECKPOINTING, "It recomputes activations: extra memory for less compute.", INCORRECT, "'extra memory"),
        # the answer's "to improve ... throughput" and "added per-request latency" are claims too
        ("What is dynamic batching", "Batching requests: it lowers latency, costing throughput.", INCORRECT, "lowers"),
    ],
)
def test_a_claim_that_goes_the_other_way_than_the_answer_costs_credit(prefix, response, verdict, phrase):
    result = grade(card(prefix), response)
    assert result.verdict is verdict, result
    assert f"{phrase}" in result.feedback and "says the opposite of the answer" in result.feedback


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (QUANTIZATION, "reduce precision of weights from fp32 to int8"),
        (QUANTIZATION, "Quantization lowers the precision of weights from FP32 to INT8 to shrink the model"),
        (QUANTIZATION, "It does not increase precision; it reduces the precision of weights to int8 from fp32."),
        # about the other format, or compared the other way round: the same fact
        (BF16, "FP16 has more precision than BF16, but BF16 has the exponent range of FP32 so needs no loss scaling"),
        (BF16, "FP16 has more mantissa bits. It is more precise, but BF16 has FP32's exponent range."),
        (CHECKPOINTING, "It trades extra compute for less memory by recomputing activations in the backward pass."),
        (MIXED_FLAG, "FP16/BF16 for forward and backward passes: it reduces memory usage and increases throughput"),
    ],
)
def test_claims_that_go_the_answers_way_cost_nothing(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is CORRECT, result
    assert "opposite" not in result.feedback


def test_claims_of_direction_are_read_with_their_subject_and_comparison():
    from apps.quiz.directions import claims

    (claim,) = claims("BF16 is more precise than FP16.")
    assert (claim.sense, claim.head, claim.than, claim.subject) == (1, "precise", "fp16", "bf16")
    assert claims("It does not reduce precision.") == ()  # negated: no claim either way
    assert claims("a wider dynamic range avoids overflow") == ()  # a clause, not a noun
    # A second object joined by "and" goes the same way as the first; a clause with its own verb is not one.
    improve = claims("to improve GPU utilization and throughput")
    assert [(c.sense, c.head) for c in improve] == [(1, "utilization"), (1, "throughput")]
    assert [c.head for c in claims("it reduces memory and compute increases")] == ["memory"]


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (ONNX_FLASH, "it does not enable interoperability between frameworks"),
        (ONNX_FLASH, "interoperability between frameworks is not the advantage"),
        (ONNX_FLASH, "It prevents interoperability between frameworks"),
        (ONNX_FLASH, "no interoperability between frameworks"),
        (ONNX_FLASH, "Interoperability between frameworks? No."),
        (ONNX_FLASH, "Not interoperability, it makes models faster."),
        (ONNX_SYLLABUS, "ONNX does not make models interoperable; a model stays tied to the framework it came from."),
        (FEATURE_SKEW, "not discrepancies between offline and online features"),
        (REGISTRY, "not to manage model versioning"),
        (TF_DATA, "It does not optimize data ingestion or preprocessing throughput."),
        (
            DYNAMIC_BATCHING,
            "Requests are handled one at a time individually as they arrive, never grouped, so there is no "
            "throughput trade-off",
        ),
        (DYNAMIC_BATCHING, "Dynamic batching does not batch requests; each is served alone."),
        (DATA_PARALLEL, "The model is not replicated: each GPU holds a different part of the model."),
        (ALL_REDUCE_CARD, "It does not sum the gradients; each worker keeps its own."),
    ],
)
def test_a_response_that_denies_what_the_answer_affirms_is_incorrect(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is INCORRECT, result
    assert "says the opposite of the answer" in result.feedback


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        # the answer denies it too: "NOT storing", "needs no loss scaling", "without retraining", "too large to fit"
        (
            CHECKPOINTING,
            "It saves memory by not storing all intermediate activations during the forward pass; they are "
            "recomputed in the backward pass at the cost of extra compute.",
        ),
        (
            BF16,
            "BF16 has 8 exponent bits and 7 mantissa bits, FP16 has 5 and 10; BF16 has FP32's range so it needs no "
            "loss scaling, but it is less precise.",
        ),
        (
            PTQ_QAT,
            "PTQ quantizes a trained model without retraining; QAT simulates quantization during training so the "
            "model learns to be robust.",
        ),
        (MODEL_PARALLEL, "The model doesn't fit on a single GPU, so its layers are split across devices."),
        # a reason or purpose: what a right answer says of the problem
        (
            LOSS_SCALING,
            "Multiply the loss by a big factor so small FP16 gradients don't underflow to zero, then unscale "
            "before the optimizer step.",
        ),
        (GA_DIVIDE, "Without dividing, the accumulated gradient is a sum, not the mean over the effective batch."),
        # the denial is of a word the answer does not use, or of another thing
        (FEATURE_SKEW, "Features computed offline for training don't match those computed online at inference."),
        (ONNX_FLASH, "Interoperability between frameworks, not speed."),
        (ONNX_FLASH, "It lets you move models between frameworks without being locked into one: interoperability."),
        (
            ONNX_SYLLABUS,
            "An open standard format for models as a computation graph, so a model trained in PyTorch can run in "
            "another runtime; no framework lock-in.",
        ),
        (
            DATA_PARALLEL,
            "Each GPU holds a full copy of the model, not a slice, and processes a different shard of the data; "
            "gradients are averaged with all-reduce.",
        ),
        (
            DISTILLATION,
            "A small student model is trained to mimic a large teacher's soft outputs, not just the hard labels.",
        ),
    ],
)
def test_negation_that_agrees_with_the_answer_costs_nothing(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is CORRECT, result
    assert "opposite" not in result.feedback


def test_denials_are_read_by_clause_and_head():
    from apps.quiz.polarity import scopes
    from apps.quiz.textnorm import fold, tokenize

    def denied(text: str) -> list[list[str]]:
        tokens = tokenize(fold(text))
        return [[tokens[i].surface for i in s.positions] for s in scopes(tokens, frozenset({"advantage"}))]

    assert denied("it does not enable interoperability, but speed") == [["enable", "interoperability"]]
    assert denied("interoperability is not the advantage") == [["interoperability"]]
    assert denied("Job? No.") == [["Job"]]
    assert denied("not only speed") == [] and denied("isn't it speed?") == []
