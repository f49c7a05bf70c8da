"""Parsers for the two seed formats. Pure: text in, ParsedDeck out, no ORM.

Flashcards:  a title line, then per card a question block, an `Answer: …`
             block and an optional one-paragraph explanation.
Syllabus:    a title line, then alternating question and answer blocks.

A file is read as flashcards when its name or title says so ("…-flashcards.txt", "… Flashcards") or it has an
`Answer:` line, else as a syllabus; a card that does not follow its file's format (a question without its
`Answer:` line in a flashcard file, an `Answer:` line in one named a syllabus) stops the load at its line.

Blocks are separated by blank lines, except inside a code fence or a display formula (seedblocks.py). Every
error names the file and line.

Distractors: `<stem>.distractors.csv` beside a seed file, if there is one, with a `question,distractor`
             header and a row per wrong multiple-choice option (the seed format itself has no place for them).
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from django.utils.text import slugify

from apps.common.textfiles import NotUTF8Error, utf8_text

from .answers import normal_text, right_answers
from .limits import MAX_MARKDOWN, MAX_TITLE
from .seedblocks import ANSWER, Block, UnclosedError, split_blocks

DISTRACTORS_SUFFIX = ".distractors.csv"
_DISTRACTOR_COLUMNS = ("question", "distractor")
# Syllabus prompts that are instructions rather than questions.
_IMPERATIVES = (
    "calculate", "compare", "contrast", "define", "derive", "describe", "discuss", "distinguish",
    "explain", "give", "identify", "list", "name", "outline", "show", "state", "summarise",
    "summarize", "write",
)  # fmt: skip


class LoaderError(ValueError):
    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")  # 0: the whole file
        self.path, self.line, self.message = path, line, message


@dataclass(frozen=True)
class ParsedDistractor:
    path: str
    line: int
    text: str


@dataclass(frozen=True)
class ParsedCard:
    line: int  # the question's
    kind: str
    question: str
    answer: str
    short_answer: str = ""
    explanation: str = ""
    distractors: tuple[ParsedDistractor, ...] = ()
    answer_line: int = 0
    explanation_line: int = 0

    @property
    def key(self) -> str:
        return question_key(self.question)

    def line_of(self, field: str) -> int:
        """Where the block holding `field` (question, answer, short answer or explanation) starts in the seed file."""
        lines = {"answer": self.answer_line, "short_answer": self.answer_line, "explanation": self.explanation_line}
        return lines.get(field) or self.line


def question_key(question: str) -> str:
    """Identity of a card within its deck: its question, normalised."""
    return hashlib.sha256(normal_text(question).encode()).hexdigest()[:32]


@dataclass
class ParsedDeck:
    path: str
    slug: str
    title: str
    kind: str
    cards: list[ParsedCard] = field(default_factory=list)
    title_line: int = 1

    @property
    def file_name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


def parse_text(text: str, *, path: str, slug: str) -> ParsedDeck:
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    _check_no_nul(text, path)
    lines = text.split("\n")
    title_index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if title_index is None:
        raise LoaderError(path, 1, "the file is empty; expected a title line, then questions and answers")
    title = " ".join(lines[title_index].split())
    if ANSWER.match(title):
        raise LoaderError(path, title_index + 1, "the file starts with an 'Answer:' line; expected a title line")
    if len(title) > MAX_TITLE:
        raise LoaderError(path, title_index + 1, f"the title is {len(title):,} characters long; at most {MAX_TITLE}")
    try:
        blocks = split_blocks(lines[title_index + 1 :], first_line=title_index + 2)
    except UnclosedError as exc:
        raise LoaderError(path, exc.line, exc.message) from None
    if not blocks:
        raise LoaderError(path, title_index + 1, "the file has a title but no questions")
    kind, why = _kind(blocks, path=path, title=title)
    cards = _parse_flashcards(blocks, path, why=why) if kind == "flashcard" else _parse_syllabus(blocks, path)
    deck = ParsedDeck(path, slug, title, kind, cards, title_line=title_index + 1)
    _check_unique(deck)
    for card in deck.cards:
        for name in ("question", "answer", "explanation"):
            _check_length(name, getattr(card, name), path=path, line=card.line_of(name))
    return deck


_KIND_WORDS = {"flashcard": "flashcard", "flashcards": "flashcard", "syllabus": "syllabus", "syllabi": "syllabus"}


def _declared(path: str, title: str) -> tuple[str | None, str]:
    """The kind the file's name and title say it is ("my-flashcards.txt", "… Syllabus"), and which of them
    say so ("file name says", "file name and title say"); (None, "") when they name no kind, or both."""
    named = {
        "file name": {_KIND_WORDS[w] for w in slugify(Path(path).stem).split("-") if w in _KIND_WORDS},
        "title": {_KIND_WORDS[w] for w in re.findall(r"\w+", title.casefold()) if w in _KIND_WORDS},
    }
    kinds = set().union(*named.values())
    if len(kinds) != 1:
        return None, ""
    saying = [name for name, found in named.items() if found]
    return kinds.pop(), " and ".join(saying) + (" say" if len(saying) > 1 else " says")


def _kind(blocks: list[Block], *, path: str, title: str) -> tuple[str, str]:
    """The file's format, flashcard or syllabus, and why it is read so, for the errors of a card that does not
    follow it. A file whose name or title says flashcards is read as flashcards even with no 'Answer:' line (it
    was read as a syllabus, its explanations as answers); one that says syllabus may have none."""
    declared, named = _declared(path, title)
    first_answer = next((block for block in blocks if block.is_answer), None)
    if declared == "syllabus" and first_answer is not None:
        raise LoaderError(
            path,
            first_answer.line,
            f"an 'Answer:' line in a syllabus file (its {named} syllabus): a syllabus alternates question and "
            "answer paragraphs, with no 'Answer:' line; flashcards have one after each question",
        )
    if declared == "flashcard":
        return "flashcard", f"its {named} flashcards"
    if first_answer is not None:
        return "flashcard", f"it has 'Answer:' lines (the first at line {first_answer.line}), as flashcards do"
    return "syllabus", ""


def parse_file(path: Path, *, display_path: str | None = None) -> ParsedDeck:
    """The seed file's deck, with the distractors of its `.distractors.csv` sidecar when there is one."""
    shown = display_path or str(path)
    deck = parse_text(_read(path, shown), path=shown, slug=_slugify(path.stem))
    sidecar = distractors_path(path)
    if not sidecar.is_file():
        return deck
    shown_sidecar = str(distractors_path(Path(shown)))
    return parse_distractors(_read(sidecar, shown_sidecar), path=shown_sidecar, deck=deck)


