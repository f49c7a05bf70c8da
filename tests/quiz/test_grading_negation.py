"""Golden tests: negation that agrees with the model answer costs nothing; denials of its claims still do."""

from __future__ import annotations

import pytest

from apps.quiz.grading import Verdict, grade
from tests.quiz.golden import card

CORRECT, PARTIAL, INCORRECT = Verdict.CORRECT, Verdict.PARTIAL, Verdict.INCORRECT
BF16 = "How does BF16 differ"
BAYES = "How does Bayesian"
CHECKPOINTING = "What is gradient (activation) checkpointing"
DATA_PARALLEL = "What is data parallelism"
DYNAMIC_BATCHING = "What is dynamic batching"
FEATURE_SKEW = "In the context of feature stores"
KERAS = "In Keras, what is the difference"
MODEL_PARALLEL = "What is model parallelism"
PRUNING = "What is pruning in neural networks"


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        # a denial of what the answer states as a problem, cost or limit: "avoids overflow", "in far fewer
        # trials", "need special hardware for speedup"
        (
            BF16,
            "BF16 has 8 exponent bits like FP32 and 7 mantissa bits; FP16 has 5 and 10. The bigger range means no "
            "overflow/underflow, so no loss scaling, but less precision.",
        ),
        (
            BAYES,
            "Unlike grid search it doesn't waste trials on bad regions: it fits a surrogate model and uses an "
            "acquisition function to pick the next configuration",
        ),
        (
            PRUNING,
            "Unstructured pruning zeroes individual weights but doesn't give real speedups on normal hardware; "
            "structured pruning removes whole channels or filters so it speeds things up",
        ),
        # a denial of sameness: "not computed the same way" is a discrepancy
        (
            FEATURE_SKEW,
            "features aren't computed the same way in training and serving, so the model sees different values "
            "online than offline",
        ),
        # a denial of a synonym of a key term, said of another thing: the model is not split, the batch is
        (
            DATA_PARALLEL,
            "each GPU has a full copy of the model (it isn't split) and processes a different mini-batch, then "
            "gradients are averaged",
        ),
    ],
)
def test_a_denial_that_agrees_with_the_answer_is_no_contradiction(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is CORRECT, result
    assert "opposite" not in result.feedback


@pytest.mark.parametrize(
    ("prefix", "response", "verdict", "said"),
    [
        # denying the limit itself: "doesn't avoid overflow", "does not reduce memory"
        (
            BF16,
            "BF16 has 8 exponent bits and 7 mantissa bits, FP16 has 5 and 10, but BF16 doesn't avoid overflow, so "
            "you still need loss scaling",
            PARTIAL,
            "'doesn't avoid overflow'",
        ),
        (
            CHECKPOINTING,
            "It does not reduce memory: all intermediate activations are stored in the forward pass, and the "
            "backward pass recomputes nothing.",
            INCORRECT,  # and it says the activations are all stored, which the answer denies: two faults
            "'not reduce memory'",
        ),
        # denying sameness the answer affirms ("all replicas stay identical")
        (
            DATA_PARALLEL,
            "Each device holds a copy of the model and processes a different shard of the mini-batch, but the "
            "replicas aren't identical: gradients are never synchronized.",
            INCORRECT,
            "'aren't identical'",
        ),
        # denying what the answer says of the same thing ("run faster on standard hardware")
        (
            PRUNING,
            "Pruning removes unimportant weights to reduce compute. Structured pruning removes whole channels, but "
            "it doesn't run faster on standard hardware.",
            PARTIAL,
            "'doesn't run faster on standard hardware'",
        ),
        (BAYES, "It doesn't build a surrogate model; it samples configurations at random", INCORRECT, "surrogate"),
        (MODEL_PARALLEL, "The model is not split across devices; each GPU holds the whole model.", INCORRECT, "split"),
        # a denial of a synonym only ("never grouped" for "collects") counts beside a plain one
        (
            DYNAMIC_BATCHING,
            "Requests are handled one at a time individually as they arrive, never grouped, so there is no "
            "throughput trade-off",
            INCORRECT,
            "'never grouped'",
        ),
    ],
)
def test_a_denial_of_the_answers_claim_still_costs_credit(prefix, response, verdict, said):
    result = grade(card(prefix), response)
    assert result.verdict is verdict, result
    assert said in result.feedback and "says the opposite" in result.feedback, result


@pytest.mark.parametrize(
    ("response", "right"),
    [
        # the answer works by "NOT storing all intermediate activations": saying it stores them all is the opposite
        ("it stores all activations to speed up the backward pass", False),
        ("it stores all the activations during the forward pass so the backward pass is faster", False),
        # ... while these say what the answer says
        (
            "It stores only a few checkpoints and recomputes the other activations in the backward pass, trading "
            "compute for memory",
            True,
        ),
        (
            "Instead of storing all intermediate activations it recomputes them during the backward pass to save "
            "memory",
            True,
        ),
        ("Storing all intermediate activations uses too much memory, so it recomputes them in the backward pass", True),
        (
            "Normally you would store all activations; checkpointing recomputes them in the backward pass to save "
            "memory",
            True,
        ),
        (
            "Checkpoints are stored for all layer boundaries; the activations in between are recomputed in the "
            "backward pass, which saves memory at the cost of extra compute",
            True,
        ),
        ("store all activations only at checkpoints and recompute the rest in the backward pass to save memory", True),
    ],
)
def test_stating_plainly_what_the_answer_states_only_negatively_is_a_contradiction(response, right):
    result = grade(card(CHECKPOINTING), response)
    assert (result.verdict is CORRECT) is right, result
    assert ("says the opposite" in result.feedback) is not right, result


@pytest.mark.parametrize(
    ("response", "right"),
    [
        # "saving only weights stores parameter values": "saving" stores here, it spares no resource, so a denial
        # of the parameters is a denial of what the answer affirms
        ("weights-only keeps the architecture but no parameter values", False),
        ("the weights-only format keeps the architecture, without any parameter values", False),
        (
            "a weights-only save stores the parameter values, so you have to recreate the architecture in code "
            "before loading them, while .keras keeps architecture and optimizer state too",
            True,
        ),
    ],
)
def test_saving_that_stores_is_no_cost_a_denial_may_contradict(response, right):
    result = grade(card(KERAS), response)
    assert (result.verdict is CORRECT) is right, result
    assert ("says the opposite" in result.feedback) is not right, result


@pytest.mark.parametrize(
    "response",
    [
        # a word that only strengthens the denial ("anywhere", "anymore", "ever") is not what is denied
        "everything runs in FP16 and there is no FP32 copy anywhere",
        "it computes in FP16 and doesn't keep FP32 weights anymore",
    ],
)
def test_a_denial_closed_by_an_adverb_still_denies_its_term(response):
    result = grade(card("What is mixed precision training"), response)
    assert result.verdict is not CORRECT, result
    assert "says the opposite" in result.feedback, result


@pytest.mark.parametrize(
    ("response", "restricted"),
    [
        # "only X" where the answer lists X among others for the same thing: the full model stores more
        (
            "the full .keras model keeps just the weights; saving only weights keeps the parameter values and you "
            "rebuild the architecture before loading",
            True,
        ),
        # ... the full model given only the weights and the weights file everything: the roles reversed
        (
            ".keras keeps only the weights, so you must rebuild the model first; the weights file keeps everything.",
            True,
        ),
        ("The .keras format stores only the weights; saving weights only also stores the architecture.", True),
        # ... but echoing the answer's own "only weights", or restricting what the answer lists nothing beside
        (
            ".keras keeps architecture, weights and optimizer state; weights-only keeps only the weights, so "
            "rebuild the architecture in code before loading.",
            False,
        ),
        (
            "The full model stores the architecture, weights, optimizer state and config; saving only the weights "
            "keeps just the parameter values, so you rebuild the architecture first.",
            False,
        ),
    ],
)
def test_only_x_where_the_answer_lists_x_among_others_says_the_opposite(response, restricted):
    result = grade(card(KERAS), response)
    assert (result.verdict is CORRECT) is not restricted, result
    assert ("says the opposite" in result.feedback) is restricted, result


def test_a_restriction_in_another_sense_is_no_contradiction():
    response = (
        "It stores only a few checkpoints and recomputes the other activations in the backward pass, trading "
        "compute for memory"
    )
    assert grade(card(CHECKPOINTING), response).verdict is CORRECT
