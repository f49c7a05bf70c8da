"""The cohorts page's tiles, as the cohort's instructors read them: the decks counted are those its students can
take, and an assigned draft, which they cannot open, is counted apart."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.cohorts import deadlines, services
from tests.cohorts.views_support import _text
from tests.conftest import make_instructor
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def spring(instructor, student):
    """Spring, owned by carol with dave co-teaching, alice its student, and one published deck assigned."""
    make_instructor("dave")
    cohort = services.cohort_create(name="Spring", instructor=instructor, instructor_usernames=["dave"])
    services.cohort_join(student=student, code=cohort.join_code)
    deck = make_deck(title="Serving")
    make_card(deck=deck)
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    return cohort


def _tile(client) -> str:
    html = client.get(reverse("cohorts:list")).content.decode()
    (tile,) = re.findall(r'<li class="deck-tile">(.*?)</li>', html, re.S)
    return _text(tile)


@pytest.mark.parametrize("persona", ["carol", "dave"])
def test_an_assigned_draft_is_not_counted_among_the_decks_students_can_take(client, spring, persona):
    # Assigned while published, then made a draft while the instructor revises it.
    draft = make_deck(title="Revising")
    make_card(deck=draft)
    deadlines.assignment_set(cohort=spring, deck=draft, due_date=None)
    draft.published = False
    draft.save()
    client.force_login(spring.instructors.get(username=persona))
    assert "1 student · 1 deck assigned, plus 1 draft hidden from students" in _tile(client)
    draft.published = True
    draft.save()
    tile = _tile(client)
    assert "1 student · 2 decks assigned" in tile and "draft" not in tile
