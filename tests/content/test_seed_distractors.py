"""Distractors shipped beside a seed file (`<stem>.distractors.csv`): parsed, checked, loaded by load_content, and not
giving the right option away by its length."""

from __future__ import annotations

import random
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from apps.content.loader import LoaderError, distractors_path, parse_file
from apps.content.models import Card, Distractor
from apps.content.services import card_save
from apps.quiz.options import Option, options_build

FLASHCARDS = Path(settings.BASE_DIR) / "fixtures" / "technology-digital-tools-flashcards.txt"
JOB = "When using Kubernetes for ML workload orchestration, what resource type is typically used to run a one-time batch training job?"  # noqa: E501
HEADER = "question,distractor\n"
QJOB = f'"{JOB}"'  # the question has a comma


def _deck(tmp_path: Path, sidecar: str | None) -> Path:
    seed = tmp_path / FLASHCARDS.name
    shutil.copy(FLASHCARDS, seed)
    if sidecar is not None:
        distractors_path(seed).write_text(sidecar)
    return seed


def _load(*files: Path, **options) -> str:
    out = StringIO()
    call_command("load_content", *map(str, files), stdout=out, stderr=out, **options)
    return out.getvalue()


def _job_distractors() -> list[str]:
    return list(Distractor.objects.filter(card__question=JOB).order_by("position").values_list("text", flat=True))


def test_the_shipped_flashcards_have_three_distractors_each():
    deck = parse_file(FLASHCARDS)
    assert [len(card.distractors) for card in deck.cards] == [3] * 7
    job = next(card for card in deck.cards if card.answer == "Job")
    assert [d.text for d in job.distractors] == ["CronJob", "Deployment", "StatefulSet"]
    assert job.distractors[0].path.endswith("technology-digital-tools-flashcards.distractors.csv")
    assert job.distractors[0].line == 11


def _options(cards, card) -> tuple[list[Option], int]:
    """The card's four options as a quiz builds them (picking.choice_options): authored distractors first, then
    the deck's other answers."""

    def option(c) -> Option:
        return Option(text=c.short_answer or c.answer, html="", topic=f"{c.question}\n{c.answer}")

    authored = [Option(text=d.text, html="") for d in card.distractors]
    pool = [option(other) for other in cards if other is not card]
    return options_build(right=option(card), authored=authored, pool=pool, rng=random.Random(0))


@pytest.mark.parametrize("seed", sorted((Path(settings.BASE_DIR) / "fixtures").glob("*.txt")), ids=lambda p: p.stem)
def test_picking_the_longest_option_does_not_find_the_right_answer_of_a_seed_deck(seed):
    """On the flashcards the right answer was the longest of its four options on 5 of 7 cards, so "pick the
    longest" beat the quiz. With lengths that tell nothing, the right one is the longest about one card in four
    by chance; a deck may have it so on at most a third of its cards (2 of 7, 10 of 30), room for chance on a
    small deck, and far from 5 of 7. Lengths of the source: both sides are typeset alike."""
    cards = parse_file(seed).cards
    longest = []
    for card in cards:
        options, right = _options(cards, card)
        lengths = [len(option.text) for i, option in enumerate(options) if i != right]
        if len(options[right].text) > max(lengths):
            longest.append(card.question)
    assert len(longest) <= len(cards) // 3, longest


def test_a_quoted_question_and_a_multi_line_distractor_keep_their_lines(tmp_path):
    sidecar = f'{HEADER}{QJOB},"A Deployment,\nscaled to zero"\n\n{QJOB},CronJob\n'
    job = next(card for card in parse_file(_deck(tmp_path, sidecar)).cards if card.answer == "Job")
    assert [(d.line, d.text) for d in job.distractors] == [(2, "A Deployment,\nscaled to zero"), (5, "CronJob")]


