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

from rapidfuzz import fuzz

from .textnorm import STOPWORDS, fold, stem, tokenize

OPTION_COUNT = 4


@dataclass(frozen=True)
class Option:
    text: str  # plain text, for similarity and for storing what was chosen
    html: str  # what the student sees
    topic: str = ""  # the card's question and answer: what the option is about, beyond its wording


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _words(option: Option) -> Counter[str]:
    tokens = tokenize(fold(option.topic or option.text))
    # "systolic-array" is about what "systolic array" is about.
    return Counter(stem(word) for t in tokens if t.norm not in STOPWORDS for word in t.parts or (t.norm,))


def _topic_similarity(options: list[Option]) -> list[float]:
    """Cosine of TF-IDF vectors between options[0] and each option: words most cards share count little."""
    bags = [_words(option) for option in options]
    documents = Counter(word for bag in bags for word in bag)
    idf = {word: math.log(len(bags) / count) + 1 for word, count in documents.items()}

    def vector(bag: Counter[str]) -> dict[str, float]:
        weights = {word: (1 + math.log(n)) * idf[word] for word, n in bag.items()}
        norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
        return {word: w / norm for word, w in weights.items()}

    vectors = [vector(bag) for bag in bags]
    first = vectors[0]
    return [sum(w * first.get(word, 0.0) for word, w in v.items()) for v in vectors]


def _plausibility(right: str, other: str, topic: float) -> float:
    wording = fuzz.token_set_ratio(right, other, processor=_key) / 100
    shorter, longer = sorted((len(right), len(other)))
    return topic * 0.5 + wording * 0.3 + (shorter / max(longer, 1)) * 0.2


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
    topics = _topic_similarity([right, *pool])[1:]
    scored = [
        (-_plausibility(right.text, option.text, topic), option.text, i)
        for i, (option, topic) in enumerate(zip(pool, topics, strict=True))
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
