"""A pronoun read as the thing it stands for: "The model is too big for one GPU, so its layers are split" splits the
model. Pure, stdlib only.

"it" and "its" stand for the subject of the clause before, its first content word, as a reader takes them in a
short answer; in the first clause there is nothing before to stand for, and they are left as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .textnorm import Token

_PRONOUNS = frozenset({"it", "its"})


def resolved(clauses: list[list[Token]], thing: Callable[[Token], bool]) -> list[list[Token]]:
    """`clauses` with each "it"/"its" replaced by the first `thing` of the nearest clause before that has one."""
    out, subject = [], None
    for clause in clauses:
        clause = [replace(subject, boundary=t.boundary) if t.norm in _PRONOUNS and subject else t for t in clause]
        subject = next((t for t in clause if thing(t)), subject)
        out.append(clause)
    return out
