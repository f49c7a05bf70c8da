"""Shared by the deck import tests (test_import_confirmation.py, test_import_rendering.py and
test_import_matching.py): a deck file and its cards, uploading it to the admin's import page, and confirming the
checked upload by its key.
"""

from __future__ import annotations

import json
import uuid

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse


def _export(cards: list[dict], *, slug: str = "imported", title: str = "Imported") -> dict:
    return {"format": "mlcourse-deck", "version": 1, "deck": {"slug": slug, "title": title}, "cards": cards}


def _card(position: int, **fields) -> dict:
    return {
        "uid": str(uuid.UUID(int=position)), "position": position, "kind": "flashcard",
        "question": f"Question {position}: what is $\\sqrt[{position + 2}]{{x_{position}}}$?",
        "answer": f"Answer {position}", "short_answer": f"Answer {position}", "explanation": "",
        "aliases": [f"alias {position}", f"other {position}"], "distractors": [f"$y^{position}$", "Wrong"],
        "key_terms": [f"term {position}"], **fields,
    }  # fmt: skip


def _upload(client, data: dict | str, name: str = "deck.json"):
    content = data if isinstance(data, str) else json.dumps(data)
    upload = SimpleUploadedFile(name, content.encode(), content_type="application/json")
    return client.post(reverse("admin:content_deck_import"), {"file": upload})


def _confirm(client, key: str, *, follow: bool = False, **fields):
    return client.post(reverse("admin:content_deck_import"), {"confirm": "1", "key": key, **fields}, follow=follow)


def _key(page) -> str:
    return page.context["confirm"].initial["key"]
