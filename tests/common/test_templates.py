"""The templates themselves: mistakes Django does not report but shows to every visitor."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

TEMPLATES = sorted(Path(settings.BASE_DIR, "templates").rglob("*.html"))


def test_every_short_comment_closes_on_its_own_line():
    """Django reads {# … #} only within one line: one spanning lines is printed into the page as text."""
    assert TEMPLATES
    unclosed = [
        f"{path.relative_to(settings.BASE_DIR)}:{number}"
        for path in TEMPLATES
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if line.count("{#") > line.count("#}")
    ]
    assert not unclosed, f"use {{% comment %}} for comments over several lines: {unclosed}"
