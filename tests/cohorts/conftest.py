"""Fixtures of the cohort tests: `hand`, the hand-worked cohort of tests/cohorts/handmade.py with its instructor signed
in; and `world`, the cohorts, decks and students of the assigned deck's extensions page
(test_assignment_extensions_*.py; test_extensions.py, test_permissions.py and test_lock_order.py each have a `world`
of their own).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.cohorts import deadlines, services
from tests.cohorts.handmade import make_hand_cohort
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck


@pytest.fixture
def hand(client, instructor):
    """The hand-worked cohort of tests/cohorts/handmade.py, taught by `instructor`, who is signed in."""
    cohort = make_hand_cohort()
    cohort.instructors.add(instructor)
    client.force_login(instructor)
    return cohort


@pytest.fixture
def world(instructor, student):
    """Spring, taught by carol (owner) and dave (co-instructor), with alice, ann and ben; Serving due yesterday,
    and Undated with no due date. Autumn, erin's cohort, with bob, assigned Serving too."""
    today = timezone.localdate()
    deck = make_deck(title="Serving")
    make_card(deck=deck)
    undated = make_deck(title="Undated")
    make_instructor("dave")
    spring = services.cohort_create(name="Spring", instructor=instructor, instructor_usernames=["dave"])
    deadlines.assignment_set(cohort=spring, deck=deck, due_date=today - timedelta(days=1))
    deadlines.assignment_set(cohort=spring, deck=undated, due_date=None)
    ann, ben = make_user("ann", first_name="Ann", last_name="Arbor"), make_user("ben")
    for user in (student, ann, ben):
        services.cohort_join(student=user, code=spring.join_code)
    erin = make_instructor("erin")
    autumn = services.cohort_create(name="Autumn", instructor=erin)
    bob = make_user("bob")
    services.cohort_join(student=bob, code=autumn.join_code)
    deadlines.assignment_set(cohort=autumn, deck=deck, due_date=today - timedelta(days=1))
    return {"cohort": spring, "deck": deck, "undated": undated, "autumn": autumn, "ann": ann, "ben": ben, "bob": bob}
