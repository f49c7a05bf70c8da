"""Every dashboard statistic against values worked out by hand on a small cohort (tests/cohorts/handmade.py)."""

from __future__ import annotations

import itertools
import math
from datetime import date, timedelta

import pytest
from django.utils import timezone

from apps.cohorts import analytics, charts, sorting
from apps.cohorts.aggregates import cohort_stats_rebuild
from apps.cohorts.models import Assignment, Cohort, Membership
from apps.content.models import Card
from apps.quiz.aggregates import stats_rebuild
from apps.quiz.models import CardState
from tests.cohorts.handmade import NOW, answer, make_hand_cohort
from tests.conftest import make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def cohort():
    return make_hand_cohort()


def _pearson(xs, ys):
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    return cov / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))


def test_matrix_cells_last_activity_and_flags(cohort):
    decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW)
    assert [(d.title, d.cards) for d in decks] == [("Ops", 3), ("Empty", 1)]  # archived cards do not count
    by_name = {row.username: row for row in rows}
    assert set(by_name) == {"s1", "s2", "s3"}
    s1, s2, s3 = by_name["s1"].cells[0], by_name["s2"].cells[0], by_name["s3"].cells[0]
    assert (s1.attempted_share, s1.accuracy, s1.mastered_share) == (1.0, pytest.approx(2 / 3), pytest.approx(1 / 3))
    assert (s2.attempted_share, s2.accuracy, s2.mastered_share) == (pytest.approx(2 / 3), 0.5, 0.0)
    assert (s3.attempted_share, s3.accuracy) == (1.0, 0.25)
    assert by_name["s1"].cells[1].accuracy is None and by_name["s1"].cells[1].attempted_share == 0
    assert by_name["s2"].last_activity == NOW - timedelta(days=10)
    assert by_name["s1"].flags == []
    assert by_name["s2"].flags == ["inactive", "behind"]
    assert by_name["s3"].flags == ["low_accuracy"]


def test_last_activity_is_on_the_assigned_decks_only(cohort):
    """Studying another deck is not working on the cohort's: s2 stays inactive, as the page for s2 shows."""
    s2 = Membership.objects.get(cohort=cohort, student__username="s2").student
    answer(s2, make_card(deck=make_deck(title="Unassigned")), 1.0, days_ago=0)
    stats_rebuild()
    _decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW)
    row = next(row for row in rows if row.username == "s2")
    assert row.last_activity == NOW - timedelta(days=10) and row.flags == ["inactive", "behind"]
    _decks, (alone,) = analytics.cohort_matrix(cohort=cohort, now=NOW, student_id=s2.pk)
    assert alone.last_activity == row.last_activity and alone.flags == row.flags


def test_inactive_counts_from_the_later_of_joining_and_the_last_answer(cohort):
    """A week of membership without an answer is inactive; an hour of it is not, nor a rejoin after old answers."""
    newcomer, idle, back = (make_user(name) for name in ("newcomer", "idle", "back"))
    Membership.objects.create(cohort=cohort, student=newcomer, joined_at=NOW - timedelta(minutes=5))
    Membership.objects.create(cohort=cohort, student=idle, joined_at=NOW - timedelta(days=8))
    Membership.objects.create(cohort=cohort, student=back, joined_at=NOW - timedelta(days=1))  # rejoined yesterday
    answer(back, Card.objects.get(question="Q1?"), 1.0, days_ago=20)
    stats_rebuild()
    _decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW)
    inactive = {row.username for row in rows if "inactive" in row.flags}
    assert inactive == {"s2", "idle"}  # s2: last answer ten days ago, joined a month ago
    # One day short of the week is not yet inactive either way.
    _decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW - timedelta(days=2))
    assert "inactive" not in next(row for row in rows if row.username == "idle").flags


def test_behind_covers_overdue_decks_and_says_so(cohort):
    ops = cohort.assignments.get(deck__title="Ops")
    ops.due_date = date(2020, 1, 1)
    ops.save()
    _decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW)
    assert [row.username for row in rows if "behind" in row.flags] == ["s2"]  # Q3 never attempted, years late
    assert "overdue" in analytics.FLAGS["behind"]
    ops.due_date = (NOW + timedelta(days=4)).date()  # neither overdue nor within three days
    ops.save()
    _decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW)
    assert not any("behind" in row.flags for row in rows)


