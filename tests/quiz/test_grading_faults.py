"""Golden tests: swapped numbers, reversed claims and other faults cap the verdict; what incorrect answers hear;
words that elaborate an answer or stray from it."""

from __future__ import annotations

import pytest

from apps.quiz.grading import GradingCard, grade
from tests.quiz.golden import (
    ALL_REDUCE_CARD,
    BF16,
    CHECKPOINTING,
    CORRECT,
    DATA_PARALLEL,
    DIVIDE_LOSS,
    DYNAMIC_BATCHING,
    FEATURE_SKEW,
    HYPER_TUNING,
    INCORRECT,
    LOSS_SCALING,
    MIXED,
    MIXED_FLAG,
    ONNX_FLASH,
    PARTIAL,
    QUANTIZATION,
    REGISTRY,
    card,
)


@pytest.mark.parametrize(
    ("prefix", "response", "said"),
    [
        # numbers the answer gives another name: BF16 has 8 exponent and 7 mantissa bits, FP16 5 and 10
        (
            BF16,
            "BF16 has 5 exponent bits and 10 mantissa bits, while FP16 has 8 exponent bits and 7 mantissa bits",
            "The answer gives BF16 8 exponent bits, not 5.",
        ),
        (BF16, "BF16 has 10 mantissa bits and 5 exponent bits.", "The answer gives BF16 7 mantissa bits, not 10."),
        # the claim that says what the subject does, reversed ("Loss scaling multiplies the loss ...")
        (
            LOSS_SCALING,
            "It divides the loss by a large factor before backprop so gradients do not overflow",
            "'divides the loss' says the opposite",
        ),
        # a reversed claim and a conversion the other way round
        (
            QUANTIZATION,
            "It increases precision of weights and activations from 8-bit integers to 32-bit floats",
            "'increases precision' says the opposite",
        ),
        # the answer improves "GPU utilization and throughput": the second object was not read as improved
        (DYNAMIC_BATCHING, "It groups requests into batches, which lowers throughput.", "'lowers throughput'"),
    ],
)
def test_swapped_numbers_and_reversed_core_claims_are_incorrect(prefix, response, said):
    result = grade(card(prefix), response)
    assert result.verdict is INCORRECT, result
    assert said in result.feedback


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (
            BF16,
            "FP16 uses 5 exponent bits and 10 mantissa bits, BF16 uses 8 exponent bits and 7 mantissa bits, so BF16 "
            "has a wider range and needs no loss scaling but is less precise.",
        ),
        (
            BF16,
            "BF16 has 8 exponent bits like FP32 but only 7 mantissa bits, so it has a wide range and needs no loss "
            "scaling; FP16 is more precise.",
        ),
        (QUANTIZATION, "Converting weights from FP32 to INT8 to shrink the model and speed up inference."),
        (
            QUANTIZATION,
            "It maps weights from 32-bit floats to 8-bit integers, reducing precision, model size and memory "
            "bandwidth.",
        ),
        (
            LOSS_SCALING,
            "Multiply the loss by a large factor before backward so small gradients don't underflow, then divide "
            "the gradients by the same factor before the optimizer step.",
        ),
        (
            DIVIDE_LOSS,
            "Divide the loss by N so that the summed gradients equal the mean over the effective batch, matching a "
            "large-batch update.",
        ),
    ],
)
def test_numbers_conversions_and_scaling_said_the_answers_way_cost_nothing(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is CORRECT, result
    assert "opposite" not in result.feedback and "The answer gives" not in result.feedback


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        # one fault: never correct however complete the rest
        (
            LOSS_SCALING,
            "FP16 has a limited dynamic range so small gradients underflow to zero; loss scaling divides the loss "
            "by a large factor before backward and unscales the gradients before the optimizer step.",
            PARTIAL,
        ),
        (QUANTIZATION, "It converts weights from 8-bit integers to 32-bit floats for better accuracy.", PARTIAL),
        # two faults: wrong
        (
            QUANTIZATION,
            "It converts weights from 8-bit integers to 32-bit floats, which increases the precision and shrinks "
            "the model.",
            INCORRECT,
        ),
    ],
)
def test_one_fault_caps_below_correct_and_two_make_it_incorrect(prefix, response, verdict):
    assert grade(card(prefix), response).verdict is verdict


@pytest.mark.parametrize(
    ("prefix", "response", "quoted"),
    [
        (
            REGISTRY,
            "Not to manage model versioning, staging, and production transitions",
            "'To manage model versioning, staging, and production transitions'",
        ),
        (
            ONNX_FLASH,
            "It enables interoperability between different ML frameworks? Definitely not.",
            "'It enables interoperability between different ML frameworks'",
        ),
    ],
)
def test_a_sentence_the_response_rules_out_is_quoted_not_pasted_mid_sentence(prefix, response, quoted):
    result = grade(card(prefix), response)
    assert result.verdict is INCORRECT
    assert result.feedback == f"Your answer rules out the expected answer, {quoted}."


