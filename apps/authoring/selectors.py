"""Reads for authoring."""

from __future__ import annotations

import hashlib

from apps.content.models import Deck


def deck_fingerprint(*, deck: Deck | None) -> str:
    """The deck as an import's dry run saw it, to be found so at the confirmation: its title, description and
    publication, and each card by its place and version (which every save of its content changes, its lists too).
    None: no deck has the file's slug yet."""
    digest = hashlib.sha256()
    if deck is not None:
        digest.update(repr((deck.pk, deck.title, deck.description, deck.published)).encode())
        for row in deck.cards.order_by("uid").values_list("uid", "position", "current_version_id"):
            digest.update(repr(row).encode())
    return digest.hexdigest()