def test_nobody_is_behind_on_a_deck_made_a_draft_since_it_was_assigned(cohort):
    """Students no longer see a draft, nor its deadline: no flag, no reminder list, no "Behind on ..."."""
    ops = cohort.assignments.get(deck__title="Ops")
    ops.due_date = date(2020, 1, 1)
    ops.save()
    _decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW)
    assert [row.username for row in rows if row.behind] == ["s2"]  # years late while published
    ops.deck.published = False
    ops.deck.save()
    _decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW)
    assert not any("behind" in row.flags or row.behind for row in rows)


def test_due_within_three_days_counts_the_days_of_the_readers_time_zone(cohort):
    # 20:00 UTC is already the next day's 10:00 in Kiritimati (UTC+14): a deck due three local days on is due soon.
    now = NOW.replace(hour=20, minute=0)
    with timezone.override("Pacific/Kiritimati"):
        ops = cohort.assignments.get(deck__title="Ops")
        ops.due_date = timezone.localdate(now) + timedelta(days=3)
        ops.save()
        _decks, rows = analytics.cohort_matrix(cohort=cohort, now=now)
    assert [row.username for row in rows if "behind" in row.flags] == ["s2"]


def test_an_archived_card_counts_in_accuracy_but_not_in_attempted_or_mastered(cohort):
    s2 = Membership.objects.get(cohort=cohort, student__username="s2").student
    archived = Card.objects.get(question="Archived?")
    answer(s2, archived, 1.0, days_ago=10)
    stats_rebuild()
    CardState.objects.create(
        user=s2,
        card=archived,
        deck=archived.deck,
        due=NOW,
        state=2,
        stability=5,
        mastered_until=NOW + timedelta(days=3),
    )
    _decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW)
    cell = next(row for row in rows if row.username == "s2").cells[0]
    assert (cell.cards, cell.attempted, cell.mastered) == (3, 2, 0)
    assert cell.accuracy == pytest.approx(2 / 3)  # its answers still stand


def test_only_real_columns_sort_the_matrix(cohort):
    decks, _rows = analytics.cohort_matrix(cohort=cohort, now=NOW)
    deck_key = f"-deck-{decks[0].deck_id}-mastered"
    assert sorting.matrix_sort(raw=deck_key, decks=decks).key == deck_key
    assert sorting.matrix_sort(raw="-accuracy", decks=decks).key == "-accuracy"
    for junk in ("deck-999999-accuracy", f"deck-{decks[0].deck_id}-x", "x&flag=any", "--name", "", None):
        assert sorting.matrix_sort(raw=junk, decks=decks) == sorting.BY_NAME


def test_matrix_sorting(cohort):
    decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW)

    def names(raw):
        return [r.username for r in sorting.sort_rows(rows=rows, sort=sorting.matrix_sort(raw=raw, decks=decks))]

    assert names("-accuracy") == ["s1", "s2", "s3"]
    assert names(f"deck-{decks[0].deck_id}-attempted")[0] == "s2"
    assert names("-flags")[0] == "s2"
    assert names("-name") == ["s3", "s2", "s1"]
    assert names("deck-999999-accuracy") == names("name") == ["s1", "s2", "s3"]


def test_students_level_on_a_column_are_listed_by_name_either_way_it_sorts(cohort):
    for username in ("zed", "amy"):  # joined in this order, and level on every column: no answers, one flag
        Membership.objects.create(cohort=cohort, student=make_user(username), joined_at=NOW - timedelta(hours=1))
    decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW)
    for raw in ("flags", "-flags", "accuracy", "-accuracy", f"deck-{decks[0].deck_id}-attempted", "-activity"):
        sort = sorting.matrix_sort(raw=raw, decks=decks)
        ordered = sorting.sort_rows(rows=rows, sort=sort)
        level = [(a.username, b.username) for a, b in itertools.pairwise(ordered) if sort.value(a) == sort.value(b)]
        assert ("amy", "zed") in level or ("amy", "s3") in level, raw
        assert all(first < second for first, second in level), (raw, level)


def test_only_known_sorts_sort_the_items():
    for key in ("facility", "-facility", "discrimination", "-discrimination", "attempts", "-attempts", "overrides"):
        assert analytics.item_sort(raw=key) == key
    for junk in ("-overrides ", "name", "--facility", "", None):
        assert analytics.item_sort(raw=junk) == "facility"


@pytest.fixture
def any_number_of_students(monkeypatch):
    """Discrimination even from the hand cohort's three students, so that its formula can be checked by hand."""
    monkeypatch.setattr(analytics, "MIN_DISCRIMINATION_STUDENTS", 2)


