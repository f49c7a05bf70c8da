"""The cohort running totals as plain values, to compare them with a recomputation from the answers."""

from __future__ import annotations

from apps.cohorts.aggregates import cohort_stats_rebuild
from apps.cohorts.models import CohortCardStat, CohortResponseStat


def snapshot() -> tuple[dict, dict]:
    """Card totals and wrong-answer counts, leaving out rows that fell back to zero (a rebuild has none)."""
    cards = {
        (s.cohort_id, s.card_id): (s.attempts, s.students, round(s.score_sum, 9), s.overrides)
        for s in CohortCardStat.objects.all()
        if s.attempts
    }
    responses = {
        (s.cohort_id, s.card_id, s.mode, s.response_key): s.count for s in CohortResponseStat.objects.all() if s.count
    }
    return cards, responses


def rebuilt_snapshot() -> tuple[dict, dict]:
    """What the totals should be: rebuilds them from the answers (so call it after reading the live ones)."""
    cohort_stats_rebuild()
    return snapshot()
