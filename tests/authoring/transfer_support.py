"""Shared by the export_deck / import_deck tests (test_transfer_*.py): a deck exported by the command, a file
imported by it, and a database emptied of decks and cards.
"""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command

from apps.content.models import Card, CardVersion, Deck


def _export(slug: str, fmt: str) -> str:
    out = StringIO()
    call_command("export_deck", slug, "--format", fmt, stdout=out)
    return out.getvalue()


def _import(tmp_path, text: str, name: str, *args) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    out = StringIO()
    call_command("import_deck", str(path), *args, stdout=out)
    return out.getvalue()


def _wipe() -> None:
    CardVersion.objects.all().delete()
    Card.objects.all().delete()
    Deck.objects.all().delete()
