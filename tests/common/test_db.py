"""apps.common.db.rows_update: many rows' fields in one statement."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import DataError, transaction
from django.utils import timezone

from apps.common.db import rows_update
from apps.quiz.models import CardState
from tests.conftest import make_user
from tests.factories import make_card

pytestmark = pytest.mark.django_db


def test_each_row_gets_its_own_values_and_nothing_else_changes(django_assert_num_queries):
    now = timezone.now()
    cards = [make_card(question=f"Question {n}?") for n in range(3)]
    user = make_user("ann")
    states = [CardState.objects.create(user=user, card=card, deck=card.deck, due=now, reps=1) for card in cards]
    mine, other, untouched = states
    mine.stability, mine.due, mine.state = 2.5, now + timedelta(days=2), CardState.State.REVIEW
    other.stability, other.due, other.reps = None, now + timedelta(days=5), 7  # reps is not among the fields
    with django_assert_num_queries(1):
        rows_update([mine, other], ["stability", "due", "state"])
    got = {s.pk: (s.stability, s.due, s.state, s.reps) for s in CardState.objects.all()}
    assert got[mine.pk] == (2.5, now + timedelta(days=2), CardState.State.REVIEW, 1)
    assert got[other.pk] == (None, now + timedelta(days=5), CardState.State.LEARNING, 1)
    assert got[untouched.pk] == (None, now, CardState.State.LEARNING, 1)
    with django_assert_num_queries(0):
        rows_update([], ["due"])


def test_a_text_too_long_for_its_column_is_refused_as_save_refuses_it_not_cut_short():
    """An explicit cast to varchar(n) cuts a longer text short without a word: the arrays must not carry the length,
    so that the column refuses it (a verdict or response key silently truncated would be stored wrong)."""
    user = make_user("ann")
    user.username = "a" * 151  # 150 at most
    with pytest.raises(DataError), transaction.atomic():
        rows_update([user], ["username"])
    user.refresh_from_db()
    assert user.username == "ann"
