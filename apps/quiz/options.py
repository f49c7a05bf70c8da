"""Multiple-choice options: the right answer and three plausible distractors. Pure: no ORM.

Authored distractors come first. The rest are other cards' answers, ranked by how
plausible they are: cards on the same topic (the words of question and answer, weighted
by how rare they are in the deck), answers worded like the right one (rapidfuzz), and of
similar length, so that no option stands out by subject or by shape alone.
"""

from __future__ import annotations

import math
import random
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

from .textnorm import STOPWORDS, fold, stem, tokenize

OPTION_COUNT = 4


@dataclass(frozen=True)
class Option:
    text: str  # plain text, for similarity and for storing what was chosen
    html: str  # what the student sees
    topic: str = ""  # the card's question and answer: what the option is about, beyond its wording


@lru_cache(maxsize=8192)
def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


# Cached across sessions: a deck's cards are tokenized once per worker, not at every session start.
@lru_cache(maxsize=4096)
def _words(text: str) -> Counter[str]:
    tokens = tokenize(fold(text))
    # "systolic-array" is about what "systolic array" is about.
    return Counter(stem(word) for t in tokens if t.norm not in STOPWORDS for word in t.parts or (t.norm,))


class Topics:
    """TF-IDF vectors of a deck's options (question and answer), built once for all of a session's questions:
    words that most cards share count little."""

    def __init__(self, options: list[Option]) -> None:
        bags = {option.topic or option.text: _words(option.topic or option.text) for option in options}
        documents = Counter(word for bag in bags.values() for word in bag)
        self.idf = {word: math.log(len(bags) / count) + 1 for word, count in documents.items()}
        self.vectors = {text: self._vector(bag) for text, bag in bags.items()}

    def _vector(self, bag: Counter[str]) -> dict[str, float]:
        weights = {word: (1 + math.log(n)) * self.idf.get(word, 1.0) for word, n in bag.items()}
        norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
        return {word: w / norm for word, w in weights.items()}

    def vector(self, option: Option) -> dict[str, float]:
        text = option.topic or option.text
        return self.vectors.get(text) or self._vector(_words(text))

    def similarity(self, first: dict[str, float], option: Option) -> float:
        """Cosine between a vector and an option's."""
        other = self.vector(option)
        return sum(w * other.get(word, 0.0) for word, w in first.items())


def _plausibility(right: str, other: str, topic: float) -> float:
    wording = fuzz.token_set_ratio(_key(right), _key(other)) / 100
    shorter, longer = sorted((len(right), len(other)))
    return topic * 0.5 + wording * 0.3 + (shorter / max(longer, 1)) * 0.2


def options_build(
    *, right: Option, authored: list[Option], pool: list[Option], rng: random.Random, topics: Topics | None = None
) -> tuple[list[Option], int] | None:
    """Four options in display order and the index of the right one, or None if too few candidates.

    `topics`: the deck's, when building several questions from one pool; else built from this pool.
    """
    chosen: list[Option] = []
    seen = {_key(right.text)}
    for option in authored:
        if len(chosen) < OPTION_COUNT - 1 and _key(option.text) not in seen:
            chosen.append(option)
            seen.add(_key(option.text))
    topics = topics or Topics([right, *pool])
    mine = topics.vector(right)
    scored = [
        (-_plausibility(right.text, option.text, topics.similarity(mine, option)), option.text, i)
        for i, option in enumerate(pool)
    ]
    ranked = [pool[i] for *_, i in sorted(scored)]
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
