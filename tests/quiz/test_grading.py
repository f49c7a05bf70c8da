"""Golden tests for the pure free-recall grader: no database, seed cards parsed from fixtures/."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from apps.content.loader import parse_file
from apps.quiz import grading
from apps.quiz.grading import Grade, GradingCard, Verdict, grade
from apps.quiz.mathnorm import parse_formula
from apps.quiz.profile import card_profile

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


@pytest.mark.parametrize(
    "response",
    [
        "q = round(r/s) + z",
        "q=round(r / s)+z",
        r"$q = \text{round}\left(\frac{r}{s}\right) + z$",
        r"$$q = \mathrm{round}\left( \frac{r}{s} \right) + z$$",
        "q = z + round(r/s)",
        "round(r/s) + z = q",
        "The formula is q = round(r / s) + z, where s is the scale and z the zero-point.",
    ],
)
def test_formulas_match_whatever_the_notation(response):
    result = grade(card(AFFINE), response)
    check(result, CORRECT, 1.0, 1.0)
    assert "q = round(r/s) + z" in result.feedback


@pytest.mark.parametrize(
    ("response", "verdict", "low", "high"),
    [
        ("q = r*s + z", INCORRECT, 0.0, 0.0),
        ("q = round(s/r) + z", INCORRECT, 0.0, 0.0),
        ("$q = r \\cdot s + z$", INCORRECT, 0.0, 0.0),
        ("q = round(r/s)", PARTIAL, 0.5, 0.5),
        ("r ≈ s(q − z)", PARTIAL, 0.5, 0.5),
        ("r = s(q - z)", PARTIAL, 0.5, 0.5),
        ("Divide the real value by the scale, round it, then add the zero-point.", CORRECT, 0.75, 1.0),
    ],
)
def test_wrong_partial_and_verbal_formulas(response, verdict, low, high):
    check(grade(card(AFFINE), response), verdict, low, high)


def test_tex_and_plain_notation_share_one_canonical_form():
    forms = [
        r"p_i = \frac{\exp(z_i/T)}{\sum_j \exp(z_j/T)}",
        "p_i = exp(z_i / T) / sum_j exp(z_j / T)",
        r"p_{i}=\frac{\exp\left(z_{i}/T\right)}{\sum_{j}\exp(z_{j}/T)}",
    ]
    assert len({parse_formula(f).canonical for f in forms}) == 1
    assert parse_formula(r"T^{2}").canonical == parse_formula("T^2").canonical
    assert parse_formula(r"r \approx s\,(q - z)").canonical == parse_formula("r ≈ s·(q − z)").canonical


@pytest.mark.parametrize(
    ("prefix", "response", "verdict"),
    [
        (
            DATA_PARALLEL,
            "Every GPU keeps a full copy of the network and processes its own slice of each batch; the gradients "
            "are then averaged across GPUs with an all-reduce so all copies stay in sync.",
            CORRECT,
        ),
        (DATA_PARALLEL, "You split the training data across multiple GPUs.", PARTIAL),
        (
            DATA_PARALLEL,
            "Model parallelism: the network's layers are placed on different GPUs because the model is too large "
            "for one GPU's memory.",
            INCORRECT,
        ),
        (
            MODEL_PARALLEL,
            "When the network is too big for one GPU's memory, its layers or tensors are split across several "
            "devices, each computing part of the model.",
            CORRECT,
        ),
        (CHECKPOINTING, "It trades extra compute for less memory.", PARTIAL),
        (CHECKPOINTING, "It saves model checkpoints to disk every few epochs so training can resume.", INCORRECT),
        (REGISTRY, "It stores versions of models and handles moving them from staging to production.", CORRECT),
        (ONNX_FLASH, "interoperability", CORRECT),
        (TF_DATA, "GPU kernel scheduling", INCORRECT),
    ],
)
def test_key_term_coverage(prefix, response, verdict):
    assert grade(card(prefix), response).verdict is verdict


def test_terms_the_answer_offers_as_alternatives_are_covered_by_either():
    """ "FP16 or BF16": a response with FP16 alone is not missing BF16."""
    for response, other in (("FP16", "BF16"), ("BF16", "FP16")):
        result = grade(card(MIXED_FLAG), f"it runs the forward and backward passes in {response} to save memory")
        assert not any(other in term for term in result.missing), result
        assert result.verdict is CORRECT, result


def _syllabus(question: str, answer: str) -> SimpleNamespace:
    return SimpleNamespace(question=question, answer=answer, short_answer="", kind="syllabus", aliases=[], key_terms=[])


def test_a_chain_of_alternatives_is_one_term_any_of_them_covers():
    chain = _syllabus("Which formats does it compute in?", "It computes in FP16 or BF16 or FP8 to save memory.")
    for name in ("FP16", "BF16", "FP8"):
        result = grade(chain, f"in {name}, to save memory")
        assert result.verdict is CORRECT and not result.missing, (name, result)


@pytest.mark.parametrize(
    "answer",
    [
        "ONNX (Open Neural Network Exchange) is an open standard format so models move between frameworks.",
        "The Open Neural Network Exchange (ONNX) is an open standard format so models move between frameworks.",
    ],
)
def test_the_acronym_spelled_out_either_way_only_names_it_again(answer):
    result = grade(_syllabus("What is ONNX?", answer), "Open Neural Network Exchange")
    assert result.verdict is INCORRECT, result


def test_the_acronym_spelled_out_in_a_response_is_no_off_target_word():
    # Once "Incorrect": the four spelled-out words counted as content that earned nothing.
    result = grade(
        card("What is ONNX and what problem"), "Open Neural Network Exchange, for interoperability between frameworks"
    )
    assert result.verdict is PARTIAL, result


def test_coverage_feedback_names_covered_and_missing_terms():
    result = grade(card(DATA_PARALLEL), "Each GPU has a copy of the model and its own shard of the data.")
    assert result.verdict is PARTIAL
    assert "shard" in result.matched
    assert "gradients" in result.missing
    assert "Missing: " in result.feedback and "gradients" in result.feedback.split("Missing: ")[1]
    assert len(result.feedback) < 200


def test_coverage_feedback_does_not_claim_the_student_wrote_the_answers_synonym():
    # "copy" and "GPU" cover the answer's 'replicated' and 'device': covered, not "used".
    result = grade(card(DATA_PARALLEL), "Each GPU has a copy of the model and its own shard of the data.")
    assert {"replicated", "device"} <= set(result.matched)
    assert result.feedback.startswith("You covered 'replicated', 'device' and 'shard'.")
    assert "you used" not in result.feedback.lower()


def test_authored_key_terms_override_the_derived_ones():
    automatic = card(DATA_PARALLEL)
    authored = dataclasses.replace(automatic, key_terms=("NCCL|nickel",))
    good = "Each replica gets a shard of the mini-batch and the gradients are all-reduced."
    assert grade(automatic, good).verdict is CORRECT
    check(grade(authored, good), INCORRECT, 0.0, 0.39)
    check(grade(authored, "They talk through NCCL."), CORRECT, 1.0, 1.0)
    assert grade(authored, "nickel").verdict is CORRECT


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (DATA_PARALLEL, "splitting the model's layers across GPUs because it's too big for one GPU"),
        (MODEL_PARALLEL, "replicate the model on every GPU and give each a different part of the batch"),
    ],
)
def test_data_and_model_parallelism_the_wrong_way_round_are_wrong(prefix, response):
    """The same words as the other concept's answer, bound the other way: what is split and what is copied."""
    result = grade(card(prefix), response)
    assert result.verdict is INCORRECT, result
    assert "says the opposite of the answer" in result.feedback


