"""Golden tests for the pure free-recall grader (no database, seed cards parsed from fixtures/): exact answers and
their normalisation, aliases, typos, terms that only resemble the answer, hedges, and a verdict for any input."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
from django.conf import settings
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from apps.quiz import grading
from apps.quiz.grading import Grade, GradingCard, grade
from apps.quiz.profile import card_profile
from tests.quiz.golden import (
    ALL_REDUCE,
    CORRECT,
    DATA_PARALLEL,
    DDP,
    FP16,
    HOLDOUT,
    INCORRECT,
    JOB,
    MIXED_FLAG,
    PARTIAL,
    REGISTRY,
    SAMPLE,
    TF_DATA,
    TF_DATA_API,
    card,
    check,
    rows_of,
    seed_cards,
)


def test_the_seed_decks_hold_37_cards():
    assert len(seed_cards()) == 37


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (DDP, "PyTorch Distributed Data Parallel (DDP)"),
        (DDP, "  pytorch   DISTRIBUTED data parallel (ddp). "),
        (DDP, "Pytörch Distributed Data Parallel"),
        (JOB, "Job"),
        (JOB, "`Job`"),
        (JOB, "“Job”"),
        (JOB, "<b>Job</b>"),
        (JOB, "the Job"),
        (JOB, "a Job"),
        (JOB, "I think it's a Job"),
        (JOB, "the answer is Job"),
        (JOB, "Kubernetes Job"),
        (JOB, "jobs"),
        (TF_DATA, "data ingestion & preprocessing pipeline throughput"),
        (REGISTRY, "To manage model versioning, staging and production transitions!"),
    ],
)
def test_normalised_exact_answers_are_correct(prefix, response):
    result = grade(card(prefix), response)
    check(result, CORRECT, 1.0, 1.0)
    assert result.feedback == ""  # the verdict says it all: no note under it


@pytest.mark.parametrize(
    ("example", "response"),
    [
        (ALL_REDUCE, "all-reduce"),
        (ALL_REDUCE, "all reduce"),
        (ALL_REDUCE, "AllReduce"),
        (ALL_REDUCE, "all–reduce"),
        (TF_DATA_API, "tf.data"),
        (TF_DATA_API, "TF.Data"),
        (TF_DATA_API, "tf data"),
        (FP16, "fp16"),
        (FP16, "FP-16"),
    ],
)
def test_hyphens_dots_and_digits_normalise(example, response):
    check(grade(example, response), CORRECT, 1.0, 1.0)


@pytest.mark.parametrize(
    "response",
    [
        "DDP",
        "ddp",
        "PyTorch DDP",
        "Distributed Data Parallel",
        "DistributedDataParallel",
        "DDP (Distributed Data Parallel)",
    ],
)
def test_acronym_variants_of_the_short_answer(response):
    check(grade(card(DDP), response), CORRECT, 1.0, 1.0)


def test_aliases_are_accepted_exactly():
    job = dataclasses.replace(card(JOB), aliases=("batch/v1 Job",))
    check(grade(job, "batch/v1 job"), CORRECT, 1.0, 1.0)
    paraphrase = "replicate the model, shard the batch, all-reduce the gradients"
    data_parallel = dataclasses.replace(card(DATA_PARALLEL), aliases=(paraphrase,))
    check(grade(data_parallel, "Replicate the model; shard the batch; all reduce the gradients."), CORRECT, 1.0, 1.0)


def test_an_answer_made_of_the_questions_words_is_not_taken_for_a_pasted_question():
    example = GradingCard("Which tool does job 0?", "Tool number 0", "Tool number 0", "flashcard")
    check(grade(example, "Tool number 0"), CORRECT, 1.0, 1.0)


def test_an_orm_like_object_with_lists_is_gradable():
    like_a_model = SimpleNamespace(
        question="Q?", answer="Job", short_answer="Job", kind="flashcard", aliases=["Kubernetes Job"], key_terms=[]
    )
    check(grade(like_a_model, "kubernetes job"), CORRECT, 1.0, 1.0)


@pytest.mark.parametrize(
    ("prefix", "response", "typo"),
    [
        (DDP, "PyTorch Distributed Data Paralel", "Paralel"),
        (DDP, "Distribted Data Parallel", "Distribted"),
        (DDP, "PyTorch Distributed Data Parrallel", "Parrallel"),
        (JOB, "Jobb", "Jobb"),  # a key struck twice: a typo even in a word too short for any other
        (JOB, "a Kubernetes Jobb resource", "Jobb"),
        (JOB, "Jbo", "Jbo"),  # two neighbouring letters swapped: the same letters, still a slip
    ],
)
def test_typos_are_tolerated_with_a_lower_score(prefix, response, typo):
    result = grade(card(prefix), response)
    check(result, CORRECT, 0.85, 0.95)
    assert f"'{typo}'" in result.feedback


def test_a_typo_in_a_question_word_around_the_answer_is_fine():
    check(grade(card(JOB), "Kubernets Job"), CORRECT, 0.9, 1.0)


@pytest.mark.parametrize(
    ("example", "response"),
    [
        (card(JOB), "CronJob"),
        (card(JOB), "CronJobs"),
        (card(JOB), "Cron Job"),
        (card(JOB), "Job scheduler"),
        (card(JOB), "Deployment"),
        (card(JOB), "Jab"),
        (card(JOB), "Joob"),
        (card(JOB), "CronJobb"),
        (card(JOB), "Pod"),
        (card(DDP), "DataParallel"),
        (card(DDP), "Data Parallel"),
        (card(DDP), "PyTorch DataParallel"),
        (card(DDP), "Paralel"),
        (FP16, "FP32"),
        (FP16, "BF16"),
        (FP16, "FP1"),
        (card(MIXED_FLAG), "FP32"),
    ],
)
def test_different_terms_that_resemble_the_answer_are_incorrect(example, response):
    check(grade(example, response), INCORRECT, 0.0, 0.39)


@pytest.mark.parametrize("response", ["less memory, more compute", "it uses less memory"])
def test_an_everyday_word_is_no_misspelling_of_a_term(response):
    result = grade(card("What is mixed precision training"), response)  # "less" is not the answer's "loss"
    assert "loss" not in result.matched, result
    assert "'loss'" not in result.feedback.split("Missing")[0], result


def test_a_near_miss_sentence_with_the_wrong_format_is_not_correct():
    sentence = "It uses FP32 for forward/backward passes to reduce memory usage and increase throughput"
    result = grade(card(MIXED_FLAG), sentence)
    assert result.verdict is not CORRECT
    assert "FP32 is not FP16" in result.feedback


def test_hedging_between_two_answers_is_only_partial():
    check(grade(card(JOB), "Job or maybe a Deployment"), PARTIAL, 0.4, 0.74)
    check(grade(card(DDP), "Horovod or DDP"), PARTIAL, 0.4, 0.74)


@pytest.mark.parametrize("response", ["Tool number 0 or maybe Tool number 1", "Tool number 1 or Tool number 0"])
def test_an_other_offer_that_starts_with_the_questions_words_is_a_hedge_too(response):
    """The offer after "or" was judged by its first word, here one of the question's: "Tool ... 1" went unseen."""
    tool = GradingCard(question="Which tool?", answer="Tool number 0", short_answer="Tool number 0", kind="flashcard")
    check(grade(tool, response), PARTIAL, 0.4, 0.74)
    check(grade(tool, "Tool number 0"), CORRECT, 1.0, 1.0)


