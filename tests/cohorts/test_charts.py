"""The SVG bar charts' scale: the tallest bar nears the top, on round gridlines."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from apps.cohorts.charts import activity_chart, bar_chart


@pytest.mark.parametrize(
    ("tallest", "scale"),
    [
        (43, [0, 10, 20, 30, 40, 50]),  # once 0 to 80: half the chart empty
        (80, [0, 20, 40, 60, 80]),
        (3, [0, 1, 2, 3]),
        (0, [0, 1]),
        (101, [0, 50, 100, 150]),
    ],
)
def test_the_scale_stops_at_the_first_round_gridline_above_the_tallest_bar(tallest, scale):
    chart = bar_chart(
        slug="answers", title="Answers", description="", x_label="Day", y_label="Answers",
        data=[("1 Dec", tallest), ("2 Dec", tallest // 2)],
    )  # fmt: skip
    assert [tick.value for tick in chart.ticks] == scale


def test_the_activity_description_says_one_answer_not_one_answers():
    day = date(2026, 12, 1)
    chart = activity_chart([(day, 1), (day + timedelta(days=1), 0)])
    assert chart.description == "1 answer in the last 2 days; the busiest day was 1 Dec with 1."
    assert activity_chart([(day, 2)]).description.startswith("2 answers in the last 1 day;")
