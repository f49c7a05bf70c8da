"""What a store is for: a question on the purpose of a registry, repository or store, answered "storing models",
names the function the subject's own name gives it, applied to what it holds. A person marks that partly right,
though no word of it is in the answer ("To manage model versioning, staging, and production transitions").
Pure, stdlib only.

The subject is what the question asks the purpose, role or nature of, and its head noun a kind of store. The
response is a verb of storing (the synonym group of "store": save, keep, hold, ...) with one or two other content
words, each the question's or the answer's (what is stored), not the store itself; nothing denied, no question.
Another verb ("the registry registers models", "tracks runs") is no storing; anything else said is judged by
coverage alone.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .synonyms import groups_of
from .targets import NEGATORS
from .textnorm import FILLER, Token, fold, is_generic, stem, tokenize

STORED_WORDS = 2  # content words beside the verb: "storing model versions"
_STORES = frozenset(
    stem(word)
    for word in ["registry", "registries", "repository", "store", "catalog", "catalogue", "warehouse", "hub", "archive"]
)
_STORING = groups_of(stem("store"))
_SUBJECT = re.compile(
    r"\b(?:purpose|role|job|function|point)\s+of\s+(?:an?\s+|the\s+)?(?P<of>[^?,;]{1,60}?)"
    r"(?:\s+(?:component|module|service|tool|in|for|within)\b|[?,;]|$)"
    r"|^\s*what\s+(?:is|are|does)\s+(?:an?\s+|the\s+)?(?P<what>[^?,;]{1,60}?)"
    r"(?:\s+(?:in|for|used|do|and|within)\b|[?,;]|$)",
    re.IGNORECASE,
)


@lru_cache(maxsize=512)
def asks_store(question: str) -> bool:
    """The question asks what a store is or is for: "the purpose of the 'Model Registry' component"."""
    match = _SUBJECT.search(question)
    words = tokenize(fold(match.group("of") or match.group("what"))) if match else []
    return bool(words) and stem(words[-1].norm) in _STORES


def _storing(token: Token) -> bool:
    return bool(groups_of(stem(token.norm)) & _STORING)


def stores_only(store: bool, tokens: list[Token], known: frozenset[str], text: str) -> bool:
    """The response says the store stores what it holds, and nothing else (see the module)."""
    if not store or text.rstrip().endswith("?") or any(t.norm in NEGATORS for t in tokens):
        return False
    others = [stem(t.norm) for t in tokens if t.norm not in FILLER and not is_generic(t.norm) and not _storing(t)]
    return (
        any(_storing(t) for t in tokens)
        and 0 < len(others) <= STORED_WORDS
        and all(s in known for s in others)
        and any(s not in _STORES for s in others)
    )
