"""Letter case as the database sees it: texts a case-insensitive constraint would refuse as one (accepted
answers), found with PostgreSQL's own lower(), for the card form and the deck import alike."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection


def db_lower(texts: Sequence[str]) -> list[str]:
    """Each text as PostgreSQL's lower() has it, in one query.

    The alias constraint (UniqueConstraint(Lower("text"), "card")) compares with PostgreSQL's lower(), which
    differs from str.lower(): 'İ'.lower() is 'i' + a combining dot in Python, plain 'i' in PostgreSQL. Alias.text
    has the database's default collation, and so do these texts. They must hold no NUL (checked before).
    """
    if not texts:
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT lower(t) FROM unnest(%s::text[]) WITH ORDINALITY AS u(t, i) ORDER BY i", [list(texts)])
        return [row[0] for row in cursor.fetchall()]


def case_clashes(groups: Sequence[Sequence[str]]) -> list[tuple[int, str, str]]:
    """For each group the database would refuse, (its index, the first text, the later one it clashes with).

    Two texts clash when PostgreSQL's lower() makes them equal. One query for all the groups.
    """
    lowered = iter(db_lower([text for group in groups for text in group]))
    clashes = []
    for index, group in enumerate(groups):
        seen: dict[str, str] = {}
        clash = None
        for text in group:
            key = next(lowered)
            if clash is None and key in seen:
                clash = (index, seen[key], text)
            seen.setdefault(key, text)
        if clash is not None:
            clashes.append(clash)
    return clashes
