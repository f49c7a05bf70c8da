"""The days of study on My progress: the pure grid and streak (activity.activity) and the reviews coming up
(activity.forecast), then the page."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.quiz import selectors, services
from apps.quiz.activity import Day, activity, forecast
from apps.quiz.models import CardState
from tests.factories import make_card, make_deck

THURSDAY = date(2026, 12, 3)


def _days(*back: int, count: int = 1) -> dict[date, int]:
    return {THURSDAY - timedelta(days=n): count for n in back}


@pytest.mark.parametrize(
    ("counts", "streak", "today", "longer"),
    [
        ({}, 0, False, False),
        (_days(0), 1, True, False),
        (_days(0, 1, 2), 3, True, False),
        (_days(1, 2), 2, False, False),  # today may still continue it
        (_days(0, 2, 3), 1, True, False),  # a day missed ends it
        (_days(2, 3), 0, False, False),  # yesterday missed: over
        (_days(*range(81)), 81, True, True),  # back to the grid's first Monday: maybe longer
        (_days(*range(80)), 80, True, False),
    ],
)
def test_the_streak_counts_days_in_a_row_up_to_today_or_yesterday(counts, streak, today, longer):
    result = activity(counts, today=THURSDAY)
    assert (result.streak, result.studied_today, result.streak_may_be_longer) == (streak, today, longer)


def test_the_grid_is_twelve_weeks_from_monday_with_no_days_after_today():
    result = activity(_days(0, 3, 4, 90), today=THURSDAY)
    assert len(result.weeks) == 12 and all(len(week) == 7 for week in result.weeks)
    assert result.weeks[0][0] == Day(date(2026, 9, 14), 0) and date(2026, 9, 14).weekday() == 0
    assert result.weeks[-1][3] == Day(THURSDAY, 1) and result.weeks[-1][4:] == [None, None, None]
    # Monday to today is this week; Sunday and Saturday before it are last week's; 90 days back is off the grid.
    assert (result.week_answers, result.week_days, result.days, result.answers) == (2, 2, 3, 3)


@pytest.mark.parametrize(("count", "level"), [(0, 0), (1, 1), (4, 1), (5, 2), (9, 2), (10, 3), (19, 3), (20, 4)])
def test_a_day_is_shaded_by_how_many_answers_it_had(count, level):
    assert Day(THURSDAY, count).level == level


def test_the_busiest_day_is_the_one_with_most_answers_the_latest_of_a_tie():
    result = activity({THURSDAY: 3, THURSDAY - timedelta(days=5): 7, THURSDAY - timedelta(days=9): 7}, today=THURSDAY)
    assert result.busiest == Day(THURSDAY - timedelta(days=5), 7)


@pytest.mark.django_db
def test_my_progress_shows_my_streak_in_my_time_zone_and_not_anyone_elses_answers(client, student, other_student):
    deck = make_deck()
    for n in range(3):
        make_card(deck=deck, question=f"Q{n}?", answer=f"A{n}")
    tokyo = ZoneInfo("Asia/Tokyo")
    yesterday = datetime.now(tokyo).date() - timedelta(days=1)
    # 23:30 the day before yesterday and 00:30 yesterday in Tokyo: two days there, one in UTC (14:30 and 15:30).
    before = datetime.combine(yesterday - timedelta(days=1), time(23, 30), tzinfo=tokyo)
    for when in (before, before + timedelta(hours=1)):
        session = services.session_start(user=student, deck=deck, size=1, mode="recall", order="random", now=when)
        services.answer_submit(
            user=student, session_id=session.pk, position=1, submission=services.Submission(response="A"),
            now=when.astimezone(UTC),
        )  # fmt: skip
    other = services.session_start(user=other_student, deck=deck, size=3, mode="recall", order="random")
    for position in (1, 2, 3):
        services.answer_submit(
            user=other_student, session_id=other.pk, position=position, submission=services.Submission(response="A")
        )
    client.force_login(student)
    client.cookies["tz"] = "Asia/Tokyo"
    html = client.get(reverse("quiz:progress")).content.decode()
    assert "<strong>2 days in a row.</strong> Answer a question today to keep it going." in html
    for day in (yesterday - timedelta(days=1), yesterday):
        assert f'title="{day:%a} {day.day} {day:%b}: 1 answer"' in html
    assert "twelve weeks: 2 answers on 2 days" in html  # bob's three are his
    # The days in words too, the latest first: a touch screen shows no tooltip, a screen reader no shade.
    days = re.findall(r"<li><time [^>]*>([^<]+)</time>: (\d+) answers?</li>", html)
    assert days == [(f"{day:%a} {day.day} {day:%b}", "1") for day in (yesterday, yesterday - timedelta(days=1))]


def test_the_forecast_counts_each_day_of_the_week_ahead_with_the_overdue_today():
    counts = {THURSDAY - timedelta(days=3): 2, THURSDAY: 1, THURSDAY + timedelta(days=2): 4, THURSDAY + timedelta(7): 9}
    ahead = forecast(counts, today=THURSDAY)
    assert [(day.date, day.count) for day in ahead.days] == [
        (THURSDAY, 3), (THURSDAY + timedelta(1), 0), (THURSDAY + timedelta(2), 4), *(
            (THURSDAY + timedelta(n), 0) for n in range(3, 7)
        ),
    ]  # fmt: skip
    assert (ahead.total, ahead.most) == (7, 4)  # the eighth day's nine are beyond the week
    assert forecast({}, today=THURSDAY).total == 0


def test_my_progress_shows_my_reviews_coming_up_day_by_day(client, student, other_student):
    deck = make_deck()
    for n in range(4):
        make_card(deck=deck, question=f"Q{n}?", answer=f"A{n}")
    client.force_login(student)
    assert "Coming up" not in client.get(reverse("quiz:progress")).content.decode()  # nothing answered yet
    for user in (student, other_student):
        session = services.session_start(user=user, deck=deck, size=4, mode="recall", order="new")
        for position in range(1, 5):
            services.answer_submit(
                user=user, session_id=session.pk, position=position, submission=services.Submission(response="A")
            )
    states = list(CardState.objects.filter(user=student).order_by("pk"))
    now = datetime.now(UTC)
    for state, due in zip(
        states,
        (now - timedelta(days=2), now + timedelta(days=2), now + timedelta(days=2), now + timedelta(days=30)),
        strict=True,
    ):
        CardState.objects.filter(pk=state.pk).update(due=due)
    html = " ".join(client.get(reverse("quiz:progress")).content.decode().split())
    assert "3 reviews in the next 7 days" in html  # bob's are his; the card due in a month is not this week's
    days = re.findall(r'forecast-day">([^<]+)</span><progress class="thin-bar" max="2" value="(\d)"', html)
    assert days[0] == ("Today", "1") and days[1] == ("Tomorrow", "0") and days[2][1] == "2" and len(days) == 7
    # The bars are hidden from screen readers: each day says its count in words.
    heard = re.findall(r'forecast-count">(\d+)<span class="visually-hidden"> (reviews?)</span>', html)
    assert heard[:3] == [("1", "review"), ("0", "reviews"), ("2", "reviews")]


@pytest.mark.django_db
def test_the_forecast_days_are_the_readers_and_leave_out_archived_cards_and_draft_decks(student):
    deck, hidden = make_deck(), make_deck(title="Made a draft")
    cards = [make_card(deck=deck, question=f"Q{n}?", answer=f"A{n}") for n in range(5)]
    drafted = make_card(deck=hidden, question="Q?", answer="A")
    tokyo = ZoneInfo("Asia/Tokyo")
    now = datetime(2026, 12, 3, 14, 30, tzinfo=UTC)  # 23:30 on Thursday in Tokyo
    for card, due in (
        (cards[0], now - timedelta(days=3)),  # overdue: today's
        (cards[1], now + timedelta(minutes=45)),  # still Thursday in UTC, Friday in Tokyo
        (cards[2], datetime(2026, 12, 10, 0, 0, tzinfo=tokyo)),  # the eighth day's first minute
        (cards[3], now),  # archived below
        (drafted, now),
    ):
        CardState.objects.create(user=student, card=card, deck=card.deck, due=due, reps=1)
    cards[3].archived = True
    cards[3].save()
    hidden.published = False
    hidden.save()
    with timezone.override(tokyo):
        ahead = selectors.reviews_forecast(user=student, now=now)
    assert [day.count for day in ahead.days] == [1, 1, 0, 0, 0, 0, 0]
    assert ahead.days[0].date == date(2026, 12, 3)
    with timezone.override(UTC):
        assert [day.count for day in selectors.reviews_forecast(user=student, now=now).days][:2] == [2, 0]


@pytest.mark.django_db
def test_my_progress_due_later_counts_the_same_seven_calendar_days_as_the_forecast(student):
    """The table's "Due later, in the next 7 days" was now + 7 × 24 h and the forecast 7 calendar days in the
    reader's zone: a card due on the eighth calendar day counted in one and not the other."""
    deck = make_deck()
    cards = [make_card(deck=deck, question=f"Q{n}?", answer=f"A{n}") for n in range(4)]
    tokyo = ZoneInfo("Asia/Tokyo")
    now = datetime(2026, 12, 3, 14, 30, tzinfo=UTC)  # 23:30 on Thursday in Tokyo: the window ends Wednesday night
    for card, due in (
        (cards[0], now - timedelta(hours=1)),  # due now
        (cards[1], datetime(2026, 12, 9, 23, 59, tzinfo=tokyo)),  # the seventh day's last minute
        (cards[2], datetime(2026, 12, 10, 0, 0, tzinfo=tokyo)),  # the eighth day, though within 7 × 24 h
        (cards[3], now + timedelta(days=8)),
    ):
        CardState.objects.create(user=student, card=card, deck=card.deck, due=due, reps=1)
    with timezone.override(tokyo):
        (progress,) = selectors.progress_by_deck(user=student, now=now)
        ahead = selectors.reviews_forecast(user=student, now=now)
    assert (progress.due_now, progress.due_week) == (1, 1)
    assert ahead.total == progress.due_now + progress.due_week == 2
    with timezone.override(UTC):  # in London the eighth Tokyo day's first minute is Wednesday's
        (progress,) = selectors.progress_by_deck(user=student, now=now)
        assert (progress.due_now, progress.due_week) == (1, 2)
        assert selectors.reviews_forecast(user=student, now=now).total == 3
