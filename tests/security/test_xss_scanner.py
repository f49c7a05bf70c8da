"""The XSS tests' own premises: the scanner reports the raw payloads as markup (so the page checks pass only
because markup is neutralised, not because the scanner is blind), and the payload list is long and has no
repeats. The payloads and the scanner live in tests/security/xss.py.
"""

from __future__ import annotations

import re

import pytest

from tests.security.xss import (
    PAYLOADS,
    scan,
)

pytestmark = pytest.mark.django_db


def test_the_scanner_sees_raw_payloads():
    """The checks below pass only if markup is neutralised, not because the scanner is blind."""
    # Not markup on their own: Markdown and TeX need rendering first, and a few target naive filters
    # ("<scr<script>ipt>" is a harmless element until a filter strips the inner tag once).
    # "<img src=`x`onerror=…>" relied on old Internet Explorer treating backticks as quotes.
    inert_raw = ("[", "!", "<javascript", "<![CDATA", "<scr<", "<img src=`", "$", "`", "&")
    raw_markup = [p for p in PAYLOADS if re.search(r"<\s*\w", p) and not p.startswith(inert_raw)]
    missed = [p for p in raw_markup if not scan(p).problems]
    assert not missed, missed
    assert len(raw_markup) >= 40
    assert scan("<p>{{1337*1337}} is 1787569</p>").problems
    assert not scan('<script src="/static/js/quiz.js" defer></script><a href="/x">x</a>').problems


def test_there_are_enough_payloads():
    assert len(PAYLOADS) >= 30
    assert len(set(PAYLOADS)) == len(PAYLOADS)