def test_an_authored_key_term_that_only_repeats_the_question_earns_nothing():
    # "batch" is in the Job card's question: copying the question is no evidence; its synonym "one-off" is.
    authored = dataclasses.replace(card(JOB), key_terms=("batch|one-off",))
    check(grade(authored, "batch"), INCORRECT, 0.0, 0.0)
    check(grade(authored, "a one-off"), CORRECT, 1.0, 1.0)
    assert grade(authored, "CronJob").missing == ("one-off",)
    # With only question words given, the card grades as if it had no key terms: the term "Job" is wanted.
    alone = dataclasses.replace(card(JOB), key_terms=("batch",))
    assert grade(alone, "batch").feedback == "The expected answer is Job."
    assert grade(alone, "Job").verdict is CORRECT


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("Copies of the model on every GPU, a split of the batch each, gradients synchronised.", CORRECT),
        ("copy of the model, split the batch, allreduce", CORRECT),
        ("copy of the model; all-reduce", PARTIAL),
        ("all reduce", PARTIAL),
        ("each GPU gets a split of the batch", PARTIAL),
        ("the model is big", INCORRECT),
    ],
)
def test_authored_terms_accept_their_pipe_separated_synonyms(response, verdict):
    authored = dataclasses.replace(
        card(DATA_PARALLEL),
        key_terms=("replica|copy of the model", "shard|split the batch", "all-reduce|allreduce|synchronise gradients"),
    )
    assert grade(authored, response).verdict is verdict


