"""`manage.py check_grading`: instructors' regression test for grading rules."""

from __future__ import annotations

import csv
import json
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from apps.content.models import Alias, Card, Deck
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db
SAMPLE = Path(settings.BASE_DIR) / "fixtures" / "grading-sample.csv"
HOLDOUT = Path(settings.BASE_DIR) / "fixtures" / "grading-holdout.csv"
FRESH = Path(settings.BASE_DIR) / "fixtures" / "grading-fresh.csv"
BLIND = Path(settings.BASE_DIR) / "fixtures" / "grading-blind.csv"
UNSEEN = Path(settings.BASE_DIR) / "fixtures" / "grading-unseen.csv"
PROBE = Path(settings.BASE_DIR) / "fixtures" / "grading-probe.csv"
STYLES = Path(settings.BASE_DIR) / "fixtures" / "grading-styles.csv"
JOB = (
    "When using Kubernetes for ML workload orchestration, "
    "what resource type is typically used to run a one-time batch training job?"
)


def _run(*args) -> tuple[str, int]:
    out = StringIO()
    try:
        call_command("check_grading", *map(str, args), stdout=out)
    except SystemExit as exc:
        return out.getvalue(), exc.code
    return out.getvalue(), 0


def _csv(tmp_path, rows, header=("question", "answer", "expected")) -> Path:
    path = tmp_path / "rows.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


# The shipped files' agreement thresholds live here and nowhere else: measured the way an instructor measures
# them, by the command, against the cards as the database holds them (test_grading.py and
# test_grading_holdout.py check the files themselves).


def test_the_shipped_sample_covers_every_seed_card_and_agrees_at_least_90_percent(seeded):
    output, _code = _run(SAMPLE, "--json")
    report = json.loads(output)
    assert len(report["rows"]) >= 80
    assert {row["question"] for row in report["rows"]} == set(Card.objects.values_list("question", flat=True))
    assert set(report["rows"][0]) == {"question", "answer", "expected", "verdict", "score"}
    agreeing = sum(row["verdict"] == row["expected"] for row in report["rows"])
    assert report["agreement"] == round(agreeing / len(report["rows"]), 4)
    assert report["agreement"] >= 0.90, [r for r in report["rows"] if r["verdict"] != r["expected"]]


def test_the_holdout_covers_every_seed_card_and_agrees_at_least_88_percent(seeded):
    """Answers written from the cards alone, without looking at the grader: the sample's figure must carry over."""
    output, _code = _run(HOLDOUT, "--json")
    report = json.loads(output)
    assert len(report["rows"]) >= 80
    assert {row["question"] for row in report["rows"]} == set(Card.objects.values_list("question", flat=True))
    assert report["agreement"] >= 0.88, [r for r in report["rows"] if r["verdict"] != r["expected"]]


@pytest.mark.parametrize(
    "path", [FRESH, BLIND, UNSEEN, PROBE, STYLES], ids=["fresh", "blind", "unseen", "probe", "styles"]
)
def test_sets_written_as_students_write_cover_every_seed_card_and_agree_at_least_80_percent(seeded, path):
    """Answers written by reviewers as students write (terse, negated, contrasted, wrong with confidence): the
    fresh set (244 rows) after the grader, half of it never looked at while tuning; the blind set (232 rows) from
    the cards alone, before its writer read the grader; the unseen set (200 rows) likewise, and never used in
    tuning at all; the probe set (222 rows), six a card, written to find the grader's faults; the styles set (225
    rows) in the ways students write that the others have little of (English as a second language, shorthand,
    code and formulas, hedges, long answers with a wrong remark). A guard against rules that only fit the sample."""
    output, _code = _run(path, "--json")
    report = json.loads(output)
    assert len(report["rows"]) >= 200
    assert {row["question"] for row in report["rows"]} == set(Card.objects.values_list("question", flat=True))
    assert report["agreement"] >= 0.80, [r for r in report["rows"] if r["verdict"] != r["expected"]]


def test_full_agreement_prints_a_table_and_exits_zero(seeded, tmp_path):
    path = _csv(tmp_path, [[JOB, "Job", "correct"], [JOB, "CronJob", "incorrect"]])
    output, code = _run(path)
    assert code == 0
    assert "agreement: 2/2 = 100.0%" in output
    assert "CronJob" in output