def test_item_statistics(cohort, any_number_of_students):
    items, total = analytics.cohort_items(cohort=cohort, limit=None)
    assert total == 4  # three cards of Ops and one of Empty
    stats = {item.question_text: item for item in items}
    q1, q2, q3 = stats["Q1?"], stats["Q2?"], stats["Q3?"]
    assert (q1.attempts, q1.students, q1.facility, q1.override_rate) == (4, 3, 0.75, 0.0)
    assert (q2.attempts, q2.students, q2.facility) == (3, 3, pytest.approx(1 / 3))
    assert (q3.attempts, q3.facility, q3.override_rate) == (2, 0.0, 0.5)
    # Discrimination: per student, score on the card (x) against the mean of their other cards (y).
    #   s1: means 1, 1, 0   s2: means 1, 0   s3: means 0.5, 0, 0
    #   Q1: x = [1, 1, .5], y = [(2-1)/2, (1-1)/1, (.5-.5)/2] = [.5, 0, 0] -> r = 0.5 exactly.
    assert q1.discrimination == pytest.approx(0.5)
    assert q2.discrimination == pytest.approx(_pearson([1, 0, 0], [0.5, 1.0, 0.25]))
    assert q3.discrimination is None  # every student scored 0 on it: no variance, no correlation
    # Free-recall answers are counted in their normalised form, and quoted as one student wrote it (s3's "cronjob."
    # with s2's "CronJob"); options keep their text and the HTML shown.
    assert q2.wrong_answers == [("cronjob.", 2)]
    assert q1.wrong_options == [analytics.PickedOption(text="A Pod", html="A Pod", count=1)] and q1.wrong_answers == []
    assert sorted(q3.wrong_answers) == [("Deployment", 1), ("Job", 1)]
    assert [item.attempts for item in items if item.deck_title == "Empty"] == [0]


def test_a_negative_discrimination_is_flagged_apart_from_a_weak_one(cohort, any_number_of_students):
    stats = {item.question_text: item for item in analytics.cohort_items(cohort=cohort, limit=None)[0]}
    q1, q2, q3 = stats["Q1?"], stats["Q2?"], stats["Q3?"]
    assert q2.discrimination < 0 and q2.negative_discrimination and not q2.weak_discrimination
    assert not q1.negative_discrimination and not q1.weak_discrimination  # 0.5
    assert not q3.negative_discrimination and not q3.weak_discrimination  # no figure


def test_items_sorted_hardest_first_and_paged(cohort, any_number_of_students):
    items, total = analytics.cohort_items(cohort=cohort, limit=2)
    assert total == 4 and [item.question_text for item in items] == ["Q3?", "Q2?"]
    page_two, _ = analytics.cohort_items(cohort=cohort, offset=2, limit=2)
    assert page_two[0].question_text == "Q1?" and page_two[-1].attempts == 0  # unattempted cards come last
    by_discrimination, _ = analytics.cohort_items(cohort=cohort, sort="discrimination", limit=None)
    assert [item.question_text for item in by_discrimination[:2]] == ["Q2?", "Q1?"]  # undefined ones last


def test_hardest_first_does_not_open_on_a_card_only_one_student_tried():
    """One wrong answer (0 %) ranked above a card most of a class gets wrong; the page still shows 0 %."""
    deck = make_deck(title="Serving")
    once, hard, easy = (make_card(deck=deck, question=f"{name}?", answer="x") for name in ("Once", "Hard", "Easy"))
    cohort = Cohort.objects.create(name="Class")
    Assignment.objects.create(cohort=cohort, deck=deck)
    students = [make_user(f"t{n}") for n in range(10)]
    for n, student in enumerate(students):
        Membership.objects.create(cohort=cohort, student=student, joined_at=NOW - timedelta(days=30))
        answer(student, hard, 1.0 if n < 2 else 0.0)  # 20 %
        answer(student, easy, 1.0)
    answer(students[0], once, 0.0)
    stats_rebuild()
    cohort_stats_rebuild()
    items, _ = analytics.cohort_items(cohort=cohort, limit=None)
    assert [(item.question_text, item.facility) for item in items] == [("Hard?", 0.2), ("Once?", 0.0), ("Easy?", 1.0)]
    easiest, _ = analytics.cohort_items(cohort=cohort, sort="-facility", limit=None)
    assert [item.question_text for item in easiest] == ["Easy?", "Once?", "Hard?"]


def _two_more_students(cohort):
    """s6 right on Q1-Q3, s7 wrong on Q1 and Q2: five students on Q1 and Q2, three on Q3 (which now varies)."""
    q1, q2, q3 = (Card.objects.get(question=f"Q{i}?") for i in (1, 2, 3))
    s6, s7 = make_user("s6"), make_user("s7")
    for student in (s6, s7):
        Membership.objects.create(cohort=cohort, student=student, joined_at=NOW - timedelta(days=30))
    for card in (q1, q2, q3):
        answer(s6, card, 1.0)
    for card in (q1, q2):
        answer(s7, card, 0.0)
    stats_rebuild()
    cohort_stats_rebuild()