@pytest.mark.parametrize(
    ("prefix", "response"),
    [
        (DATA_PARALLEL, "What is data parallelism in distributed training?"),
        (DATA_PARALLEL, "data parallelism in distributed training"),
        (JOB, "What resource type is typically used to run a one-time batch training job?"),
        (DATA_PARALLEL, "banana kettle umbrella violin"),
        (DATA_PARALLEL, "I don't know"),
        # what the question's acronym stands for, which the model answer spells out, only names it again
        ("What is ONNX and what problem", "Open Neural Network Exchange"),
        (ONNX_FLASH, "Open Neural Network Exchange"),
    ],
)
def test_echoing_the_question_or_unrelated_words_is_incorrect(prefix, response):
    check(grade(card(prefix), response), INCORRECT, 0.0, 0.39)


def test_keyword_lists_and_padding_are_not_rewarded():
    data_parallel = card(DATA_PARALLEL)
    keywords = "gpu model batch gradient optimizer epoch loss tensor layer kernel cuda"
    assert grade(data_parallel, keywords).verdict is not CORRECT
    good = "Each GPU has a replica of the model and a shard of the batch; gradients are all-reduced and averaged."
    padding = " ".join(["Transformers use attention heads, tokenizers, embeddings and positional encodings."] * 30)
    assert grade(data_parallel, good + " " + padding).score < grade(data_parallel, good).score
    ml_dump = " ".join(["tensor kernel epoch dropout attention embedding optimizer scheduler"] * 25)
    assert grade(data_parallel, ml_dump).verdict is INCORRECT


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
# coverage and properties of every verdict the grader gives on them.


def _sample_rows() -> list[dict[str, str]]:
    with SAMPLE.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_verdict_and_score_agree_everywhere():
    for row in _sample_rows():
        result = grade(seed_cards()[row["question"]], row["answer"])
        if result.verdict is CORRECT:
            assert result.score >= grading.CORRECT_AT, row
        elif result.verdict is PARTIAL:
            assert grading.PARTIAL_AT <= result.score < grading.CORRECT_AT, row
        else:
            assert result.score < grading.PARTIAL_AT, row


def test_grading_is_deterministic():
    rows = _sample_rows()
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
    rows = [(dataclasses.asdict(seed_cards()[r["question"]]), r["answer"]) for r in _sample_rows()]
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
    rows = _sample_rows()
    assert len(rows) >= 90
    assert {row["expected"] for row in rows} == {"correct", "partial", "incorrect"}
    for question in seed_cards():
        assert sum(row["question"] == question for row in rows) >= 2, question


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
        (MIXED, "It combines INT8 and FP64.", INCORRECT, "FP64 is not"),
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


def test_tex_notation_is_not_a_word_but_operators_are():
    from apps.quiz.textnorm import fold, tokenize

    assert [t.norm for t in tokenize(fold(r"$\frac{1}{N} \sum L_i$"))] == ["1", "n", "sum", "li"]
    assert [t.norm for t in tokenize(fold(r"\left( \text{round} \right)"))] == ["round"]
    assert fold("no notation here") == "no notation here"


@pytest.mark.parametrize(
    "response",
    [
        "q = round(r / s + z)",
        "q = round(z + r/s)",
        r"$q = \mathrm{round}\left(\frac{r}{s} + z\right)$",
    ],
)
def test_rounding_commutes_with_an_integer_offset(response):
    result = grade(card(AFFINE), response)
    check(result, CORRECT, 1.0, 1.0)


@pytest.mark.parametrize(
    "response",
    [
        "q = round(r/s + 0.5) + z",  # not an integer offset
        "q = round((r + z)/s)",  # the offset is scaled
        "q = round(r/(s + z))",
        "q = round(s/r + z)",
    ],
)
def test_moving_other_terms_into_the_rounding_is_not_the_formula(response):
    assert grade(card(AFFINE), response).verdict is not CORRECT


def test_formula_canonical_forms_for_offsets_and_unit_factors():
    assert parse_formula("y = floor(x + 1)").canonical == parse_formula("y = floor(x) + 1").canonical
    assert parse_formula("q = round(r/s - z)").canonical == parse_formula("q = round(r/s) - z").canonical
    assert parse_formula("y = round(a + b)").canonical != parse_formula("y = round(a) + b").canonical
    assert parse_formula("y = 1/n * x").canonical == parse_formula("y = x/n").canonical
    assert parse_formula("y = 1 * x").canonical == parse_formula("y = x").canonical


