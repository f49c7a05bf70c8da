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


def is_acronym(text: str) -> bool:
    return bool(_ACRONYM.fullmatch(text))


@lru_cache(maxsize=512)
def spelled_out(question: str, answer: str) -> frozenset[str]:
    """Stems of the words the answer spells an acronym of the question out with: they only name what the
    question names ("Open Neural Network Exchange" for "What is ONNX?"), so they are no key terms."""
    asked = {token.norm for token in tokenize(fold(question))}
    pairs = _SPELLED_OUT.findall(answer) + [(acronym, words) for words, acronym in _SPELLED_BEFORE.findall(answer)]
    out: set[str] = set()
    for acronym, words in pairs:
        # Before the parenthesis, the spelled-out name is the last words, starting with the acronym's letter.
        names = words.split()[-len(acronym) :]
        while names and names[0][0].lower() != acronym[0].lower():
            names = names[1:]
        if acronym.lower() in asked and names and len(names) <= 6:
            out.update(stem(token.norm) for token in tokenize(fold(" ".join(names))))
    return frozenset(out)
