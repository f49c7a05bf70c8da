"""A condition after the point ("so you can roll back to an older model if the new one is worse") says when the
point applies; its words elaborate the point, they are not another one. Pure, stdlib only."""

from __future__ import annotations

from .targets import CLAUSE_WORDS
from .textnorm import Token, stem

_OPENERS = frozenset({"if", "when", "whenever", "unless", "once"})


def conditional_stems(tokens: list[Token]) -> frozenset[str]:
    """The stems used only in a condition clause that follows the response's first clause."""
    inside, outside, within = set(), set(), False
    for k, token in enumerate(tokens):
        if token.norm in _OPENERS and k > 0:
            within = True
            continue
        if token.boundary or (token.norm in CLAUSE_WORDS and token.norm not in _OPENERS):
            within = False
        (inside if within else outside).add(stem(token.norm))
    return frozenset(inside - outside)