def test_explaining_after_the_term_is_fine():
    check(grade(card(JOB), "A Job, which runs pods until they complete."), CORRECT, 1.0, 1.0)


@pytest.mark.parametrize(
    ("prefix", "response"), [(JOB, "2 Jobs"), (JOB, "Job 2"), (JOB, "use 1 Job"), (DDP, "DDP x8"), (DDP, "DDP 8")]
)
def test_a_count_beside_the_term_is_still_the_term(prefix, response):
    check(grade(card(prefix), response), CORRECT, 1.0, 1.0)


def test_a_count_does_not_make_another_term_the_answer():
    assert grade(card(JOB), "2 CronJobs").verdict is INCORRECT


@pytest.mark.parametrize(
    "response", ["the DistributedDataParallel wrapper in PyTorch", "DistributedDataParallel package"]
)
def test_a_generic_noun_around_the_term_is_still_the_term(response):
    check(grade(card(DDP), response), CORRECT, 1.0, 1.0)
    assert grade(card(DDP), "the DataParallel wrapper").verdict is INCORRECT


NASTY = [
    "",
    "   \n\t ",
    "😀🔥💯" * 50,
    "<script>alert('x')</script>",
    "$$\\frac{\\frac{a}{b}}{$$ \\left( \\right) ^^^ __ {{{",
    "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x",
    "x = " + "(" * 500,
    "q = " + " + ".join(["r"] * 400),
    "Lorem ipsum dolor sit amet " * 80,
    "".join(chr(c) for c in range(0x20, 0x2FF)),
    "\x00\x01\x02 null bytes \ud800",
    "ǅ ﬁ ＦＰ１６ ⁿ² Ⅻ",
    "a" * 2000,
    "- - - / / / . . . , , ,",
]