def test_a_disagreeing_row_exits_one_and_is_marked(seeded, tmp_path):
    path = _csv(tmp_path, [[JOB, "Job", "correct"], [JOB, "Deployment", "correct"]])
    output, code = _run(path)
    assert code == 1
    assert "agreement: 1/2 = 50.0%" in output
    assert "✗ correct   incorrect" in output


def test_aliases_in_the_database_are_used(seeded, tmp_path):
    Alias.objects.create(card=Card.objects.get(question=JOB), text="batch/v1 Job resource")
    output, code = _run(_csv(tmp_path, [[JOB, "batch/v1 Job resource", "correct"]]), "--json")
    assert code == 0 and json.loads(output)["agreement"] == 1.0


@pytest.mark.parametrize(
    ("rows", "header", "message"),
    [
        (
            [["What is nothing?", "x", "correct"]],
            ("question", "answer", "expected"),
            r"rows.csv:2: no card has the question",
        ),
        (
            [[JOB, "Job", "maybe"]],
            ("question", "answer", "expected"),
            r"rows.csv:2: expected must be correct, partial or incorrect",
        ),
        ([[JOB, "Job"]], ("question", "answer"), r"rows.csv:1: the header must name question,answer,expected"),
        ([], ("question", "answer", "expected"), r"has no rows"),
    ],
)
def test_malformed_files_name_the_line(seeded, tmp_path, rows, header, message):
    with pytest.raises(CommandError, match=message):
        _run(_csv(tmp_path, rows, header=header))


def test_missing_file(seeded, tmp_path):
    with pytest.raises(CommandError, match="cannot be read"):
        _run(tmp_path / "nope.csv")


# --- files as people write them: quotes, spacing and letter case, several decks ---------------------


