"""Golden tests for general rules added after measuring a holdout written independently of the grader: tool
abbreviations, products, synonyms, bit widths, spellings, focused fragments, two-part questions, and the holdout's
own coverage."""

from __future__ import annotations

import pytest

from apps.quiz import grading, prose
from apps.quiz.grading import GradingCard, grade
from tests.quiz.golden import (
    ALL_REDUCE_CARD,
    BF16,
    CORRECT,
    DATA_PARALLEL,
    DDP,
    DISTILLATION,
    HOLDOUT,
    INCORRECT,
    JOB,
    KERAS,
    LOSS_SCALING,
    MIXED,
    MIXED_FLAG,
    ONNX_PROBLEM,
    PARTIAL,
    QUANTIZATION,
    SAMPLE,
    SYSTOLIC,
    card,
    check,
    rows_of,
    seed_cards,
)


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        (JOB, "K8s Job", CORRECT),
        (JOB, "k8s jobs", CORRECT),
        (JOB, "a kube Job", CORRECT),
        (JOB, "a batch/v1 Job", CORRECT),  # its API group and version, as a manifest names it
        (DDP, "torch DDP", CORRECT),
        (DDP, "Torch Distributed Data Parallel", CORRECT),
        (DDP, "torch.nn.parallel.DistributedDataParallel", CORRECT),  # the class by its module path
        # the abbreviation stands for the tool, never for a different term next to it
        (JOB, "K8s CronJob", INCORRECT),
        (JOB, "batch/v1 CronJob", INCORRECT),
        (JOB, "apps/v1 Deployment", INCORRECT),
        (JOB, "k8s Deployment", INCORRECT),
        (JOB, "K8s", INCORRECT),
        (DDP, "torch DataParallel", INCORRECT),
        (DDP, "torch.nn.DataParallel", INCORRECT),
    ],
)
def test_tool_abbreviations_read_as_the_tools_name(prefix, response, verdict):
    assert grade(card(prefix), response).verdict is verdict


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("PyTorch", PARTIAL),
        ("I think PyTorch", PARTIAL),
        ("torch", PARTIAL),
        ("PyTorch framework", PARTIAL),
        ("Data Parallel", INCORRECT),
        ("PyTorch DataParallel", INCORRECT),
        ("PyTorch or TensorFlow", INCORRECT),
        ("TensorFlow", INCORRECT),
        ("Distributed", INCORRECT),
    ],
)
def test_naming_only_the_product_a_term_belongs_to_is_partial(response, verdict):
    result = grade(card(DDP), response)
    assert result.verdict is verdict, result
    if verdict is PARTIAL:
        assert result.score == grading.HEDGE_SCORE
        assert "PyTorch Distributed Data Parallel" in result.feedback


def test_the_product_must_lead_the_term_and_be_written_as_a_name():
    example = GradingCard("Which TPU unit multiplies matrices?", "Matrix Unit (MXU)", "Matrix Unit (MXU)", "flashcard")
    assert grade(example, "Matrix").verdict is INCORRECT  # an ordinary word, not a product
    job = GradingCard("Which Kubernetes object runs once?", "Kubernetes Job", "Kubernetes Job", "flashcard")
    assert grade(job, "Kubernetes").verdict is INCORRECT  # the question already names it


def test_compound_and_spaced_synonyms_are_one_entry():
    from apps.quiz.synonyms import groups_of, groups_of_pair
    from apps.quiz.textnorm import stem

    assert groups_of(stem("multiplyaccumulate")) & groups_of("mac")
    assert groups_of(stem("multiplyaccumulate")) == groups_of_pair(stem("multiply"), stem("accumulate"))
    check(grade(card(SYSTOLIC), "A 2D mesh of MAC units."), PARTIAL, 0.4, 0.74)


@pytest.mark.parametrize(
    "response",
    ["QAT gives higher accuracy.", "QAT gives better accuracy.", "QAT is more accurate, at the same bit-width."],
)
def test_everyday_words_for_the_answers_comparison_earn_its_terms(response):
    assert grade(card("Contrast post-training quantization"), response).verdict is PARTIAL


@pytest.mark.parametrize(
    ("prefix", "response", "verdict", "clash"),
    [
        (MIXED, "It combines 16-bit and 32-bit floats.", PARTIAL, ""),
        (MIXED, "It combines 16 bit and 32 bit floats.", PARTIAL, ""),
        (MIXED, "It combines 64-bit and 32-bit floats.", INCORRECT, "64-bit is not"),
        (MIXED, "It combines INT8 and FP64.", INCORRECT, "INT8 is not"),
        (QUANTIZATION, "Converting weights to 8-bit.", INCORRECT, ""),
        # "32 bits" is FP32's spelling: both words are spent on it, not counted again as "bits"
        (BF16, "BF16 has 32 bits.", INCORRECT, ""),
        # "float16" spells FP16, which the answer has: no stand-in for its FP32
        (BF16, "bfloat16 has a wider dynamic range than float16 so no loss scaling is needed", CORRECT, ""),
    ],
)
def test_bit_widths_are_spellings_of_the_formats(prefix, response, verdict, clash):
    result = grade(card(prefix), response)
    assert result.verdict is verdict, result
    if clash:
        assert clash in result.feedback
    else:
        assert " is not " not in result.feedback  # "8-bit" earned INT8's credit: no stand-in for "32-bit"


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("Interoperabilty", CORRECT),  # the stemmer cuts "-ity" from one spelling only
        ("interoprability", CORRECT),
        ("It enables interoperabilty between diferent ML frameworks", CORRECT),
        ("Interpretability", INCORRECT),  # another word, not a typo
    ],
)
def test_typos_are_judged_on_whole_words_too(response, verdict):
    assert grade(card(ONNX_PROBLEM), response).verdict is verdict


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("behaviour", "behavior"),
        ("neighbours", "neighbors"),
        ("favoured", "favored"),
        ("analyse", "analyze"),
        ("analysed", "analyzed"),
        ("catalogue", "catalog"),
        ("artefacts", "artifacts"),
        ("optimisation", "optimization"),
        ("quantised", "quantized"),
    ],
)
def test_british_spellings_share_the_american_stem(british, american):
    from apps.quiz.textnorm import stem

    assert stem(british) == stem(american)


