"""A quality of the answer's thing said the other way: "the full budget" where the answer gives each configuration
"a small budget", "many epochs" where it has "few". Pure, stdlib only.

The answer's pairs of a scale word and the noun it qualifies (its first content word in the next two) are its claims of
degree; the response pairing that noun with a word of the opposite end of the same scale, which the answer never
pairs with it, says the opposite. Said after a negator ("not the full budget"), it agrees; a comparative ("a
bigger budget") is relative to something else, so it says neither.
"""

from __future__ import annotations

from functools import lru_cache

from .textnorm import NEGATORS, STOPWORDS, Token, stem

# Each scale: its low end and its high end. General degree words, never a card's.
_SCALES = (
    (
        {"small", "smaller", "tiny", "little", "partial", "short", "shorter"},
        {"large", "larger", "big", "bigger", "full", "huge", "long", "longer", "entire", "whole"},
    ),
    ({"few", "fewer"}, {"many", "more", "all", "every"}),
    ({"low", "lower"}, {"high", "higher"}),
    ({"narrow", "narrower"}, {"wide", "wider"}),
    ({"early", "earlier"}, {"late", "later"}),
    ({"sparse"}, {"dense"}),
    ({"coarse"}, {"fine"}),
)
# Words that relate a thing to others of its kind ("between frameworks", "a different framework"), and that say one.
VARIETY = frozenset(
    {"between", "across", "among", "amongst", "different", "another", "other", "others", "multiple", "many"}
    | {"various", "several", "any", "independent", "agnostic", "neutral", "cross", "interchangeable", "portable"}
)
ONE = frozenset({"one", "single", "specific", "particular", "only", "sole"})
_ONE_PARTS = frozenset({"specific", "dependent", "bound", "only", "locked"})  # "framework-specific"
_MORE = frozenset({"another", "other", "others", "any", "different", "multiple", "many"})
_END = {word: (scale, end) for scale, ends in enumerate(_SCALES) for end, words in enumerate(ends) for word in words}
# A comparative says more or less than something else ("give the survivors a bigger budget" where the answer
# "increases budget" from "a small budget"): only an absolute degree is said against the answer's.
_COMPARATIVES = frozenset(word for word in _END if word.endswith(("er", "est")) or word in ("more", "fewer", "less"))
# The tokenizer drops apostrophes ("doesnt"): textnorm's negators, and words that say "not this".
_NEGATORS = NEGATORS | {"without", "instead", "rather", "unlike"}
_GAP = 2  # the noun: the next word, or the one after ("a small training budget")
_BEFORE = 3  # words before a scale word that may negate it


def _nouns(words: tuple[tuple[str, bool], ...], i: int) -> list[int]:
    """Where the word a scale word at `i` qualifies is: the first content word after it, the thing itself ("student"
    of "a small student model"), not the head that other things share ("model": "a big model" may be the teacher)."""
    for j in range(i + 1, min(len(words), i + 1 + _GAP)):
        norm, boundary = words[j]
        if boundary or norm in _END:
            break
        if norm not in STOPWORDS:
            return [j]
    return []


def _negated(words: tuple[tuple[str, bool], ...], i: int) -> bool:
    return any(norm in _NEGATORS for norm, _ in words[max(0, i - _BEFORE) : i])


@lru_cache(maxsize=512)
def answer_degrees(words: tuple[tuple[str, bool], ...]) -> dict[tuple[int, str], frozenset[int]]:
    """(scale, noun stem) -> the ends of that scale the answer pairs the noun with, leaving out what it negates
    ("not all hyperparameters matter" is no claim of either end)."""
    out: dict[tuple[int, str], set[int]] = {}
    for i, (norm, _) in enumerate(words):
        if norm in _END and not _negated(words, i):
            scale, end = _END[norm]
            for j in _nouns(words, i):
                out.setdefault((scale, stem(words[j][0])), set()).add(end)
    return {key: frozenset(ends) for key, ends in out.items()}


