"""Markup for messages and form errors built in Python rather than in a template."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString


def bdi(text: object) -> SafeString:
    """`text` escaped and isolated: a name someone wrote (a cohort's, a deck's title) may hold right-to-left
    letters or a U+202E override, which would otherwise reorder the words of the message around it."""
    return format_html("<bdi>{}</bdi>", text)


def html_join(separator: str, parts: Iterable[object]) -> SafeString:
    """The parts joined as str.join would, each escaped unless it is markup already (a bdi(), a format_html())."""
    return format_html_join(separator, "{}", ((part,) for part in parts))
