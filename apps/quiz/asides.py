"""Key terms that only qualify the answer's point: "frameworks" of "enables interoperability between different ML
frameworks". Pure, stdlib only.

A key term is an aside when every use of it in the answer comes after a preposition, with at most a couple of
modifiers between ("between different ML frameworks"), while at least as many other key terms are not: the
answer's point is said by those ("interoperability"). A response covering asides only names what the point is
about, not the point ("It is faster than other frameworks"): at most partly right, however short the answer, and
the aside's word alone ("frameworks") nothing; unless it relates them as the answer does, to several of them
("moved between frameworks", "cross-framework", "a different framework", "not tied to one framework", or two of
them named with something between: "a PyTorch model run in TensorFlow").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .keyterms import KeyTerm
from .opposites import ONE, VARIETY, one_of, preceded
from .synonyms import kind_of, named_at
from .textnorm import FILLER, STOPWORDS, Token, stem

_PREPOSITIONS = frozenset(
    {"between", "across", "among", "amongst", "of", "from", "into", "onto", "in", "on", "with", "within", "for"}
    | {"over", "under", "by", "via", "through"}
)
_LISTING = frozenset({"and", "or", "nor", "vs", "versus"})
Words = tuple[tuple[str, bool], ...]  # (norm, after punctuation) of each answer word
_REACH = 3  # the preposition and up to two modifiers: "between different ML frameworks"
# Not "to": "To manage model versioning" states the point.


def _uses(term: KeyTerm, stems: Sequence[str]) -> list[int]:
    """Where `term` is written in the answer: the position of each alternative's first stem."""
    return [i for alt in term.alts if alt and all(s in stems for s in alt) for i, s in enumerate(stems) if s == alt[0]]


def answer_asides(words: Words, terms: Sequence[KeyTerm]) -> frozenset[str]:
    """The labels of the key terms that only qualify the answer's point; none when they are most of the terms."""
    stems = [stem(norm) for norm, _ in words]
    asides, points = set(), 0
    for term in terms:
        uses = _uses(term, stems)
        if uses and all(preceded(words, at, _PREPOSITIONS, _REACH) for at in uses):
            asides.add(term.label)
        elif uses:
            points += 1
    # Asides outnumbering the point ("discrepancies between features computed offline and online") are its substance.
    return frozenset(asides) if len(asides) <= points else frozenset()


def _related(tokens: list[Token], words: Words, i: int, asides: frozenset[str]) -> bool:
    """The response relates the word at `i` to others of its kind, not in a comparison ("faster than other ...");
    saying one of it counts when it denies that or goes on to another ("not tied to one framework")."""
    before = [t.norm for t in tokens[max(0, i - _REACH) : i]]
    if "than" in before:
        return False
    named = named_at(tokens, i)
    if named[0]:  # "PyTorch": related only to another named ("TensorFlow", "ONNX Runtime")
        return any(_moved(tokens, i, j) for j in range(len(tokens)) if _another(named, named_at(tokens, j)))
    near = {*before, *tokens[i].parts, *(t.norm for t in tokens[i + 1 : i + 2])}
    return bool(near & VARIETY) or (bool(near & ONE) and not one_of(tokens, words, i, asides))


def _another(named: tuple[str, str], other: tuple[str, str]) -> bool:
    return other[0] == named[0] and other[1] != named[1]


def _moved(tokens: list[Token], i: int, j: int) -> bool:
    """Two named instances with words between them ("a PyTorch model run in TensorFlow"), not a list of them
    ("TensorFlow and PyTorch are fast")."""
    between = {t.norm for t in tokens[min(i, j) + 1 : max(i, j)]}
    return bool(between - _LISTING)


class Answer(Protocol):
    asides: frozenset[str]
    key_terms: tuple[KeyTerm, ...]
    answer_words: Words


def _aside_stems(answer: Answer) -> frozenset[str]:
    return frozenset(s for t in answer.key_terms if t.label in answer.asides for alt in t.alts for s in alt)


def aside_only(answer: Answer, matched: Sequence[str], tokens: list[Token]) -> bool:
    """The response covers the answer's asides and nothing else of it, and does not relate them as the answer does."""
    if not matched or not all(label in answer.asides for label in matched):
        return False
    stems = _aside_stems(answer)
    words = tuple((t.norm, t.boundary) for t in tokens)
    return not any(
        _related(tokens, words, i, stems)
        for i, t in enumerate(tokens)
        if {stem(t.norm), named_at(tokens, i)[0], *(stem(p) for p in t.parts)} & stems
    )


def names_only(answer: Answer, tokens: list[Token], question_norms: frozenset[str]) -> bool:
    """The one word of the response that is not the question's, nor filler, is an aside's: "frameworks", "ML
    frameworks". Nothing is said of it ("fewer trials than grid search" says something of the trials)."""
    words = [t for t in tokens if t.norm not in STOPWORDS and t.norm not in FILLER and t.norm not in question_norms]
    return len(words) == 1 and bool({stem(words[0].norm), kind_of(stem(words[0].norm))} & _aside_stems(answer))
