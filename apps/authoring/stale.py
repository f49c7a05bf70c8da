"""What an instructor is told when the card behind their page was saved since the page was made: who saved which
version, and when, in the reader's time zone, as the card's list of versions says it."""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format

from apps.content.selectors import card_versions_since
from apps.content.services import CardChangedError


def _when(moment) -> str:
    return date_format(timezone.localtime(moment), "j M Y, H:i T")


def card_changes_said(error: CardChangedError, *, reader) -> str:
    """Who saved the card since the page was made, which version and when ("dana saved version 6 at 5 Dec 2026,
    14:02 UTC"); "you" for `reader`."""
    versions = card_versions_since(card=error.card, version_id=error.seen)
    if not versions:  # a move to another place or deck, which versions do not record
        return f"it was saved at {_when(error.card.updated_at)}"
    names = []
    for version in versions:
        if version.author_id is not None and version.author_id == getattr(reader, "pk", None):
            name = "you"
        else:
            # The versions list names a version saved without an author (load_content, import_deck) so too.
            name = version.author.get_username() if version.author else "the loader"
        if name not in names:
            names.append(name)
    who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    first, last = versions[0], versions[-1]
    numbers = f"version {last.number}" if first == last else f"versions {first.number} to {last.number}, the last"
    said = f"{who} saved {numbers} at {_when(last.created_at)}"
    # Most often a second click on Save, whose first click saved what this one sends.
    return f"{said}, in another tab or by a second click on Save" if names == ["you"] else said
