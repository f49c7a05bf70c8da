"""A question asking what something is and how two kinds of it differ ("What is pruning ..., and how do structured and
unstructured pruning differ?"), answered with the two kinds only ("Structured pruning removes whole filters;
unstructured pruning removes individual weights"), answers the comparison and leaves out what the thing itself is:
partly right at most, however well the kinds are told apart. Pure, stdlib only.

Each clause of the response (cut at punctuation and clause words: "since the matrices are just sparse" says what
the kinds lead to) must name one of the two things for the response to be about them only; one clause of its own
("pruning = removing weights", "cutting connections") says what the thing is, and nothing is held against it.
"""

from __future__ import annotations

import re

from .targets import CLAUSE_WORDS
from .textnorm import Token, fold, tokenize

# "What is X[ in Y], and how do A and B differ?": the subject is X, and A and B are its kinds, not X itself.
_DEFINED = re.compile(
    r"^\s*what\s+(?:is|are)\s+(?!the\s+difference\b)(?:an?\s+|the\s+)?(?P<subject>[^,?]{1,40}?)"
    r"(?:\s+in\s+[^,?]{1,40})?,?\s+and\s+(?:how|what|why)\b",
    re.IGNORECASE,
)
_CUT = re.compile(r"[;:!?]|,\s|\.(?:\s|$)|\s-+>?\s|->")


def defined_subject(question: str, things: tuple[frozenset[str], ...]) -> str:
    """The subject a comparison question also asks to define ("pruning"), if it is neither compared thing."""
    match = _DEFINED.match(question) if len(things) == 2 else None
    if not match:
        return ""
    subject = match.group("subject").strip()
    names = set().union(*things)
    return "" if any(t.norm in names for t in tokenize(fold(subject))) else subject


def _names(token: Token, things: tuple[frozenset[str], ...]) -> bool:
    forms = {token.norm, *token.parts}
    return any(f.rstrip("s") == n.rstrip("s") for f in forms for names in things for n in names if f)


def compared_only(things: tuple[frozenset[str], ...], text: str) -> bool:
    """Every clause of the response names one of the compared things (see the module)."""
    clauses: list[list[Token]] = []
    for part in _CUT.split(fold(text)):  # not at "/" or "(": "whole filters/channels" is one clause
        clauses.append([])
        for token in tokenize(part):
            if token.norm in CLAUSE_WORDS:
                clauses.append([])
            clauses[-1].append(token)
    clauses = [clause for clause in clauses if any(t.norm not in CLAUSE_WORDS for t in clause)]
    return len(clauses) >= 2 and all(any(_names(t, things) for t in clause) for clause in clauses)