def _ends(answer: dict[tuple[int, str], frozenset[int]], scale: int, noun: str) -> frozenset[int]:
    """The ends the answer pairs `noun` with on `scale`, or a compound of it ("minibatch" for "batch")."""
    return frozenset().union(
        *(ends for (at, said), ends in answer.items() if at == scale and (said == noun or _head(noun, said)))
    )


def _head(noun: str, compound: str) -> bool:
    return len(noun) >= 4 and len(compound) > len(noun) + 2 and compound.endswith(noun)


def opposed(answer_words: tuple[tuple[str, bool], ...], tokens: list[Token]) -> tuple[str, ...]:
    """The response's phrases that give a noun of the answer the other end of a scale: "full budget"."""
    answer = answer_degrees(answer_words)
    if not answer:
        return ()
    words = tuple((t.norm, t.boundary) for t in tokens)
    out = []
    for i, (norm, _) in enumerate(words):
        if norm not in _END or norm in _COMPARATIVES or _negated(words, i):
            continue
        scale, end = _END[norm]
        for j in _nouns(words, i):
            meant = _ends(answer, scale, stem(words[j][0]))
            if meant and end not in meant:
                out.append(" ".join(t.surface for t in tokens[i : j + 1]))
                break
    return tuple(out)


def preceded(words: tuple[tuple[str, bool], ...], j: int, among: frozenset[str], reach: int) -> bool:
    """A word of `among` comes in the `reach` words before `j`, in the same phrase."""
    for i in range(j - 1, max(-1, j - 1 - reach), -1):
        if words[i + 1][1]:
            return False
        if words[i][0] in among:
            return True
    return False


@lru_cache(maxsize=512)
def answer_several(words: tuple[tuple[str, bool], ...]) -> frozenset[str]:
    """The stems of the things the answer relates several of ("between different ML frameworks") and never says
    one of."""
    several = {
        stem(n) for j, (n, _) in enumerate(words) if n not in STOPWORDS | VARIETY and preceded(words, j, VARIETY, 3)
    }
    one = {stem(n) for j, (n, _) in enumerate(words) if preceded(words, j, ONE, 2)}
    return frozenset(several - one)


def one_of(tokens: list[Token], words: tuple[tuple[str, bool], ...], j: int, several: frozenset[str]) -> str:
    """The phrase saying one of the thing at `j` ("a single framework", "framework-specific"), if the response
    (`tokens`, and `words` of them) says one of it and the answer several; "" when it does not, or denies it ("not
    tied to one framework"), or goes on to another ("from one framework to another", "from one framework, run in
    another")."""
    token = tokens[j]
    compound = any(stem(p) in several for p in token.parts) and bool(_ONE_PARTS & set(token.parts))
    if not compound and not (stem(token.norm) in several and preceded(words, j, ONE, 2)):
        return ""
    start = j if compound else next(i for i in range(j - 1, -1, -1) if words[i][0] in ONE)
    # "from one framework to another", and "one ..., another" over the next clause ("from one framework, run in
    # another"), as far as the other is "another": "... a single framework. Other formats do not" still says one.
    ends = [k for k in range(j + 1, len(tokens)) if tokens[k].boundary][:2] + [len(tokens)] * 2
    clause, following = tokens[j + 1 : ends[0]], tokens[ends[0] : ends[1]]
    if _negated(words, start) or any(t.norm in _MORE for t in clause) or any(t.norm == "another" for t in following):
        return ""
    return " ".join(t.surface for t in tokens[start : j + 1])


def said_one(answer_words: tuple[tuple[str, bool], ...], tokens: list[Token]) -> tuple[str, ...]:
    """The response's phrases that say one of what the answer relates several of: "a single framework"."""
    several = answer_several(answer_words)
    words = tuple((t.norm, t.boundary) for t in tokens)
    found = (one_of(tokens, words, j, several) for j in range(len(tokens))) if several else ()
    return tuple(phrase for phrase in found if phrase)
