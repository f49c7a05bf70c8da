"""Cohort analytics computed in SQL over the running totals, in a fixed number of queries.

The matrix reads StudentDeckStat (one row per student and deck) and CardState's mastery date. Item statistics read
the cohort's own totals (CohortCardStat per card, CohortResponseStat per wrong answer) and, for discrimination,
StudentCardStat of its current students. Nothing here scans or loops over answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Literal, get_args

from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection
from django.db.models import Count, OuterRef, Q
from django.db.models.functions import JSONObject
from django.utils import timezone
from django.utils.html import escape

from apps.content.models import Card
from apps.quiz.models import CardState, StudentDeckStat
from apps.quiz.scheduling import mastered_q
from apps.quiz.selectors import archived_cards_answered

from .models import Assignment, Cohort, Extension, Membership

INACTIVE_AFTER = timedelta(days=7)
LOW_ACCURACY = 0.5
DUE_SOON = timedelta(days=3)
LOW_DISCRIMINATION = 0.2
# Below this many students (with answers on the card and on another), discrimination is not shown, exported or
# sorted on. A correlation over 2 students is +1 or -1 whatever the card ("-1.00 weak" from two people), and over
# 3 or 4 one student's answers move it by more than the whole scale between "weak" and good. 5 is the least at
# which it starts to say something about the card rather than about one student, and small seminars still get it;
# it stays rough (about ±0.5 for a card unrelated to ability), so "weak" is a prompt to look, not a verdict.
MIN_DISCRIMINATION_STUDENTS = 5
# Sorting by facility counts each card as if it had this many more answers at the cohort's mean (a Bayesian
# average): enough that one or two answers do not lead the list, few enough that a card most get wrong still does.
SORT_PRIOR_ANSWERS = 3
FLAGS = {
    "inactive": "Inactive for 7 days",
    "low_accuracy": "Accuracy under 50 %",
    "behind": "Behind on a deck overdue or due within 3 days",
}
# What a badge or filter shows where room is short (a phone, the matrix's narrow column): the start of the flag's
# wording, the rest of which stays for screen readers and as a tooltip, and is spelled out in the legend.
FLAG_SHORT = {"behind": "Behind"}


@dataclass(frozen=True)
class AssignedDeck:
    deck_id: int
    title: str
    slug: str
    due_date: date | None
    cards: int
    published: bool = True  # a draft since it was assigned: students no longer see it


@dataclass
class Cell:
    attempted: int = 0
    answers: int = 0
    score_sum: float = 0.0
    mastered: int = 0
    cards: int = 0
    extended_to: date | None = None  # the student's own deadline for the deck, when they have an extension

    # None for a deck with no cards yet: "—", not "0 %" of nothing (and not behind on it).
    @property
    def attempted_share(self) -> float | None:
        return self.attempted / self.cards if self.cards else None

    @property
    def accuracy(self) -> float | None:
        return self.score_sum / self.answers if self.answers else None

    @property
    def mastered_share(self) -> float | None:
        return self.mastered / self.cards if self.cards else None


@dataclass
class StudentRow:
    student_id: int
    username: str
    joined_at: datetime
    cells: list[Cell]
    last_activity: datetime | None = None
    flags: list[str] = field(default_factory=list)
    full_name: str = ""  # first and last name, set in the admin (sign-up asks for neither): often empty
    email: str = ""
    behind: list[AssignedDeck] = field(default_factory=list)  # the decks its "behind" flag is about

    @property
    def accuracy(self) -> float | None:
        answers = sum(cell.answers for cell in self.cells)
        return sum(cell.score_sum for cell in self.cells) / answers if answers else None


def assigned_decks(*, cohort: Cohort) -> list[AssignedDeck]:
    assignments = Assignment.objects.filter(cohort=cohort).annotate(
        cards=Count("deck__cards", filter=Q(deck__cards__archived=False))
    )
    return [
        AssignedDeck(a.deck_id, a.deck.title, a.deck.slug, a.due_date, a.cards, a.deck.published)
        for a in assignments.select_related("deck").order_by("due_date", "deck__title")
    ]


def members(*, cohort: Cohort):
    return Membership.objects.filter(cohort=cohort, removed_at__isnull=True)


def _behind(row: StudentRow, decks: list[AssignedDeck], now: datetime) -> list[AssignedDeck]:
    """The decks due within DUE_SOON whose cards the student has not all attempted, each with the student's own
    deadline (an extension's). Every deck due by then, overdue ones included: one late is more behind, not less. Not
    a draft: its deadline is out of its students' sight, and its pages 404 for them."""
    # Due dates are calendar days: "within three days" counts them in the reader's time zone, as the student's own
    # Today panel does in theirs, not in UTC's (a day apart for half of every day in Auckland).
    soon = (timezone.localtime(now) + DUE_SOON).date()
    cells = zip(decks, row.cells, strict=True)
    own = ((replace(d, due_date=c.extended_to) if c.extended_to else d, c) for d, c in cells)
    return [d for d, cell in own if d.published and d.due_date and d.due_date <= soon and cell.attempted < cell.cards]


def _flags(row: StudentRow, now: datetime) -> list[str]:
    flags = []
    # Idle since the later of joining and the last answer: a student who joined an hour ago (or rejoined after
    # being removed) has not been inactive for a week, whether they have answered nothing yet or only long ago.
    idle_since = max(row.joined_at, row.last_activity or row.joined_at)
    if idle_since < now - INACTIVE_AFTER:
        flags.append("inactive")
    if (accuracy := row.accuracy) is not None and accuracy < LOW_ACCURACY:
        flags.append("low_accuracy")
    if row.behind:
        flags.append("behind")
    return flags


_STUDENT_FIELDS = ("student__username", "student__first_name", "student__last_name", "student__email")


def cohort_matrix(
    *, cohort: Cohort, now: datetime | None = None, student_id: int | None = None
) -> tuple[list[AssignedDeck], list[StudentRow]]:
    """One row per student (or only `student_id`'s), one cell per assigned deck. Five queries, whatever the size.

    Attempted and mastered count only the cards a deck still asks (not archived ones), as its card count does.
    """
    now = now or timezone.now()
    decks = assigned_decks(cohort=cohort)
    index = {deck.deck_id: i for i, deck in enumerate(decks)}
    enrolled = members(cohort=cohort) if student_id is None else members(cohort=cohort).filter(student_id=student_id)
    # Each student's extensions in the members' own query, as [{"deck": id, "due": "2026-12-12"}, ...].
    extended = Extension.objects.filter(assignment__cohort=cohort, student_id=OuterRef("student_id"))
    extended = ArraySubquery(extended.values(json=JSONObject(deck="assignment__deck_id", due="due_date")))
    rows = {}
    members_read = enrolled.select_related("student").only("student_id", "joined_at", *_STUDENT_FIELDS)
    for m in members_read.annotate(extensions=extended):
        cells = [Cell(cards=d.cards) for d in decks]
        for extension in m.extensions:  # .get: a deck assigned since `decks` was read is not in this matrix
            if (position := index.get(extension["deck"])) is not None:
                cells[position].extended_to = date.fromisoformat(extension["due"])
        rows[m.student_id] = StudentRow(
            m.student_id, m.student.get_username(), m.joined_at, cells,
            full_name=m.student.get_full_name(), email=m.student.email,
        )  # fmt: skip
    # The ids just read, not the subquery again: a student who joined since would have no row.
    member_ids = list(rows)
    archived = archived_cards_answered(users=member_ids, deck_ids=list(index))
    # Only the assigned decks, last activity included: a student busy with other decks is inactive here.
    for stat in StudentDeckStat.objects.filter(user__in=member_ids, deck_id__in=list(index)).values_list(
        "user_id", "deck_id", "cards_attempted", "attempts", "score_sum", "last_answered_at"
    ):
        user_id, deck_id, attempted, answers, score_sum, last = stat
        row = rows[user_id]
        row.last_activity = max(filter(None, [row.last_activity, last]))
        cell = row.cells[index[deck_id]]
        cell.attempted = attempted - archived.get((user_id, deck_id), 0)
        cell.answers, cell.score_sum = answers, score_sum
    mastered = (
        CardState.objects.filter(
            mastered_q(now=now), user__in=member_ids, deck_id__in=list(index), card__archived=False
        )
        .values_list("user_id", "deck_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    for user_id, deck_id, count in mastered:
        rows[user_id].cells[index[deck_id]].mastered = count
    for row in rows.values():
        row.behind = _behind(row, decks, now)
        row.flags = _flags(row, now)
    return decks, list(rows.values())


# StudentRow.accuracy without the matrix: the same sums over the same StudentDeckStat rows (the
# assigned decks', archived cards' answers included), one row per current student.
_ACCURACY_SQL = """
SELECT m.student_id, sum(d.score_sum) / nullif(sum(d.attempts), 0)
FROM cohorts_membership m
LEFT JOIN quiz_studentdeckstat d ON d.user_id = m.student_id
    AND d.deck_id IN (SELECT deck_id FROM cohorts_assignment WHERE cohort_id = %(cohort)s)
WHERE m.cohort_id = %(cohort)s AND m.removed_at IS NULL
GROUP BY m.student_id
"""


def student_accuracies(*, cohort: Cohort) -> dict[int, float | None]:
    """Each current student's accuracy on the assigned decks (None without answers), as the matrix has it. One query."""
    with connection.cursor() as cursor:
        cursor.execute(_ACCURACY_SQL, {"cohort": cohort.pk})
        return dict(cursor.fetchall())


# --- item statistics ---------------------------------------------------------------------


@dataclass(frozen=True)
class PickedOption:
    """A wrong multiple-choice option the cohort's students chose, and how many times."""

    text: str  # its source text, as the answer stored it
    html: str  # rendered and sanitised when its quiz was made: as the students saw it (CohortResponseStat.sample_html)
    count: int


@dataclass
class ItemRow:
    card_id: int
    deck_title: str
    position: int
    question_html: str  # rendered, formulas typeset: what the page shows
    question_text: str  # the same as plain text, formulas read as text: what the CSV gives
    attempts: int = 0
    students: int = 0
    score_sum: float = 0.0
    overrides: int = 0
    discrimination: float | None = None
    discrimination_students: int = 0  # the students it is computed over
    wrong_answers: list[tuple[str, int]] = field(default_factory=list)
    wrong_options: list[PickedOption] = field(default_factory=list)

    @property
    def facility(self) -> float | None:
        return self.score_sum / self.attempts if self.attempts else None

    @property
    def override_rate(self) -> float | None:
        return self.overrides / self.attempts if self.attempts else None

    @property
    def too_few_for_discrimination(self) -> bool:
        return self.discrimination_students < MIN_DISCRIMINATION_STUDENTS

    @property
    def weak_discrimination(self) -> bool:
        return self.discrimination is not None and 0 <= self.discrimination < LOW_DISCRIMINATION

    @property
    def negative_discrimination(self) -> bool:
        """Students who do well overall get it wrong more often than those who do not: as Moodle says, check the
        key (the answer, accepted answers, distractors) rather than read it as a weak card."""
        return self.discrimination is not None and self.discrimination < 0


_ITEM_TOTALS_SQL = """
SELECT card_id, attempts, students, score_sum, overrides
FROM cohorts_cohortcardstat WHERE cohort_id = %(cohort)s AND card_id = ANY(%(cards)s) AND attempts > 0
"""
# Moodle's discrimination index: the correlation, over students, between the score on
# this card and the score on the rest (here the mean of the student's other cards).
_DISCRIMINATION_SQL = """
WITH totals AS (
    SELECT d.user_id, sum(d.mean_sum) AS total, sum(d.cards_attempted) AS n
    FROM quiz_studentdeckstat d
    WHERE d.user_id IN (SELECT student_id FROM cohorts_membership WHERE cohort_id = %(cohort)s AND removed_at IS NULL)
      AND d.deck_id = ANY(%(decks)s)
    GROUP BY d.user_id
)
SELECT s.card_id, corr(s.score_sum / s.attempts, (t.total - s.score_sum / s.attempts) / (t.n - 1)), count(*)
FROM quiz_studentcardstat s JOIN totals t ON t.user_id = s.user_id
WHERE t.n > 1 AND s.deck_id = ANY(%(decks)s)
  -- NULL: every card, which PostgreSQL answers with a (parallel) sequential scan, faster than the index.
  AND (%(cards)s::bigint[] IS NULL OR s.card_id = ANY(%(cards)s))
GROUP BY s.card_id
"""
# Free-recall answers are shown folded, as counted; options as they were offered, typeset as the students saw them.
_WRONG_SQL = """
SELECT card_id, mode, response_key, sample, sample_html, count FROM (
    SELECT card_id, mode, response_key, sample, sample_html, count,
           row_number() OVER (PARTITION BY card_id, mode ORDER BY count DESC, response_key) AS rank
    FROM cohorts_cohortresponsestat
    WHERE cohort_id = %(cohort)s AND count > 0 AND card_id = ANY(%(cards)s)
) ranked WHERE rank <= %(top)s
ORDER BY card_id, mode, count DESC
"""

ItemSort = Literal[
    "facility", "-facility", "discrimination", "-discrimination", "-attempts", "attempts", "-overrides", "overrides"
]
_ITEM_MEASURES: dict[str, Callable[[ItemRow], float | None]] = {
    "facility": lambda row: row.facility,
    "discrimination": lambda row: row.discrimination,
    "attempts": lambda row: row.attempts,
    "overrides": lambda row: row.override_rate,
}


def item_sort(*, raw: str | None) -> ItemSort:
    """`raw` if it is a sort of the items tab, else "facility" (hardest first): the one place ?sort= is checked."""
    return next((key for key in get_args(ItemSort) if key == raw), "facility")


def _item_sort_key(sort: ItemSort, rows: list[ItemRow]) -> Callable[[ItemRow], float]:
    measure = _ITEM_MEASURES[sort.lstrip("-")]
    if sort.lstrip("-") == "facility":
        measure = _facility_for_sorting(rows)
    # Cards without the figure (no attempts, or no variance for discrimination) come last either way.
    missing_last = float("-inf") if sort.startswith("-") else float("inf")
    return lambda row: missing_last if (value := measure(row)) is None else value


def _facility_for_sorting(rows: list[ItemRow]) -> Callable[[ItemRow], float | None]:
    """Facility as if each card had SORT_PRIOR_ANSWERS more answers at the cohort's mean: one wrong answer (0 %)
    ranked above a card twenty students find hard, and "hardest first" opened on whichever card one student tried.
    The page still shows each card's own figure."""
    attempts = sum(row.attempts for row in rows)
    mean = sum(row.score_sum for row in rows) / attempts if attempts else 0.0
    return lambda row: (
        (row.score_sum + SORT_PRIOR_ANSWERS * mean) / (row.attempts + SORT_PRIOR_ANSWERS) if row.attempts else None
    )


def cohort_items(
    *, cohort: Cohort, sort: ItemSort = "facility", offset: int = 0, limit: int | None = 50, top: int = 3
) -> tuple[list[ItemRow], int]:
    """Item statistics of the assigned decks' cards, hardest first by default; (rows, total). Five queries.

    `offset` past the last card gives the last `limit` page (offset a multiple of `limit`, as the view passes it).

    Totals and wrong answers come from the cohort's running totals; discrimination is computed
    live, for the listed cards only unless the sort needs every card. `sort` is one `item_sort` returned.
    """
    decks = assigned_decks(cohort=cohort)
    deck_ids = [d.deck_id for d in decks]
    titles = {d.deck_id: d.title for d in decks}
    rows = {
        card.pk: ItemRow(card.pk, titles[card.deck_id], card.position, card.question_html, card.question_text)
        for card in Card.objects.filter(deck_id__in=deck_ids, archived=False).only(
            "id", "deck_id", "position", "question_html", "question_text"
        )
    }
    params = {"cohort": cohort.pk, "decks": deck_ids, "top": top}
    with connection.cursor() as cursor:
        # Only the assigned decks' cards: the totals hold every card the students ever answered.
        cursor.execute(_ITEM_TOTALS_SQL, {**params, "cards": list(rows)})
        for card_id, attempts, students, score_sum, overrides in cursor.fetchall():
            row = rows[card_id]
            row.attempts, row.students, row.score_sum, row.overrides = attempts, students, score_sum, overrides
        ordered = sorted(rows.values(), key=lambda r: (r.deck_title, r.position))
        if limit and offset >= len(ordered):
            # Past the end (an old link, a typed ?page=): the last page, as the matrix's Paginator.get_page does,
            # not an empty table under "37 cards" that reads as if no deck were assigned.
            offset = max(0, (len(ordered) - 1) // limit * limit)
        needs_all = sort.lstrip("-") == "discrimination"
        if not needs_all:
            ordered = sorted(ordered, key=_item_sort_key(sort, ordered), reverse=sort.startswith("-"))
        chosen = ordered if needs_all or limit is None else ordered[offset : offset + limit]
        _discrimination(cursor, params, {row.card_id: row for row in chosen}, every_card=len(chosen) == len(ordered))
        if needs_all:
            ordered = sorted(ordered, key=_item_sort_key(sort, ordered), reverse=sort.startswith("-"))
            chosen = ordered if limit is None else ordered[offset : offset + limit]
        _wrong_answers(cursor, params, {row.card_id: row for row in chosen})
    return chosen, len(ordered)


def _discrimination(cursor, params: dict, rows: dict[int, ItemRow], *, every_card: bool) -> None:
    cursor.execute(_DISCRIMINATION_SQL, {**params, "cards": None if every_card else list(rows)})
    for card_id, value, students in cursor.fetchall():
        if card_id in rows:
            row = rows[card_id]
            row.discrimination_students = students
            # Too few students: noise, so no figure at all, and the sort puts the card with the undefined ones.
            row.discrimination = value if students >= MIN_DISCRIMINATION_STUDENTS else None


def _wrong_answers(cursor, params: dict, rows: dict[int, ItemRow]) -> None:
    cursor.execute(_WRONG_SQL, {**params, "cards": list(rows)})
    for card_id, mode, key, sample, sample_html, count in cursor.fetchall():
        if mode == "recall":  # as a student wrote it ("I am not sure ..."), not its key ("i am not sure ...")
            rows[card_id].wrong_answers.append(((sample or key).strip(), count))
        else:
            # Every writer stores the option's HTML (migration 0004 the escaped text where no answer had it left);
            # the escaped text is only a guard, so that a row without it still reads as what was chosen.
            html = sample_html or escape(sample)
            rows[card_id].wrong_options.append(PickedOption(text=sample, html=html, count=count))
