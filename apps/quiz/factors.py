"""An open list question ("What factors must be controlled to make training runs reproducible?") answered with a
list of four or more in the answer's first sentence ("Fixing all random seeds (...), pinning library and framework
versions, versioning data and code, ..."): a response naming fewer than half of them ("random seeds and
deterministic algorithms") is partly right, however well it covers the weight of its few words. Pure, stdlib only.

The answer's items are the first sentence's comma-separated pieces, brackets kept with their item; a key term the
response earns names the item it belongs to; a term of several items ("versions": library versions, versioning
data) names one only if the response names none of them by another term.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .keyterms import KeyTerm
from .textnorm import STOPWORDS, fold, stem, tokenize

MIN_ITEMS = 4
_ASKS = re.compile(
    r"^\s*(?:what|which)\s+(?!(?:is|are|was|does|has)\b)(?:[a-z-]+\s+)?(?P<noun>[a-z]+s)\s+"
    r"(?:must|should|can|could|do|does|are|affect|influence|matter|make|need|determine)\b",
    re.IGNORECASE,
)
_FIRST = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")

Items = tuple[str, tuple[frozenset[str], ...]]  # (the question's noun, the stems of each answer item)


def _pieces(sentence: str) -> list[str]:
    pieces, depth, current = [], 0, ""
    for char in sentence:
        depth += (char in "([") - (char in ")]")
        if char in ",;" and depth == 0:
            pieces.append(current)
            current = ""
        else:
            current += char
    return [*pieces, current]


@lru_cache(maxsize=512)
def answer_items(question: str, answer: str) -> Items:
    """The question's noun ("factors") and the answer's items, if it asks for an open list and the answer gives one."""
    match = _ASKS.match(question)
    if not match:
        return ("", ())
    first = _FIRST.split(answer.strip(), maxsplit=1)[0]
    items = tuple(
        frozenset(stem(t.norm) for t in tokenize(fold(piece)) if t.norm not in STOPWORDS) for piece in _pieces(first)
    )
    items = tuple(item for item in items if item)
    return (match.group("noun").casefold(), items) if len(items) >= MIN_ITEMS else ("", ())


def too_few(listed: Items, matched: tuple[str, ...], terms: tuple[KeyTerm, ...]) -> str:
    """What is wrong with a response naming fewer than half of the answer's items, or "" (`matched`: the labels of
    the key terms it earns)."""
    noun, items = listed
    earned = [t for t in terms if t.label in matched]
    homes = [[k for k, item in enumerate(items) if any(s in item for alt in t.alts for s in alt)] for t in earned]
    named: set[int] = set()
    for home in sorted((h for h in homes if h), key=len):
        if not named & set(home):  # "pin library versions": "versions" is of the library item, not data versions too
            named.add(home[0])
    if 2 * len(named) >= len(items):
        return ""
    return f"That names {len(named)} of the {len(items)} {noun} in the answer."
