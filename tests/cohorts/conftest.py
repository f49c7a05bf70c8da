"""Fixtures of the cohort tests: `hand`, the hand-worked cohort of tests/cohorts/handmade.py with its instructor signed
in.
"""

from __future__ import annotations

import pytest

from tests.cohorts.handmade import make_hand_cohort


@pytest.fixture
def hand(client, instructor):
    """The hand-worked cohort of tests/cohorts/handmade.py, taught by `instructor`, who is signed in."""
    cohort = make_hand_cohort()
    cohort.instructors.add(instructor)
    client.force_login(instructor)
    return cohort
