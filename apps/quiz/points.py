"""Short answers judged as a person judges them. Pure, stdlib only.

A one-point answer ("reproducibility", "faster training", "so you can roll back") makes one real point of the model
answer in a word or two of its own: partly right, though it covers little of a long answer. The point must be a
term that belongs to one part of the answer only (what runs through several parts, "gradients" of an all-reduce,
is its subject matter, not a point); the response must not define the question's subject by its own name
("All-reduce reduces all the gradients"), nor deny a term of the answer ("the sum, not the average"), nor say
anything else wrong (faults.py).

A comparison question ("What is the difference between A and B?") answered with "there is no difference" or
"they are the same thing" denies what was asked: whatever words of the answer it names, it is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .keyterms import Coverage, KeyTerm, ResponseIndex
from .textnorm import Token, stem

POINT_WEIGHT = 0.75  # a term of the answer of ordinary weight, not a weak word such as "model" or "fast"
POINT_WORDS = 2  # the response's own content words, beyond the question's
POINT_PRECISION = 0.5  # at least one of them earns the point

_NO_DIFFERENCE = re.compile(
    r"\bno\s+(?:real\s+|actual\s+|practical\s+|big\s+|significant\s+)?difference\b"
    r"|\b(?:the\s+)?(?:exact\s+)?same\s+thing\b"
    r"|\b(?:they|both|the\s+two)\s+(?:are|is)\s+(?:basically\s+|essentially\s+|just\s+|really\s+)?(?:identical|equivalent)\b",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"(?:\bnot|n't|\bnever)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)


def one_point(
    result: Coverage, index: ResponseIndex, terms: Iterable[KeyTerm], circular: bool, defining: bool = False
) -> bool:
    """A word or two of the response's own, one of which names a point of the answer (see the module). When the
    question only asks what something is (`defining`), the point must be in the answer's opening, which says it:
    "It is faster" names a benefit, not what data parallelism is."""
    if circular or result.contradicted or len(index.content) > POINT_WORDS or result.precision < POINT_PRECISION:
        return False
    point = sum(
        t.weight
        for t in terms
        if t.label in result.matched and len(t.sentences) == 1 and (not defining or 0 in t.sentences)
    )
    return point >= POINT_WEIGHT


def circular(tokens: list[Token], question_norms: frozenset[str]) -> bool:
    """The response names the question's subject, a compound ("all-reduce"), and uses a piece of it as another
    word ("reduces"): a definition of the thing by its own name."""
    pieces = {stem(p) for t in tokens if t.parts and t.norm in question_norms for p in t.parts if len(p) > 3}
    return bool(pieces) and any(not t.parts and stem(t.norm) in pieces for t in tokens)


def denies_difference(text: str) -> bool:
    """The response says the compared things do not differ ("There is no difference", "the same thing")."""
    return any(not _NEGATED.search(text[: match.start()]) for match in _NO_DIFFERENCE.finditer(text))
