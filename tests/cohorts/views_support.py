"""Helpers shared by the cohort view tests (test_views*.py): a cohort of students who answered some cards of its decks,
the text of a page fragment, a table's rows as lists of cell texts, the student a row names, and a CSV response's
rows.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from html import unescape

from django.utils import timezone

from apps.cohorts import services
from apps.cohorts.models import Assignment
from apps.quiz import services as quiz
from tests.conftest import make_user
from tests.factories import make_card, make_deck


def _cohort(instructor, *, students: int, cards: int, decks: int = 2):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    deck_list = []
    for d in range(decks):
        deck = make_deck(title=f"Deck {d}")
        for i in range(cards):
            make_card(deck=deck, question=f"Q{d}.{i}?", answer=f"Tool {i}")
        Assignment.objects.create(cohort=cohort, deck=deck, due_date=timezone.localdate() + timedelta(days=d * 5))
        deck_list.append(deck)
    for s in range(students):
        user = make_user(f"student{s:03d}")
        services.cohort_join(student=user, code=cohort.join_code)
        for deck in deck_list:
            session = quiz.session_start(user=user, deck=deck, size=cards, mode="mixed", order="random")
            for item in session.items.all()[: 1 + s % cards]:
                submission = (
                    quiz.Submission(option=(item.correct_option + s % 2) % 4)
                    if item.mode == "choice"
                    else quiz.Submission(response=item.card.answer if s % 3 else "=HYPERLINK(evil)")
                )
                quiz.answer_submit(user=user, session_id=session.pk, position=item.position, submission=submission)
    return cohort


def _text(html: str) -> str:
    # <bdi> (a student's text, isolated) is part of its sentence; other tags are read as breaks.
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?bdi>", "", html))).split())


def _who(row: list[str]) -> str:
    """The student a matrix row is about: the user name, before the full name and email that follow it."""
    return row[0].split()[0]


def _table_rows(html: str, classes: str) -> list[list[str]]:
    """The text of each cell of each body row of the (first) <table class="{classes} ...">."""
    table = re.search(rf'<table class="{classes}(?: [^"]*)?"[^>]*>(.*?)</table>', html, re.S)
    assert table, f"no {classes} table"
    body = re.search(r"<tbody[^>]*>(.*?)</tbody>", table.group(1), re.S).group(1)
    return [
        [_text(cell) for cell in re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", body, re.S)
    ]


def _csv_rows(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
