"""A deck's slug is its address (/decks/<slug>/) and its key in export files: one rule for every path that writes
it (the admin's form, the import, the seed loader) and a database constraint behind them, so that every deck
exports to a file that imports again."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.text import slugify

SLUG_RULE = (
    "may contain only lowercase letters, digits, hyphens and underscores, beginning and ending with a letter or digit"
)
# The same rule in SQL: what slugify leaves as it is (no capital, space or other sign, no "--", no "-" or "_" at
# either end).
SLUG_CHECK = Q(slug__regex=r"^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$") & ~Q(slug__contains="--")


def slug_problem(slug: str) -> str | None:
    """What is wrong with `slug` as a deck's, with one that would do; None when nothing is (an empty slug too, which
    its callers refuse as missing)."""
    fixed = slugify(slug)
    if fixed == slug:
        return None
    return f"{SLUG_RULE}: “{fixed}” would do" if fixed else SLUG_RULE


def validate_deck_slug(value: str) -> None:
    if problem := slug_problem(value):
        raise ValidationError("A slug %(problem)s.", code="slug", params={"problem": problem})
