"""Claims that two things move together ("a higher T produces softer probabilities") and responses that agree
with them or reverse them. Pure, stdlib only.

A covariation is a direction said of a cause ("higher T", "lower temperature", "T increases") and a quality said
of the effect later in the same clause ("... makes it sharper", "... softer probabilities"), the quality read on
one scale with its opposite (soft/sharp, smooth/peaked): "higher T -> softer" has the relation +1 on the scale
"soft", and so does "lower T -> sharper", its mirror about the other end. A response's covariation about the
answer's cause agrees when its relation is the answer's, and reverses it otherwise: "higher temperature makes
the distribution sharper" reverses "higher T produces softer probabilities"; "lower T makes it sharper, higher
T softer" says it twice. A clause may leave its verb out ("higher T softer").
"""

from __future__ import annotations

import re
from functools import lru_cache

from .directions import DOWN, UP, Claim
from .targets import NEGATORS, is_negated
from .textnorm import STOPWORDS, Token, fold, plain_from_tex, stem, tokenize


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Qualities on one scale: +1 at one end, -1 at the other. The scale is named by its +1 end.
_SCALES = {
    **dict.fromkeys(_words("soft softer softest soften softens softened softening smoother flatter"), ("soft", 1)),
    **dict.fromkeys(
        _words("sharp sharper sharpest sharpen sharpens sharpened sharpening peaked peakier"), ("soft", -1)
    ),
    **dict.fromkeys(_words("spikier peakiest harder"), ("soft", -1)),
}
_VERBS = {"increase": 1, "increases": 1, "increased": 1, "rises": 1, "grows": 1}
_VERBS |= dict.fromkeys(("decrease", "decreases", "decreased", "falls", "drops", "shrinks"), -1)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_SYMBOL = re.compile(r"\$\s*([A-Za-z])\s*\$")  # "$T$": a symbol named in prose, kept
_CAUSE_WORDS = 2  # a cause is a short noun: "T", "the temperature", "temperature T"
_DETERMINERS = _words("the a an its")


def _noun(norm: str) -> bool:
    """A word that may name a cause: a content word, or a one-letter symbol ("T")."""
    return norm not in _SCALES and (norm not in STOPWORDS or (len(norm) == 1 and norm.isalpha() and norm != "a"))


def _cause(tokens: list[Token], i: int) -> tuple[int, str, int] | None:
    """(sense, head, end) of a cause at `i`: "higher T", "lower temperature", "T increases"."""
    norm = tokens[i].norm
    sense = 1 if norm in UP else -1 if norm in DOWN else 0
    if sense and not is_negated(tokens, i, frozenset()):
        j = i + 1
        while j < len(tokens) and tokens[j].norm in _DETERMINERS and not tokens[j].boundary:
            j += 1
        if j < len(tokens) and not tokens[j].boundary and _noun(tokens[j].norm):
            return sense, tokens[j].norm, j + 1
        return None
    if _noun(norm) and i + 1 < len(tokens) and not tokens[i + 1].boundary:
        verb = _VERBS.get(tokens[i + 1].norm, 0)
        if verb and (i == 0 or tokens[i - 1].norm not in UP | DOWN):
            return verb, norm, i + 2
    return None


@lru_cache(maxsize=1024)
def covariations(text: str) -> tuple[Claim, ...]:
    """Each cause and quality of the text, as a Claim whose sense is the relation and whose head is the cause
    with the scale ("t/soft"); `words` are the direction word, the cause and the quality."""
    out = []
    plain = fold(plain_from_tex(_SYMBOL.sub(r" \1 ", text)))[:4000]
    for number, sentence in enumerate(_SENTENCE_END.split(plain)):
        tokens = tokenize(sentence)
        i = 0
        while i < len(tokens):
            found = _cause(tokens, i)
            if not found:
                i += 1
                continue
            sense, head, j = found
            k = j
            while k < len(tokens) and k - j < 6 and (k == j or not tokens[k].boundary):
                if k > j and (_cause(tokens, k) or tokens[k].norm in NEGATORS):
                    break  # "higher T does not make it sharper" says no covariation
                quality = _SCALES.get(tokens[k].norm)
                if quality and not is_negated(tokens, k, frozenset()):
                    scale, end = quality
                    phrase = " ".join(t.surface for t in tokens[i : k + 1])
                    words = (tokens[i].norm, head, tokens[k].norm)
                    out.append(Claim(sense * end, f"{head}/{scale}", "", "", phrase, words, number))
                    break
                k += 1
            i = max(j, i + 1)
    return tuple(out)


def _same_cause(a: str, b: str) -> bool:
    """ "t" and "temperature": the same cause, one written as its symbol."""
    if a == b or stem(a) == stem(b):
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) == 1 and len(long_) > 3 and long_.startswith(short)


def _about(claim: Claim, other: Claim) -> bool:
    (cause, scale), (other_cause, other_scale) = claim.head.split("/"), other.head.split("/")
    return scale == other_scale and _same_cause(cause, other_cause)


def judge(answer: tuple[Claim, ...], response: str) -> tuple[int, tuple[tuple[Claim, Claim], ...]]:
    """How many of the response's covariations agree with the answer's, and those that reverse one."""
    agree, reverse = 0, []
    for claim in covariations(response):
        related = [a for a in answer if _about(claim, a)]
        if related and all(a.sense == claim.sense for a in related):
            agree += 1
        elif related and all(a.sense == -claim.sense for a in related):
            reverse.append((claim, related[0]))
    return agree, tuple(reverse)
