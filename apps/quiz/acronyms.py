"""An acronym and what it stands for, in a model answer. Pure, stdlib only.

"ONNX (Open Neural Network Exchange)" and "Open Neural Network Exchange (ONNX)": the words spelling out an acronym
the question names only name what the question names, so they are no key terms; an acronym in parentheses after
what it stands for ("integrated circuits (ASICs)") is the thing's name, weighed as such, not as an aside.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .textnorm import fold, stem, tokenize

# The words before the parenthesis are up to six, the acronym's letter count at most.
_SPELLED_OUT = re.compile(r"\b([A-Z][A-Z0-9]{1,9})s?\s*\(([A-Za-z][\w\s-]{2,80})\)")
_SPELLED_BEFORE = re.compile(r"((?:[A-Za-z][\w-]*\s+){1,5}[A-Za-z][\w-]*)\s*\(([A-Z][A-Z0-9]{1,9})s?\)")
_ACRONYM = re.compile(r"\s*[A-Z][A-Z0-9]{1,9}s?\s*")


def names_before(before: str, aside: str) -> bool:
    """Whether `aside`, the text of a parenthesis, is an acronym of the words `before` it: "integrated circuits" and
    "ASICs", not "processors" and "GPU" ("many processors (GPU)")."""
    words = re.search(r"((?:[A-Za-z][\w-]*\s+){0,5}[A-Za-z][\w-]*)\s*$", before)
    return bool(_ACRONYM.fullmatch(aside) and words and _spelled(words.group(1), aside.strip().rstrip("s")))


def _spelled(words: str, acronym: str) -> list[str]:
    """The words that spell `acronym` out, the last of `words`: as many as its letters at most, from one starting
    with its first letter."""
    names = words.split()[-len(acronym) :]
    while names and names[0][0].lower() != acronym[0].lower():
        names = names[1:]
    return names if len(names) <= 6 else []


@lru_cache(maxsize=512)
def spelled_out(question: str, answer: str) -> frozenset[str]:
    """Stems of the words the answer spells an acronym of the question out with: they only name what the
    question names ("Open Neural Network Exchange" for "What is ONNX?"), so they are no key terms."""
    asked = {token.norm for token in tokenize(fold(question))}
    pairs = _SPELLED_OUT.findall(answer) + [(acronym, words) for words, acronym in _SPELLED_BEFORE.findall(answer)]
    out: set[str] = set()
    for acronym, words in pairs:
        if acronym.lower() in asked and (names := _spelled(words, acronym)):
            out.update(stem(token.norm) for token in tokenize(fold(" ".join(names))))
    return frozenset(out)
