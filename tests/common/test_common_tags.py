"""The shared template filters: how a figure reads on every page."""

from __future__ import annotations

import pytest

from apps.common.templatetags.common_tags import percent, seconds


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
