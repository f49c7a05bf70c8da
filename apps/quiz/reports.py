"""Students' reports of problems with cards, and instructors reading and dealing with them."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from apps.content.models import Card

from .models import CardReport, SessionItem


class InvalidReportError(ValueError):
    """A report that cannot be taken, with the reason to show."""


def card_report_submit(*, user: AbstractBaseUser, item: SessionItem, message: str) -> tuple[CardReport, str]:
    """Files the student's report on the card of an answered question; returns (report, outcome).

    The outcome is "created"; or "added" when the student already has a report on the card waiting, and this
    note, which says something else, joins it; or "repeated" when the note is already in it (a second click, a
    resend). One report per card waits in the instructors' queue, and nothing the student wrote is dropped: the
    form is offered again on every feedback, a later quiz's too.
    """
    # A form sends its line breaks as CRLF: each is one character to the student, as the limit says.
    message = message.replace("\r\n", "\n").strip()
    if not message:
        raise InvalidReportError("Say what is wrong with this card.")
    if "\x00" in message:
        raise InvalidReportError("The report contains a NUL character, which cannot be stored: remove it.")
    if len(message) > CardReport.MAX_LENGTH:
        raise InvalidReportError(
            f"A report holds at most {CardReport.MAX_LENGTH:,} characters; this one has {len(message):,}."
        )
    answer = getattr(item, "answer", None)
    if answer is None or answer.user_id != user.pk:
        raise InvalidReportError("Answer the question before reporting its card.")
    try:
        with transaction.atomic():
            return CardReport.objects.create(card_id=item.card_id, user=user, answer=answer, message=message), "created"
    except IntegrityError:
        pass
    with transaction.atomic():
        report = CardReport.objects.select_for_update().get(card_id=item.card_id, user=user, resolved_at__isnull=True)
        if f"\n\n{message}\n\n" in f"\n\n{report.message}\n\n":  # a note is a paragraph of the report
            return report, "repeated"
        joined = f"{report.message}\n\n{message}"
        if len(joined) > CardReport.MAX_LENGTH:
            room = CardReport.MAX_LENGTH - len(report.message) - 2
            raise InvalidReportError(
                f"Your report on this card is waiting for the instructors, and this note would take it past "
                f"{CardReport.MAX_LENGTH:,} characters: shorten it to {max(room, 0):,}."
                if room > 0
                else "Your report on this card is waiting for the instructors and is full; send this note once "
                "they have dealt with it."
            )
        report.message = joined
        report.save(update_fields=["message"])
        return report, "added"


def card_reports_resolve(*, reports: QuerySet[CardReport], by: AbstractBaseUser) -> int:
    """Marks the open ones among `reports` dealt with; returns how many."""
    return reports.filter(resolved_at__isnull=True).update(resolved_at=timezone.now(), resolved_by=by)


def card_reports_reopen(*, reports: QuerySet[CardReport]) -> int:
    """Opens resolved reports again, except where the student has opened another on the card since."""
    reopened = 0
    for report in reports.filter(resolved_at__isnull=False).order_by("pk"):
        try:
            with transaction.atomic():
                reopened += CardReport.objects.filter(pk=report.pk).update(resolved_at=None, resolved_by=None)
        except IntegrityError:
            continue
    return reopened


def card_reports_open_count(*, user: AbstractBaseUser) -> int:
    """How many students' reports on cards wait to be dealt with, for a user who may read them (else 0)."""
    if not user.has_perm("quiz.view_cardreport"):
        return 0
    return CardReport.objects.filter(resolved_at__isnull=True).count()


def card_reports_open(*, card: Card, user: AbstractBaseUser) -> list[CardReport]:
    """The card's reports waiting to be dealt with, oldest first, with the answers they were sent from, for a user
    who may read reports (else none). Two queries at most."""
    if not user.has_perm("quiz.view_cardreport"):
        return []
    return list(
        CardReport.objects.filter(card=card, resolved_at__isnull=True)
        .select_related("user", "answer")
        .order_by("created_at")
    )
