from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.content.models import Card
from apps.quiz.grading import grade
from apps.quiz.models import Verdict
from apps.quiz.services import grading_cards


class Command(BaseCommand):
    help = (
        "Grade every row of a CSV (question,answer,expected) with the real grader, print the agreement, "
        "and exit 1 if any row disagrees. `question` is a card's exact question text."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file",
            type=Path,
            help="A UTF-8 CSV file with the header question,answer,expected: a card's question, a student's answer, "
            "and the verdict expected (correct, partial or incorrect).",
        )
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="Print one JSON object instead of a table."
        )

    def handle(self, *args, file: Path, as_json: bool, **options):
        rows = _read(file)
        cards = grading_cards(Card.objects.filter(question__in={row["question"] for row in rows}))
        results = []
        for row in rows:
            card = cards.get(row["question"])
            if card is None:
                raise CommandError(f"{file}:{row['line']}: no card has the question {row['question'][:80]!r}")
            result = grade(card, row["answer"])
            results.append({**row, "verdict": str(result.verdict), "score": result.score})
        agreeing = sum(r["verdict"] == r["expected"] for r in results)
        agreement = round(agreeing / len(results), 4)
        if as_json:
            rows_out = [{k: r[k] for k in ("question", "answer", "expected", "verdict", "score")} for r in results]
            self.stdout.write(json.dumps({"rows": rows_out, "agreement": agreement}, ensure_ascii=False))
        else:
            self._table(results)
            self.stdout.write(f"agreement: {agreeing}/{len(results)} = {agreement:.1%}")
        if agreeing != len(results):
            sys.exit(1)

    def _table(self, results: list[dict]) -> None:
        self.stdout.write(f"{'':2} {'expected':9} {'verdict':9} {'score':>5}  question / answer")
        for r in results:
            mark = "  " if r["verdict"] == r["expected"] else "✗ "
            question = " ".join(r["question"].split())[:60]
            answer = " ".join(r["answer"].split())[:60]
            self.stdout.write(f"{mark}{r['expected']:9} {r['verdict']:9} {r['score']:5.2f}  {question} / {answer}")


def _read(file: Path) -> list[dict]:
    try:
        handle = file.open(newline="", encoding="utf-8-sig")
    except OSError as exc:
        raise CommandError(f"{file}: cannot be read: {exc.strerror or exc}") from exc
    with handle:
        reader = csv.DictReader(handle)
        missing = {"question", "answer", "expected"} - set(reader.fieldnames or [])
        if missing:
            raise CommandError(
                f"{file}:1: the header must name question,answer,expected (missing {', '.join(sorted(missing))})"
            )
        rows = []
        try:
            for row in reader:
                expected = (row["expected"] or "").strip().lower()
                if expected not in Verdict.values:
                    message = f"expected must be correct, partial or incorrect, not {row['expected']!r}"
                    raise CommandError(f"{file}:{reader.line_num}: {message}")
                rows.append(
                    {
                        "line": reader.line_num,
                        "question": row["question"] or "",
                        "answer": row["answer"] or "",
                        "expected": expected,
                    }
                )
        except (csv.Error, UnicodeDecodeError) as exc:
            raise CommandError(f"{file}:{reader.line_num}: not valid CSV: {exc}") from exc
    if not rows:
        raise CommandError(f"{file}: has no rows to check")
    return rows