def _write(tmp_path, text: str | bytes, name: str = "rows.csv") -> Path:
    path = tmp_path / name
    (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
    return path


@pytest.mark.parametrize(
    ("after", "message"),
    [
        ("", 'a quote (") opened in this row is never closed'),  # the last row: read to the end of the file
        (
            f'"{JOB}",Job,correct\n',
            'a quote (") opened in this row is not closed on its line: the cell runs on to line 4',
        ),
        (
            'Job",maybe\n',  # closed, followed by a comma, on the next line: one row of two lines
            "expected must be correct, partial or incorrect, not 'maybe'; the row runs on to line 4: is a quote (\") "
            "left open on line 3?",
        ),
    ],
    ids=["at-the-end", "closed-by-a-later-quote", "swallowing-lines"],
)
def test_an_unclosed_quote_is_named_as_such_at_its_line(seeded, tmp_path, after, message):
    """It used to read to the end of the file as one cell and say "expected must be …, not None"."""
    text = f'question,answer,expected\n"{JOB}",Job,correct\n"{JOB}","a Job, of course,correct\n{after}'
    with pytest.raises(CommandError) as excinfo:
        _run(_write(tmp_path, text))
    assert str(excinfo.value).startswith(f"{tmp_path / 'rows.csv'}:3: {message}")
    assert "None" not in str(excinfo.value)


def test_a_row_that_ends_before_its_expected_cell_says_so(seeded, tmp_path):
    with pytest.raises(CommandError, match=r"rows.csv:3: the row ends before its expected cell"):
        _run(_write(tmp_path, f'question,answer,expected\n"{JOB}",Job,correct\n"{JOB}",Job\n'))


def test_a_question_is_matched_whatever_its_spaces_and_letter_case(seeded, tmp_path):
    loose = "  " + JOB.upper().replace(" ", "  \n ", 3) + " "
    output, code = _run(_csv(tmp_path, [[loose, "Job", "correct"], [loose, "CronJob", "incorrect"]]), "--json")
    assert code == 0
    report = json.loads(output)
    assert report["agreement"] == 1.0
    assert [row["question"] for row in report["rows"]] == [loose, loose]  # the documented output, as written


def test_an_exact_question_is_preferred_to_one_that_differs_in_letter_case(seeded, tmp_path):
    other = make_deck(slug="shouting", title="Shouting")
    make_card(deck=other, question=JOB.upper(), answer="Deployment", short_answer="Deployment")
    output, code = _run(_csv(tmp_path, [[JOB, "Job", "correct"], [JOB.upper(), "Deployment", "correct"]]))
    assert code == 0 and "agreement: 2/2 = 100.0%" in output


def test_a_question_asked_in_two_decks_is_refused_naming_them_unless_a_deck_is_named(seeded, tmp_path):
    copy = make_deck(slug="tools-copy", title="Tools (copy)")
    make_card(deck=copy, question=JOB, answer="Deployment", short_answer="Deployment")
    path = _csv(tmp_path, [[JOB, "Job", "correct"]])
    seed_deck = Card.objects.get(question=JOB, deck__slug="technology-digital-tools-flashcards").deck.slug
    with pytest.raises(CommandError) as excinfo:
        _run(path)
    assert str(excinfo.value) == (
        f"{path}:2: the question {JOB[:80]!r} is asked in 2 decks ({seed_deck}, tools-copy); "
        "name the one to check with --deck SLUG"
    )
    output, code = _run(path, "--deck", seed_deck, "--json")
    assert code == 0 and json.loads(output) == {
        "rows": [{"question": JOB, "answer": "Job", "expected": "correct", "verdict": "correct", "score": 1.0}],
        "agreement": 1.0,
    }
    output, code = _run(path, "--deck", "tools-copy")
    assert code == 1 and "agreement: 0/1 = 0.0%" in output  # graded against the copy's answer, Deployment
    with pytest.raises(CommandError, match="no deck has the slug 'nope'"):
        _run(path, "--deck", "nope")
    with pytest.raises(CommandError, match=r"rows.csv:2: no card in the deck 'tools-copy' has the question"):
        _run(_csv(tmp_path, [["What is nothing?", "x", "correct"]]), "--deck", "tools-copy")


def test_a_windows_1252_file_is_named_at_its_line_with_how_to_save_it(seeded, tmp_path):
    text = f'question,answer,expected\n"{JOB}",Job,correct\n"{JOB}",A Job – once,correct\n'
    with pytest.raises(CommandError) as excinfo:
        _run(_write(tmp_path, text.encode("cp1252")))
    assert str(excinfo.value).startswith(f"{tmp_path / 'rows.csv'}:3: the byte 0x96 (“–” in Windows-1252) is not UTF-8")
    assert "save it as CSV UTF-8" in str(excinfo.value)


def test_every_unknown_question_is_named_at_once_with_the_card_it_most_likely_meant(seeded, tmp_path):
    """A file written by hand stopped at its first unknown question: a comma left out cost one run per row."""
    rows = [
        [JOB.replace("orchestration,", "orchestration"), "Job", "correct"],
        ["What is ONNX?", "an exchange format", "correct"],
        [JOB, "Job", "correct"],
        ["what is data parallelism in distributed training", "replicas", "partial"],
    ]
    with pytest.raises(CommandError) as excinfo:
        _run(_csv(tmp_path, rows))
    assert str(excinfo.value).splitlines() == [
        f"{tmp_path}/rows.csv:2: no card has the question {JOB.replace('orchestration,', 'orchestration')[:80]!r}; "
        f"did you mean {JOB!r}?",
        f"{tmp_path}/rows.csv:3: no card has the question 'What is ONNX?'",  # nothing close enough to guess
        f"{tmp_path}/rows.csv:5: no card has the question 'what is data parallelism in distributed training'; "
        "did you mean 'What is data parallelism in distributed training?'?",
    ]


# --- the shipped mixed-deck files beside other decks asking their questions ------------------------


def _seed_slugs() -> list[str]:
    return sorted(Deck.objects.values_list("slug", flat=True))


def _copy_of_job(*, published: bool, slug: str = "tools-draft") -> Deck:
    """A deck asking one seed card's question with another answer, as an instructor's copy made to revise it."""
    copy = make_deck(slug=slug, title=slug.replace("-", " ").title(), published=published)
    make_card(deck=copy, question=JOB, answer="Deployment", short_answer="Deployment")
    return copy


def test_the_sample_runs_unchanged_when_a_draft_deck_also_asks_one_of_its_questions(seeded):
    before = _run(SAMPLE, "--json")
    _copy_of_job(published=False)
    assert _run(SAMPLE, "--json") == before  # the published card is the one checked, every row as before


def test_several_decks_given_resolve_the_sample_s_rows_among_them(seeded, tmp_path):
    seed = _seed_slugs()
    before = _run(SAMPLE, "--json")
    _copy_of_job(published=True, slug="tools-copy")  # published too: now the question needs --deck
    with pytest.raises(CommandError, match=rf"is asked in 2 decks \({seed[1]}, tools-copy\); name the one"):
        _run(SAMPLE)
    assert _run(SAMPLE, "--json", "--deck", seed[0], "--deck", seed[1]) == before
    # The copy beside the other seed deck: its question is graded against the copy's answer, the rest as before.
    syllabus = Card.objects.filter(deck__slug=seed[0]).order_by("position").first()
    path = _csv(tmp_path, [[syllabus.question, syllabus.answer, "correct"], [JOB, "Deployment", "correct"]])
    output, code = _run(path, "--deck", seed[0], "--deck", "tools-copy")
    assert code == 0 and "agreement: 2/2 = 100.0%" in output


def test_a_question_still_ambiguous_names_its_decks_drafts_marked_and_suggests_deck(seeded, tmp_path):
    seed = Card.objects.get(question=JOB).deck.slug
    path = _csv(tmp_path, [[JOB, "Job", "correct"]])
    _copy_of_job(published=False, slug="tools-draft")
    _copy_of_job(published=True, slug="tools-copy")
    with pytest.raises(CommandError) as excinfo:
        _run(path)
    assert str(excinfo.value) == (
        f"{path}:2: the question {JOB[:80]!r} is asked in 3 decks ({seed}, tools-copy, tools-draft (draft)); "
        "name the one to check with --deck SLUG"
    )
    # Given by name, a draft is as much asked for as the published deck: two of them asking it is refused.
    with pytest.raises(CommandError) as excinfo:
        _run(path, "--deck", seed, "--deck", "tools-draft")
    assert str(excinfo.value) == (
        f"{path}:2: the question {JOB[:80]!r} is asked in 2 of the decks given ({seed}, tools-draft (draft)); "
        "give --deck only the one to check it against"
    )
    # A draft named alone is checked: how its copy of the card grades, before it is published.
    output, code = _run(path, "--deck", "tools-draft", "--deck", "tools-draft")
    assert code == 1 and "agreement: 0/1 = 0.0%" in output  # graded against the draft's answer, Deployment


def test_several_decks_given_are_named_when_they_ask_no_such_question_or_do_not_exist(seeded, tmp_path):
    seed = _seed_slugs()
    path = _csv(tmp_path, [["What is nothing?", "x", "correct"]])
    with pytest.raises(CommandError, match=rf"rows.csv:2: no card in the decks '{seed[0]}', '{seed[1]}' has the"):
        _run(path, "--deck", seed[0], "--deck", seed[1])
    with pytest.raises(CommandError, match=r"^no deck has the slugs 'nope', 'gone'$"):
        _run(path, "--deck", "nope", "--deck", seed[0], "--deck", "gone")


@pytest.mark.parametrize(
    ("row", "cells"),
    [(f'"{JOB}",Job,incorrect,extra', 4), (f'"{JOB}",a Job, of course,correct', 4), (f'"{JOB}",Job,,correct,', 5)],
    ids=["a cell after expected", "a comma not in quotes", "a cell shifted over"],
)
def test_a_row_with_more_cells_than_the_header_is_refused_at_its_line(seeded, tmp_path, row, cells):
    path = _write(tmp_path, f'question,answer,expected\n"{JOB}",Job,correct\n{row}\n')
    with pytest.raises(CommandError) as excinfo:
        _run(path)
    assert str(excinfo.value) == (
        f"{path}:3: the row has {cells} cells where the header names 3 (is a comma inside a cell not in quotes?)"
    )
    # Empty cells a spreadsheet pads a row with are nothing written: the row is checked.
    assert _run(_write(tmp_path, f'question,answer,expected\n"{JOB}",Job,correct,,\n'))[1] == 0
