"""templates/admin/edit_inline/tabular.html is Django's own with hidden labels added: it must stay so.

Django gives the template no blocks to extend, so the project keeps a copy. When an upgrade changes
Django's version, this fails, and the copy is redone from the new one instead of silently serving the
old admin markup.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import django

UPSTREAM = Path(django.__file__).parent / "contrib/admin/templates/admin/edit_inline/tabular.html"
FORK = Path(__file__).resolve().parents[2] / "templates/admin/edit_inline/tabular.html"
# The one upstream line the fork rewrites rather than adds to: the delete checkbox gets its label.
REWRITTEN = '<td class="delete">{% if inline_admin_formset.formset.can_delete'


def _without_header(text: str) -> list[str]:
    head, marker, rest = text.partition("{% endcomment %}")
    return (rest if marker and head.startswith("{% comment %}") else text).splitlines()


def test_fork_differs_from_djangos_only_by_hidden_labels():
    upstream = UPSTREAM.read_text().splitlines()
    fork = _without_header(FORK.read_text())
    removed, added = [], []
    for line in difflib.ndiff(upstream, fork):
        if line.startswith("- "):
            removed.append(line[2:].strip())
        elif line.startswith("+ "):
            added.append(line[2:].strip())
    assert all(line.startswith(REWRITTEN) for line in removed), removed
    assert len(removed) <= 1
    assert added, "the fork adds nothing: delete it and let Django's template serve"
    assert all('class="visually-hidden"' in line for line in added), added
