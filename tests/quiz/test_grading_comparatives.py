"""Golden tests: in a question comparing two things, a comparative is a claim about both, whichever is its subject:
"DDP is faster than DP" says what the answer's "DP ... (slower)" says. Said the answer's way round it earns credit
(alone, with nothing wrong, it is partly right); said the other way round it is a fault."""

from __future__ import annotations

import pytest

from apps.quiz.comparatives import comparisons, judged, things
from apps.quiz.grading import Verdict, grade
from tests.quiz.golden import BF16, HYPER_TUNING, PTQ_QAT, card

CORRECT, PARTIAL, INCORRECT = Verdict.CORRECT, Verdict.PARTIAL, Verdict.INCORRECT
DP_DDP = "Compare PyTorch's DataParallel"
PRUNING = "What is pruning in neural networks"


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (DP_DDP, "DDP is faster than DP."),
        (DP_DDP, "DP is slower than DDP."),
        (BF16, "BF16 has a bigger range than FP16."),
        (BF16, "FP16 has a narrower range than BF16."),
        (PTQ_QAT, "QAT is more accurate but slower."),
        (PTQ_QAT, "PTQ is quick but loses more accuracy."),
        (HYPER_TUNING, "Random search is usually more efficient than grid search."),
    ],
)
def test_a_comparative_of_the_answer_said_either_way_round_is_partly_right(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is PARTIAL, result
    assert result.feedback.startswith("You covered '"), result.feedback


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (DP_DDP, "DP is faster than DDP."),
        (DP_DDP, "DDP is not faster than DP."),
        (BF16, "BF16 has a narrower range than FP16."),
        (PTQ_QAT, "PTQ is more accurate than QAT."),
        (PTQ_QAT, "QAT is faster than PTQ."),
        (HYPER_TUNING, "Grid search is faster than random search."),
    ],
)
def test_a_comparative_the_other_way_round_is_wrong(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is INCORRECT, result
    assert "says the opposite of the answer" in result.feedback


def test_a_comparative_turned_round_costs_a_full_answer_its_correct_verdict():
    response = (
        "DataParallel is one process with threads and a single GPU as parameter server; DistributedDataParallel "
        "runs one process per GPU with all-reduce, scales across nodes and is recommended, but DP is faster."
    )
    result = grade(card(DP_DDP), response)
    assert result.verdict is not CORRECT, result
    assert "says the opposite of the answer" in result.feedback


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        # a full answer in the answer's own words: "lose more accuracy" is less accuracy, not more
        (
            PTQ_QAT,
            "PTQ quantizes an already trained model with no retraining, quick but can lose more accuracy; QAT "
            "simulates quantization during training with fake-quant nodes so the model adapts, giving better accuracy.",
        ),
        # "no retraining, quick": the negator belongs to the clause before the comparative
        (
            PTQ_QAT,
            "PTQ: quantize after training, no retraining, quick but less accurate. QAT: fake quantization during "
            "training so the model adapts, more accurate.",
        ),
        # "to get faster" is a purpose, no claim that unstructured pruning is faster
        (
            PRUNING,
            "Pruning removes unimportant small-magnitude weights. Unstructured pruning zeroes single weights, giving "
            "sparse matrices that need special libraries to get faster; structured pruning removes whole channels "
            "or filters so the model stays dense, smaller and faster on normal hardware.",
        ),
    ],
)
def test_comparatives_that_agree_with_the_answer_leave_a_full_answer_correct(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is CORRECT, result


def test_the_things_compared_are_read_from_differ_from_too():
    bf16 = card(BF16)
    names = things(bf16.question)
    assert names == (frozenset({"bf16"}), frozenset({"fp16"}))
    agree, wrong = judged(comparisons(names, bf16.answer), comparisons(names, "FP16 offers more precision"))
    assert agree and not wrong
