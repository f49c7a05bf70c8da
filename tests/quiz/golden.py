"""Seed cards and named cards for the grader's golden tests: no database, seed cards parsed from fixtures/."""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

from django.conf import settings

from apps.content.loader import parse_file
from apps.quiz.grading import Grade, GradingCard, Verdict, grade

FIXTURES = Path(settings.BASE_DIR) / "fixtures"
SAMPLE = FIXTURES / "grading-sample.csv"
CORRECT, PARTIAL, INCORRECT = Verdict.CORRECT, Verdict.PARTIAL, Verdict.INCORRECT


@cache
def seed_cards() -> dict[str, GradingCard]:
    cards = {}
    for path in sorted(FIXTURES.glob("*.txt")):
        for parsed in parse_file(path).cards:
            cards[parsed.question] = GradingCard(
                question=parsed.question, answer=parsed.answer, short_answer=parsed.short_answer, kind=parsed.kind
            )
    return cards


def rows_of(path: Path) -> list[dict[str, str]]:
    """The rows of a grading file (question, answer, expected)."""
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def card(prefix: str) -> GradingCard:
    found = [c for question, c in seed_cards().items() if question.startswith(prefix)]
    assert len(found) == 1, f"{prefix!r} should name exactly one seed card"
    return found[0]


def graded(subject: str | GradingCard, response: str) -> Grade:
    """The grade of a response to a seed card, named by the start of its question, or to a card made for the test."""
    return grade(card(subject) if isinstance(subject, str) else subject, response)


DDP = "Which distributed computing framework"
JOB = "When using Kubernetes for ML workload"
MIXED_FLAG = "What does the '--mixed-precision'"
TF_DATA = "Which technique does TensorFlow"
REGISTRY = "In MLflow, what is the purpose"
ONNX_FLASH = "What is the primary advantage of using ONNX"
AFFINE = "Give the standard affine quantization"
DATA_PARALLEL = "What is data parallelism"
MODEL_PARALLEL = "What is model parallelism"
CHECKPOINTING = "What is gradient (activation) checkpointing"

# Small cards for notation the seed decks do not exercise.
FP16 = GradingCard("Which 16-bit float format has 5 exponent bits?", "FP16", "FP16", "flashcard")
ALL_REDUCE = GradingCard("Which collective sums gradients on every worker?", "All-reduce", "All-reduce", "flashcard")
TF_DATA_API = GradingCard("Which TensorFlow API builds input pipelines?", "`tf.data`", "tf.data", "flashcard")


def check(result: Grade, verdict: Verdict, low: float, high: float) -> None:
    assert result.verdict is verdict, result
    assert low <= result.score <= high, result


# --- General rules added after measuring a holdout written independently of the grader -------------------

HOLDOUT = FIXTURES / "grading-holdout.csv"
SYSTOLIC = "What is a systolic array"
MIXED = "What is mixed precision training"
QUANTIZATION = "What is quantization in the context"
BF16 = "How does BF16 differ from FP16"
DIVIDE_LOSS = "When using gradient accumulation, why"
ONNX_PROBLEM = "What is the primary advantage of using ONNX"
KERAS = "In Keras, what is the difference"
LOSS_SCALING = "What is loss scaling"
ALL_REDUCE_CARD = "What does the all-reduce operation"
DISTILLATION = "What is knowledge distillation"


DYNAMIC_BATCHING = "What is dynamic batching"
FEATURE_SKEW = "In the context of feature stores"
ONNX_SYLLABUS = "What is ONNX and what problem"
PTQ_QAT = "Contrast post-training quantization"
GA_DIVIDE = DIVIDE_LOSS


HYPER_TUNING = "What is hyperparameter tuning, and how"
