"""Writes for cohorts: creating and editing, join codes, enrolment and removal (deadlines.py: assignments and
extensions)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html

from apps.accounts.backends import canonical_username
from apps.common.db import student_lock
from apps.common.html import bdi, html_join
from apps.common.ratelimits import try_refund, try_reserve

from .aggregates import cohort_stats_move
from .models import Cohort, Extension, Membership, new_join_code


class CohortError(ValueError):
    """A request that cannot be carried out, with a message for the person who made it, and the form field it is
    about (None: the form's instructors, or no form)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def can_create_cohorts(user: AbstractBaseUser) -> bool:
    return user.is_authenticated and user.has_perm("cohorts.add_cohort")


def cohort_create(*, name: str, instructor: AbstractBaseUser, instructor_usernames: Sequence[str] = ()) -> Cohort:
    """A cohort owned by `instructor`, taught by them and the instructors named; nothing is created if a name is
    refused."""
    if not can_create_cohorts(instructor):
        raise CohortError("Only instructors can create cohorts.")
    others = _instructors_named(instructor_usernames)
    name = _one_spaced(name)
    with transaction.atomic():
        _name_free(name=name, teachers=[*others, instructor], asking=instructor)
        cohort = Cohort.objects.create(name=name, owner=instructor)
        cohort.instructors.set([*others, instructor])
    return cohort


def _one_spaced(name: str) -> str:
    # A page shows "Demo  cohort" as "Demo cohort": two names that read alike must be stored alike.
    return " ".join(name.split())


def _name_free(
    *, name: str, teachers: Sequence[AbstractBaseUser], asking: AbstractBaseUser, cohort: Cohort | None = None
) -> None:
    """An instructor teaches one cohort of a name, letter case aside: two alike on a list are told apart by
    nothing. A rule across rows, so kept here; the teachers' rows are locked first, in one order, so that two
    requests for one name cannot both find it free."""
    User = get_user_model()  # noqa: N806 - Django's idiom
    pks = sorted({teacher.pk for teacher in teachers})
    list(User.objects.select_for_update().filter(pk__in=pks).order_by("pk").values_list("pk", flat=True))
    holders = Cohort.instructors.through.objects.filter(user_id__in=pks, cohort__name__iexact=name)
    if cohort is not None:  # renaming: its own name is not taken
        holders = holders.exclude(cohort=cohort)
    # user id -> (username, the cohort's name as it is written: "Spring ML" for "spring ml")
    held = {
        row[0]: row[1:]
        for row in holders.order_by("user__username").values_list("user_id", "user__username", "cohort__name")
    }
    if asking.pk in held:
        raise CohortError(
            format_html("You already have a cohort named “{}”. Choose another name.", bdi(held[asking.pk][1])),
            field="name",
        )
    if held:
        username, taken = next(iter(held.values()))
        raise CohortError(
            format_html(
                "{0} already teaches a cohort named “{1}”: choose another name, or leave {0} out.",
                bdi(username),
                bdi(taken),
            )
        )


def _named(usernames: Sequence[str]) -> dict[str, str]:
    """Each name typed (stripped) -> the account's name as signing in finds it: in any letter case ("prof_two" is
    Prof_Two), an exact match first (accounts older than that rule, "sam" and "Sam", stay apart)."""
    typed = dict.fromkeys(username.strip() for username in usernames if username.strip())
    return {name: canonical_username(name) for name in typed}


def _instructors_named(usernames: Sequence[str]) -> list[AbstractBaseUser]:
    """The active accounts named (see _named)."""
    User = get_user_model()  # noqa: N806 - Django's idiom
    wanted = _named(usernames)
    accounts = User.objects.filter(**{f"{User.USERNAME_FIELD}__in": set(wanted.values())}, is_active=True)
    found = {user.get_username(): user for user in accounts}
    unknown = sorted(typed for typed, name in wanted.items() if name not in found)
    not_instructors = sorted(name for name, user in found.items() if not can_create_cohorts(user))
    # Both at once: told only of the first, an instructor fixes it and is then told of the second.
    problems = [format_html("No active account is called {}.", html_join(", ", map(bdi, unknown)))] if unknown else []
    if not_instructors:
        problems.append(
            format_html("{} cannot teach: only instructors can.", html_join(", ", map(bdi, not_instructors)))
        )
    if problems:
        raise CohortError(html_join(" ", problems))
    return list(found.values())


def can_change_instructors(*, cohort: Cohort, user: AbstractBaseUser) -> bool:
    """Only the owner adds and removes a cohort's instructors. A cohort with none (their account was deleted) is
    taken over first, which any of its instructors may do (cohort_owner_set)."""
    return cohort.owner_id is not None and cohort.owner_id == user.pk


def cohort_update(*, cohort: Cohort, name: str, instructor_usernames: list[str], editor: AbstractBaseUser) -> Cohort:
    """Renames the cohort and, edited by its owner, sets its instructors to the owner and those named. Anyone else
    (a co-instructor, a superuser) only renames it: the names must then be its instructors as they are, the owner
    among them, or nothing at all is saved."""
    name = _one_spaced(name)
    with transaction.atomic():
        # Locked, as a hand-over locks it: whether the editor owns the cohort holds until this is saved.
        list(Cohort.objects.select_for_update().filter(pk=cohort.pk).values_list("pk", flat=True))
        cohort.refresh_from_db(fields=["owner"])
        if not can_change_instructors(cohort=cohort, user=editor):
            _instructors_kept(cohort=cohort, usernames=instructor_usernames, editor=editor)
            _name_free(name=name, teachers=list(cohort.instructors.all()), asking=editor, cohort=cohort)
            cohort.name = name
            cohort.save(update_fields=["name"])
            return cohort
        others = _instructors_named(instructor_usernames)
        _name_free(name=name, teachers=[*others, editor], asking=editor, cohort=cohort)
        # As joining refuses its instructors: one person both taught and counted among the students whose progress
        # and item statistics the dashboard shows.
        students = Membership.objects.filter(
            cohort=cohort, removed_at__isnull=True, student__in=[teacher.pk for teacher in others]
        ).order_by("student__username")
        if learners := list(students.values_list("student__username", flat=True)):
            said = "{} {} of {}: remove them from its students first, to make them one of its instructors."
            verb = "is a student" if len(learners) == 1 else "are students"
            raise CohortError(format_html(said, html_join(", ", map(bdi, learners)), verb, bdi(cohort.name)))
        cohort.name = name
        cohort.save(update_fields=["name"])
        cohort.instructors.set([*others, editor])
    return cohort


def _instructors_kept(*, cohort: Cohort, usernames: Sequence[str], editor: AbstractBaseUser) -> None:
    """Refuses names that are not the cohort's instructors as they are (the editor aside): only its owner may
    change them."""
    named = set(_named(usernames).values())
    teaching = set(cohort.instructors.exclude(pk=editor.pk).values_list("username", flat=True))
    if named == teaching:
        return
    if cohort.owner is None:
        said = "{} has no owner, and only an owner adds or removes instructors: choose one below first."
        raise CohortError(format_html(said, bdi(cohort.name)))
    said = "Only {}, who owns {}, can add or remove its instructors."
    raise CohortError(format_html(said, bdi(cohort.owner.get_username()), bdi(cohort.name)))


def cohort_owner_set(*, cohort: Cohort, owner_id: int, editor: AbstractBaseUser) -> Cohort:
    """Hands the cohort to another of its instructors. Only its owner may, or any of its instructors once it has
    none (the owner's account was deleted); the former owner stays an instructor."""
    with transaction.atomic():
        cohort = Cohort.objects.select_for_update().get(pk=cohort.pk)
        if cohort.owner_id is not None and cohort.owner_id != editor.pk:
            said = "Only {}, who owns {}, can hand it over."
            raise CohortError(format_html(said, bdi(cohort.owner.get_username()), bdi(cohort.name)))
        new_owner = cohort.instructors.filter(pk=owner_id).first()
        if new_owner is None:
            raise CohortError("The new owner must be one of the cohort's instructors.", field="owner")
        cohort.owner = new_owner
        cohort.save(update_fields=["owner"])
    return cohort


def cohort_code_regenerate(*, cohort: Cohort) -> str:
    """A new join code; the old one and invite links carrying it stop working."""
    for _ in range(5):
        try:
            with transaction.atomic():
                cohort.join_code = new_join_code()
                cohort.save(update_fields=["join_code"])
            return cohort.join_code
        except IntegrityError:
            continue
    raise CohortError("Could not make a new code; please try again.")


def normalise_code(code: str) -> str:
    return "".join(code.split()).upper().replace("-", "")


def cohort_for_code(code: str) -> Cohort | None:
    code = normalise_code(code)
    # An invite link can carry anything, and PostgreSQL refuses a NUL byte in a query rather than not matching it.
    if "\x00" in code:
        return None
    return Cohort.objects.filter(join_code=code).first()


# Join codes tried that matched no cohort, per signed-in account and per client address. Counting and giving back
# must name the same group and key: django-ratelimit makes the counts' cache keys of them.
_JOIN_TRIES_ACCOUNT = {"group": "join-code-account", "key": "user"}
_JOIN_TRIES_ADDRESS = {"group": "join-code-ip", "key": "ip"}


@dataclass(frozen=True)
class JoinPause:
    """Why join codes are not looked up for this request (its account's tries, or its address's), and how long for."""

    account: bool
    left: timedelta


def join_try_begin(*, request: HttpRequest) -> JoinPause | None:
    """Counts the code(s) this request is about to look up as a wrong try, against its account and then its address;
    join_try_right gives it back once they match a cohort. A JoinPause when a limit refuses it: then nothing may be
    looked up, so that a right guess is refused as a wrong one is.

    The account comes first and a try it refuses stops there: one student, once over her own limit, spends no more
    of the allowance her classmates share behind their school's address. A try the address refuses is given back to
    the account, as it was never made.
    """
    signed_in = request.user.is_authenticated
    if signed_in:
        left = try_reserve(request, **_JOIN_TRIES_ACCOUNT, rate=settings.JOIN_ACCOUNT_RATE)
        if left is not None:
            return JoinPause(account=True, left=left)
    left = try_reserve(request, **_JOIN_TRIES_ADDRESS, rate=settings.JOIN_RATE)
    if left is not None:
        if signed_in:
            try_refund(request, **_JOIN_TRIES_ACCOUNT, rate=settings.JOIN_ACCOUNT_RATE)
        return JoinPause(account=False, left=left)
    return None


def join_try_right(*, request: HttpRequest) -> None:
    """The code(s) a try counted by join_try_begin looked up all matched a cohort: not a guess, so it counts for
    neither limit (a class opening the invite link and joining uses none of it)."""
    if request.user.is_authenticated:
        try_refund(request, **_JOIN_TRIES_ACCOUNT, rate=settings.JOIN_ACCOUNT_RATE)
    try_refund(request, **_JOIN_TRIES_ADDRESS, rate=settings.JOIN_RATE)


def cohort_join(*, student: AbstractBaseUser, code: str) -> Membership:
    """Enrols the student in the cohort the code belongs to; joining again after removal re-enrols."""
    cohort = cohort_for_code(code)
    if cohort is None:
        raise CohortError("That code does not match any cohort. Check it with your instructor.")
    if cohort.instructors.filter(pk=student.pk).exists():
        raise CohortError(format_html("You teach {}; instructors do not join as students.", bdi(cohort.name)))
    with transaction.atomic():
        membership, created = Membership.objects.select_for_update().get_or_create(cohort=cohort, student=student)
        rejoined = not created and membership.removed_at is not None
        if rejoined:
            membership.removed_at = None
            membership.joined_at = timezone.now()
            membership.save(update_fields=["removed_at", "joined_at"])
        if created or rejoined:
            cohort_stats_move(cohort_id=cohort.pk, user_id=student.pk, joining=True)
    return membership


def cohort_remove_student(*, cohort: Cohort, student_id: int) -> int:
    """Takes the student out of the cohort (their answers stay theirs): how many of their extensions ended with it."""
    with transaction.atomic():
        membership = Membership.objects.select_for_update().get(cohort=cohort, student_id=student_id)
        if membership.removed_at is None:
            membership.removed_at = timezone.now()
            membership.save(update_fields=["removed_at"])
            cohort_stats_move(cohort_id=cohort.pk, user_id=student_id, joining=False)
        # Granted to a student of the cohort: joining again starts with the cohort's deadlines, as anyone does.
        ended, _ = Extension.objects.filter(assignment__cohort=cohort, student_id=student_id).delete()
    return ended


def cohorts_leave_all(*, student_id: int) -> None:
    """Takes the student's answers out of every cohort they are in; for an account about to be deleted.

    Its memberships and its own totals cascade away with the user row, but the cohorts' totals hold
    its answers too, so they leave as a removal takes them, while the answers are still there to count.
    """
    memberships = Membership.objects.filter(student_id=student_id)
    with transaction.atomic():
        # The rows first, then the student's lock, in the order a join or a removal takes them; the
        # cohorts are read once both are held, so a join or removal that finished first is seen.
        list(memberships.select_for_update().values_list("pk", flat=True))
        student_lock(student_id)
        current = memberships.filter(removed_at__isnull=True).order_by("cohort_id").values_list("cohort_id", flat=True)
        for cohort_id in current:
            cohort_stats_move(cohort_id=cohort_id, user_id=student_id, joining=False)


def on_user_deleting(sender, *, instance: AbstractBaseUser, **kwargs) -> None:
    """pre_delete of the user model: sent inside the deletion's transaction, before any of its rows go."""
    cohorts_leave_all(student_id=instance.pk)
