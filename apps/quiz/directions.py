"""Claims of direction in an answer ("reduces the precision", "higher accuracy") and responses that reverse them.

A claim is a direction word (reduce/lower/fewer/less ... or increase/raise/higher/more ...) followed by the noun
it governs: a run of at most three content words in the same clause, whose last word is the head. A response
reverses the answer when it puts the opposite direction word on the same head ("increase precision" where the
answer "reduces the numeric precision"), said of the same thing: when both sentences open with a name (BF16, PTQ)
it must be the same one, and when both compare ("than FP16") it must be with the same one, so "FP16 has more
precision than BF16" does not reverse "BF16 ... lower precision than FP16". A negated direction word ("does not
reduce") and a head the answer moves both ways are left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .targets import is_negated
from .textnorm import STOPWORDS, fold, stem, stems_related, tokenize


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


DOWN = _words(
    """
    reduce reduces reduced reducing lower lowers lowered lowering decrease decreases decreased decreasing shrink
    shrinks shrinking shrank minimize minimise minimizes minimises minimizing minimising lessen lessens smaller
    fewer less narrower
    """
)
UP = _words(
    """
    increase increases increased increasing raise raises raised raising boost boosts boosted boosting maximize
    maximise maximizes maximises maximizing maximising higher larger bigger more greater wider
    """
)
_DETERMINERS = _words("the a an its their his her our your this that these those much many")
_PRONOUNS = _words("it this that they these those")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
HEAD_WORDS = 3  # a longer run reads as a clause ("wider dynamic range avoids overflow"), not a noun


@dataclass(frozen=True)
class Claim:
    sense: int  # -1: reduces, lower, fewer; +1: increases, higher, more
    head: str  # the noun the direction word governs, normalised
    than: str  # what it is compared with ("than FP16"), or ""
    subject: str  # the name the sentence opens with (BF16, PTQ), or ""
    phrase: str  # as written, from the direction word to the head
    words: tuple[str, ...] = ()  # the direction word and the head, normalised


def _sense(norm: str) -> int:
    return -1 if norm in DOWN else 1 if norm in UP else 0


@lru_cache(maxsize=1024)
def claims(text: str) -> tuple[Claim, ...]:
    out: list[Claim] = []
    subject = ""
    for sentence in _SENTENCE_END.split(fold(text)[:4000]):
        tokens = tokenize(sentence)
        opening = [t for t in tokens[:3] if t.technical]
        if opening:
            subject = opening[0].norm
        elif not (tokens and tokens[0].norm in _PRONOUNS):  # "It is more precise" is still about the last name
            subject = ""
        for i, token in enumerate(tokens):
            sense = _sense(token.norm)
            if not sense or is_negated(tokens, i, frozenset()):
                continue
            j = i + 1
            while j < len(tokens) and not tokens[j].boundary and tokens[j].norm in _DETERMINERS:
                j += 1
            run = []
            while (
                j < len(tokens)
                and not tokens[j].boundary
                and tokens[j].norm not in STOPWORDS
                and not _sense(tokens[j].norm)
            ):
                run.append(tokens[j])
                j += 1
            if not run or len(run) > HEAD_WORDS:
                continue
            than = ""
            if j + 1 < len(tokens) and tokens[j].norm == "than" and not tokens[j].boundary:
                than = tokens[j + 1].norm if not tokens[j + 1].boundary else ""
            phrase = " ".join(t.surface for t in tokens[i:j])
            out.append(Claim(sense, run[-1].norm, than, subject, phrase, (token.norm, run[-1].norm)))
    return tuple(out)


def _same_head(a: str, b: str) -> bool:
    """The same noun, inflected or derived: "precision"/"precise", "models"/"model"."""
    if stems_related(stem(a), stem(b)):
        return True
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    return common >= max(5, min(len(a), len(b)) - 2)


def _about_the_same(claim: Claim, other: Claim) -> bool:
    if claim.subject and other.subject and claim.subject != other.subject:
        return False
    return not (claim.than and other.than and claim.than != other.than) and _same_head(claim.head, other.head)


def compare(answer_claims: tuple[Claim, ...], response: str) -> tuple[tuple[Claim, Claim], ...]:
    """The response's claims that reverse one of the answer's, each with the answer's claim."""
    out = []
    for claim in claims(response):
        related = [a for a in answer_claims if _about_the_same(claim, a)]
        if related and all(a.sense == -claim.sense for a in related):
            out.append((claim, related[0]))
    return tuple(out)