def distractors_path(seed: Path) -> Path:
    return seed.with_name(seed.stem + DISTRACTORS_SUFFIX)


def _read(path: Path, shown: str) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LoaderError(shown, 0, f"cannot be read: {exc.strerror or exc}") from exc
    try:
        return utf8_text(raw, name=shown)
    except NotUTF8Error as exc:  # names the byte and says how to save it (as CSV UTF-8, for a .distractors.csv)
        raise LoaderError(shown, exc.line, exc.message) from None


def _check_no_nul(text: str, path: str) -> None:
    """PostgreSQL cannot store a NUL character in text: refused here, at its line, not as a DataError mid-load."""
    if (at := text.find("\x00")) >= 0:
        line = len(re.findall(r"\r\n?|\n", text[:at])) + 1
        raise LoaderError(path, line, "holds a NUL character (\\x00), which the database cannot store")


def parse_distractors(text: str, *, path: str, deck: ParsedDeck) -> ParsedDeck:
    """`deck` with the distractors a sidecar CSV lists, in file order; each row's question must be a card's."""
    _check_no_nul(text, path)
    rows = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(rows, [])
    except csv.Error as exc:
        raise LoaderError(path, 1, f"is not valid CSV: {exc}") from None
    if tuple(name.strip().casefold() for name in header) != _DISTRACTOR_COLUMNS:
        raise LoaderError(path, 1, f"expected the header 'question,distractor', got {_excerpt(','.join(header))}")
    cards = {card.key: card for card in deck.cards}
    found: dict[str, list[ParsedDistractor]] = {}
    start = rows.line_num + 1
    try:
        for row in rows:
            line, start = start, rows.line_num + 1  # a quoted cell may span lines
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != 2:
                raise LoaderError(path, line, f"expected 2 fields (question, distractor), got {len(row)}")
            card = cards.get(question_key(row[0]))
            if card is None:
                raise LoaderError(path, line, f"no card in this deck asks {_excerpt(row[0])}")
            _check_distractor(row[1].strip(), card, found.setdefault(card.key, []), path=path, line=line)
    except csv.Error as exc:
        # A bad character is on the last line read; a quote never closed read to the end, from where it opened.
        line = start if "end of data" in str(exc) else rows.line_num
        raise LoaderError(path, line, f"is not valid CSV: {exc}") from None
    deck.cards = [replace(card, distractors=tuple(found.get(card.key, ()))) for card in deck.cards]
    return deck


