"""TeX in a text: the segments between its delimiters ($…$, $$…$$, \\(…\\), \\[…\\]). Pure, stdlib only."""

from __future__ import annotations

import re

SEGMENT = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)


def plain_text(text: str) -> str:
    """`text` with its TeX delimiters taken away, the maths kept."""
    return SEGMENT.sub(lambda m: next(g for g in m.groups() if g is not None), text)


def tex_bodies(text: str) -> list[str]:
    """The maths inside the TeX delimiters of `text` (its first 2,000 characters)."""
    return [next(g for g in m.groups() if g is not None) for m in SEGMENT.finditer(text[:2000])]
