"""The shared template filters: how a figure reads on every page."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from apps.common.templatetags.common_tags import datetime_attr, percent, seconds


@pytest.mark.parametrize(
    ("value", "digits", "shown"),
    [
        (None, 0, "—"),
        (0.8333, 0, "83\u00a0%"),
        (0.8333, 1, "83.3\u00a0%"),
        (1.0, 0, "100\u00a0%"),
        (-1.1e-16, 0, "0\u00a0%"),  # a running total that drifted below zero: not "-0 %"
        (-1.1e-16, 1, "0.0\u00a0%"),
    ],
)
def test_percent(value, digits, shown):
    assert percent(value, digits) == shown


@pytest.mark.parametrize(("ms", "shown"), [(None, "—"), (400, "0 s"), (12_400, "12 s"), (125_000, "2 min 5 s")])
def test_seconds(ms, shown):
    assert seconds(ms) == shown


def test_a_time_elements_datetime_is_to_the_second_with_the_readers_offset():
    """Django's "c" format gave microseconds, which the HTML validator refuses in <time datetime>."""
    moment = datetime(2026, 12, 3, 23, 30, 5, 123456, tzinfo=UTC)
    with timezone.override(ZoneInfo("Asia/Tokyo")):
        assert datetime_attr(moment) == "2026-12-04T08:30:05+0900"
    assert datetime_attr(None) == ""
