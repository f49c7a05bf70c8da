"""What gets split and what gets copied: a response that binds an action to the thing the answer treats the other
way ("split the model" where the answer replicates the model and shards the batch). Pure, stdlib only.

Data and model parallelism, sharding and replication are told apart by exactly this: the words are the same,
what they apply to differs. Each clause (cut at punctuation and clause words) pairs a word of an action group
with the content words next to it (up to two either side, not across another action word or a conjunction); a
clause after a negator ("no model splitting", "can't just replicate it") pairs nothing. A response pair is a
fault when the answer pairs that thing only with the other actions, never with this one. "it" and "its" in the
response stand for the subject of the clause before (pronouns.py): "its layers are split" splits the model.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise

from .pronouns import resolved
from .synonyms import groups_of
from .targets import CLAUSE_WORDS, NEGATING_PAIRS, NEGATORS
from .textnorm import FILLER, STOPWORDS, Token, fold, is_generic, stem, tokenize

# The actions whose object tells concepts apart: dividing a thing among devices, and copying it to each of them.
_ACTIONS = {
    group: name
    for name, word in (("split", "split"), ("copy", "replicate"))
    for group in groups_of(stem(word))
    if len(groups_of(stem(word))) == 1
}
_REACH = 2  # content words either side of the action word
_STOPS = CLAUSE_WORDS | frozenset({"each", "per", "every", "across", "over", "between", "among", "onto", "to"})
_NEGATING = NEGATORS | frozenset({"without", "unlike", "instead", "rather"})

Binding = tuple[str, str]  # (action, the stem of the thing it applies to)


def _action(token: Token) -> str:
    found = {_ACTIONS[g] for g in groups_of(stem(token.norm)) if g in _ACTIONS}
    return next(iter(found)) if len(found) == 1 else ""


def _thing(token: Token) -> bool:
    norm = token.norm
    return not (norm in STOPWORDS or norm in FILLER or norm in _STOPS or is_generic(norm) or len(norm) < 3)


def _clauses(text: str) -> list[list[Token]]:
    clauses: list[list[Token]] = []
    for token in tokenize(fold(text)[:4000]):
        if not clauses or token.boundary or token.norm in CLAUSE_WORDS:
            clauses.append([])
        clauses[-1].append(token)
    return clauses


def _negated(clause: list[Token]) -> bool:
    words = [t.norm for t in clause]
    return bool(set(words) & _NEGATING) or any(pair in NEGATING_PAIRS for pair in pairwise(words))


def _reach(clause: list[Token], start: int, step: int) -> list[str]:
    found, k = [], start + step
    while 0 <= k < len(clause) and len(found) < _REACH:
        token = clause[k]
        if token.norm in _STOPS or _action(token):
            break
        if _thing(token):
            found.append(stem(token.norm))
        k += step
    return found


@lru_cache(maxsize=1024)
def bindings(text: str) -> frozenset[Binding]:
    """Each (action, thing) the text states, leaving out what it denies."""
    out: set[Binding] = set()
    for clause in _clauses(text):
        if _negated(clause):
            continue
        for i, token in enumerate(clause):
            action = _action(token)
            if action:
                out.update((action, thing) for thing in _reach(clause, i, -1) + _reach(clause, i, 1))
    return frozenset(out)


def misbound(answer: frozenset[Binding], response: str) -> tuple[str, ...]:
    """The response's clauses that apply an action to a thing the answer only applies the other action to."""
    out, clauses = [], _clauses(response)
    for clause, meant in zip(clauses, resolved(clauses, _thing), strict=True):  # "its layers": the model's
        if _negated(clause):
            continue
        said = " ".join(t.surface for t in clause)
        for action, thing in bindings(" ".join(t.surface for t in meant)):
            others = {a for a, t in answer if t == thing}
            if others and action not in others:
                out.append(said)
                break
    return tuple(out)
