"""A pronoun read as the thing it stands for: "The model is too big for one GPU, so its layers are split" splits the
model. Pure, stdlib only.

"it" and "its" stand for the subject of the clause before, its first content word, as a reader takes them in a
short answer; in the first clause there is nothing before to stand for, and they are left as they are. So is one
whose own clause names what it stands for: "its own", or "its" where "each GPU" is the subject ("each GPU gets its
own slice of the batch"), is the GPU's, not the model's of the clause before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .textnorm import Token

_PRONOUNS = frozenset({"it", "its"})
_DISTRIBUTIVE = frozenset({"each", "every"})
_JOINING = frozenset({"and", "so", "then", "but"})  # words that may open a clause before its subject


def resolved(clauses: list[list[Token]], thing: Callable[[Token], bool]) -> list[list[Token]]:
    """`clauses` with each "it"/"its" replaced by the first `thing` of the nearest clause before that has one."""
    out, subject = [], None
    for clause in clauses:
        clause = [
            replace(subject, boundary=t.boundary) if t.norm in _PRONOUNS and subject and not _own(clause, i) else t
            for i, t in enumerate(clause)
        ]
        subject = next((t for t in clause if thing(t)), subject)
        out.append(clause)
    return out


def _own(clause: list[Token], i: int) -> bool:
    """Whether the pronoun at `i` stands for something of its own clause: "its own", or one whose clause's subject is
    "each" or "every" ("each GPU gets its slice"; not "each of its layers", nor "on each device it is split")."""
    following = clause[i + 1].norm if i + 1 < len(clause) else ""
    words = [t.norm for t in clause[:i] if t.norm not in _JOINING]
    return following == "own" or (bool(words) and words[0] in _DISTRIBUTIVE and words[1:2] != ["of"])
