from __future__ import annotations

import csv
import difflib
import io
import json
import sys
from collections import defaultdict
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.common.textfiles import NotUTF8Error, utf8_text
from apps.content.answers import normal_text
from apps.content.models import Card, Deck
from apps.quiz.grading import grade
from apps.quiz.models import Verdict
from apps.quiz.services import grading_cards

COLUMNS = ("question", "answer", "expected")
MAX_PROBLEMS = 20


class Command(BaseCommand):
    help = (
        "Grade every row of a CSV (question,answer,expected) with the real grader, print the agreement, "
        "and exit 1 if any row disagrees. `question` is a card's question text (spaces and letter case aside "
        "when no card has it exactly); a question asked in several decks is the published one's when only one of "
        "them is published, and otherwise needs --deck."
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
        parser.add_argument(
            "--deck",
            metavar="SLUG",
            action="append",
            dest="decks",
            help="Look the questions up in this deck only; give it again for several (a file of rows from several "
            "decks). Needed when a question is asked in several decks, unless only one of them is published; a "
            "question asked in two of the decks given is refused.",
        )

    def handle(self, *args, file: Path, as_json: bool, decks: list[str] | None, **options):
        rows = _read(file)
        scope = Card.objects.all()
        if decks:
            decks = list(dict.fromkeys(decks))
            known = set(Deck.objects.filter(slug__in=decks).values_list("slug", flat=True))
            if unknown := [slug for slug in decks if slug not in known]:
                said = "slug" if len(unknown) == 1 else "slugs"
                raise CommandError(f"no deck has the {said} {', '.join(map(repr, unknown))}")
            scope = scope.filter(deck__slug__in=decks)
        questions = _Questions(scope)
        chosen, problems = {}, []
        # Every row's question is looked up before any is graded, so a file written by hand is fixed in one pass,
        # not one error per run.
        for row in rows:
            try:
                chosen[row["line"]] = _card_of(row, questions=questions, file=file, decks=decks)
            except CommandError as exc:
                problems.append(str(exc))
        if problems:
            more = len(problems) - MAX_PROBLEMS
            raise CommandError("\n".join(problems[:MAX_PROBLEMS] + ([f"… and {more} more"] if more > 0 else [])))
        cards = grading_cards(Card.objects.filter(pk__in=set(chosen.values())))
        results = []
        for row in rows:
            result = grade(cards[chosen[row["line"]]], row["answer"])
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


class _Questions:
    """The cards in scope by their exact question and by their question as compared (normal_text: spaces, line
    ends and letter case aside), each as (id, its deck's slug, whether the deck is published). One query."""

    def __init__(self, cards) -> None:
        self.exact: dict[str, list[tuple[int, str, bool]]] = defaultdict(list)
        self.loose: dict[str, list[tuple[int, str, bool]]] = defaultdict(list)
        self.by_loose: dict[str, str] = {}
        found = cards.order_by("deck__slug", "position").values_list("pk", "question", "deck__slug", "deck__published")
        for pk, question, slug, published in found:
            self.exact[question].append((pk, slug, published))
            self.loose[normal_text(question)].append((pk, slug, published))
            self.by_loose.setdefault(normal_text(question), question)

    def nearest(self, question: str) -> str | None:
        """The question in scope most like `question` (a comma or a word apart), if one is close enough."""
        close = difflib.get_close_matches(normal_text(question), list(self.by_loose), n=1, cutoff=0.8)
        return self.by_loose[close[0]] if close else None


def _card_of(row: dict, *, questions: _Questions, file: Path, decks: list[str] | None) -> int:
    """The id of the one card the row's question names: the card with that exact question, else the one whose
    question differs only in spaces and letter case. Asked in several decks, with no --deck, it is the published
    deck's card when only one of them is published: a draft copy of a card, made to revise it, leaves the file
    checking the card students are asked. CommandError when there is none, or several."""
    question = row["question"]
    found = questions.exact.get(question) or questions.loose.get(normal_text(question)) or []
    where = f"{file}:{row['line']}"
    if not found:
        within = f" in the deck{'s' if len(decks) > 1 else ''} {', '.join(map(repr, decks))}" if decks else ""
        nearest = questions.nearest(question)
        hint = f"; did you mean {nearest!r}?" if nearest else ""
        raise CommandError(f"{where}: no card{within} has the question {question[:80]!r}{hint}")
    drafts = {slug for _, slug, published in found if not published}
    slugs = sorted({slug for _, slug, _ in found})
    if len(slugs) > 1 and not decks and len(slugs) - len(drafts) == 1:
        found = [card for card in found if card[1] not in drafts]
    elif len(slugs) > 1:
        named = ", ".join(f"{slug} (draft)" if slug in drafts else slug for slug in slugs)
        if decks:  # the decks given are the ones asked for: a draft among them is not passed over
            raise CommandError(
                f"{where}: the question {question[:80]!r} is asked in {len(slugs)} of the decks given ({named}); "
                "give --deck only the one to check it against"
            )
        raise CommandError(
            f"{where}: the question {question[:80]!r} is asked in {len(slugs)} decks ({named}); "
            "name the one to check with --deck SLUG"
        )
    if len(found) > 1:
        raise CommandError(f"{where}: {len(found)} cards of the deck {found[0][1]!r} ask {question[:80]!r}")
    return found[0][0]


def _read(file: Path) -> list[dict]:
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise CommandError(f"{file}: cannot be read: {exc.strerror or exc}") from exc
    try:
        text = utf8_text(raw, name=file.name)
    except NotUTF8Error as exc:
        raise CommandError(f"{file}:{exc.line}: {exc.message}") from None
    # strict: a quote left open is an error at its line, not a cell swallowing the rest of the file.
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[dict] = []
    start = 1  # the line the record being read starts on
    try:
        header = [cell.strip() for cell in next(reader, [])]
        missing = set(COLUMNS) - set(header)
        if missing:
            raise CommandError(
                f"{file}:1: the header must name question,answer,expected (missing {', '.join(sorted(missing))})"
            )
        index = {name: header.index(name) for name in COLUMNS}
        start = reader.line_num + 1
        for cells in reader:
            line, start = start, reader.line_num + 1
            if not any(cell.strip() for cell in cells):
                continue
            value = {name: cells[i] if i < len(cells) else None for name, i in index.items()}
            expected = (value["expected"] or "").strip().lower()
            # A spreadsheet may pad a row with empty cells; a cell with something in it is most likely an answer
            # cut in two at a comma, which would otherwise be graded on its first part, or a cell shifted over.
            if any(cell.strip() for cell in cells[len(header) :]):
                message = (
                    f"the row has {len(cells)} cells where the header names {len(header)} "
                    "(is a comma inside a cell not in quotes?)"
                )
                if start - 1 > line:
                    message += f'; the row runs on to line {start - 1}: is a quote (") left open on line {line}?'
                raise CommandError(f"{file}:{line}: {message}")
            if expected not in Verdict.values:
                if value["expected"] is None:
                    message = "the row ends before its expected cell (is a comma missing?)"
                else:
                    message = f"expected must be correct, partial or incorrect, not {value['expected'][:80]!r}"
                if start - 1 > line:  # the row spans lines: most likely a quote left open swallowed them
                    message += f'; the row runs on to line {start - 1}: is a quote (") left open on line {line}?'
                raise CommandError(f"{file}:{line}: {message}")
            rows.append(
                {
                    "line": line,
                    "question": value["question"] or "",
                    "answer": value["answer"] or "",
                    "expected": expected,
                }
            )
    except csv.Error as exc:
        if "end of data" in str(exc):  # read to the end of the file looking for the closing quote
            message = 'a quote (") opened in this row is never closed'
        elif reader.line_num > start:  # a quote opened here was taken to close at the next one, lines below
            message = (
                f'a quote (") opened in this row is not closed on its line: the cell runs on to line '
                f"{reader.line_num}, where CSV finds a quote in the middle of a cell"
            )
        else:
            raise CommandError(f"{file}:{reader.line_num}: not valid CSV: {exc}") from None
        raise CommandError(f'{file}:{start}: {message}; close it, and write a quote inside a cell twice ("")') from None
    if not rows:
        raise CommandError(f"{file}: has no rows to check")
    return rows
