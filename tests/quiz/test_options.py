"""Multiple-choice option building: pure, no database."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from apps.content.loader import parse_file
from apps.quiz.options import Option, options_build


def _o(text: str) -> Option:
    return Option(text=text, html=f"<p>{text}</p>")


RIGHT = _o("Kubernetes Job")
POOL = [
    _o("Kubernetes CronJob"),
    _o("Kubernetes Deployment"),
    _o("Kubernetes StatefulSet"),
    _o("It enables interoperability between different ML frameworks"),
    _o("Data ingestion and preprocessing pipeline throughput"),
]


def test_four_options_with_the_right_one_marked():
    options, correct = options_build(right=RIGHT, authored=[], pool=POOL, rng=random.Random(1))
    assert len(options) == 4
    assert options[correct] == RIGHT
    assert len({option.text for option in options}) == 4


def test_generated_distractors_are_the_most_similar_answers():
    options, _ = options_build(right=RIGHT, authored=[], pool=POOL, rng=random.Random(1))
    assert {option.text for option in options} == {
        "Kubernetes Job",
        "Kubernetes CronJob",
        "Kubernetes Deployment",
        "Kubernetes StatefulSet",
    }


def test_authored_distractors_come_first():
    authored = [_o("A Pod"), _o("A DaemonSet")]
    options, _ = options_build(right=RIGHT, authored=authored, pool=POOL, rng=random.Random(1))
    texts = {option.text for option in options}
    assert {"A Pod", "A DaemonSet"} <= texts
    assert len(texts & {"Kubernetes CronJob", "Kubernetes Deployment", "Kubernetes StatefulSet"}) == 1


def test_duplicates_of_the_right_answer_or_each_other_are_skipped():
    pool = [_o("kubernetes   JOB"), _o("Kubernetes CronJob"), _o("Kubernetes cronjob"), *POOL]
    options, _ = options_build(right=RIGHT, authored=[_o("Kubernetes Job")], pool=pool, rng=random.Random(3))
    keys = [" ".join(option.text.casefold().split()) for option in options]
    assert len(set(keys)) == 4


def test_same_seed_same_order_and_different_seeds_shuffle():
    first = options_build(right=RIGHT, authored=[], pool=POOL, rng=random.Random(42))
    again = options_build(right=RIGHT, authored=[], pool=POOL, rng=random.Random(42))
    assert first == again
    positions = {options_build(right=RIGHT, authored=[], pool=POOL, rng=random.Random(seed))[1] for seed in range(40)}
    assert positions == {0, 1, 2, 3}


def test_too_few_candidates_gives_none():
    assert options_build(right=RIGHT, authored=[], pool=POOL[:2], rng=random.Random(1)) is None


SYLLABUS = Path(__file__).resolve().parents[2] / "fixtures" / "deep-learning-frameworks-production-syllabus.txt"


@pytest.mark.parametrize(
    ("question", "on_topic"),
    [
        ("What is a systolic array", "How do GPUs and TPUs differ"),
        ("What is data parallelism", "What is model parallelism"),
        ("Contrast post-training quantization", "What is quantization"),
        ("What is dynamic batching", "Name three common techniques for optimizing inference"),
    ],
)
def test_distractors_of_a_syllabus_card_come_from_cards_on_its_topic(question, on_topic):
    # Wording alone picked "Model parallelism splits ..." and "Bayesian optimization ..." for the systolic array.
    cards = {
        card.question: Option(text=card.answer, html=card.answer, topic=f"{card.question}\n{card.answer}")
        for card in parse_file(SYLLABUS).cards
    }
    right = next(option for q, option in cards.items() if q.startswith(question))
    wanted = next(option for q, option in cards.items() if q.startswith(on_topic))
    pool = [option for option in cards.values() if option is not right]
    options, _ = options_build(right=right, authored=[], pool=pool, rng=random.Random(1))
    assert wanted in options
