"""What is wrong with an import file: every problem found, each naming where it is, so that one upload
shows them all (an instructor fixing a 200-card file should not upload it again for each mistake)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

# Enough to fix a file in one go; a file with more problems than this is most likely not the one meant.
MAX_PROBLEMS = 50


@dataclass(frozen=True)
class Problem:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class TransferError(ValueError):
    """Why a file would not import: its problems in file order, each naming where it is.

    `TransferError(where, message)` is one problem; `TransferError.of(problems)` many, of which the first
    MAX_PROBLEMS are kept in `problems` and the rest only counted (`more`).
    """

    problems: tuple[Problem, ...]
    more: int

    def __init__(self, where: str, message: str) -> None:
        self._hold([Problem(where, message)])

    @classmethod
    def of(cls, problems: Sequence[Problem]) -> TransferError:
        error = cls(problems[0].where, problems[0].message)
        error._hold(problems)
        return error

    def _hold(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems[:MAX_PROBLEMS])
        self.more = len(problems) - len(self.problems)
        lines = [str(problem) for problem in self.problems]
        if self.more:
            lines.append(f"and {self.more} more")
        super().__init__("\n".join(lines))

    @property
    def count(self) -> int:
        return len(self.problems) + self.more


class Where(Protocol):
    """Where a field is in the file, from its name (None: the card or deck as a whole) and, in a list, the index
    of an entry (from 0; named from 1, as cards are): "row 3, field distractors, entry #2" in CSV,
    "line 14, card #2, field question" in JSON."""

    def __call__(self, field: str | None, entry: int | None = None) -> str: ...


def place(what: str, field: str | None, entry: int | None) -> str:
    """A part of the file by its name: `card #2`, `card #2, field question`, `card #2, field distractors, entry #3`."""
    return what + (f", field {field}" if field else "") + (f", entry #{entry + 1}" if entry is not None else "")


T = TypeVar("T")


class Found:
    """The problems found so far, each with its place in the file (a card's index, a CSV line), so that
    they are listed in file order though the checks across cards run after those of each card."""

    def __init__(self) -> None:
        self._found: list[tuple[int, Problem]] = []

    def add(self, at: int, where: str, message: str) -> None:
        self._found.append((at, Problem(where, message)))

    def check(self, at: int, validate: Callable[[], T]) -> T | None:
        """What `validate` returns, or None (no field's valid value) with its problem noted."""
        try:
            return validate()
        except TransferError as exc:
            self._found.extend((at, problem) for problem in exc.problems)
            return None

    def raise_any(self) -> None:
        if self._found:
            raise TransferError.of([problem for _, problem in sorted(self._found, key=lambda item: item[0])])


def echo_problem(echoes: list[str]) -> str:
    """What is wrong with key-term synonyms that only repeat the question (apps.quiz.authored.question_echoes)."""
    quoted = ", ".join(f"“{echo}”" for echo in echoes)
    return (
        f"{quoted} only {'repeats' if len(echoes) == 1 else 'repeat'} words of the question: a student who "
        f"copies the question would earn {'it' if len(echoes) == 1 else 'them'}. "
        "Use words that only the answer has."
    )
