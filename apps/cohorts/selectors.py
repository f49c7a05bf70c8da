"""Reads for cohorts: who may see what, and the student's own view of their cohorts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Literal

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Exists, F, Func, OuterRef, Q, QuerySet, Subquery, TextField, Value
from django.db.models.functions import Cast, Coalesce
from django.http import Http404
from django.utils import timezone

from apps.quiz.models import Answer
from apps.quiz.selectors import cards_studied

from .analytics import DUE_SOON
from .models import Assignment, Cohort, Extension, Membership


def cohort_for_instructor(*, user: AbstractBaseUser, pk: int) -> Cohort:
    """The cohort if the user teaches it (or is a superuser); otherwise 404, never a hint it exists."""
    cohorts = Cohort.objects.all()
    if not user.is_superuser:
        cohorts = cohorts.filter(instructors=user)
    cohort = cohorts.filter(pk=pk).first()
    if cohort is None:
        raise Http404("No such cohort")
    return cohort


def cohorts_taught(*, user: AbstractBaseUser) -> QuerySet[Cohort]:
    """The user's cohorts with their current students, the decks assigned that students can take (`decks`), and
    the drafts assigned, which they cannot (`drafts`)."""
    return (
        Cohort.objects.filter(instructors=user)
        .select_related("owner")
        .annotate(
            students=Count("memberships", filter=Q(memberships__removed_at__isnull=True), distinct=True),
            decks=Count("assignments", filter=Q(assignments__deck__published=True), distinct=True),
            drafts=Count("assignments", filter=Q(assignments__deck__published=False), distinct=True),
        )
        .order_by("name")
    )


def taught(*, user: AbstractBaseUser, student: str) -> Q:
    """Rows whose `student` (a field naming a user) is, or was, in a cohort the user teaches, or is the user themself
    (an instructor trying out a quiz): the rule of students_taught, for a query that reads many rows."""
    return Q(**{student: user.pk}) | Q(
        Exists(Membership.objects.filter(student=OuterRef(student), cohort__instructors=user))
    )


def students_taught(*, user: AbstractBaseUser, student_ids: Iterable[int]) -> set[int]:
    """Those of the students who are taught by the user (see taught): every one for a superuser. Card reports and
    regrades are for any instructor who edits cards, but an instructor learns only their own students' names from
    them. One query, or none."""
    ids = set(student_ids)
    if user.is_superuser or not ids:
        return ids
    students = get_user_model().objects.filter(taught(user=user, student="pk"), pk__in=ids)
    return set(students.values_list("pk", flat=True))


def student_name(*, student: AbstractBaseUser, taught: set[int]) -> str:
    """The user name of one of the viewer's students (`taught`, from students_taught); "" for anyone else's."""
    return student.get_username() if student.pk in taught else ""


def cohort_for_student(*, user: AbstractBaseUser, pk: int, or_left: bool = False) -> Cohort:
    """The cohort if the user is one of its current students (or, with or_left, was one); otherwise 404, as for a
    cohort they cannot see."""
    membership = Membership.objects.select_related("cohort").filter(cohort_id=pk, student_id=user.pk).first()
    if membership is None or (membership.removed_at is not None and not or_left):
        raise Http404("Not a student of this cohort")
    return membership.cohort


def student_extensions(*, user: AbstractBaseUser, cohort: Cohort) -> list[Extension]:
    """The user's own later deadlines in the cohort, soonest first, with their decks: what leaving it drops."""
    extensions = Extension.objects.filter(assignment__cohort=cohort, student_id=user.pk)
    return list(extensions.select_related("assignment__deck").order_by("due_date", "assignment__deck__title"))


def membership_for(*, cohort: Cohort, student_id: int, or_removed: bool = False) -> Membership:
    """The student's current membership, else 404: once removed, none of their answers are the cohort's to see.
    With or_removed, a removed student's too (to name them in saying they are gone); never in it, still 404."""
    memberships = Membership.objects.select_related("student")
    if not or_removed:
        memberships = memberships.filter(removed_at__isnull=True)
    membership = memberships.filter(cohort=cohort, student_id=student_id).first()
    if membership is None:
        raise Http404("No such student in this cohort")
    return membership


def assignment_for(*, cohort: Cohort, deck_id: int) -> Assignment:
    """The cohort's assignment of the deck, else 404."""
    assignment = Assignment.objects.select_related("deck").filter(cohort=cohort, deck_id=deck_id).first()
    if assignment is None:
        raise Http404("No such deck assigned to this cohort")
    return assignment


def extension_for(*, assignment: Assignment, student_id: int) -> Extension | None:
    return Extension.objects.filter(assignment=assignment, student_id=student_id).first()


def assignment_extensions(*, assignment: Assignment) -> list[Extension]:
    """The extensions on the assignment of its cohort's current students, by user name, with who granted each."""
    current = Membership.objects.filter(cohort_id=assignment.cohort_id, removed_at__isnull=True)
    extensions = Extension.objects.filter(assignment=assignment, student__in=current.values("student_id"))
    return list(extensions.select_related("student", "granted_by").order_by("student__username"))


