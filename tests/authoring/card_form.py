"""Shared by the card form tests (test_card_form_*.py) and test_card_saves.py: the admin card form's POST data
for a card, and the alias and distractor inline rows to add to it.
"""

from __future__ import annotations

from apps.content.models import Card
from apps.content.services import card_mark


def _form_data(card: Card, **changes) -> dict:
    """The form as the admin sends it for the card as stored now (a stored card's loaded_version too)."""
    data = {
        "loaded_version": card_mark(Card.objects.get(pk=card.pk)) if card.pk else "",
        "deck": card.deck_id, "position": card.position, "kind": card.kind, "question": card.question,
        "answer": card.answer, "short_answer": card.short_answer, "explanation": card.explanation,
        **{f"{prefix}-{k}": v for prefix in ("aliases", "distractors", "key_terms")
           for k, v in {"TOTAL_FORMS": 0, "INITIAL_FORMS": 0, "MIN_NUM_FORMS": 0, "MAX_NUM_FORMS": 1000}.items()},
    }  # fmt: skip
    data.update(changes)
    return data


def _aliases(*texts: str) -> dict:
    return {"aliases-TOTAL_FORMS": len(texts), **{f"aliases-{i}-text": text for i, text in enumerate(texts)}}


def _distractors(*texts: str) -> dict:
    return {
        "distractors-TOTAL_FORMS": len(texts),
        **{f"distractors-{i}-text": text for i, text in enumerate(texts)},
        **{f"distractors-{i}-position": i for i in range(len(texts))},
    }