@pytest.mark.parametrize(
    ("sidecar", "line", "message"),
    [
        ("Card,Wrong\n", 1, "expected the header 'question,distractor', got 'Card,Wrong'"),
        ('"question,distractor\n', 1, "is not valid CSV: unexpected end of data"),
        (f"{HEADER}{QJOB},CronJob\nWhat is a pod?,Container\n", 3, "no card in this deck asks 'What is a pod?'"),
        (f"{HEADER}{QJOB},CronJob\n{QJOB},job\n", 3, "the distractor 'job' is the card's own answer"),
        (f"{HEADER}{QJOB},CronJob\n{QJOB},  cronjob \n", 3, "the distractor 'cronjob' repeats line 2"),
        (f"{HEADER}{QJOB},\n", 2, "the distractor is empty"),
        (f"{HEADER}{QJOB},CronJob,Deployment\n", 2, "expected 2 fields (question, distractor), got 3"),
        (f'{HEADER}{QJOB},"CronJob\n', 2, "is not valid CSV"),
        # a quote never closed is named where it opens, not at the end of the file
        (f'{HEADER}{QJOB},Deployment\n{QJOB},"CronJob\n\n\n', 3, "is not valid CSV: unexpected end of data"),
        (f"{HEADER}{QJOB},CronJob\n{QJOB},Deploy\x00ment\n", 3, "holds a NUL character (\\x00)"),
        (
            f"{HEADER}{QJOB},CronJob\n{QJOB},{'a' * 20_001}\n",
            3,
            "the distractor is 20,001 characters long; at most 20,000",
        ),
    ],
)
def test_a_bad_row_names_the_sidecar_and_its_line(tmp_path, sidecar, line, message):
    seed = _deck(tmp_path, sidecar)
    with pytest.raises(LoaderError) as excinfo:
        parse_file(seed, display_path="fixtures/deck.txt")
    assert excinfo.value.path == "fixtures/deck.distractors.csv"
    assert excinfo.value.line == line
    assert message in excinfo.value.message


def test_a_sidecar_saved_by_older_excel_says_how_to_save_it(tmp_path):
    seed = _deck(tmp_path, None)
    distractors_path(seed).write_bytes(f"{HEADER}{QJOB},CronJob\n{QJOB},A Job \u2013 run once\n".encode("cp1252"))
    with pytest.raises(LoaderError) as excinfo:
        parse_file(seed, display_path="fixtures/deck.txt")
    assert (excinfo.value.path, excinfo.value.line) == ("fixtures/deck.distractors.csv", 3)
    assert "the byte 0x96 (“–” in Windows-1252)" in excinfo.value.message
    assert "save it as CSV UTF-8" in excinfo.value.message


@pytest.mark.django_db
def test_load_content_stores_the_distractors_typeset_and_a_second_load_changes_nothing():
    _load()
    assert _job_distractors() == ["CronJob", "Deployment", "StatefulSet"]
    assert Distractor.objects.get(text="CronJob").text_html == "<p>CronJob</p>"
    job = Card.objects.get(question=JOB)
    assert job.current_version.data["distractors"] == ["CronJob", "Deployment", "StatefulSet"]
    assert "0 created, 0 updated, 37 unchanged" in _load()


@pytest.mark.django_db
def test_a_changed_sidecar_updates_the_cards_it_changes(tmp_path):
    _load(FLASHCARDS)
    sidecar = distractors_path(FLASHCARDS).read_text().replace(f"{QJOB},StatefulSet", f"{QJOB},DaemonSet")
    output = _load(_deck(tmp_path, sidecar))
    assert "0 created, 1 updated, 6 unchanged" in output
    assert _job_distractors() == ["CronJob", "Deployment", "DaemonSet"]


@pytest.mark.django_db
def test_distractors_edited_in_the_admin_are_kept_until_overwrite(tmp_path, instructor):
    _load(FLASHCARDS)
    card_save(card=Card.objects.get(question=JOB), author=instructor, distractors=["ReplicaSet"])
    assert "0 created, 0 updated, 7 unchanged" in _load(FLASHCARDS)  # the seed did not change: the edit stands
    assert _job_distractors() == ["ReplicaSet"]

    changed = _deck(tmp_path, distractors_path(FLASHCARDS).read_text().replace(",StatefulSet", ",DaemonSet"))
    output = _load(changed)
    assert "conflict: technology-digital-tools-flashcards #4" in output and "(its distractors)" in output
    assert _job_distractors() == ["ReplicaSet"]

    _load(changed, overwrite=True)
    assert _job_distractors() == ["CronJob", "Deployment", "DaemonSet"]


@pytest.mark.django_db
def test_a_sidecar_taken_away_takes_its_distractors_but_not_the_admins(tmp_path, instructor):
    _load(FLASHCARDS)
    card_save(card=Card.objects.get(question=JOB), author=instructor, distractors=["ReplicaSet"])
    _load(_deck(tmp_path, None))
    assert _job_distractors() == ["ReplicaSet"]
    assert Distractor.objects.filter(text="Apache Spark MLlib Pipelines (Spark ML)").count() == 0


@pytest.mark.django_db
def test_a_distractor_katex_rejects_names_its_line_and_nothing_is_written(tmp_path):
    seed = _deck(tmp_path, f"{HEADER}{QJOB},CronJob\n{QJOB},$\\frac{{1}}$\n")
    with pytest.raises(CommandError) as excinfo:
        _load(seed)
    assert "technology-digital-tools-flashcards.distractors.csv:3: KaTeX cannot typeset $\\frac{1}$" in str(
        excinfo.value
    )
    assert "Nothing was written." in str(excinfo.value)
    assert not Card.objects.exists()