@pytest.mark.parametrize(
    ("prefix", "response", "verb", "noun"),
    [
        (REGISTRY, "It stores model versions", "manage", "staging"),
        (
            DYNAMIC_BATCHING,
            "Dynamic batching processes each request individually as soon as it arrives",
            "collects",
            "throughput",
        ),
        (CHECKPOINTING, "It saves memory.", "saves", "memory"),
    ],
)
def test_feedback_does_not_list_the_answers_verbs_as_terms(prefix, response, verb, noun):
    feedback = grade(card(prefix), response).feedback
    assert noun in feedback and verb not in feedback.split(), feedback


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        # what one of the compared things lacks, the other has: a contrast, not a denial
        (
            HYPER_TUNING,
            "Tuning searches for the best config; grid search tries every combination, random search samples "
            "configs randomly and is not exhaustive but often finds good ones faster.",
            CORRECT,
        ),
        # said of the thing the answer says it of: a denial
        (HYPER_TUNING, "Grid search is not exhaustive; it samples configurations randomly.", INCORRECT),
        (BF16, "BF16 does not have 8 exponent bits; it has no wider range than FP16.", INCORRECT),
    ],
)
def test_in_a_comparison_a_denial_of_the_other_thing_is_a_contrast(prefix, response, verdict):
    assert grade(card(prefix), response).verdict is verdict


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        ("What does the all-reduce operation", "I am not sure, something about GPUs"),
        (DATA_PARALLEL, "Split the model across GPUs, each GPU a different layer."),
    ],
)
def test_an_incorrect_answer_scores_nothing_whatever_it_touched_on(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is INCORRECT
    assert result.score == 0.0  # once "Incorrect · 26 %", which added to the quiz's score


def test_an_incorrect_answer_hears_how_little_of_the_answer_it_has_not_that_it_covered_it():
    flag = card(MIXED_FLAG)
    # "speeds up training" alone is one real point, partly right (test_grading_points.py); not amid nonsense
    result = grade(flag, "speeds up training on bananas and apples")
    assert result.verdict == INCORRECT
    # Once "Of the answer you have only 'throughput'; it turns on ...", which read as a riddle.
    assert result.feedback.startswith("Only 'throughput' matches the answer. Its key points: ")
    assert "You covered" not in result.feedback
    assert grade(flag, "bananas and apples").feedback.startswith("The answer's key points: ")


def test_a_measure_of_the_answers_noun_is_the_same_claim_the_same_way():
    result = grade(card(CHECKPOINTING), "It reduces memory usage by recomputing activations.")
    assert result.verdict is PARTIAL, result
    assert "opposite" not in result.feedback


@pytest.mark.parametrize(
    ("contracted", "spelled"),
    [
        (
            "otherwise they'd add up to N times the gradient of one big batch",
            "otherwise they would add up to N times the gradient of one big batch",
        ),
        ("they'd add up instead of averaging", "they would add up instead of averaging"),
    ],
)
def test_a_contraction_is_not_an_off_target_word(contracted, spelled):
    written, plain = grade(card(DIVIDE_LOSS), contracted), grade(card(DIVIDE_LOSS), spelled)
    assert (written.verdict, written.score) == (plain.verdict, plain.score)
    assert written.verdict is PARTIAL, written


def test_a_contraction_does_not_make_a_wrong_answer_partly_right():
    result = grade(card(DIVIDE_LOSS), "it'd make the learning rate N times smaller")
    assert result.verdict is INCORRECT, result


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        # the answer given, then what it leads to in words of the student's own: elaboration, not another concept
        (
            FEATURE_SKEW,
            "a mismatch between the feature transformations applied in training and at inference, so in production "
            "the model gets inputs unlike the ones it learned from",
            CORRECT,
        ),
        # traps: little of the answer among many other words is still another concept, or keyword stuffing
        (
            FEATURE_SKEW,
            "training and serving run on different hardware, so the latency of features and models differs between "
            "clusters",
            INCORRECT,
        ),
        (
            FEATURE_SKEW,
            "skew skew training serving features mismatch latency hardware cluster network drift gpu",
            INCORRECT,
        ),
        (
            ALL_REDUCE_CARD,
            "it sends all the gradients to a single parameter server, which sums them and updates the weights",
            INCORRECT,
        ),
    ],
)
def test_words_elaborating_an_answer_mostly_given_do_not_count_against_it(prefix, response, verdict):
    result = grade(card(prefix), response)
    assert result.verdict is verdict, result


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        # three words of its own, two of them earning nothing: another concept, though one word is a synonym of
        # a term ("serves" for "production")
        (REGISTRY, "it serves predictions over HTTP", INCORRECT),
        # "machines" is no synonym of "computed" (the synonym table once listed "computer", which stems as "compute")
        (FEATURE_SKEW, "the throughput difference between training and serving machines", INCORRECT),
        # two words, both on target, stay a fragment of the answer
        ("What is model versioning", "rollback to previous models", PARTIAL),
    ],
)
def test_a_short_answer_mostly_off_target_is_another_concept(prefix, response, verdict):
    result = grade(card(prefix), response)
    assert result.verdict is verdict, result


def test_a_code_blocks_language_is_no_word_of_the_answer():
    """ "```python" labels the block for the renderer: 'python' was a key term, missed by the exact code line."""
    fenced = GradingCard(
        "How does Adam correct the bias of its first moment estimate?",
        "It divides the estimate by one minus beta1 to the power t, which matters early in training:\n\n"
        "```python\nm_hat = m / (1 - beta1**t)\n```\n",
    )
    result = grade(fenced, "It divides by 1 - beta1**t, which matters early in training.")
    assert "python" not in result.feedback and "python" not in result.missing


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        (MIXED_FLAG, "uses int8 to reduce memory and increase throughput", PARTIAL),
        (MIXED, "most math in INT8 with FP32 master weights", INCORRECT),
        (MIXED, "it combines INT8 and FP32", INCORRECT),
    ],
)
def test_a_number_format_of_another_letter_stands_in_for_the_answers(prefix, response, verdict):
    result = grade(card(prefix), response)
    assert result.verdict is verdict, result
    assert "INT8 is not FP16 or BF16." in result.feedback.replace("int8", "INT8"), result


def test_another_width_of_a_format_the_answer_names_is_an_alternative_not_a_stand_in():
    result = grade(card(QUANTIZATION), "convert float weights to low bit ints (int8/int4) to shrink the model")
    assert " is not " not in result.feedback, result
