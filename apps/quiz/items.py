"""A closed list asked for by number ("What are the four main components of MLflow?") judged by the answer's own
items: a response listing as many items as asked, one of them none of the answer's ("tracking, projects, model
registry, and deployment"), is not fully right, though the odd item borrows a word of an item's description
("deployment" of "a standard packaging format for deployment"). Pure: stdlib + rapidfuzz (typos.py).

The answer's items are its numbered entries ("1) MLflow Tracking (logging params ...); 2) ..."), named by the words
before their description, less the question's ("MLflow"); the list is closed when there are exactly as many as
the question asks and nothing follows the last ("Others include ..." opens it). A response item names the answer
item whose name it contains most of (typos tolerated), so "model registry" is the Model Registry, not Models too.
A response with fewer items than asked is judged by coverage alone: it is visibly short.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .textnorm import STOPWORDS, Token, fold, stem, tokenize
from .typos import is_typo

_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}
_ASKED = re.compile(
    r"^\s*(?:name|list|give)\s+(two|three|four|five|\d)\b|^\s*what\s+are\s+the\s+(two|three|four|five|\d)\b",
    re.IGNORECASE,
)
_ENTRY = re.compile(r"(?:^|(?<=[\s;]))\d\)\s*")
_NAME_END = re.compile(r"[(:;,\u2014\u2013]|\s-\s")
_SENTENCE = re.compile(r"[.!?]\s+\S")

Item = tuple[str, ...]  # the norms of an answer item's name: ("model", "registry")


@lru_cache(maxsize=512)
def closed_items(question: str, answer: str) -> tuple[Item, ...]:
    """The names of the answer's numbered items, if they are exactly the number the question asks for."""
    match = _ASKED.search(question)
    if not match:
        return ()
    word = (match.group(1) or match.group(2)).casefold()
    asked = int(word) if word.isdigit() else _COUNTS[word]
    entries = _ENTRY.split(answer.strip())[1:]
    if len(entries) != asked or _SENTENCE.search(entries[-1]):
        return ()
    qnorms = {t.norm for t in tokenize(fold(question))}
    names = []
    for entry in entries:
        name = _NAME_END.split(entry, maxsplit=1)[0]
        norms = tuple(t.norm for t in tokenize(fold(name)) if t.norm not in STOPWORDS and t.norm not in qnorms)
        if not norms:
            return ()
        names.append(norms)
    return tuple(names)


def _names(word: str, target: str) -> bool:
    return stem(word) == stem(target) or is_typo(word, target)


def _items(tokens: list[Token]) -> list[list[str]]:
    items: list[list[str]] = []
    for token in tokens:
        if not items or token.boundary or token.norm in ("and", "or"):
            items.append([])
        if token.norm not in STOPWORDS:
            items[-1].append(token.norm)
    return [item for item in items if item]


def short_list(names: tuple[Item, ...], tokens: list[Token]) -> str:
    """What is wrong with a full-length list naming fewer of the answer's items than asked, or ""."""
    items = _items(tokens)
    if not names or len(items) < len(names):
        return ""
    named = set()
    for item in items:
        counts = [sum(any(_names(word, part) for word in item) for part in name) for name in names]
        best = max(counts)
        if best:
            named.add(max(range(len(names)), key=lambda k: (counts[k], len(names[k]) == counts[k])))
    if len(named) >= len(names):
        return ""
    if not named:
        return f"None of your items is among the {len(names)} asked for."
    return f"Only {len(named)} of your items {'is' if len(named) == 1 else 'are'} among the {len(names)} asked for."
