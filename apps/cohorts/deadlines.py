"""Writes for a cohort's deadlines: the decks assigned with their due dates, and per-student extensions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import formats, timezone
from django.utils.html import format_html

from apps.common.html import bdi, html_join
from apps.content.models import Deck

from .models import Assignment, Cohort, Extension, Membership
from .services import CohortError


@dataclass(frozen=True)
class AssignmentChange:
    """What assigning a deck did: the one form both assigns and sets (or, left empty, clears) a due date."""

    created: bool
    due_before: date | None
    due: date | None
    extensions_dropped: int = 0  # no longer later than the new due date, or with none left to extend


def assignment_set(*, cohort: Cohort, deck: Deck, due_date: date | None) -> AssignmentChange:
    with transaction.atomic():
        before = Assignment.objects.select_for_update().filter(cohort=cohort, deck=deck).values("due_date").first()
        assignment, _ = Assignment.objects.update_or_create(cohort=cohort, deck=deck, defaults={"due_date": due_date})
        stale = Extension.objects.filter(assignment=assignment)
        if due_date is not None:
            stale = stale.filter(due_date__lte=due_date)
        dropped, _ = stale.delete()
    return AssignmentChange(
        created=before is None, due_before=before and before["due_date"], due=due_date, extensions_dropped=dropped
    )


def assignment_remove(*, cohort: Cohort, deck_id: int) -> int | None:
    """Unassigns the deck, ending its students' extensions: how many ended, or None (and nothing changes) if it was
    not assigned to the cohort."""
    deleted, per_model = Assignment.objects.filter(cohort=cohort, deck_id=deck_id).delete()
    return per_model.get(Extension._meta.label, 0) if deleted else None


def _too_early(*, cohort: Cohort, assignment: Assignment, due_date: date) -> CohortError | None:
    """Why `due_date` extends nothing (the assignment has no due date, or it is not later), or None."""
    if assignment.due_date is None:
        said = "{} has no due date in {}: there is no deadline to extend."
        return CohortError(format_html(said, bdi(assignment.deck.title), bdi(cohort.name)), field="due_date")
    if due_date <= assignment.due_date:
        deadline = formats.date_format(assignment.due_date, "j M Y")
        return CohortError(
            f"Choose a date after the cohort's deadline, {deadline}: an extension is later.", field="due_date"
        )
    return None


def extension_grant(
    *, cohort: Cohort, deck_id: int, student_id: int, due_date: date, granted_by: AbstractBaseUser
) -> Extension:
    """Gives one current student of the cohort a later deadline for one of its assigned decks, or moves the one
    they have: extensions_grant for one."""
    try:
        (extension,) = extensions_grant(
            cohort=cohort, deck_id=deck_id, student_ids=[student_id], due_date=due_date, granted_by=granted_by
        )
    except ExtensionsRefusedError as refused:
        raise refused.refusals[student_id] from None
    return extension


def extension_remove(*, cohort: Cohort, deck_id: int, student_id: int) -> bool:
    """The student is back on the cohort's deadline; False (and nothing changes) if they had no extension."""
    extensions = Extension.objects.filter(assignment__cohort=cohort, assignment__deck_id=deck_id, student_id=student_id)
    deleted, _ = extensions.delete()
    return deleted > 0


class ExtensionsRefusedError(CohortError):
    """A grant to several students that extension_grant refused for some of them, so for none: each refusal by the
    student it was about."""

    def __init__(self, refusals: dict[int, CohortError]) -> None:
        super().__init__(html_join(" ", dict.fromkeys(str(exc) for exc in refusals.values())))
        self.refusals = refusals


def extensions_grant(
    *, cohort: Cohort, deck_id: int, student_ids: Sequence[int], due_date: date, granted_by: AbstractBaseUser
) -> list[Extension]:
    """Gives each student the same later deadline for one assigned deck, each by extension_grant's rules, all or
    none: one refused, none is granted, and every refusal is told (not only the first), so the instructor fixes the
    choice once. Five queries, however many students (a whole cohort's worth)."""
    chosen = sorted(set(student_ids))
    refusals: dict[int, CohortError] = {}
    with transaction.atomic():
        # The assignment's row is locked as extension_grant locks it: grants on one deck queue behind each other, and
        # a due date changed meanwhile is the one compared with. The memberships are locked as a removal locks them,
        # in id order (locking follows the sort), whatever order the form sent them in.
        assignment = Assignment.objects.select_for_update().select_related("deck")
        assignment = assignment.filter(cohort=cohort, deck_id=deck_id).first()
        if assignment is None:
            raise ExtensionsRefusedError(
                dict.fromkeys(chosen, CohortError(format_html("That deck is not assigned to {}.", bdi(cohort.name))))
            )
        members = Membership.objects.select_for_update().filter(cohort=cohort, student_id__in=chosen)
        current = {pk for pk, removed in members.order_by("student_id").values_list("student_id", "removed_at")
                   if removed is None}  # fmt: skip
        late = _too_early(cohort=cohort, assignment=assignment, due_date=due_date)
        for student_id in chosen:
            if student_id not in current:
                said = format_html("Only students of {} can have an extension.", bdi(cohort.name))
                refusals[student_id] = CohortError(said)
            elif late is not None:
                refusals[student_id] = late
        if refusals:
            raise ExtensionsRefusedError(refusals)
        now = timezone.now()
        granted = [
            Extension(assignment=assignment, student_id=student_id, due_date=due_date, granted_by=granted_by,
                      granted_at=now)
            for student_id in chosen
        ]  # fmt: skip
        Extension.objects.bulk_create(
            granted,
            update_conflicts=True,
            unique_fields=["assignment", "student"],
            update_fields=["due_date", "granted_by", "granted_at"],
        )
    return granted