@pytest.mark.parametrize("response", NASTY)
def test_grade_is_total_on_junk(response):
    for example in [*seed_cards().values(), FP16, ALL_REDUCE, TF_DATA_API]:
        result = grade(example, response)
        assert isinstance(result, Grade)
        assert result.verdict in (CORRECT, PARTIAL, INCORRECT)
        assert 0.0 <= result.score <= 1.0
        assert round(result.score, 3) == result.score
        assert result.feedback
        assert "could not be graded" not in result.feedback
        assert result.verdict is not CORRECT


# Words the grader's rules turn on (restrictions, contrasts, sameness, negation, list items, formulas), spliced into
# a card's own answer: junk alone stops early, before those rules ever run.
_RULE_WORDS = [
    "only",
    "just",
    "not",
    "no",
    "never",
    "instead of",
    "the same",
    "identical to",
    "anymore",
    "ever",
    "saves",
    "memory",
    "and",
    "or",
    ",",
    ".",
    ";",
    "?",
    "vs",
    "than",
    "$",
    "$x^2$",
    "N * sum L_i",
    "(",
    "é",
    "😀",
    "\n",
]


@hypothesis_settings(max_examples=400, deadline=None, derandomize=True)
@given(data=st.data())
def test_grade_is_total_on_answers_with_words_spliced_in_or_cut_out(data):
    example = data.draw(st.sampled_from(sorted(seed_cards().values(), key=lambda c: c.question)))
    words = data.draw(st.sampled_from([example.answer, example.short_answer or example.answer])).split()
    for _ in range(data.draw(st.integers(1, 6))):
        at = data.draw(st.integers(0, len(words)))
        if words and data.draw(st.booleans()):
            del words[min(at, len(words) - 1)]
        else:
            words.insert(at, data.draw(st.sampled_from(_RULE_WORDS)))
    result = grade(example, data.draw(st.sampled_from([" ", ""])).join(words))
    assert 0.0 <= result.score <= 1.0 and "could not be graded" not in result.feedback


@pytest.mark.parametrize("response", ["", "   ", "\n"])
def test_blank_is_incorrect_with_score_zero(response):
    check(grade(card(JOB), response), INCORRECT, 0.0, 0.0)


def test_non_string_input_does_not_raise():
    check(grade(card(JOB), None), INCORRECT, 0.0, 0.0)


# The agreement of the sample (at least 90 %) and of the holdout (at least 88 %) is measured once, through
# `manage.py check_grading` as an instructor runs it, in test_check_grading.py. The tests here check the files'
# coverage (the holdout's in test_grading_holdout.py) and properties of every verdict the grader gives on them.


def test_verdict_and_score_agree_everywhere():
    for row in rows_of(SAMPLE) + rows_of(HOLDOUT):
        result = grade(seed_cards()[row["question"]], row["answer"])
        if result.verdict is CORRECT:
            assert result.score >= grading.CORRECT_AT, row
        elif result.verdict is PARTIAL:
            assert grading.PARTIAL_AT <= result.score < grading.CORRECT_AT, row
        else:
            assert result.score < grading.PARTIAL_AT, row


def test_grading_is_deterministic():
    rows = rows_of(SAMPLE)
    first = [grade(seed_cards()[r["question"]], r["answer"]) for r in rows]
    card_profile.cache_clear()
    second = [grade(seed_cards()[r["question"]], r["answer"]) for r in reversed(rows)]
    assert first == list(reversed(second))


_SUBPROCESS = """
import json, sys
from apps.quiz.grading import GradingCard, grade
rows = json.load(sys.stdin)
print(json.dumps([list(vars(grade(GradingCard(**card), text)).values()) for card, text in rows]))
"""


def test_grading_does_not_depend_on_hash_randomisation():
    rows = [(dataclasses.asdict(seed_cards()[r["question"]]), r["answer"]) for r in rows_of(SAMPLE)]
    outputs = set()
    for seed in ("0", "1", "12345"):
        done = subprocess.run(  # noqa: S603 - our own interpreter running a constant script
            [sys.executable, "-c", _SUBPROCESS],
            input=json.dumps(rows),
            capture_output=True,
            text=True,
            cwd=settings.BASE_DIR,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1


def test_the_sample_covers_every_seed_card_at_least_twice():
    rows = rows_of(SAMPLE)
    assert len(rows) >= 90
    assert {row["expected"] for row in rows} == {"correct", "partial", "incorrect"}
    for question in seed_cards():
        assert sum(row["question"] == question for row in rows) >= 2, question
