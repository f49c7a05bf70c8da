"""A name the answer writes in words inside its maths, as the symbols a student writes for it instead. Pure.

The answer's "$N \\times (\\text{micro-batch size})$" is read as "N × microbatchsize"; a student writes "$N \\times b$",
"$N \\times B_{micro}$" or "N × mbs" for the same product. Each word's initial, the initials together, and an
initial with another word of the name as its subscript stand for the name.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .mathnorm import is_relation, parse_formula
from .tex import tex_bodies

_TEXT_NAME = re.compile(r"\(?\\(?:text|mathrm)\{([A-Za-z]+(?:[- ][A-Za-z]+){1,3})\}\)?")


def _symbols(words: list[str]) -> set[str]:
    initials = [word[0] for word in words]
    out = {*initials, "".join(initials)}
    out |= {f"{word[0]}_{{{other}}}" for word in words for other in words if other != word}
    return out


@lru_cache(maxsize=512)
def abbreviated(answer: str) -> frozenset[str]:
    """Canonical forms of the answer's TeX expressions, each worded name written as a symbol for it."""
    out = set()
    for body in tex_bodies(answer):
        for name in _TEXT_NAME.finditer(body):
            words = re.split(r"[- ]", name.group(1).casefold())
            for symbol in _symbols(words):
                formula = parse_formula(body[: name.start()] + symbol + body[name.end() :])
                if formula is not None and not is_relation(formula) and formula.tree.kind not in ("var", "num"):
                    out.add(formula.canonical)
    return frozenset(out)