def test_expressions_of_the_answer_match_in_any_notation():
    from apps.quiz.formulas import find_expressions

    tex = find_expressions(r"the mean ($\frac{1}{N}\sum L_i$) of $N$ losses", tex_only=True)
    assert tex == find_expressions("(1/N) * sum L_i") == find_expressions("sum(L_i) / N")
    assert find_expressions("forward/backward on CPU/GPU") == frozenset()
    assert find_expressions("$N$ steps") == frozenset()
    assert find_expressions("q = round(r/s) + z") == frozenset()  # an equation, handled as a formula


@pytest.mark.parametrize(
    ("response", "verdict"),
    [
        ("So the gradient is averaged instead of summed: (1/N) * sum L_i", CORRECT),
        # the answer's result against what it replaces makes its point (contrasts.py) ...
        ("So the gradient is averaged instead of summed.", CORRECT),
        # ... but an expression over the answer's names that is not the answer's is never fully right
        ("So the gradient is averaged instead of summed: N * sum L_i", PARTIAL),
        ("the mean gradient: N * sum L_i", PARTIAL),
        ("To make training faster.", INCORRECT),
    ],
)
def test_an_expression_of_the_answer_counts_as_a_key_term(response, verdict):
    assert grade(card(DIVIDE_LOSS), response).verdict is verdict


def test_a_right_expression_in_a_wrong_statement_is_not_enough():
    temperature = card("In knowledge distillation, what is the role")
    assert grade(temperature, "It divides the learning rate by T^2").verdict is INCORRECT


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
        assert result.score <= grading.ONE_PART_CAP


def _holdout_rows() -> list[dict[str, str]]:
    with HOLDOUT.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_the_holdout_covers_every_seed_card_with_every_label():
    rows = _holdout_rows()
    assert len(rows) >= 80
    assert {row["expected"] for row in rows} == {"correct", "partial", "incorrect"}
    assert {row["question"] for row in rows} == set(seed_cards())
    sample = {(row["question"], row["answer"].strip().casefold()) for row in _sample_rows()}
    assert not [row for row in rows if (row["question"], row["answer"].strip().casefold()) in sample]


def test_verdict_and_score_agree_on_the_holdout():
    for row in _holdout_rows():
        result = grade(seed_cards()[row["question"]], row["answer"])
        if result.verdict is CORRECT:
            assert result.score >= grading.CORRECT_AT, row
        elif result.verdict is PARTIAL:
            assert grading.PARTIAL_AT <= result.score < grading.CORRECT_AT, row
        else:
            assert result.score < grading.PARTIAL_AT, row


def test_feedback_names_key_terms_as_the_answer_writes_them_together():
    result = grade(card(LOSS_SCALING), "it makes training faster")
    assert result.verdict is INCORRECT
    assert "limited dynamic range" in result.feedback  # one phrase, in the answer's order
    assert "dynamic, range" not in result.feedback and "range and limited" not in result.feedback
    assert set(result.missing) >= {"limited", "dynamic", "range"}  # the terms themselves stay separate


@pytest.mark.parametrize("fragment", ["\\frac{1}{T", "softer \\frac{x}", "\\sqrt{"])
def test_a_stray_tex_fragment_does_not_stop_the_grader(fragment):
    answer = (
        "Temperature softens the probability distribution; a higher T gives softer probabilities that reveal "
        "similarities between classes and a richer gradient signal for the student"
    )
    temperature = card("In knowledge distillation, what is the role")
    clean = grade(temperature, answer)
    result = grade(temperature, f"{answer} {fragment}")
    assert "could not be graded" not in result.feedback
    assert result.verdict is clean.verdict is CORRECT


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


@pytest.mark.parametrize(
    "response",
    [
        "q = ⌊r/s⌉ + z",
        r"q = \lfloor r/s \rceil + z",
        r"$q = \left\lfloor \frac{r}{s} \right\rceil + z$",
        "The formula is q = ⌊r/s⌉ + z where s is the scale.",
    ],
)
def test_rounding_brackets_are_rounding(response):
    result = grade(card(AFFINE), response)
    check(result, CORRECT, 1.0, 1.0)
    assert "q = round(r/s) + z" in result.feedback


def test_floor_and_ceiling_brackets_are_floor_and_ceil():
    assert parse_formula("y = ⌊x⌋").canonical == parse_formula("y = floor(x)").canonical
    assert parse_formula(r"y = \lceil x \rceil").canonical == parse_formula("y = ceil(x)").canonical
    assert parse_formula("y = ⌊x") is None


