"""Who learns from whom: the answer "trains a small 'student' model to mimic a large 'teacher'" has the small model
learn from the large one; a response saying it the other way round ("a big model learns from a small model's
outputs") swaps them, though it names every word of the answer. Pure, stdlib only.

A learning verb (mimic, imitate, learn, copy ...) relates the last size word before it in its clause (the
learner) to the first one after it in its sentence (what is learned from). roles.py catches the swap when the
response names the teacher and the student; this, when it says only which is small and which large. A clause
with a negator before the verb ("a large model does not mimic ...") relates nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .targets import CLAUSE_WORDS, NEGATORS
from .textnorm import Token, fold, tokenize


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


SMALL = _words("small smaller smallest compact tiny little lightweight light lighter")
LARGE = _words("large larger largest big bigger biggest huge giant heavy heavier")
_LEARNS = _words(
    """
    mimic mimics mimicked mimicking imitate imitates imitated imitating emulate emulates emulated emulating learn
    learns learned learnt learning copy copies copied copying
    """
)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_CLAUSE_WORDS = CLAUSE_WORDS - {"that", "which"}  # "a big model that learns from ...": the big model learns

Relation = tuple[str, str, str]  # (learner's size, the size of what it learns from, as written)


def _size(token: Token) -> str:
    return "small" if token.norm in SMALL else "large" if token.norm in LARGE else ""


@lru_cache(maxsize=1024)
def relations(text: str) -> tuple[Relation, ...]:
    out = []
    for sentence in _SENTENCE_END.split(fold(text)[:4000]):
        tokens = tokenize(sentence)
        for i, token in enumerate(tokens):
            if token.norm not in _LEARNS:
                continue
            start = i
            while start > 0 and not tokens[start].boundary and tokens[start - 1].norm not in _CLAUSE_WORDS:
                start -= 1
            clause = tokens[start:i]
            if any(t.norm in NEGATORS for t in clause):
                continue
            learner = next((size for t in reversed(clause) if (size := _size(t))), "")
            end, source = i + 1, ""
            while end < len(tokens) and not source:
                source, end = _size(tokens[end]), end + 1
            if learner and source and learner != source:
                out.append((learner, source, " ".join(t.surface for t in tokens[start:end])))
    return tuple(out)


def learner_swapped(answer: tuple[Relation, ...], response: str) -> tuple[str, ...]:
    """The response's relations that go the other way than one of the answer's."""
    return tuple(
        phrase
        for learner, source, phrase in relations(response)
        if any(learner == theirs and source == mine for mine, theirs, _ in answer)
    )
