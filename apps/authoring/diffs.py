"""Readable word-level diffs between two versions of a card. Pure: dicts in, safe HTML out."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from html import escape

from django.utils.safestring import SafeString, mark_safe

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


def text_diff(old: str, new: str) -> SafeString:
    """`old` and `new` interleaved, removed words in <del>, added ones in <ins>."""
    a, b = _words(old), _words(new)
    parts = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op in {"delete", "replace"}:
            parts.append(f"<del>{escape(''.join(a[i1:i2]))}</del>")
        if op in {"insert", "replace"}:
            parts.append(f"<ins>{escape(''.join(b[j1:j2]))}</ins>")
        if op == "equal":
            parts.append(escape("".join(a[i1:i2])))
    return mark_safe("".join(parts))  # noqa: S308 - every piece is escaped above


def _list_diff(old: list[str], new: list[str]) -> SafeString:
    removed = [f"<li><del>{escape(item)}</del></li>" for item in old if item not in new]
    added = [f"<li><ins>{escape(item)}</ins></li>" for item in new if item not in old]
    return mark_safe(f"<ul>{''.join(removed + added)}</ul>")  # noqa: S308 - items escaped


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
            html = mark_safe("yes" if after else "no")  # noqa: S308 - a constant
        else:
            html = text_diff(before or "", after or "")
        changes.append(FieldChange(label, html))
    return changes
