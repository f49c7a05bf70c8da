"""Stored XSS and CSV formula injection in the instructor's tools: the CSV exports neutralise formulas, the
admin pages (change lists, forms, previews, the grader, users with payload names) show payloads only as text, and
the deck import's dry-run report does too. The world is built once per module inside a transaction that is rolled
back at the end.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse

from apps.content.answers import normal_text
from apps.content.models import CardVersion, Deck
from apps.quiz.models import CardReport
from tests.security.xss import (
    FORMULA_STARTS,
    HTMX,
    PAYLOADS,
    USERNAMES,
    Report,
    _build_world,
    _client,
)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield _build_world()
        transaction.set_rollback(True)


pytestmark = pytest.mark.django_db


def _csv_problems(response, where: str) -> list[str]:
    assert response.status_code == 200, where
    assert response["Content-Type"].startswith("text/csv"), where
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    problems = []
    for number, row in enumerate(rows, 1):
        for cell in row:
            if cell.startswith(FORMULA_STARTS) and not re.fullmatch(r"-?\d+(\.\d+)?", cell):
                problems.append(f"{where} row {number}: {cell[:60]!r}")
    return problems


def test_csv_exports_neutralise_formulas(world):
    client = _client(world.instructor)
    matrix = client.get(reverse("cohorts:export_matrix", args=[world.cohort.pk]))
    items = client.get(reverse("cohorts:export_items", args=[world.cohort.pk]))
    problems = _csv_problems(matrix, "matrix.csv") + _csv_problems(items, "items.csv")
    assert not problems, "\n".join(problems)
    # The neutralised cells are still there, prefixed, so nothing was silently dropped.
    matrix_text, items_text = matrix.content.decode(), items.content.decode()
    for name in USERNAMES:
        assert ("'" + name if name.startswith(FORMULA_STARTS) else name) in matrix_text
    assert "'=HYPERLINK(" in items_text and "'@SUM(1+1)" in items_text and "'+cmd|" in items_text
    assert "<script>alert(1)</script>" in items_text  # CSV is not HTML: text stays as typed


def test_admin_pages(world):
    report = Report()
    client = _client(world.instructor)
    report.check(client.get(reverse("admin:index")), "admin index")
    cards_url = reverse("admin:content_card_changelist")
    report.check(client.get(cards_url), "card change list")
    for payload in PAYLOADS[::5]:
        report.check(client.get(cards_url, {"q": payload}), f"card search {payload[:30]!r}")
    report.check(client.get(reverse("admin:content_deck_changelist")), "deck change list")
    report.check(client.get(reverse("admin:quiz_cardreport_changelist")), "card reports")
    for card_report in CardReport.objects.all():
        report.check(
            client.get(reverse("admin:quiz_cardreport_change", args=[card_report.pk])), f"report {card_report.pk}"
        )
    for deck, card in zip(world.decks, world.cards, strict=True):
        change = reverse("admin:content_card_change", args=[card.pk])
        report.check(client.get(change), f"card form {deck.slug}")
        report.check(client.get(reverse("admin:content_deck_change", args=[deck.pk])), f"deck form {deck.slug}")
        version = CardVersion.objects.filter(card=card).order_by("-number").first()
        report.check(client.get(reverse("admin:content_cardversion_change", args=[version.pk])), f"version {deck.slug}")
    report.assert_clean(minimum_pages=3 * len(PAYLOADS))


def test_admin_preview_and_grader(world):
    report = Report()
    client = _client(world.instructor)
    preview_url = reverse("admin:content_card_preview")
    for payload, card in zip(PAYLOADS, world.cards, strict=True):
        fields = {"question": payload, "answer": payload, "explanation": payload}
        report.check(client.post(preview_url, fields, **HTMX), f"preview {payload[:30]!r}")
        grader = reverse("admin:content_card_try_grader", args=[card.pk])
        report.check(client.post(grader, {"response": payload}, **HTMX), f"grader partial {payload[:30]!r}")
        report.check(client.post(grader, {"response": payload}), f"grader page {payload[:30]!r}")
    # The change form's Preview button posts the whole form back; nothing is saved.
    card = world.cards[0]
    for payload in PAYLOADS:
        data = {
            "deck": card.deck_id, "position": card.position, "kind": card.kind, "question": payload,
            "answer": payload, "short_answer": payload[:300], "explanation": payload, "_preview": "1",
            **{f"{prefix}-{key}": value for prefix in ("aliases", "distractors", "key_terms")
               for key, value in (("TOTAL_FORMS", "0"), ("INITIAL_FORMS", "0"))},
        }  # fmt: skip
        response = client.post(reverse("admin:content_card_change", args=[card.pk]), data)
        report.check(response, f"change form preview {payload[:30]!r}")
    report.assert_clean(minimum_pages=4 * len(PAYLOADS))


def test_admin_users_with_payload_names(world):
    report = Report()
    client = _client(world.superuser)
    report.check(client.get(reverse("admin:auth_user_changelist")), "user change list")
    for user in (world.instructor, world.student, *world.others):
        report.check(client.get(reverse("admin:auth_user_change", args=[user.pk])), f"user {user.username}")
    report.check(client.get(reverse("admin:content_card_changelist")), "card list (superuser)")
    report.assert_clean(minimum_pages=len(USERNAMES) + 2)


def _own_word(term: str) -> str:
    """The payload as a key term each of whose |-separated synonyms has a word the question lacks."""
    return "|".join(f"{synonym} zylophant" for synonym in term.split("|"))


def _asked_once(payloads: list[str]) -> list[str]:
    """The payloads as a deck's questions, each asked once as a deck must (letter case aside): a payload that differs
    from an earlier one only in case ("JaVaScRiPt:") is asked with " again" after it."""
    seen: set[str] = set()
    questions = []
    for payload in payloads:
        questions.append(payload if normal_text(payload) not in seen else f"{payload} again")
        seen.add(normal_text(questions[-1]))
    return questions


def _deck_file(payloads: list[str]) -> bytes:
    cards = [
        {
            "uid": f"00000000-0000-4000-8000-{n:012d}", "position": n + 1, "kind": "flashcard", "question": question,
            "answer": payload, "short_answer": payload[:300], "explanation": payload, "archived": False,
            # a distractor that is the answer is refused, and a key term that only repeats the question: the
            # payload goes in with a word of its own
            "aliases": [payload[:300]], "distractors": [f"not {payload}"], "key_terms": [_own_word(payload[:180])],
        }
        for n, (payload, question) in enumerate(zip(payloads, _asked_once(payloads), strict=True))
    ]  # fmt: skip
    data = {
        "format": "mlcourse-deck", "version": 1, "cards": cards,
        # a title of its own (the world's decks hold the payloads as theirs), the payload in it all the same
        "deck": {"slug": "imported-xss", "title": f"Imported {payloads[0]}", "description": payloads[1],
                 "source": payloads[2]},
    }  # fmt: skip
    return json.dumps(data).encode()


# Links, styles and the like inside maths are refused (katex_worker.js): a file with them lists its problems.
REFUSED_IN_MATHS = ("\\href", "\\url", "\\html", "\\includegraphics")


def test_deck_import_dry_run_report(world):
    report = Report()
    client = _client(world.instructor)
    accepted = [payload for payload in PAYLOADS if not any(command in payload for command in REFUSED_IN_MATHS)]
    for name in ('"><img src=x onerror=alert(1)>.json', "<script>alert(1)</script>.json"):
        upload = SimpleUploadedFile(name, _deck_file(accepted), content_type="application/json")
        response = client.post(reverse("admin:content_deck_import"), {"file": upload})
        report.check(response, f"import dry run {name!r}")
    refused = SimpleUploadedFile("all.json", _deck_file(PAYLOADS), content_type="application/json")
    response = client.post(reverse("admin:content_deck_import"), {"file": refused})
    report.check(response, "import refusing maths commands", statuses=(422,))
    broken = SimpleUploadedFile("x.json", b'{"format": "<script>alert(1)</script>"}')
    report.check(client.post(reverse("admin:content_deck_import"), {"file": broken}), "import error", statuses=(422,))
    report.assert_clean(minimum_pages=3)
    assert not Deck.objects.filter(slug="imported-xss").exists()
