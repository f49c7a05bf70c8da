"""A seed file's blocks: runs of lines separated by blank lines, except inside a code fence (``` or ~~~) or a
`$$ … $$` display formula, which may hold blank lines. Pure; the loader turns the blocks into cards."""

from __future__ import annotations

import re
from dataclasses import dataclass

ANSWER = re.compile(r"^answer:\s*", re.IGNORECASE)
# What the renderer (Python-Markdown's fenced_code) takes for a fence: a run of three or more backticks or
# tildes at the start of a line, closed by a line holding the same run. A backtick run followed by another
# backtick on its line is inline code, not a fence.
_FENCE = re.compile(r"^(?P<run>`{3,}(?=[^`]*$)|~{3,})")
# And for a display formula: `$$` at the start of a line (after at most three spaces), up to the first `$$`
# that ends a line.
_MATH_OPEN = re.compile(r"^ {0,3}\$\$")
_MATH_CLOSE = re.compile(r"\$\$[ \t]*$")


class UnclosedError(ValueError):
    """A fence or formula left open to the end of the file: `line` is where it opens."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line, self.message = line, message


@dataclass(frozen=True)
class Block:
    line: int
    text: str

    @property
    def is_answer(self) -> bool:
        return bool(ANSWER.match(self.text))


@dataclass(frozen=True)
class _Open:
    """A code fence or display formula that has not been closed yet: a blank line does not end its block."""

    line: int
    closer: str  # the fence's run, or "$$"


def split_blocks(lines: list[str], *, first_line: int) -> list[Block]:
    """The blocks of `lines` (numbered from `first_line`): paragraphs, a fence or display formula kept whole."""
    blocks, current, start = [], [], 0
    opened: _Open | None = None
    for number, line in enumerate(lines, start=first_line):
        if not line.strip() and opened is None:
            if current:
                blocks.append(Block(start, "\n".join(current)))
                current = []
            continue
        if not current:
            start = number
        current.append(line.rstrip())
        # An answer's text starts after "Answer:", and so may its fence or formula.
        opened = _still_open(opened, line if len(current) > 1 else ANSWER.sub("", line, count=1), number)
    if opened is not None:
        what = "code fence" if opened.closer != "$$" else "display formula ($$)"
        end = f"a line holding just {opened.closer}" if opened.closer != "$$" else "$$ at the end of a line"
        raise UnclosedError(opened.line, f"the {what} opened here is never closed; close it with {end}")
    if current:
        blocks.append(Block(start, "\n".join(current)))
    return blocks


def _still_open(opened: _Open | None, line: str, number: int) -> _Open | None:
    """What is open after `line`: `opened` unless the line closes it, or a fence or formula the line opens."""
    if opened is not None:
        closes = line.rstrip() == opened.closer if opened.closer != "$$" else _MATH_CLOSE.search(line)
        return None if closes else opened
    if fence := _FENCE.match(line):
        return _Open(number, fence["run"])
    # A formula closed on its own line ("$$x$$", or "$$x$$ squashes it" as the renderer reads it) leaves nothing
    # open; its TeX is at least one character.
    if (math := _MATH_OPEN.match(line)) and "$$" not in line[math.end() + 1 :]:
        return _Open(number, "$$")
    return None
