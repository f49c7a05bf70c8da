"""Property-based fuzzing, as every persona, of authoring: the admin's Markdown preview, grader check and card form,
and deck import from arbitrary JSON exports and CSV uploads.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from apps.authoring.holds import import_key
from apps.authoring.transfer import CSV_COLUMNS
from apps.content.models import Card, Deck
from apps.content.services import card_mark
from tests.security.fuzzing import (
    AUTHORS,
    INTS,
    MISSING,
    NASTY,
    PERSONAS,
    RESPONSE,
    TEXT,
    VALUE,
    example,
    expect_refused,
    form,
    fuzz,
    send,
)

pytestmark = pytest.mark.django_db


MARKDOWN = st.sampled_from(
    ["$x^2$", "$$\\int_0^1 x\\,dx$$", "$\\frac{1}{$", "$\\href{javascript:alert(1)}{x}$", "*a* **b** `c`",
     "| a | b |\n|---|---|\n| 1 | 2 |", "```\ncode $x$\n```", "- " * 600 + "x", "> " * 300 + "q", "[a](b) ![c](d)",
     "$\\def\\x{\\x\\x}\\x$", "\\$5 and $6", "$" * 50]
)  # fmt: skip


PREVIEW = form(question=MARKDOWN, answer=MARKDOWN, explanation=MARKDOWN)


GRADER = form(response=RESPONSE)


def _card_form(card: Card, decks: list[Deck], data) -> dict:
    """The card's change form as the admin would post it, then fuzzed."""
    fields = {
        "loaded_version": card_mark(card),
        "deck": str(card.deck_id), "position": str(card.position), "kind": card.kind, "question": card.question,
        "answer": card.answer, "short_answer": card.short_answer, "explanation": card.explanation,
        "aliases-TOTAL_FORMS": "2", "aliases-INITIAL_FORMS": "0",
        "aliases-0-text": data.draw(st.one_of(st.sampled_from(["cron job", "Cron Job", "Job", "CRONJOB"]), VALUE)),
        "aliases-1-text": data.draw(st.one_of(st.sampled_from(["cron job", "Cron Job", ""]), VALUE)),
        "distractors-TOTAL_FORMS": "1", "distractors-INITIAL_FORMS": "0",
        "distractors-0-text": data.draw(st.one_of(MARKDOWN, VALUE)), "distractors-0-position": data.draw(INTS),
        "key_terms-TOTAL_FORMS": "1", "key_terms-INITIAL_FORMS": "0", "key_terms-0-term": data.draw(VALUE),
    }  # fmt: skip
    deck = st.sampled_from([str(deck.pk) for deck in decks])
    position = st.one_of(st.integers(1, 120).map(str), INTS)
    fields.update(
        data.draw(form(question=MARKDOWN, answer=MARKDOWN, position=position, deck=deck, _preview=st.just("1")))
    )
    return fields


@fuzz(max_examples=50)
@given(data=st.data())
def test_admin_preview_grader_and_card_form(world, data):
    persona = data.draw(st.sampled_from(PERSONAS))
    card = data.draw(st.sampled_from(list(world.deck.cards.order_by("position"))))
    endpoint = data.draw(st.sampled_from(["preview", "grader", "grader_missing", "change"]))
    with example(world, persona):
        client = world.clients[persona]
        htmx = data.draw(st.booleans())
        if endpoint == "preview":
            response = send(client, "POST", reverse("admin:content_card_preview"), data.draw(PREVIEW), htmx=htmx)
        elif endpoint.startswith("grader"):
            pk = card.pk if endpoint == "grader" else MISSING
            response = send(
                client, "POST", reverse("admin:content_card_try_grader", args=[pk]), data.draw(GRADER), htmx=htmx
            )
        else:
            response = send(
                client,
                "POST",
                reverse("admin:content_card_change", args=[card.pk]),
                _card_form(card, [world.deck, world.other_deck], data),
            )
        if persona not in AUTHORS:
            expect_refused(response, persona, admin=True)


def _containers(children: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(children, max_size=3) | st.dictionaries(TEXT, children, max_size=3)


JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT, _containers, max_leaves=8
)


TEXTISH = st.one_of(TEXT, NASTY, MARKDOWN)