def _check_distractor(text: str, card: ParsedCard, earlier: list[ParsedDistractor], *, path: str, line: int) -> None:
    """Adds the distractor to `earlier`, the card's so far, unless it is empty, the answer, or a repeat."""
    if not text:
        raise LoaderError(path, line, "the distractor is empty")
    _check_length("distractor", text, path=path, line=line)
    if normal_text(text) in right_answers(answer=card.answer, short_answer=card.short_answer):
        raise LoaderError(path, line, f"the distractor {_excerpt(text)} is the card's own answer")
    for other in earlier:
        if normal_text(other.text) == normal_text(text):
            raise LoaderError(path, line, f"the distractor {_excerpt(text)} repeats line {other.line}")
    earlier.append(ParsedDistractor(path, line, text))


def _parse_flashcards(blocks: list[Block], path: str, *, why: str) -> list[ParsedCard]:
    """The cards of a flashcard file; `why` it is one, for a question that lacks its 'Answer:' line (a file that
    mixes the formats: a syllabus's question and answer paragraphs among flashcards)."""
    cards, i = [], 0
    while i < len(blocks):
        question = blocks[i]
        if question.is_answer:
            raise LoaderError(path, question.line, "an 'Answer:' block with no question before it")
        if i + 1 >= len(blocks) or not blocks[i + 1].is_answer:
            # A syllabus pair among flashcards: its question was taken for the card before's explanation.
            taken = cards and cards[-1].explanation_line == blocks[i - 1].line
            if taken and _looks_like_question(blocks[i - 1].text) and not _looks_like_question(question.text):
                question = blocks[i - 1]
            raise LoaderError(
                path,
                question.line,
                f"the question {_excerpt(question.text)} has no 'Answer:' block after it; this is a flashcard "
                f"file ({why}), so each question needs an 'Answer: …' line after it",
            )
        answer_line = blocks[i + 1].line
        answer = ANSWER.sub("", blocks[i + 1].text, count=1).strip()
        if not answer:
            raise LoaderError(path, answer_line, "the 'Answer:' line is empty")
        i += 2
        explanation, explanation_line = "", 0
        # The next block explains this card unless it is itself the next question.
        if i < len(blocks) and not blocks[i].is_answer and not (i + 1 < len(blocks) and blocks[i + 1].is_answer):
            explanation, explanation_line = blocks[i].text, blocks[i].line
            i += 1
        cards.append(
            ParsedCard(
                line=question.line,
                kind="flashcard",
                question=question.text,
                answer=answer,
                short_answer=" ".join(answer.split())[:300],
                explanation=explanation,
                answer_line=answer_line,
                explanation_line=explanation_line,
            )
        )
    return cards


def _looks_like_question(text: str) -> bool:
    first_word = re.split(r"\W+", text.strip(), maxsplit=1)[0].casefold()
    return text.rstrip().endswith("?") or first_word in _IMPERATIVES


def _parse_syllabus(blocks: list[Block], path: str) -> list[ParsedCard]:
    cards = []
    for i in range(0, len(blocks), 2):
        question = blocks[i]
        if not _looks_like_question(question.text):
            raise LoaderError(
                path,
                question.line,
                f"expected a question (ending in '?' or starting with Compare, Contrast, Give, Name, …), "
                f"got {_excerpt(question.text)}; is an answer split into two paragraphs?",
            )
        if i + 1 >= len(blocks):
            raise LoaderError(path, question.line, f"the question {_excerpt(question.text)} has no answer after it")
        answer = blocks[i + 1]
        cards.append(
            ParsedCard(
                line=question.line, kind="syllabus", question=question.text, answer=answer.text, answer_line=answer.line
            )
        )
    return cards


def _check_length(name: str, text: str, *, path: str, line: int) -> None:
    """The database refuses a longer text (a CHECK constraint): refused here, at its line, not mid-load."""
    if len(text) > MAX_MARKDOWN:
        raise LoaderError(path, line, f"the {name} is {len(text):,} characters long; at most {MAX_MARKDOWN:,}")


def _check_unique(deck: ParsedDeck) -> None:
    seen: dict[str, int] = {}
    for card in deck.cards:
        if card.key in seen:
            raise LoaderError(deck.path, card.line, f"the same question already appears at line {seen[card.key]}")
        seen[card.key] = card.line


def formula_refused(*, path: str, card: ParsedCard, field: str, problem: str) -> LoaderError:
    """The error for a formula KaTeX cannot typeset, at the line of the card's text that holds it (content_load
    raises it)."""
    where = f"the {field} of the question" if field != "question" else "the question"
    return LoaderError(path, card.line_of(field), f"{where} {_excerpt(card.question)}: {problem}")


def _excerpt(text: str, length: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= length else flat[: length - 1] + "…")


def _slugify(stem: str) -> str:
    # Cut short, a slug may end with a hyphen, which the slug rule (slugs.py) refuses.
    return slugify(stem)[:200].strip("-_") or "deck"
