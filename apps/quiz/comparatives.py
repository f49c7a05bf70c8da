"""Comparatives in a comparison of two things: "A is faster than B" says what "B is slower than A" says. Pure,
stdlib only.

The two things are the question's (roles.subjects: "DataParallel (DP) and DistributedDataParallel (DDP)"; or "How
does BF16 differ from FP16?"). A
comparative ("faster", "more accurate", "a wider dynamic range", "lower precision than FP16", "a larger accuracy
loss") is a claim about the thing its clause names, or else the last one its sentence named; between two things it
is relative, so it is read as said of the first thing: "DP is slower" is "DDP is faster" is (speed, + for DDP). A
negator or "lose" just before it ("not faster", "can lose more accuracy") turns it round, and so does "loss" or
"drop" after its quality ("a larger accuracy loss" is lower accuracy); after "to" it is a purpose, no claim ("needs
special libraries to get faster"). A response's comparative agrees with the answer's on the same quality in the
same direction, and contradicts it the other way round ("QAT is faster than PTQ" where PTQ is fast).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .roles import subjects
from .targets import NEGATORS
from .textnorm import FILLER, STOPWORDS, Token, fold, is_generic, tokenize

# A comparative whose word is its own quality: speed.
_SPEED = {"faster": 1, "quicker": 1, "fast": 1, "quick": 1, "speedier": 1, "slower": -1, "slow": -1}
# Comparatives of the quality named next: "more accurate", "higher accuracy", "a wider dynamic range".
_MORE = frozenset(["more", "higher", "greater", "larger", "bigger", "wider", "better"])
_LESS = frozenset(["less", "lower", "smaller", "narrower", "fewer", "worse"])
# Words of speed after "more"/"less": "more efficient" is faster.
_SPEED_WORDS = frozenset(["efficient", "efficiently", "fast", "quick", "speedy"])
_TURNS = frozenset(["loss", "losses", "drop", "drops", "degradation"])  # "a larger accuracy loss": lower accuracy
_LOSE = frozenset(["lose", "loses", "losing", "lost", "sacrifice", "sacrifices", "sacrificing"])
_STOPS = frozenset({"than", "as", "because", "so", "but", "and", "while", "whereas", "which", "that"})
# "How does BF16 differ from FP16?": two things roles.subjects does not read (it reads coordinations).
_DIFFER = re.compile(r"\b([A-Za-z][\w-]{1,30})\s+(?:differs?|different)\s+from\s+([A-Za-z][\w-]{1,30})", re.IGNORECASE)
_QUALITY_WORDS = 2  # the content words after a comparative that may name its quality ("dynamic range")


@dataclass(frozen=True)
class Comparison:
    qualities: frozenset[str]  # prefixes of the words naming the quality: {"dynam", "range"}
    sign: int  # +1: the first thing has more of it; -1: less
    phrase: str  # as written, for feedback
    word: str = ""  # the comparative, normalised: "faster", "more"
    label: str = ""  # the comparative and its quality as written: "wider dynamic range", for feedback


@lru_cache(maxsize=512)
def things(question: str) -> tuple[frozenset[str], ...]:
    """The two things the question compares, each as the set of its names; () when none."""
    found = subjects(question)
    if found or not (match := _DIFFER.search(question)):
        return found
    first, second = (tokenize(fold(name)) for name in match.groups())
    if len(first) != 1 or len(second) != 1 or first[0].norm == second[0].norm:
        return ()
    return frozenset({first[0].norm}), frozenset({second[0].norm})


def _key(word: str) -> str:
    return word[:5]


def _mentions(token: Token, names: frozenset[str]) -> bool:
    forms = {token.norm, *token.parts}
    return any(f.rstrip("s") == n.rstrip("s") for f in forms for n in names if f)


def _side(token: Token, names: tuple[frozenset[str], ...]) -> int:
    return next((side for side, n in enumerate(names) if _mentions(token, n)), -1)


def _quality(tokens: list[Token], start: int) -> tuple[frozenset[str], int, int]:
    """The words naming the quality after a comparative, -1 when "loss" or "drop" follows them, and where they
    end."""
    words, sign, end = [], 1, start
    for position, token in enumerate(tokens[start : start + _QUALITY_WORDS + 1], start):
        if (token.boundary and words) or token.norm in _STOPS:
            break
        if token.norm in _TURNS:
            sign, end = -1, position + 1
            break
        if token.norm in STOPWORDS or token.norm in FILLER or is_generic(token.norm) or len(token.norm) < 3:
            if words:
                break
            continue
        if len(words) < _QUALITY_WORDS:
            words.append(_key(token.norm))
            end = position + 1
    return frozenset(words), sign, end


@lru_cache(maxsize=1024)
def comparisons(names: tuple[frozenset[str], ...], text: str) -> tuple[Comparison, ...]:
    """The comparatives of `text` between the two things (`names`, see `things`), each as said of the first."""
    if not names:
        return ()
    out: list[Comparison] = []
    for sentence in fold(text)[:4000].replace(";", ".").split(". "):
        tokens = tokenize(sentence)
        side = -1
        for i, token in enumerate(tokens):
            named = _side(token, names)
            if named >= 0 and not (i and tokens[i - 1].norm == "than"):
                side = named
                continue
            if side < 0:
                continue
            sign, qualities, end = 0, frozenset(), i + 1
            if token.norm in _SPEED:
                sign, qualities = _SPEED[token.norm], frozenset({"speed"})
            elif token.norm in _MORE or token.norm in _LESS:
                sign = 1 if token.norm in _MORE else -1
                following = tokens[i + 1].norm if i + 1 < len(tokens) else ""
                if following in _SPEED_WORDS:
                    qualities, end = frozenset({"speed"}), i + 2
                else:
                    qualities, turn, end = _quality(tokens, i + 1)
                    sign *= turn
            if not sign or not qualities:
                continue
            # The two words before it, in its own clause: "no retraining, quick" is no "not quick".
            window = [] if token.boundary else tokens[max(0, i - 2) : i]
            while len(window) > 1 and any(t.boundary for t in window[1:]):
                window = window[1:]
            before = {t.norm for t in window}
            if "to" in before:  # a purpose, no claim: "need special libraries to get faster"
                continue
            if before & NEGATORS or before & _LOSE:  # "not faster", "can lose more accuracy"
                sign = -sign
            phrase = " ".join(t.surface for t in tokens[max(0, i - 3) : i + 3])
            label = " ".join(t.surface for t in tokens[i:end])
            out.append(Comparison(qualities, sign if side == 0 else -sign, phrase, token.norm, label))
    return tuple(out)


def judged(
    answer: tuple[Comparison, ...], response: tuple[Comparison, ...]
) -> tuple[tuple[str, ...], tuple[Comparison, ...]]:
    """The answer's comparatives that the response's agree with (their labels), and the response's comparatives
    that say the opposite."""
    agree, wrong = [], []
    for said in response:
        same = [meant for meant in answer if meant.qualities & said.qualities]
        if right := [meant.label for meant in same if meant.sign == said.sign]:
            agree.append(right[0])
        elif same:
            wrong.append(said)
    return tuple(dict.fromkeys(agree)), tuple(wrong)


def unsaid(wrong: tuple[Comparison, ...], faults: list[str]) -> tuple[str, ...]:
    """The phrases of `wrong` comparatives that no fault found otherwise (`faults`, as written) already holds."""
    words = {token.norm for fault in faults for token in tokenize(fold(fault))}
    return tuple(c.phrase for c in wrong if c.word not in words)
