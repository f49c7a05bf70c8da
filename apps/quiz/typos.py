"""When a written word is a misspelling of an expected one rather than another word. Pure: stdlib + rapidfuzz."""

from __future__ import annotations

from rapidfuzz.distance import OSA

from .textnorm import DEGREE, STOPWORDS, listed_apart


def typo_budget(word: str) -> int:
    return 0 if len(word) <= 3 else 1 if len(word) <= 8 else 2


def is_typo(candidate: str, target: str) -> bool:
    """`candidate` reads as a misspelling of `target` rather than another word built from it."""
    if candidate == target or not candidate or candidate[0] != target[0] or listed_apart(candidate, target):
        return False
    if candidate in STOPWORDS or candidate in DEGREE:  # words of their own: "less" is not a slip for "loss"
        return False
    if any(c.isdigit() for c in candidate) or any(c.isdigit() for c in target):
        return False
    if _struck_twice(candidate, target) or _swapped(candidate, target):
        return True
    budget = typo_budget(target)
    if budget == 0 or abs(len(candidate) - len(target)) > budget:
        return False
    # "cronjob"/"job", "dataparallel"/"distributeddataparallel": a word inside another is a different term.
    if (candidate in target or target in candidate) and not (len(target) >= 7 and len(candidate) >= len(target) - 1):
        return False
    return OSA.distance(candidate, target, score_cutoff=budget) <= budget


def _struck_twice(candidate: str, target: str) -> bool:
    # The commonest slip, a consonant key struck twice ("jobb"), is still a typo in a word too short for any
    # other. Not a vowel: "feed" is not "fed".
    return (
        len(target) >= 3
        and len(candidate) == len(target) + 1
        and any(
            candidate[i] == candidate[i - 1]
            and candidate[i] not in "aeiouy"
            and candidate[:i] + candidate[i + 1 :] == target
            for i in range(1, len(candidate))
        )
    )


def _swapped(candidate: str, target: str) -> bool:
    # Two neighbouring keys in the wrong order ("Jbo"): the same letters, so still a slip in a three-letter word,
    # where a changed letter is too much ("Jab" is not "Job").
    return (
        len(target) == 3
        and len(candidate) == 3
        and any(
            candidate[:i] + candidate[i + 1] + candidate[i] + candidate[i + 2 :] == target
            for i in range(1, len(candidate) - 1)
        )
    )
