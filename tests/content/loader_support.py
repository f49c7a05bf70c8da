"""Shared by the seed loader tests (test_loader_parsing.py and test_loader_command.py): the seed files, a copy
of the flashcard seed beside its distractors sidecar, a run of load_content, and texts both files parse.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management import call_command

from apps.content.loader import distractors_path

FIXTURES = Path(settings.BASE_DIR) / "fixtures"
FLASHCARDS = FIXTURES / "technology-digital-tools-flashcards.txt"
SYLLABUS = FIXTURES / "deep-learning-frameworks-production-syllabus.txt"


def _seed_copy(tmp_path: Path, text: str, *, edit=lambda text: text) -> Path:
    """The flashcard seed as `text` in tmp_path, beside its distractors sidecar (with `edit` applied to it)."""
    copy = tmp_path / FLASHCARDS.name
    copy.write_text(text)
    distractors_path(copy).write_text(edit(distractors_path(FLASHCARDS).read_text()))
    return copy


def _load(*files, **options) -> str:
    from io import StringIO

    out = StringIO()
    call_command("load_content", *map(str, files), stdout=out, stderr=out, **options)
    return out.getvalue()


LONG = "a" * 25_312


# A fence or a display formula may hold blank lines: they are part of its block, not the end of it.
FENCED_ANSWER = (
    "Deck\n\nHow do you show x?\n\nAnswer: Use print:\n```\nx = 1\n\nprint(x)\n```\n\nprint writes to stdout.\n"
)
