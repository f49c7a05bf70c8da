"""What a grade is: a verdict, a score from 0 to 1 and a short feedback text; and the scores between verdicts."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

CORRECT_AT = 0.75
PARTIAL_AT = 0.40
TYPO_SCORE = 0.9
HEDGE_SCORE = 0.5


class Verdict(StrEnum):
    CORRECT = "correct"
    PARTIAL = "partial"
    INCORRECT = "incorrect"


@dataclass(frozen=True)
class Grade:
    verdict: Verdict
    score: float
    feedback: str
    matched: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()


def verdict_of(score: float) -> Verdict:
    if score >= CORRECT_AT:
        return Verdict.CORRECT
    return Verdict.PARTIAL if score >= PARTIAL_AT else Verdict.INCORRECT
