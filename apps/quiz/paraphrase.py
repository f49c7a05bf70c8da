"""Paraphrases of a key term that the synonym table cannot see word by word. Pure, stdlib only.

- A compound said with a synonym for one of its pieces, its words side by side: "big batch" for "large-batch",
  "small chips" for "tiny-chips". The synonym must come from a word of the response's own (not the question's),
  as any synonym must.
- A factor too large against what it should be, "N times too large compared with one big batch", "8 times too big
  than the mean": so many times one thing is their sum. When the answer names what it is against, the phrase says
  "sum" (not a synonym of it: an aggregate is more than adding up), and it is the corrective contrast "that thing
  rather than a sum" (contrasts.py). Smaller, or faster, is no sum, and a factor alone ("4 times larger") says too
  little of what it multiplies.
- A verb done again, "define the architecture again", is the verb with "re-": "redefine", which the table has
  among the ways to rebuild it. Only a word the answer or the table knows is made so, in the clause of "again", and
  not one denied there ("you don't need to define it again").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import pairwise

from .synonyms import groups_of
from .textnorm import NEGATORS, Token, stem, stems_related

_DENYING = NEGATORS | frozenset({"without", "nothing"})
AGAIN_REACH = 4  # words back from "again" to its verb: "train the whole model again"
PIECES = 2  # compounds of two pieces ("large-batch"); longer ones are names, matched whole
# "N", "8", "2.5", "two": the count of a written-out multiplication ("two times bigger" says nothing of time)
FACTOR = re.compile(r"[\d.]+|[a-z]|two|three|four|five|six|seven|eight|nine|ten|twenty|hundred|thousand|many|several")
_DEGREE = frozenset({"too", "as", "much", "about", "roughly", "exactly"})
_BIGGER = frozenset(stem(word) for word in ("large", "larger", "big", "bigger", "greater", "more", "higher"))
SUM = stem("sum")
_AGAINST = frozenset({("compared", "with"), ("compared", "to"), ("relative", "to")})
_AGAINST_WORDS = 4  # "one big batch", "a single large batch": what it is too large against


def compound_pieces(token: Token) -> tuple[str, ...]:
    """Stems of the pieces of a two-piece word compound ("large-batch"), else ()."""
    parts = token.parts
    if len(parts) != PIECES or any(len(p) < 3 or any(c.isdigit() for c in p) for p in parts):
        return ()
    return tuple(stem(p) for p in parts)


def _overshoots(tokens: Sequence[Token]) -> list[tuple[int, int, int]]:
    """(position of "times", of the size word, of what follows the cue) of each "N times too large compared
    with / than ...": a factor alone ("4 times larger") says too little of what it is a factor of."""
    out = []
    for i, token in enumerate(tokens):
        if token.norm != "times" or not i or not FACTOR.fullmatch(tokens[i - 1].norm):
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].norm in _DEGREE and not tokens[j].boundary:
            j += 1
        if not (j + 2 < len(tokens) and stem(tokens[j].norm) in _BIGGER and any(t.norm == "too" for t in tokens[i:j])):
            continue
        if any(t.boundary for t in tokens[j : j + 3]):
            continue
        if tokens[j + 1].norm == "than":
            out.append((i, j, j + 2))
        elif (tokens[j + 1].norm, tokens[j + 2].norm) in _AGAINST and j + 3 < len(tokens):
            out.append((i, j, j + 3))
    return out


def sized_factors(tokens: Sequence[Token], plain: Sequence[str], named: Callable[[str], bool]) -> list[tuple[str, ...]]:
    """Response stems of each "N times too large" ("times" and the size word) against something the answer names
    (`named`, a stem: "one big batch", not "the GPU memory" where the answer has no memory): a sum."""
    out = []
    for i, j, after in _overshoots(tokens):
        end = next((k for k in range(after + 1, len(tokens)) if tokens[k].boundary), len(tokens))
        if any(named(s) for s in plain[after : min(end, after + _AGAINST_WORDS)]):
            out.append((plain[i], plain[j]))
    return out


def overshoots(tokens: Sequence[Token]) -> list[int]:
    """Where each "N times too large compared with / than ..." goes on to name what it should have been."""
    return [after for _, _, after in _overshoots(tokens)]


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


def redone(tokens: Sequence[Token], plain: Sequence[str], known: Callable[[str], bool]) -> list[tuple[str, ...]]:
    """For each "<verb> ... again" whose verb with "re-" is a word `known` (a stem: "redefin"): that stem, then the
    response stems that say it (the verb's and "again")."""
    out = []
    for j, token in enumerate(tokens):
        if token.norm != "again":
            continue
        for i in range(j - 1, max(-1, j - 1 - AGAIN_REACH), -1):
            if tokens[i + 1].boundary:
                break
            if known(word := stem("re" + tokens[i].norm)):
                if not _denied(tokens, i):
                    out.append((word, plain[i], plain[j]))
                break
    return out


def _denied(tokens: Sequence[Token], verb: int) -> bool:
    """A negator in the verb's clause before it: "you don't need to define it again" says no redefining."""
    start = verb
    while start > 0 and not tokens[start].boundary:
        start -= 1
    return any(t.norm in _DENYING for t in tokens[start:verb])