def test_discrimination_needs_enough_students_and_sorts_as_undefined_without_them(cohort, monkeypatch):
    items, _ = analytics.cohort_items(cohort=cohort, limit=None)
    q1 = next(item for item in items if item.question_text == "Q1?")
    assert (q1.discrimination, q1.discrimination_students, q1.too_few_for_discrimination) == (None, 3, True)
    _two_more_students(cohort)
    stats = {item.question_text: item for item in analytics.cohort_items(cohort=cohort, limit=None)[0]}
    assert stats["Q1?"].discrimination_students == stats["Q2?"].discrimination_students == 5
    assert stats["Q1?"].discrimination is not None and stats["Q2?"].discrimination is not None
    assert (stats["Q3?"].discrimination, stats["Q3?"].discrimination_students) == (None, 3)
    # Either way round, a card with too few students sorts with the undefined ones, after every real figure.
    for sort in ("discrimination", "-discrimination"):
        order = [item.question_text for item in analytics.cohort_items(cohort=cohort, sort=sort, limit=None)[0]]
        assert set(order[:2]) == {"Q1?", "Q2?"}, sort
    # It had a figure (its scores vary now); only the minimum hides it.
    monkeypatch.setattr(analytics, "MIN_DISCRIMINATION_STUDENTS", 3)
    q3 = next(item for item in analytics.cohort_items(cohort=cohort, limit=None)[0] if item.question_text == "Q3?")
    assert q3.discrimination is not None


def test_items_past_the_last_page_are_the_last_page(cohort):
    last, total = analytics.cohort_items(cohort=cohort, offset=3, limit=3)
    assert total == 4 and len(last) == 1  # pages of three: the fourth card alone on the second
    for offset in (6, 300):
        beyond, beyond_total = analytics.cohort_items(cohort=cohort, offset=offset, limit=3)
        assert beyond_total == total and [item.card_id for item in beyond] == [item.card_id for item in last]


def test_student_accuracies_are_the_matrix_figures_in_one_query(cohort, django_assert_num_queries):
    """The charts tab reads one accuracy per student without the matrix; it must be the matrix's figure."""
    s1, s2 = (Membership.objects.get(cohort=cohort, student__username=name).student for name in ("s1", "s2"))
    answer(s2, Card.objects.get(question="Archived?"), 1.0)  # an archived card's answers still count
    answer(s1, make_card(deck=make_deck(title="Unassigned")), 0.0)  # a deck the cohort was not given does not
    answer(s1, Card.objects.get(question="Q3?"), 0.3, response="half")  # a score that is not a binary fraction
    Membership.objects.create(cohort=cohort, student=make_user("idle"))  # no answers: no accuracy
    stats_rebuild()
    _decks, rows = analytics.cohort_matrix(cohort=cohort, now=NOW)
    with django_assert_num_queries(1):
        accuracies = analytics.student_accuracies(cohort=cohort)
    assert set(accuracies) == {row.student_id for row in rows}
    for row in rows:
        expected = accuracies[row.student_id]
        assert (row.accuracy is None) == (expected is None) and row.accuracy == pytest.approx(expected), row.username
    by_name = {row.username: accuracies[row.student_id] for row in rows}
    assert by_name == {"s1": pytest.approx(2.3 / 4), "s2": pytest.approx(2 / 3), "s3": 0.25, "idle": None}
    # More students, still one query.
    for name in ("s6", "s7", "s8"):
        student = make_user(name)
        Membership.objects.create(cohort=cohort, student=student)
        answer(student, Card.objects.get(question="Q1?"), 1.0)
    stats_rebuild()
    with django_assert_num_queries(1):
        assert len(analytics.student_accuracies(cohort=cohort)) == 7


def test_accuracy_histogram_and_activity(cohort):
    histogram = charts.accuracy_histogram(analytics.student_accuracies(cohort=cohort).values())
    assert [bar.value for bar in histogram.bars] == [0, 0, 1, 0, 0, 1, 1, 0, 0, 0]  # 25 %, 50 %, 67 %
    s1 = Membership.objects.get(cohort=cohort, student__username="s1").student
    answer(s1, make_card(deck=make_deck(title="Unassigned")), 1.0)  # a deck the cohort was not given does not count
    per_day = dict(charts.answers_per_day(cohort=cohort, now=NOW))
    assert sum(per_day.values()) == 9
    assert per_day[timezone.localdate(NOW - timedelta(days=10))] == 2