@pytest.mark.parametrize(
    ("response", "misquote"),
    [
        ("q = ⌊r/s⌋ + z", "q = r/s + z"),  # floor, not round: said so, never with the brackets dropped
        ("q = |r/s| + z", "q = r/s + z"),  # bars the grader does not read: no formula is quoted at all
        ("q = ⌊r/s + z", "q = r/s + z"),
    ],
)
def test_feedback_never_quotes_a_formula_with_symbols_dropped(response, misquote):
    result = grade(card(AFFINE), response)
    assert result.verdict is not CORRECT
    assert misquote not in result.feedback


@pytest.mark.parametrize(
    "response",
    [
        r"$\frac{1}{N}\sum_i L_i$",
        r"$\frac{1}{N}\sum_{i=1}^{N} L_i$",
        r"$\frac{\sum_i L_i}{N}$",
        "(1/N) * sum L_i",
        "(1/N) * sum_i L_i",
        "sum(L_i) / N",
        "Σ L_i / N",
        "∑_{i=1}^N L_i / N",
    ],
)
def test_a_sum_grades_alike_in_every_notation_with_or_without_its_index(response):
    from apps.quiz.formulas import find_expressions

    assert find_expressions(response) == find_expressions("(1/N) * sum L_i")
    reference = grade(card(DIVIDE_LOSS), "(1/N) * sum L_i")
    result = grade(card(DIVIDE_LOSS), response)
    assert (result.verdict, result.score) == (reference.verdict, reference.score)
    assert "the formula" in result.matched


def test_the_index_of_a_sum_is_a_dummy_but_the_summand_is_not():
    assert parse_formula(r"y = \sum_j x_j").canonical == parse_formula("y = sum x_j").canonical
    assert parse_formula(r"y = \sum_j x_j").canonical != parse_formula(r"y = \sum_j w_j").canonical
    assert parse_formula(r"y = \prod_{i=1}^{n} x_i").canonical == parse_formula("y = ∏ x_i").canonical


TEX_CLAMP = r"$q = \mathrm{clamp}\left(\left\lfloor \frac{r}{s} \right\rceil + z, q_{min}, q_{max}\right)$"


@pytest.mark.parametrize(
    ("response", "verdict", "low", "high"),
    [
        # the standard clamping to the integer range around the right formula is a more complete answer
        ("q = clamp(round(r/s)+z, qmin, qmax)", CORRECT, 1.0, 1.0),
        ("q = clip(round(r/s) + z, q_min, q_max)", CORRECT, 1.0, 1.0),
        ("q = min(max(round(r/s) + z, qmin), qmax)", CORRECT, 1.0, 1.0),
        (TEX_CLAMP, CORRECT, 1.0, 1.0),
        # clamping does not mend a wrong formula inside it
        ("q = clamp(round(r/s), qmin, qmax)", PARTIAL, 0.5, 0.5),
        ("q = clamp(round(r*s)+z, qmin, qmax)", INCORRECT, 0.0, 0.0),
        # the formula asked for without its left-hand side
        ("round(r/s)+z", CORRECT, 1.0, 1.0),
        ("z + round(r/s)", CORRECT, 1.0, 1.0),
        (r"$\text{round}\left(\frac{r}{s}\right) + z$", CORRECT, 1.0, 1.0),
        ("clamp(round(r/s)+z, qmin, qmax)", CORRECT, 1.0, 1.0),
        ("s(q - z)", PARTIAL, 0.5, 0.5),  # the dequantization side: another formula of the answer
        # the right idea short of the integer: the rounding left out is close, not the answer
        ("r/s + z", PARTIAL, 0.5, 0.5),
        ("q = r/s + z", PARTIAL, 0.5, 0.5),
        ("q = x/s + z", PARTIAL, 0.5, 0.5),  # the real value called x, as "q = round(x/s) + z" may: it was 0
        ("q = clamp(r/s + z, qmin, qmax)", PARTIAL, 0.5, 0.5),
        ("q = x/y + z", INCORRECT, 0.0, 0.0),  # two letters renamed could stand for anything
        ("r*s + z", INCORRECT, 0.0, 0.39),
        ("q", INCORRECT, 0.0, 0.0),
    ],
)
def test_clamped_formulas_and_formulas_without_their_left_hand_side(response, verdict, low, high):
    result = grade(card(AFFINE), response)
    check(result, verdict, low, high)
    if verdict is CORRECT:
        assert "q = round(r/s) + z" in result.feedback


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


DYNAMIC_BATCHING = "What is dynamic batching"
FEATURE_SKEW = "In the context of feature stores"
ONNX_SYLLABUS = "What is ONNX and what problem"
PTQ_QAT = "Contrast post-training quantization"
GA_DIVIDE = DIVIDE_LOSS


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


HYPER_TUNING = "What is hyperparameter tuning, and how"


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
