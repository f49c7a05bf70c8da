"""Golden tests: words whose stems extend one another but name different things (an accelerator is no
acceleration, a product no production) earn no credit for each other, directly or through the synonym table,
while the table's real synonyms still do."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, Verdict, grade
from apps.quiz.synonyms import _SINGLE
from apps.quiz.textnorm import stem, stems_related
from tests.quiz.golden import card, graded

CORRECT, PARTIAL, INCORRECT = Verdict.CORRECT, Verdict.PARTIAL, Verdict.INCORRECT
HARDWARE = GradingCard(
    "What hardware makes deep learning training practical?",
    "An accelerator, which runs thousands of multiply-adds at once.",
    "",
    "free",
)
STAGE = GradingCard(
    "Where does a validated model go after the registry's staging stage?",
    "To production, where it serves live traffic.",
    "",
    "free",
)
CHIP = GradingCard("Besides the GPU, which chip sits in every training machine?", "A processor.", "", "free")
EXPORT = GradingCard("What does an ONNX export let you do with a model?", "Transfer it between frameworks.", "", "free")
SCALING = GradingCard(
    "What does a preprocessing step do to raw features?",
    "It transforms them, for example scaling to unit variance.",
    "",
    "free",
)


@pytest.mark.parametrize(
    ("example", "response", "verdict"),
    [
        (HARDWARE, "An accelerator.", PARTIAL),
        (HARDWARE, "A GPU.", PARTIAL),  # a synonym of the device
        (HARDWARE, "Something that accelerates it.", INCORRECT),  # speed, not the device
        (STAGE, "To production.", PARTIAL),
        (STAGE, "To deployment.", PARTIAL),  # a synonym of serving in production
        (STAGE, "Into the product.", INCORRECT),  # a product is no production
        (CHIP, "A processor.", CORRECT),
        (CHIP, "The chip made of silicon.", CORRECT),  # a synonym of the processor
        (CHIP, "A process.", INCORRECT),  # a running program, not the chip
        (EXPORT, "Transfer it.", CORRECT),
        (EXPORT, "Port it.", CORRECT),  # a synonym of moving it across
        (EXPORT, "Transform it.", INCORRECT),  # changing it is not moving it
        (SCALING, "It transforms them.", PARTIAL),
        (SCALING, "It transfers them.", INCORRECT),
    ],
)
def test_a_word_whose_stem_extends_another_is_not_its_synonym(example, response, verdict):
    assert grade(example, response).verdict is verdict


def test_a_product_of_two_numbers_is_no_production():
    example = GradingCard("What does a systolic cell compute each cycle?", "A product of two numbers.", "", "free")
    assert grade(example, "A product of two numbers.").verdict is CORRECT
    assert grade(example, "It multiplies two numbers.").verdict is CORRECT
    result = grade(example, "A production of two numbers.")
    assert result.verdict is PARTIAL
    assert result.missing == ("product",)


# Members of the synonym table whose stems extend one another in different groups, and which are the same word
# all the same (an evaluation evaluates, a multiplier multiplies); every other such pair must be listed apart.
SAME_WORD = {("evalu", "evaluat"), ("multip", "multipli"), ("multipli", "multiplic")}


def test_every_stem_collision_in_the_synonym_table_is_decided():
    keys = sorted(_SINGLE)
    undecided = [
        (a, b)
        for i, a in enumerate(keys)
        for b in keys[i + 1 :]
        if stems_related(a, b) and not _SINGLE[a] & _SINGLE[b] and (a, b) not in SAME_WORD
    ]
    assert undecided == []
    assert stems_related(stem("evaluation"), stem("evaluate"))
    assert stems_related(stem("replicas"), stem("replicate"))


# An agent noun the stemmer folds into its verb, and an adjective into its noun: other things all the same.
FEATURES = GradingCard(
    "What does a scaler do to a column of numbers?",
    "It transforms the column, shifting and rescaling each value to zero mean and unit variance.",
    "",
    "free",
)
ATTENTION = GradingCard(
    "Which architecture replaced recurrent networks for language models?",
    "The transformer, built on self-attention.",
    "",
    "free",
)
SYSTOLIC = GradingCard("What does each cell of a systolic array compute?", "It multiplies two numbers.", "", "free")


@pytest.mark.parametrize(
    ("example", "response", "verdict"),
    [
        (FEATURES, "It transforms the column.", PARTIAL),
        (FEATURES, "A transformer on the column.", INCORRECT),  # an architecture, not changing the values
        (ATTENTION, "The transformer.", CORRECT),
        (ATTENTION, "Transformers.", CORRECT),
        (ATTENTION, "One that transforms.", INCORRECT),
        (SYSTOLIC, "The product of two numbers.", CORRECT),  # a synonym of multiplying
        (SYSTOLIC, "Something productive.", INCORRECT),  # productive is not a product
        (SYSTOLIC, "It keeps the chip productive.", INCORRECT),
        (STAGE, "It becomes productive.", INCORRECT),  # nor is it production, or a misspelling of it
    ],
)
def test_a_word_the_stemmer_folds_into_another_stays_apart(example, response, verdict):
    assert grade(example, response).verdict is verdict


def test_a_kept_word_loses_only_its_plural():
    assert stem("transformers") == stem("transformer") != stem("transformed")
    assert not stems_related(stem("productivity"), stem("products"))
    assert stem("transforming") == stem("transformation")


SNAPSHOT = GradingCard(
    "How does a training snapshot differ from a weights-only file?",
    "A snapshot is the full training state: weights, optimizer moments and the step counter. A weights-only file "
    "holds the parameters alone.",
    "",
    "free",
)


@pytest.mark.parametrize(
    "response", ["A snapshot is complete; the file has only weights.", "The snapshot keeps everything."]
)
def test_everything_and_complete_say_full(response):
    result = grade(SNAPSHOT, response)
    assert result.verdict is PARTIAL, result
    assert "full" in result.matched


def test_every_is_no_everything():
    # "every" extends to "everything" by its stem, but says how often, not how much
    assert "full" not in grade(SNAPSHOT, "The snapshot is written every epoch.").matched


LOSS_SCALING = "What is loss scaling in FP16"


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        # "vanishing gradients" is another problem (decay through depth): no evidence of FP16 underflow
        ("multiplying the loss by a constant so the gradients don't vanish", PARTIAL),
        ("multiplying the loss by a constant so small gradients don't flush to zero in fp16, then unscaling", CORRECT),
        ("multiplying the loss by a constant so small gradients don't underflow, then unscaling them", CORRECT),
    ],
)
def test_vanishing_is_no_underflow(response, verdict):
    result = grade(card(LOSS_SCALING), response)
    assert result.verdict is verdict, result
    assert ("underflow" in result.matched) is (verdict is CORRECT), result


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("It does layer fusion and quantization.", PARTIAL),  # quantizing lowers precision, as its calibration does
        ("It does layer fusion and tokenization.", INCORRECT),
    ],
)
def test_quantization_is_a_matter_of_precision(response, verdict):
    assert graded("What is NVIDIA TensorRT", response).verdict is verdict


def test_an_answer_on_quantization_is_not_one_on_tensorrt():
    """The PTQ/QAT card's whole answer says "quantizes" and "reduced precision" but nothing of TensorRT: when
    quantization was a synonym of INT8, it earned a term of its own and was graded correct for TensorRT."""
    ptq = card("Contrast post-training quantization").answer
    assert graded("What is NVIDIA TensorRT", ptq).verdict is not CORRECT


@pytest.mark.parametrize(
    ("response", "earned"),
    [
        # "smaller" is a synonym of "lower", but says nothing of bits: pruning said for quantization was correct
        ("Removing small-magnitude weights so the model becomes sparse and smaller.", False),
        ("storing weights in fewer bits, e.g. int8 instead of fp32", True),  # a synonym for each piece
        ("use lower-bit integers instead of 32 bit floats", True),
    ],
)
def test_a_compound_term_is_not_earned_by_a_synonym_of_its_first_piece_alone(response, earned):
    result = graded("What is quantization in the context", response)
    assert ("lower-bit" in " ".join(result.matched)) is earned, result
    assert (result.verdict is CORRECT) is earned, result


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        # releases are versions, a testing stage is staging, going live is production
        ("To track model releases and promote them from testing to live", CORRECT),
        ("It tracks model releases", PARTIAL),
        ("It trains models", INCORRECT),
    ],
)
def test_a_registrys_stages_said_in_everyday_words(response, verdict):
    assert graded("In MLflow, what is the purpose", response).verdict is verdict
