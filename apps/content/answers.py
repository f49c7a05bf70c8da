"""When two texts are the same answer: one rule for the seed loader, the deck import and the card form. Pure."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable


def normal_text(text: str) -> str:
    """`text` as compared: compatibility forms, letter case and runs of whitespace do not count."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def right_answers(*, answer: str, short_answer: str = "", aliases: Iterable[str] = ()) -> frozenset[str]:
    """The card's right answers as compared (normal_text): a distractor that is one of them cannot be offered."""
    return frozenset(normal_text(text) for text in (answer, short_answer, *aliases) if text)