@pytest.mark.parametrize(("word", "other"), [("hour", "hor"), ("four", "for"), ("tour", "tor"), ("analysis", "analyz")])
def test_short_words_ending_like_british_spellings_are_left_alone(word, other):
    from apps.quiz.textnorm import stem

    assert stem(word) != stem(other)


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        (DATA_PARALLEL, "Splitting the data across GPUs.", PARTIAL),
        (BF16, "BF16 has a wider range than FP16.", PARTIAL),
        (DISTILLATION, "The teacher is the big model and the student is the small model.", PARTIAL),
        ("How do GPUs and TPUs differ", "TPUs use systolic arrays.", PARTIAL),
        ("How do GPUs and TPUs differ", "GPUs have tensor cores.", PARTIAL),
        # one off-target word, or a single term, is no focused fragment
        ("What does the all-reduce", "All-reduce reduces all the gradients.", INCORRECT),
        ("How do GPUs and TPUs differ", "TPUs use systolic arrays and blockchains.", INCORRECT),
        (DATA_PARALLEL, "Splitting the data across GPUs using Kafka.", INCORRECT),
        (MIXED, "It combines INT8 and FP64.", INCORRECT),
        (DATA_PARALLEL, "banana kettle", INCORRECT),
        ("What is the Hyperband", "It halves the learning rate every epoch.", INCORRECT),
    ],
)
def test_a_focused_fragment_of_the_answer_is_at_least_partial(prefix, response, verdict):
    result = grade(card(prefix), response)
    assert result.verdict is verdict, result


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        (KERAS, "The full model format keeps the architecture too.", PARTIAL),
        (LOSS_SCALING, "Small gradients underflow to zero in FP16.", PARTIAL),
        (
            LOSS_SCALING,
            "FP16 can't represent tiny gradients so they underflow to zero; multiply the loss by a large factor "
            "before backward and unscale the gradients before the optimizer step.",
            CORRECT,
        ),
        (
            KERAS,
            "A .keras file holds architecture, weights and optimizer state so it reloads ready to use; a weights "
            "file holds only parameters, so you must reconstruct the same architecture before loading.",
            CORRECT,
        ),
        # a question that asks one thing is not capped
        (
            ALL_REDUCE_CARD,
            "It sums or averages the gradients from all workers and gives every worker back the same result.",
            CORRECT,
        ),
    ],
)
def test_a_two_part_question_answered_on_one_part_is_partial(prefix, response, verdict):
    result = grade(card(prefix), response)
    assert result.verdict is verdict, result
    if verdict is PARTIAL:
        assert result.score <= prose.ONE_PART_CAP


def test_the_holdout_covers_every_seed_card_with_every_label():
    rows = rows_of(HOLDOUT)
    assert len(rows) >= 80
    assert {row["expected"] for row in rows} == {"correct", "partial", "incorrect"}
    assert {row["question"] for row in rows} == set(seed_cards())
    sample = {(row["question"], row["answer"].strip().casefold()) for row in rows_of(SAMPLE)}
    assert not [row for row in rows if (row["question"], row["answer"].strip().casefold()) in sample]


def test_feedback_names_key_terms_as_the_answer_writes_them_together():
    result = grade(card(LOSS_SCALING), "it makes training faster")
    assert result.verdict is INCORRECT
    assert "limited dynamic range" in result.feedback  # one phrase, in the answer's order
    assert "dynamic, range" not in result.feedback and "range and limited" not in result.feedback
    assert set(result.missing) >= {"limited", "dynamic", "range"}  # the terms themselves stay separate


# --- QA round 2: negation, direction, notation, truthful feedback ---------------------------------------------


def test_a_version_number_makes_another_word_not_an_extension_of_it():
    from apps.quiz.textnorm import stems_related

    assert not stems_related("float", "float16")
    assert not stems_related("bfloat", "bfloat16")
    assert stems_related("replica", "replicat")


@pytest.mark.parametrize("prefix", [MIXED_FLAG, MIXED])
def test_feedback_never_credits_a_format_the_response_does_not_name(prefix):
    result = grade(card(prefix), "uses 64-bit floats")
    assert result.verdict is INCORRECT
    assert "FP16" not in result.matched and "BF16" not in result.matched
    assert "mentioned FP16" not in result.feedback and "mentioned BF16" not in result.feedback
