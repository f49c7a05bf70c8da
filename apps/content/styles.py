"""Which version of the content stylesheet pages link, without a query per page.

The stylesheet (/styles/content.css) holds the rules that stand in for KaTeX's inline styles. Its URL
carries the rules' version (?v=), so a browser keeps it for good and asks again only when a rule is added.
Each process remembers the version its last stylesheet response saw, for a minute, and links the plain URL
(revalidated on every use) while it knows none. Rules are only ever added, so a version's CSS stays right
for the pages that linked it. Adding rules makes this process forget the version at once; other processes
may link the previous one, without the newest rules, for up to a minute.
"""

from __future__ import annotations

import time
from urllib.parse import urlencode

from django.db import transaction
from django.urls import reverse

VERSION_TTL = 60.0
_seen: tuple[str, float] | None = None  # (version, time.monotonic() when seen)


def styles_url() -> str:
    url = reverse("content:styles")
    seen = _seen
    if seen is None or time.monotonic() - seen[1] > VERSION_TTL:
        return url
    return f"{url}?{urlencode({'v': seen[0]})}"


def version_remember(version: str | None) -> None:
    global _seen
    _seen = None if version is None else (version, time.monotonic())


def version_forget() -> None:
    """Rules were added: link the plain URL until a stylesheet response sees the new version.

    Again once the transaction commits, in case a stylesheet request meanwhile saw the version from before.
    """
    version_remember(None)
    transaction.on_commit(lambda: version_remember(None))
