"""Paraphrases of a key term that the synonym table cannot see word by word. Pure, stdlib only.

- A compound said with a synonym for one of its pieces, its words side by side: "big batch" for "large-batch",
  "small chips" for "tiny-chips". The synonym must come from a word of the response's own (not the question's),
  as any synonym must.
- A factor written out as a size, "N times too large", "8 times bigger": so many times one thing is their sum, so
  the phrase evokes the sum group ("summed", "total"). Smaller, or faster, is no sum. Said to be too large against
  something ("N times too large compared with one big batch"), it is the corrective contrast "that thing rather
  than a sum" (contrasts.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import pairwise

from .synonyms import groups_of
from .textnorm import Token, stem, stems_related

PIECES = 2  # compounds of two pieces ("large-batch"); longer ones are names, matched whole
FACTOR = re.compile(r"[\d.]+|[a-z]")  # "N", "8", "2.5": the count of a written-out multiplication
_DEGREE = frozenset({"too", "as", "much", "about", "roughly", "exactly"})
_BIGGER = frozenset(stem(word) for word in ("large", "larger", "big", "bigger", "greater", "more", "higher"))
SUM = stem("sum")
SUM_GROUPS = groups_of(SUM)
_AGAINST = frozenset({("compared", "with"), ("compared", "to"), ("relative", "to"), ("versus", "")})


def compound_pieces(token: Token) -> tuple[str, ...]:
    """Stems of the pieces of a two-piece word compound ("large-batch"), else ()."""
    parts = token.parts
    if len(parts) != PIECES or any(len(p) < 3 or any(c.isdigit() for c in p) for p in parts):
        return ()
    return tuple(stem(p) for p in parts)


def _factors(tokens: Sequence[Token]) -> list[tuple[int, int, bool]]:
    """(position of "times", of the size word, said "too") of each "N times (too) large"."""
    out = []
    for i, token in enumerate(tokens):
        if token.norm != "times" or not i or not FACTOR.fullmatch(tokens[i - 1].norm):
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].norm in _DEGREE and not tokens[j].boundary:
            j += 1
        if j < len(tokens) and not tokens[j].boundary and stem(tokens[j].norm) in _BIGGER:
            out.append((i, j, any(t.norm == "too" for t in tokens[i:j])))
    return out


def sized_factors(tokens: Sequence[Token], plain: Sequence[str]) -> list[tuple[str, ...]]:
    """Response stems of each "N times (too) large" ("times" and the size word), for the sum group."""
    return [(plain[i], plain[j]) for i, j, _ in _factors(tokens)]


def overshoots(tokens: Sequence[Token]) -> list[int]:
    """Where each "N times too large compared with / than ..." goes on to name what it should have been."""
    out = []
    for _, j, too in _factors(tokens):
        if not too or j + 1 >= len(tokens) or tokens[j + 1].boundary:
            continue
        cue = (tokens[j + 1].norm, tokens[j + 2].norm if j + 2 < len(tokens) else "")
        if cue[0] == "than":
            out.append(j + 2)
        elif cue in _AGAINST and not tokens[j + 2].boundary:
            out.append(j + 3)
    return out


def neighbours(
    tokens: Sequence[Token], plain: Sequence[str], asked: Callable[[str], bool]
) -> tuple[tuple[str, str], ...]:
    """Stems of neighbouring words with no punctuation between them, neither of them the question's (`asked`):
    a compound said with a synonym for one piece, the other the question's, only echoes the question."""
    return tuple(
        pair
        for pair, token in zip(pairwise(plain), tokens[1:], strict=False)
        if not token.boundary and not any(asked(s) for s in pair)
    )


def by_pieces(
    pieces: tuple[str, ...],
    pairs: Sequence[tuple[str, str]],
    evoked: dict[int, list[tuple[str, ...]]],
    free: set[str],
) -> tuple[str, ...]:
    """The two side-by-side response stems that say the compound `pieces`, one the piece as written, the other
    the piece or a synonym of it (`evoked`: synonym group -> the response's words evoking it); () when none do."""
    if len(pieces) != PIECES:
        return ()

    def says(word: str, piece: str) -> bool:
        return any((word,) in evoked.get(group, ()) for group in groups_of(piece))

    for pair in pairs:
        same = [word == piece or stems_related(word, piece) for word, piece in zip(pair, pieces, strict=True)]
        said = [s or says(word, piece) for s, word, piece in zip(same, pair, pieces, strict=True)]
        if any(same) and all(said) and all(word in free for word in pair):
            return pair
    return ()
