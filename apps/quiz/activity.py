"""A student's days of study: the grid of the last weeks, the streak, this week's count, and the reviews coming due in
the next days. Pure: counts per day in, an Activity or a Forecast out (selectors.activity_recent and reviews_forecast
read the counts)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta

WEEKS = 12
# The fewest answers of a day at each shade after "none": 1-4, 5-9, 10-19, 20 or more.
LEVELS = (1, 5, 10, 20)


@dataclass(frozen=True)
class Day:
    date: date
    count: int

    @property
    def level(self) -> int:
        return sum(self.count >= least for least in LEVELS)


@dataclass(frozen=True)
class Activity:
    weeks: list[list[Day | None]]  # Monday to Sunday each, oldest week first; days after today are None
    streak: int  # days in a row with an answer, up to today (or yesterday, while today may still continue it)
    studied_today: bool
    week_answers: int  # since Monday
    week_days: int
    days: int  # in the whole grid
    answers: int
    busiest: Day | None
    streak_may_be_longer: bool  # it runs back to the grid's first day, before which nothing was read


def first_day(today: date, *, weeks: int = WEEKS) -> date:
    """The Monday the grid starts on: `weeks` weeks, the last one this week."""
    return today - timedelta(days=today.weekday(), weeks=weeks - 1)


def activity(counts: Mapping[date, int], *, today: date, weeks: int = WEEKS) -> Activity:
    start = first_day(today, weeks=weeks)
    grid = [
        [
            Day(day, counts.get(day, 0)) if (day := start + timedelta(weeks=week, days=weekday)) <= today else None
            for weekday in range(7)
        ]
        for week in range(weeks)
    ]
    studied_today = counts.get(today, 0) > 0
    streak, day = 0, today if studied_today else today - timedelta(days=1)
    while day >= start and counts.get(day, 0) > 0:
        streak, day = streak + 1, day - timedelta(days=1)
    shown = [day for week in grid for day in week if day is not None]
    studied = [day for day in shown if day.count]
    this_week = [day for day in grid[-1] if day is not None and day.count]
    return Activity(
        weeks=grid,
        streak=streak,
        studied_today=studied_today,
        week_answers=sum(day.count for day in this_week),
        week_days=len(this_week),
        days=len(studied),
        answers=sum(day.count for day in studied),
        busiest=max(studied, key=lambda day: (day.count, day.date), default=None),
        streak_may_be_longer=streak > 0 and day < start,
    )


@dataclass(frozen=True)
class Forecast:
    days: list[Day]  # from today on; today's count holds the overdue reviews too
    total: int
    most: int


def forecast(counts: Mapping[date, int], *, today: date, days: int = 7) -> Forecast:
    """The reviews falling due each day of the next `days`, from counts per due date (any before today are overdue,
    so today's to do)."""
    overdue = sum(count for day, count in counts.items() if day < today)
    shown = [Day(day, counts.get(day, 0)) for day in (today + timedelta(days=n) for n in range(days))]
    shown[0] = Day(today, shown[0].count + overdue)
    return Forecast(days=shown, total=sum(day.count for day in shown), most=max(day.count for day in shown))
