"""Short answers judged as a person judges them. Pure, stdlib only.

A one-point answer ("reproducibility", "faster training", "so you can roll back") makes one real point of the model
answer in a word or two of its own: partly right, though it covers little of a long answer. The point must be a
term that belongs to one part of the answer only (what runs through several parts, "gradients" of an all-reduce,
is its subject matter, not a point); the response must not define the question's subject by its own name
("All-reduce reduces all the gradients"), nor deny a term of the answer ("the sum, not the average"), nor say
anything else wrong (faults.py).

A fragment of two or more words, every one earning a key term (two terms, or one distinctive term such as "systolic
arrays"), is a piece of the answer, not a guess: at least partly right however short (focused).

A condition after the point ("so you can roll back to an older model if the new one is worse") says when it applies:
its words are not counted among the response's own (conditions.py).

A category answer ("A file format for models.") to a question asking what something is names the kind of thing the
answer's defining sentence says it is ("ONNX is an open ... format for representing ... models"), its genus, and
another term of that sentence ("models"), in at most three words of its own: partly right, as a person marks it,
though it is more than one point in a word or two. The genus alone beside other words ("a file format for images")
is a format of something else; and nothing wrong may be said. Said as a kind of something else ("A type of GPU
memory" where the answer says a grid), it is wrong, whatever word of the answer it names.

A list question ("Name three techniques ...") is judged by item: a wrong item among right ones is one wrong item,
however many words it takes ("buying a bigger GPU").

A comparison question ("What is the difference between A and B?") answered with "there is no difference" or
"they are the same thing" denies what was asked: whatever words of the answer it names, it is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .conditions import conditional_stems
from .keyterms import Coverage, KeyTerm, ResponseIndex
from .synonyms import groups_of
from .textnorm import STOPWORDS, Token, fold, stem, tokenize
from .vague import describes_baseline, direction_only

POINT_WEIGHT = 0.75  # a term of the answer of ordinary weight, not a weak word such as "model" or "fast"
POINT_WORDS = 2  # the response's own content words, beyond the question's
POINT_PRECISION = 0.5  # at least one of them earns the point

FOCUSED_TERMS = 2  # key terms a response must name, with no off-target word, to earn at least partial credit
FOCUSED_WEIGHT = 0.9  # or the weight of the one term it names: technical and compound terms, not "model" or "data"
GENUS_WORDS = 3  # the response's own content words, beyond the question's
# "X is an open, framework-agnostic standard format for ...": the words from "is a" to what qualifies the head
_GENUS = re.compile(
    r"^[^.;:]*?\b(?:is|are)\s+(?:a|an|the|[\w-]+'s)\s+([^.;:()]*?)\s*(?=\b(?:for|that|which|who|of|to|used|where|with|in|"
    r"on|from|by|whose|designed|built|specialized|specialised)\b|[.;:()]|$)",
    re.IGNORECASE,
)

_NO_DIFFERENCE = re.compile(
    r"\bno\s+(?:real\s+|actual\s+|practical\s+|big\s+|significant\s+)?difference\b"
    r"|\b(?:the\s+)?(?:exact\s+)?same\s+thing\b"
    r"|\b(?:they|both|the\s+two)\s+(?:are|is)\s+(?:basically\s+|essentially\s+|just\s+|really\s+)?(?:identical|equivalent)\b",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"(?:\bnot|n't|\bnever)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)


def focused(result: Coverage, index: ResponseIndex) -> bool:
    """Two or more words, each earning a key term, and nothing else of substance: a fragment of the answer, not a
    guess. One word alone ("gradients") is too little to tell."""
    if result.precision < 1.0 or len(index.content) < 2:
        return False
    return len(result.matched) >= FOCUSED_TERMS or result.matched_weight >= FOCUSED_WEIGHT


def one_point(
    result: Coverage,
    index: ResponseIndex,
    terms: Iterable[KeyTerm],
    tokens: list[Token],
    question_norms: frozenset[str],
    defining: bool = False,
    baseline: frozenset[str] = frozenset(),
) -> bool:
    """A word or two of the response's own, one of which names a point of the answer (see the module). When the
    question only asks what something is (`defining`), the point must be in the answer's opening, which says it:
    "It is faster" names a benefit, not what data parallelism is. A comparative said of nothing ("4 times
    larger") is no point, though a synonym links it to the answer's "increase", nor is what the question compares
    its subject against (`baseline`: "on a grid" for "over grid search"; vague.py)."""
    own = index.content - conditional_stems(tokens)  # "... if the new one is worse" says when, not what else
    if result.contradicted or len(own) > POINT_WORDS or result.precision < POINT_PRECISION:
        return False
    if circular(tokens, question_norms) or (baseline and describes_baseline(tokens, baseline)):
        return False
    terms = tuple(terms)
    if direction_only(tokens, index.content, result.used, frozenset(s for t in terms for a in t.alts for s in a)):
        return False
    point = sum(
        t.weight
        for t in terms
        if t.label in result.matched and len(t.sentences) == 1 and (not defining or 0 in t.sentences)
    )
    return point >= POINT_WEIGHT


def genus(answer: str) -> frozenset[str]:
    """The stems of what the answer's first sentence says its subject is: "format" of "ONNX is an open,
    framework-agnostic standard format for representing models", "optimizer" and "runtime" of "... inference
    optimizer and runtime for GPUs"."""
    first = re.split(r"(?<=[.!?])\s+(?=[A-Z])", answer.strip(), maxsplit=1)[0]
    match = _GENUS.match(first)
    if not match:
        return frozenset()
    heads = [phrase.split()[-1] for phrase in re.split(r"\s+(?:and|or)\s+", match.group(1)) if phrase.split()]
    return frozenset(stem(norm) for head in heads for t in tokenize(fold(head)) if (norm := t.norm) not in STOPWORDS)


def category(result: Coverage, index: ResponseIndex, terms: Iterable[KeyTerm], heads: frozenset[str]) -> bool:
    """A category answer (see the module): the genus and another term of the defining sentence in a few words of
    the response's own, at most one of which earns nothing. (A word or two is judged by `one_point`.)"""
    if not heads or result.contradicted or not index.content or len(index.content) > GENUS_WORDS:
        return False
    labels = {t.label: t for t in terms}
    named = [labels[label] for label in result.matched if label in labels]
    if not any(alt and alt[-1] in heads for t in named for alt in t.alts):
        return False
    defining = [t for t in named if 0 in t.sentences]
    return len(defining) >= 2 and len(index.content & result.used) >= 2


_KIND_OF = re.compile(
    r"^\s*(?:it\s*(?:'s|is)\s+)?(?:a|an|some)\s+(?:type|kind|sort|form|class|variety)\s+of\s+([\w\s-]+?)\W*$",
    re.IGNORECASE,
)

_QUALIFIED = re.compile(r"\s+(?:of|for|that|which|with|in|on|used|to|from|by)\s+", re.IGNORECASE)


def miscategorised(text: str, heads: frozenset[str]) -> bool:
    """ "A type of GPU memory" where the answer says a grid: the response puts its subject in another kind."""
    match = _KIND_OF.match(text) if heads else None
    kind = _QUALIFIED.split(match.group(1), maxsplit=1)[0] if match else ""
    if not (words := tokenize(fold(kind))):
        return False
    head = stem(words[-1].norm)
    return head not in heads and not any(groups_of(head) & groups_of(h) for h in heads)


def circular(tokens: list[Token], question_norms: frozenset[str]) -> bool:
    """The response names the question's subject, a compound ("all-reduce"), and uses a piece of it as another
    word ("reduces"): a definition of the thing by its own name."""
    pieces = {stem(p) for t in tokens if t.parts and t.norm in question_norms for p in t.parts if len(p) > 3}
    return bool(pieces) and any(not t.parts and stem(t.norm) in pieces for t in tokens)


def denies_difference(text: str) -> bool:
    """The response says the compared things do not differ ("There is no difference", "the same thing")."""
    return any(not _NEGATED.search(text[: match.start()]) for match in _NO_DIFFERENCE.finditer(text))


def item_precision(tokens: list[Token], used: frozenset[str]) -> float:
    """For a question asking for a number of items: the share of the response's items (cut at punctuation, "and"
    and "or") with a word that earns a key term (`used`). "batching, caching and buying a bigger GPU" has two
    right items of three, though most of its words earn nothing."""
    items: list[set[str]] = []
    for token in tokens:
        if not items or token.boundary or token.norm in ("and", "or"):
            items.append(set())
        if token.norm not in STOPWORDS:
            items[-1].add(stem(token.norm))
    items = [item for item in items if item]
    return sum(bool(item & used) for item in items) / len(items) if items else 0.0
