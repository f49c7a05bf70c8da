"""Bar charts laid out in Python and drawn as SVG by a template: no JavaScript charting library."""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import Count
from django.db.models.functions import TruncDate
from django.template.defaultfilters import pluralize
from django.utils import timezone

from apps.quiz.models import Answer

from .analytics import members
from .models import Assignment, Cohort

WIDTH, HEIGHT = 640, 270
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 28, 44
INTERVALS = 5  # at most: the scale stops at the first gridline at or above the tallest bar


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    x: float
    y: float
    width: float
    height: float
    show_label: bool

    @property
    def centre(self) -> float:
        """Where its label goes: under its middle, so the last one stays inside the chart."""
        return self.x + self.width / 2


@dataclass(frozen=True)
class Tick:
    value: int
    y: float


@dataclass(frozen=True)
class BarChart:
    slug: str
    title: str
    description: str
    x_label: str
    y_label: str
    bars: list[Bar]
    ticks: list[Tick]
    # A time series ends with its latest bar (today): a box too narrow for every bar shows that end first.
    latest_last: bool = False
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM
    right: int = WIDTH - RIGHT

    @property
    def empty(self) -> bool:
        return not any(bar.value for bar in self.bars)


def _nice_scale(value: int) -> tuple[int, int]:
    """(step, intervals): the smallest 1, 2 or 5 times a power of ten that reaches `value` in at most INTERVALS
    steps, and how many of them it takes, so the tallest bar nears the top (43 answers: 0 to 50, not 0 to 80)."""
    needed = max(value, 1) / INTERVALS
    magnitude = 10 ** math.floor(math.log10(needed)) if needed >= 1 else 1
    step = int(next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= needed))
    return step, max(1, math.ceil(max(value, 1) / step))


def bar_chart(
    *,
    slug: str,
    title: str,
    description: str,
    x_label: str,
    y_label: str,
    data: list[tuple[str, int]],
    label_every: int = 1,
    latest_last: bool = False,
) -> BarChart:
    """Bars in `data`'s order; with `label_every` > 1, every so many are labelled counting back from the last,
    so that the latest bar of a time series always says its date.

    `latest_last`: the scale is written on the right as well as on the left, since a narrow screen shows the
    chart's right end first (app.css, .chart-frame-end) and the left one a scroll away.
    """
    step, intervals = _nice_scale(max((value for _, value in data), default=0))
    top_value = step * intervals
    right_margin = LEFT if latest_last else RIGHT
    plot_width, plot_height = WIDTH - LEFT - right_margin, HEIGHT - TOP - BOTTOM
    slot = plot_width / max(len(data), 1)
    bars = []
    for i, (label, value) in enumerate(data):
        height = plot_height * value / top_value
        bars.append(
            Bar(
                label,
                value,
                LEFT + i * slot + slot * 0.15,
                TOP + plot_height - height,
                slot * 0.7,
                height,
                (len(data) - 1 - i) % label_every == 0,
            )
        )
    ticks = [Tick(step * k, TOP + plot_height - plot_height * k / intervals) for k in range(intervals + 1)]
    return BarChart(slug, title, description, x_label, y_label, bars, ticks, latest_last, right=WIDTH - right_margin)


def answers_per_day(*, cohort: Cohort, days: int = 30, now: datetime | None = None) -> list[tuple[date, int]]:
    """Answers per day by the cohort's students on its assigned decks, last `days` days, zeros included. One query.

    Only the assigned decks, as every other figure of the dashboard: what else a student studies is theirs.
    """
    today = timezone.localdate(now or timezone.now())
    start = today - timedelta(days=days - 1)
    counts = dict(
        Answer.objects.filter(
            user__in=members(cohort=cohort).values("student_id"),
            card__deck__in=Assignment.objects.filter(cohort=cohort).values("deck_id"),
            answered_at__date__gte=start,
        )
        .annotate(day=TruncDate("answered_at"))
        .values_list("day")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return [(start + timedelta(days=i), counts.get(start + timedelta(days=i), 0)) for i in range(days)]


def activity_chart(per_day: list[tuple[date, int]]) -> BarChart:
    total = sum(n for _, n in per_day)
    busiest = max(per_day, key=lambda item: item[1]) if per_day else None
    days = len(per_day)
    description = f"{total} answer{pluralize(total)} in the last {days} day{pluralize(days)}"
    if busiest and busiest[1]:
        description += f"; the busiest day was {busiest[0]:%-d %b} with {busiest[1]}"
    return bar_chart(
        slug="activity",
        title="Answers per day, last 30 days",
        description=description + ".",
        x_label="Day",
        y_label="Answers",
        data=[(f"{day:%-d %b}", n) for day, n in per_day],
        label_every=5,
        latest_last=True,
    )


def accuracy_histogram(accuracies: Collection[float | None]) -> BarChart:
    """Students per band of accuracy (0–10 %, …, 90–100 %), one accuracy per student; None (no answers) is left out."""
    bins = [0] * 10
    for accuracy in accuracies:
        if accuracy is not None:
            bins[min(int(accuracy * 10), 9)] += 1
    counted = sum(bins)
    without = len(accuracies) - counted
    return bar_chart(
        slug="accuracy",
        title="Distribution of student accuracy",
        description=f"Students with answers, by accuracy band: {counted}; without answers yet: {without}.",
        x_label="Accuracy",
        y_label="Students",
        data=[(f"{10 * i}–{10 * (i + 1)} %", n) for i, n in enumerate(bins)],
    )
