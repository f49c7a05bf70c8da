"""Multiple-choice options: the right answer and three plausible distractors. Pure: no ORM.

Authored distractors come first. The rest are other cards' answers, the ones most
similar to the right answer (token overlap, rapidfuzz) and of similar length, so
that no option stands out by shape alone.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz

OPTION_COUNT = 4


@dataclass(frozen=True)
class Option:
    text: str  # plain text, for similarity and for storing what was chosen
    html: str  # what the student sees


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _plausibility(right: str, other: str) -> float:
    similarity = fuzz.token_set_ratio(right, other, processor=_key) / 100
    shorter, longer = sorted((len(right), len(other)))
    return similarity * 0.7 + (shorter / max(longer, 1)) * 0.3


def options_build(
    *, right: Option, authored: list[Option], pool: list[Option], rng: random.Random
) -> tuple[list[Option], int] | None:
    """Four options in display order and the index of the right one, or None if too few candidates."""
    chosen: list[Option] = []
    seen = {_key(right.text)}
    for option in authored:
        if len(chosen) < OPTION_COUNT - 1 and _key(option.text) not in seen:
            chosen.append(option)
            seen.add(_key(option.text))
    ranked = sorted(pool, key=lambda option: (-_plausibility(right.text, option.text), option.text))
    for option in ranked:
        if len(chosen) == OPTION_COUNT - 1:
            break
        if _key(option.text) not in seen:
            chosen.append(option)
            seen.add(_key(option.text))
    if len(chosen) < OPTION_COUNT - 1:
        return None
    options = [right, *chosen]
    rng.shuffle(options)
    return options, options.index(right)