EXPORT_CARD = st.fixed_dictionaries(
    {
        "uid": st.one_of(st.uuids().map(str), st.just("00000000-0000-4000-8000-000000000001"), JSON_VALUE),
        "position": st.one_of(
            st.integers(-2, 6), st.integers(2**31 - 2, 2**64), st.sampled_from(["3", "²", "１"]), JSON_VALUE
        ),
        "kind": st.one_of(st.sampled_from(["flashcard", "syllabus"]), JSON_VALUE),
        "question": TEXTISH,
        "answer": TEXTISH,
    },
    optional={
        "short_answer": TEXTISH,
        "explanation": TEXTISH,
        "archived": st.one_of(st.booleans(), JSON_VALUE),
        "aliases": st.one_of(
            st.lists(st.one_of(st.sampled_from(["Job", "job", "JOB"]), TEXTISH), max_size=3), JSON_VALUE
        ),
        "distractors": st.one_of(st.lists(TEXTISH, max_size=3), JSON_VALUE),
        "key_terms": st.one_of(st.lists(TEXTISH, max_size=3), JSON_VALUE),
    },
)


EXPORT = st.fixed_dictionaries(
    {
        "format": st.one_of(st.just("mlcourse-deck"), JSON_VALUE),
        "version": st.one_of(st.just(1), JSON_VALUE),
        "deck": st.one_of(
            st.fixed_dictionaries(
                {
                    "slug": st.one_of(st.sampled_from(["containers", "training", "new-deck", "Bad Slug"]), TEXT),
                    "title": TEXTISH,
                },
                optional={"description": TEXTISH, "source": TEXTISH},
            ),
            JSON_VALUE,
        ),
        "cards": st.one_of(st.lists(EXPORT_CARD, max_size=4), JSON_VALUE),
    }
)


def _csv_text(rows: list[list[str]], header: bool) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    if header:
        writer.writerow(CSV_COLUMNS)
    writer.writerows(rows)
    return out.getvalue()


CSV_ROWS = st.lists(
    st.lists(st.one_of(st.sampled_from(["deck", "card", "true", "[]", '["a"]', "1"]), TEXTISH), max_size=16), max_size=4
)


UPLOAD = st.one_of(
    EXPORT.map(lambda d: ("deck.json", json.dumps(d).encode())),
    st.tuples(CSV_ROWS, st.booleans()).map(lambda rows: ("deck.csv", _csv_text(*rows).encode())),
    st.tuples(st.sampled_from(["x.json", "x.csv", "x", ""]), st.binary(max_size=300)),
    st.tuples(st.sampled_from(["x.json", "x.txt"]), st.integers(1, 50_000).map(lambda n: ("[" * n).encode())),
    st.tuples(st.sampled_from(["x.csv"]), st.integers(1, 3).map(lambda n: b"record," + b"x" * (140_000 * n))),
)


@fuzz(max_examples=50)
@given(data=st.data())
def test_deck_import(world, data):
    """Uploaded junk, near-valid exports, and the confirm step posted directly."""
    persona = data.draw(st.sampled_from(PERSONAS))
    with example(world, persona):
        client = world.clients[persona]
        url = reverse("admin:content_deck_import")
        if data.draw(st.booleans()):
            name, content = data.draw(UPLOAD)
            upload = SimpleUploadedFile(name or "upload", content)
            response = send(client, "POST", url, {"file": upload, **data.draw(form())})
            confirm = response.context.get("confirm") if response.context else None
            if confirm is not None and data.draw(st.booleans()):
                send(client, "POST", url, {"confirm": "1", "key": confirm.initial["key"]})
        else:
            # The confirmation posted directly: the key of a file never checked, junk, or the old form's fields.
            name, content = data.draw(UPLOAD)
            key = import_key(name=name, text=content.decode("utf-8", "replace"))
            fields = data.draw(
                form(
                    key=st.sampled_from([key, "0" * 64, key.upper(), key[:10]]),
                    name=st.just(name),
                    content=st.just(content.decode("utf-8", "replace")),
                    confirm=st.just("1"),
                )
            )
            response = send(client, "POST", url, fields)
            if persona in AUTHORS:
                # Nothing was checked in this example, so nothing can be confirmed.
                assert response.status_code == 422, response.status_code
        if persona not in AUTHORS:
            expect_refused(response, persona, admin=True)
