"""How often something happens: a response doing each time what the answer does once every N times ("stepping the
optimizer after every micro-batch" where the answer steps once after N micro-batches). Pure, stdlib only.

The answer's cadences are an action and the unit it is counted in: the content words just before "after N
micro-batches", "every N steps", "once per several batches". A response that ties one of those actions to each
single unit ("after every micro-batch", "per batch", "each mini-batch"), with no count of its own, says the action
happens N times as often: a fault. A clause that denies it ("don't update after every batch", "instead of every
batch") states the answer, not the fault.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from .synonyms import groups_of
from .targets import NEGATING_PAIRS, NEGATORS
from .textnorm import FILLER, Token, fold, is_generic, stem, tokenize

_REACH = 4  # words before the count that may name the action: "performs one optimizer step after N ..."
_TEX = re.compile(r"\$([^$]{1,24})\$")
_COUNTS = frozenset({"n", "k", "m", "several", "multiple", "many", "few", "some", "accumulation"})
_EACH = frozenset({"every", "each", "per"})
_ONE = frozenset({"single", "individual", "one"})
_LEADS = frozenset({"after", "every", "per", "each", "once"})
_DENYING = NEGATORS | frozenset({"without", "instead", "rather", "than", "unlike"})

Cadence = tuple[frozenset[str], frozenset[str]]  # (stems of the action's words, stems of the unit's name and pieces)


def _tokens(text: str) -> list[Token]:
    # A call's empty brackets ("optimizer.step()") would end the clause before what follows it.
    text = _TEX.sub(lambda m: " " + m.group(1).replace("\\", " ") + " ", text).replace("()", "")
    return tokenize(fold(text))


def _counted(norm: str) -> bool:
    return norm in _COUNTS or (norm.isdigit() and int(norm) > 1)


def _unit(token: Token) -> frozenset[str]:
    return frozenset({stem(token.norm)} | {stem(p) for p in token.parts[-1:]})


def _content(token: Token) -> bool:
    return token.norm not in FILLER and not is_generic(token.norm) and token.norm not in _LEADS | _COUNTS


@lru_cache(maxsize=512)
def cadences(answer: str) -> tuple[Cadence, ...]:
    """The answer's actions done once every N units: ({"optimiz", "step", "perform"}, {"microbatch", "batch"})."""
    tokens, out = _tokens(answer), []
    for i, token in enumerate(tokens[:-2]):
        if token.norm in _LEADS and _counted(tokens[i + 1].norm) and _content(tokens[i + 2]):
            before = [t for t in tokens[max(0, i - _REACH) : i] if _content(t)]
            if before:
                out.append((frozenset(stem(t.norm) for t in before), _unit(tokens[i + 2])))
    return tuple(out)


def _same_action(words: list[Token], action: frozenset[str]) -> bool:
    """A word of the action, or a piece of one written as code ("step" of "optimizer.step()")."""
    groups = frozenset().union(*(groups_of(s) for s in action))
    said = {stem(w) for t in words for w in (t.norm, *t.parts)}
    return any(s in action or groups_of(s) & groups for s in said)


def _denied(before: list[Token]) -> bool:
    norms = [t.norm for t in before]
    return bool(set(norms) & _DENYING) or any(pair in NEGATING_PAIRS for pair in pairwise(norms))


def too_often(answer: tuple[Cadence, ...], response: str) -> tuple[str, ...]:
    """The response's phrases that do an action of the answer's cadences at every single unit."""
    tokens, out = _tokens(response), []
    for i, token in enumerate(tokens):
        if token.norm not in _EACH:
            continue
        k = i + 1 + (i + 1 < len(tokens) and tokens[i + 1].norm in _ONE)
        if k >= len(tokens) or _counted(tokens[k].norm):
            continue
        start = max((j for j in range(i + 1) if tokens[j].boundary), default=0)
        before = tokens[start:i]
        words = [t for t in before[-_REACH - 1 :] if _content(t)]
        unit = _unit(tokens[k])
        for action, counted in answer:
            if unit & counted and not _denied(before) and _same_action(words, action):
                out.append(" ".join(t.surface for t in tokens[start : k + 1]))
                break
    return tuple(out)
