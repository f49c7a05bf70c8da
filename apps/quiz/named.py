"""A question asking which formats or data types something uses is answered by naming them: "lower precision floats
for most of the computations" says what mixed precision does, but not which formats it combines (FP16 or BF16, and
FP32). Pure, stdlib only.

The formats are the answer's exact key terms (acronyms and words with digits: "FP16", "INT8"); a response naming
none of them, in any spelling the synonym table knows ("half precision", "float32"), answers the rest of the
question at best, so it is not fully right, and the feedback says what is left. A question of another kind ("what
optimizations", "what problem") is answered in words, and is left to coverage.
"""

from __future__ import annotations

import re

from .keyterms import KeyTerm

_ASKS = re.compile(
    r"\b(?:what|which)\s+(?!(?:is|are|was|were|does|do|did)\b)"
    r"((?:[a-z-]+\s+){0,2}?(?:formats?|data\s+types|dtypes|number\s+types|precisions))\b",
    re.IGNORECASE,
)

Named = tuple[str, frozenset[str]]  # (what the question asks to have named, the labels of the answer's names)


def asked_names(question: str, terms: tuple[KeyTerm, ...]) -> Named:
    """What the question asks to have named ("numeric formats"), and the answer's names for it, if it asks."""
    match = _ASKS.search(question)
    names = frozenset(term.label for term in terms if term.exact)
    return (match.group(1).casefold(), names) if match and names else ("", frozenset())


def unnamed(asked: Named, matched: tuple[str, ...]) -> str:
    """The feedback for a response naming none of the answer's names for what the question asks (`matched`: the
    labels of the key terms it earns, spelled any way the synonym table knows: "half precision", "float32"), or ""."""
    noun, names = asked
    return "" if names & set(matched) else f"The question also asks which {noun}; name them."
