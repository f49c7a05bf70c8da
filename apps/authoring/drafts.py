"""The warning an author gets on making assigned decks drafts: the cohorts' students lose them, deadline and all."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest
from django.template.defaultfilters import pluralize
from django.utils.html import format_html

from apps.cohorts.models import Assignment
from apps.common.html import bdi, html_join
from apps.content.models import Deck


def drafts_warn_assigned(request: HttpRequest, *, decks: list[Deck]) -> None:
    """A warning naming each deck made a draft that cohorts have assigned, and the cohorts, with their students."""
    assignments = (
        Assignment.objects.filter(deck__in=decks)
        .select_related("deck", "cohort")
        # Its current students: not those removed, or who left, whom the cohort no longer shows the deck.
        .annotate(students=Count("cohort__memberships", filter=Q(cohort__memberships__removed_at__isnull=True)))
        .order_by("deck__title", "cohort__name")
    )
    cohorts: dict[str, list[str]] = {}
    for assignment in assignments:
        students = f"{assignment.students} student{pluralize(assignment.students)}"
        # Names other instructors wrote: each isolated, so that one right-to-left cannot reorder the rest.
        cohorts.setdefault(assignment.deck.title, []).append(
            format_html("{} ({})", bdi(assignment.cohort.name), students)
        )
    for title, names in cohorts.items():
        said = (
            "{} is assigned to {}: while it is a draft their students neither see it nor its deadline. Publish it "
            "again to give it back."
        )
        messages.warning(request, format_html(said, bdi(title), html_join(", ", names)))
