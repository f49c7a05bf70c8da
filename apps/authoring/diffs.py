"""Readable word-level diffs between two versions of a card. Pure: dicts in, safe HTML out."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString

LABELS = {
    "kind": "Kind",
    "question": "Question",
    "answer": "Answer",
    "short_answer": "Short answer",
    "explanation": "Explanation",
    "archived": "Archived",
    "aliases": "Accepted answers",
    "distractors": "Distractors",
    "key_terms": "Key terms",
}


@dataclass(frozen=True)
class FieldChange:
    label: str
    html: SafeString


def _words(text: str) -> list[str]:
    return re.findall(r"\s+|[^\s]+", text)


def _join(pieces: list[SafeString]) -> SafeString:
    return format_html_join("", "{}", ((piece,) for piece in pieces))


def text_diff(old: str, new: str) -> SafeString:
    """`old` and `new` interleaved, removed words in <del>, added ones in <ins>."""
    a, b = _words(old), _words(new)
    pieces = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op in {"delete", "replace"}:
            pieces.append(format_html("<del>{}</del>", "".join(a[i1:i2])))
        if op in {"insert", "replace"}:
            pieces.append(format_html("<ins>{}</ins>", "".join(b[j1:j2])))
        if op == "equal":
            pieces.append(conditional_escape("".join(a[i1:i2])))
    return _join(pieces)


def _list_diff(old: list[str], new: list[str]) -> SafeString:
    removed = [format_html("<li><del>{}</del></li>", item) for item in old if item not in new]
    added = [format_html("<li><ins>{}</ins></li>", item) for item in new if item not in old]
    return format_html("<ul>{}</ul>", _join(removed + added))


def version_changes(old: dict | None, new: dict) -> list[FieldChange]:
    """What changed from `old` to `new`; for the first version, every field that has content."""
    changes = []
    for name, label in LABELS.items():
        before = old.get(name) if old else None
        after = new.get(name)
        if before == after or (old is None and after in ("", [], False, None)):
            continue
        if isinstance(after, list) or isinstance(before, list):
            html = _list_diff(before or [], after or [])
        elif isinstance(after, bool) or isinstance(before, bool):
            html = conditional_escape("yes" if after else "no")
        else:
            html = text_diff(before or "", after or "")
        changes.append(FieldChange(label, html))
    return changes