def students_unextended(*, assignment: Assignment) -> list[tuple[int, str, str]]:
    """The cohort's current students with no extension on the assignment, by user name: (id, user name, full
    name), what the form granting several at once offers."""
    memberships = Membership.objects.filter(cohort_id=assignment.cohort_id, removed_at__isnull=True)
    memberships = memberships.exclude(student__extensions__assignment=assignment).select_related("student")
    return [
        (m.student_id, m.student.get_username(), m.student.get_full_name())
        for m in memberships.order_by("student__username")
    ]


def chosen_option_html() -> Func:
    """The chosen option's HTML as its question showed it (SessionItem.options, rendered and sanitised when the
    quiz was made), read in the answers' own query; NULL for a typed answer or a revealed one."""
    return Func(
        F("item__options"),
        Cast("chosen_option", TextField()),
        Value("html"),
        function="jsonb_extract_path_text",
        output_field=TextField(),
    )


def student_answers(*, cohort: Cohort, student_id: int, offset: int = 0, limit: int = 50) -> tuple[list[Answer], int]:
    """The student's answers on the cohort's assigned decks, newest first; (page, total).

    Each has `chosen_html`: the option picked, typeset as the student saw it (None for a typed answer).
    `offset` past the last answer gives the last page (offset a multiple of `limit`, as the view passes it), as
    the dashboard's tabs do, rather than an empty list under "120 answers".
    """
    answers = Answer.objects.filter(user_id=student_id, card__deck__assignments__cohort=cohort)
    total = answers.count()
    if offset >= total:
        offset = max(0, (total - 1) // limit * limit)
    page = answers.select_related("card__deck", "card_version").annotate(chosen_html=chosen_option_html())
    return list(page.order_by("-answered_at")[offset : offset + limit]), total


@dataclass(frozen=True)
class StudentAssignment:
    cohort: Cohort
    deck_title: str
    deck_slug: str
    due_date: date | None  # the student's own: their extension's, else the cohort's
    cards: int
    attempted: int
    days_left: int | None = None  # to the due date, in the user's time zone; negative once it has passed
    cohort_due_date: date | None = None  # the cohort's, for everyone without an extension

    @property
    def extended(self) -> bool:
        return self.due_date != self.cohort_due_date

    @property
    def completion(self) -> float | None:
        """None for a deck with no cards yet: nothing to complete, shown as "—", not "0 %"."""
        return self.attempted / self.cards if self.cards else None

    @property
    def done(self) -> bool:
        return self.cards > 0 and self.attempted >= self.cards


def student_cohorts(*, user: AbstractBaseUser) -> list[tuple[Cohort, list[StudentAssignment]]]:
    """The user's cohorts with their assigned decks, their own due dates (an extension's, else the cohort's) and
    completion, soonest due first. Three queries.

    Completion counts only the cards a deck still asks (not archived ones), as its card count does.
    """
    memberships = list(Membership.objects.filter(student=user, removed_at__isnull=True).select_related("cohort"))
    cohorts = {m.cohort_id: m.cohort for m in memberships}
    attempted = dict(cards_studied(user=user).values_list("deck_id").annotate(n=Count("pk")).order_by())
    assignments = (
        Assignment.objects.filter(
            cohort__in=list(cohorts), deck__published=True
        )  # not drafts: students cannot open them
        .select_related("deck")
        .annotate(
            cards=Count("deck__cards", filter=Q(deck__cards__archived=False)),
            own_due=Coalesce(
                Subquery(Extension.objects.filter(assignment=OuterRef("pk"), student=user).values("due_date")),
                "due_date",
            ),
        )
        .order_by("own_due", "deck__title")
    )
    grouped: dict[int, list[StudentAssignment]] = {pk: [] for pk in cohorts}
    today = timezone.localdate()
    for a in assignments:
        days_left = (a.own_due - today).days if a.own_due else None
        grouped[a.cohort_id].append(
            StudentAssignment(
                cohorts[a.cohort_id],
                a.deck.title,
                a.deck.slug,
                a.own_due,
                a.cards,
                attempted.get(a.deck_id, 0),
                days_left,
                cohort_due_date=a.due_date,
            )
        )
    return [(cohorts[pk], items) for pk, items in grouped.items()]


def deadlines_near(*, user: AbstractBaseUser) -> list[StudentAssignment]:
    """The user's assigned decks overdue or due within the dashboard's "behind" window whose cards they have not
    all attempted, soonest first: what the home page's Today panel warns of. Three queries (student_cohorts)."""
    window = DUE_SOON.days
    near = [
        a
        for _cohort, assignments in student_cohorts(user=user)
        for a in assignments
        if a.days_left is not None and a.days_left <= window and a.cards and not a.done
    ]
    return sorted(near, key=lambda a: (a.days_left, a.deck_title, a.cohort.name))


def place_in_cohort(*, user: AbstractBaseUser, cohort: Cohort) -> Literal["instructor", "student"] | None:
    """What the user already is in the cohort: one of its instructors, a current student, or neither (None).

    A removed student is neither: the join code lets them back in.
    """
    if not user.is_authenticated:
        return None
    if cohort.instructors.filter(pk=user.pk).exists():
        return "instructor"
    if Membership.objects.filter(cohort=cohort, student=user, removed_at__isnull=True).exists():
        return "student"
    return None
