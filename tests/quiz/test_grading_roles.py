"""Golden tests: in a comparison, giving one thing's attributes to the other is wrong; giving each its own is not."""

from __future__ import annotations

import pytest

from apps.quiz.grading import Verdict, grade
from apps.quiz.roles import subjects
from tests.quiz.golden import card

CORRECT, PARTIAL, INCORRECT = Verdict.CORRECT, Verdict.PARTIAL, Verdict.INCORRECT
GPU_TPU = "How do GPUs and TPUs differ"
DP_DDP = "Compare PyTorch's DataParallel"
DISTILLATION = "What is knowledge distillation"
PRUNING = "What is pruning in neural networks"
TUNING = "What is hyperparameter tuning"
PTQ_QAT = "Contrast post-training quantization"


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("How do GPUs and TPUs differ architecturally for deep learning?", ({"gpus"}, {"tpus"})),
        ("Compare PyTorch's DataParallel (DP) and DistributedDataParallel (DDP).", None),
        ("Contrast post-training quantization (PTQ) with quantization-aware training (QAT).", ({"ptq"}, {"qat"})),
        ("How do grid search and random search differ?", ({"grid"}, {"random"})),
        ("What are the teacher and student?", ({"teacher"}, {"student"})),
        ("What is mixed precision training and what numeric formats does it use?", ()),
        ("What is gradient checkpointing and why is it used?", ()),
    ],
)
def test_the_compared_things_are_read_from_the_question(question, names):
    found = subjects(question)
    if names is None:  # the acronym stands for the code name, and the code name for itself
        assert found == (frozenset({"dataparallel", "dp"}), frozenset({"distributeddataparallel", "ddp"}))
    else:
        assert tuple(set(n) for n in found) == tuple(names)


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (GPU_TPU, "GPUs are ASICs designed only for matrix multiplication, TPUs are general-purpose processors"),
        (GPU_TPU, "TPUs are general purpose and GPUs are specialised ASICs"),
        (DP_DDP, "DP is the one that works across several machines, DDP is single machine only"),
        (DP_DDP, "DataParallel works across many nodes, while DistributedDataParallel only works on one machine."),
        (DP_DDP, "DP is multi-process and DDP is single process"),
        (DISTILLATION, "the student is the large model and the teacher is the small model that guides it"),
        (PRUNING, "unstructured pruning removes whole layers and structured pruning removes individual weights"),
        (TUNING, "grid search samples randomly from a grid and random search tries all combinations"),
        # "at random", "on a grid": mere words where the text names each thing with its head ("grid search")
        (TUNING, "Grid search samples configurations at random while random search goes through every combination"),
        # a word after both names that is not their shared head ("DP uses ..., DDP uses ...") leaves names as they are
        (
            DP_DDP,
            "DDP uses processes and DP uses threads. DDP is slower, GIL-bound and uses a parameter server, while DP "
            "scales across nodes with efficient all-reduce and is recommended.",
        ),
        (PTQ_QAT, "PTQ simulates quantization during training, QAT is applied after training"),
        (DISTILLATION, "big model = student, small model = teacher; the student learns the teacher's soft outputs"),
    ],
)
def test_swapped_roles_are_wrong(prefix, response):
    result = grade(card(prefix), response)
    assert result.verdict is INCORRECT, result
    assert "opposite" in result.feedback


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        (GPU_TPU, "TPUs are ASICs specialised for matrix multiplication while GPUs are more general-purpose.", CORRECT),
        (GPU_TPU, "GPU = general purpose parallel processor; TPU = ASIC for matmul", CORRECT),
        (
            GPU_TPU,
            "TPUs are specialized for dense matrix multiplications using systolic arrays, whereas GPUs are "
            "general-purpose with thousands of cores",
            CORRECT,
        ),
        # what follows "unlike", "instead of", a negator or "avoids" is said of the other thing, or denied
        (
            DP_DDP,
            "Unlike DP, DDP uses one process per GPU instead of threads in a single process, so it isn't "
            "bottlenecked by the GIL, and it scales to multiple nodes. DP is simpler but slower.",
            CORRECT,
        ),
        (
            DP_DDP,
            "DP: single process, GIL bottleneck, one machine. DDP: multi-process, all-reduce, multi-node",
            CORRECT,
        ),
        (
            DISTILLATION,
            "student = small model, teacher = big model. the student is trained not only on hard labels "
            "but also on the teacher's soft probabilities",
            CORRECT,
        ),
        # a name in parentheses names what it follows
        (DISTILLATION, "you train a small model (student) on the soft outputs of a big model (teacher)", PARTIAL),
        (DISTILLATION, "The teacher is the big model and the student is the small one.", PARTIAL),
        # notes: "=" binds its two sides into one clause
        (
            DISTILLATION,
            "big model = teacher, small model = student; the student mimics the teacher's soft outputs",
            CORRECT,
        ),
        (
            PRUNING,
            "Pruning drops low-magnitude weights. Unlike unstructured pruning, structured pruning removes entire "
            "filters or channels, so you don't need sparse kernels to get a speedup.",
            CORRECT,
        ),
        (TUNING, "random search samples random combinations, grid search evaluates all of them", PARTIAL),
    ],
)
def test_each_thing_given_its_own_attributes_keeps_its_verdict(prefix, response, verdict):
    result = grade(card(prefix), response)
    assert result.verdict is verdict, result
    assert "opposite" not in result.feedback


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        # two of the answer's distinguishing words, each given to its own thing: a real contrast, partly right
        ("TPUs are made by Google and run faster with TensorFlow.", PARTIAL),
        # one alone may be a stray fact
        ("TPUs are made by Google.", INCORRECT),
        # given to the other thing
        ("GPUs are made by Google and run faster with TensorFlow.", INCORRECT),
    ],
)
def test_two_distinguishing_words_given_to_the_right_thing_are_partly_right(response, verdict):
    result = grade(card(GPU_TPU), response)
    assert result.verdict is verdict, result


def test_when_each_thing_happens_tells_them_apart():
    right = grade(card(PTQ_QAT), "PTQ is applied after training, QAT during training.")
    assert right.verdict is PARTIAL, right
    assert right.feedback.startswith("Missing: ")  # partly right on the contrast alone, and told what it lacks
    swapped = grade(card(PTQ_QAT), "PTQ is applied during training, QAT after training.")
    assert swapped.verdict is INCORRECT, swapped
    assert "says the opposite of the answer" in swapped.feedback
    assert grade(card(PTQ_QAT), "PTQ happens after training.").verdict is INCORRECT  # one thing only


@pytest.mark.parametrize("response", ["PTQ needs retraining, QAT does not", "PTQ retrains the model"])
def test_a_word_the_answer_denies_one_thing_given_to_it_is_the_opposite(response):
    # The answer: "PTQ quantizes an already-trained model without retraining".
    result = grade(card(PTQ_QAT), response)
    assert result.verdict is INCORRECT, result
    assert "says the opposite" in result.feedback, result


def test_the_denial_said_of_the_same_thing_stays_right():
    response = "PTQ quantizes a trained model without retraining; QAT trains with fake quantization, more accurate"
    assert grade(card(PTQ_QAT), response).verdict is Verdict.CORRECT
