"""Per-student deadline extensions, granted, moved and removed from the student's page in a cohort."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import formats
from django.views.decorators.http import require_POST

from apps.common.forms import focus_first_error
from apps.common.http import HttpResponseSeeOther, require_page_or_form

from . import selectors, services
from .forms import ExtensionForm


@login_required
@require_page_or_form
def extension(request: HttpRequest, pk: int, student_id: int, deck_id: int) -> HttpResponse:
    """Give one student a later deadline for one deck, or move theirs; the student page's forms post here, and
    land here when refused."""
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    membership = selectors.membership_for(cohort=cohort, student_id=student_id)
    assignment = selectors.assignment_for(cohort=cohort, deck_id=deck_id)
    current = selectors.extension_for(assignment=assignment, student_id=student_id)
    form = None
    if assignment.due_date:
        initial = {"due_date": current.due_date if current else None}
        # Bound on any POST, an empty one too: it is refused with its error, not shown as a blank form.
        data = request.POST if request.method == "POST" else None
        form = ExtensionForm(data, cohort_due=assignment.due_date, initial=initial)
    if request.method == "POST" and form is not None and form.is_valid():
        try:
            granted = services.extension_grant(
                cohort=cohort, deck_id=deck_id, student_id=student_id,
                due_date=form.cleaned_data["due_date"], granted_by=request.user,
            )  # fmt: skip
        except services.CohortError as exc:
            form.add_error("due_date", str(exc))
        else:
            day = formats.date_format(granted.due_date, "j M Y")
            who, title = membership.student.get_username(), assignment.deck.title
            messages.success(request, f"{who} now has until {day} for {title}.")
            return HttpResponseSeeOther(reverse("cohorts:student", args=[cohort.pk, student_id]))
    refused = request.method == "POST" and (form is None or bool(form.errors))
    if form is not None:
        focus_first_error(form)
    context = {"cohort": cohort, "membership": membership, "assignment": assignment, "current": current, "form": form}
    return render(request, "cohorts/extension.html", context, status=422 if refused else 200)


@login_required
@require_POST
def extension_remove(request: HttpRequest, pk: int, student_id: int, deck_id: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    membership = selectors.membership_for(cohort=cohort, student_id=student_id)
    assignment = selectors.assignment_for(cohort=cohort, deck_id=deck_id)
    who, title = membership.student.get_username(), assignment.deck.title
    if services.extension_remove(cohort=cohort, deck_id=deck_id, student_id=student_id):
        messages.success(request, f"{who} is back on the cohort's deadline for {title}.")
    else:  # a double click, or a stale page
        messages.info(request, f"{who} had no extension for {title}; nothing changed.")
    return HttpResponseSeeOther(reverse("cohorts:student", args=[cohort.pk, student_id]))
