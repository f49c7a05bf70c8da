"""A closed list asked for by number ("What are the four main components of MLflow?") judged by the answer's own
items: a response listing as many items as asked, one of them none of the answer's ("tracking, projects, model
registry, and deployment"), is not fully right, though the odd item borrows a word of an item's description
("deployment" of "a standard packaging format for deployment"). Pure: stdlib + rapidfuzz (typos.py).

The answer's items are its numbered entries ("1) MLflow Tracking (logging params ...); 2) ..."), named by the words
before their description, less the question's ("MLflow"); the list is closed when there are exactly as many as
the question asks and nothing follows the last ("Others include ..." opens it). A response item names the answer
item whose name it contains most of (typos tolerated), so "model registry" is the Model Registry, not Models too.
A response with fewer items than asked is judged by coverage alone: it is visibly short. An item offered as a guess with
another that is none of the answer's ("Deployments or Registry maybe") is not named: the response did not commit.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .textnorm import FILLER, STOPWORDS, Token, fold, stem, tokenize
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


def _items(tokens: list[Token]) -> list[tuple[bool, list[str]]]:
    """The response's items, each with whether it is offered as another choice for the one before ("A or B")."""
    items: list[tuple[bool, list[str]]] = []
    for token in tokens:
        if not items or token.boundary or token.norm in ("and", "or"):
            items.append((token.norm == "or", []))
        if token.norm not in STOPWORDS:
            items[-1][1].append(token.norm)
    return [item for item in items if item[1]]


def short_list(names: tuple[Item, ...], tokens: list[Token]) -> str:
    """What is wrong with a full-length list naming fewer of the answer's items than asked, or ""."""
    items = _items(tokens)
    if not names or len(items) < len(names):
        return ""
    named: list[int | None] = []
    for _, item in items:
        counts = [sum(any(_names(word, part) for word in item) for part in name) for name in names]
        best = max(counts)
        named.append(max(range(len(names)), key=lambda k: (counts[k], len(names[k]) == counts[k])) if best else None)
    # An item offered with another that is none of the answer's ("Deployments or Registry") is a guess between them.
    guesses = [k for k in range(1, len(items)) if items[k][0] and (named[k] is None) != (named[k - 1] is None)]
    hedged = {named[k] if named[k] is not None else named[k - 1] for k in guesses}
    sure = {k for k in named if k is not None} - hedged
    if len(sure) >= len(names):
        return ""
    if guesses:
        first, second = (" ".join(w for w in items[k][1] if w not in FILLER) for k in (guesses[0] - 1, guesses[0]))
        return f"You offer '{first}' or '{second}', and only one of them is among the {len(names)}: commit to one."
    if not sure:
        return f"None of your items is among the {len(names)} asked for."
    return f"Only {len(sure)} of your items {'is' if len(sure) == 1 else 'are'} among the {len(names)} asked for."
