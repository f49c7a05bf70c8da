"""Per-student deadline extensions: one student's from their page in a cohort, and every student's on one assigned
deck from that deck's extensions page (several granted at once)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html

from apps.common.forms import focus_first_error
from apps.common.html import bdi, html_join
from apps.common.http import HttpResponseSeeOther, render_page_or_partial, require_page_or_form

from . import deadlines, selectors, services
from .forms import ExtensionForm, ExtensionsGrantForm
from .models import Assignment, Cohort


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
            granted = deadlines.extension_grant(
                cohort=cohort, deck_id=deck_id, student_id=student_id,
                due_date=form.cleaned_data["due_date"], granted_by=request.user,
            )  # fmt: skip
        except services.CohortError as exc:
            form.add_error("due_date", str(exc))
        else:
            day = formats.date_format(granted.due_date, "j M Y")
            who, title = membership.student.get_username(), bdi(assignment.deck.title)
            messages.success(request, format_html("{} now has until {} for {}.", who, day, title))
            return HttpResponseSeeOther(reverse("cohorts:student", args=[cohort.pk, student_id]))
    refused = request.method == "POST" and (form is None or bool(form.errors))
    if form is not None:
        focus_first_error(form)
    context = {"cohort": cohort, "membership": membership, "assignment": assignment, "current": current, "form": form}
    return render(request, "cohorts/extension.html", context, status=422 if refused else 200)


@login_required
@require_page_or_form
def extension_remove(request: HttpRequest, pk: int, student_id: int, deck_id: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    membership = selectors.membership_for(cohort=cohort, student_id=student_id)
    assignment = selectors.assignment_for(cohort=cohort, deck_id=deck_id)
    if request.method != "POST":  # "Remove" pressed signed out comes back from signing in as a GET: its page again
        return redirect("cohorts:student", cohort.pk, student_id)
    who, title = membership.student.get_username(), bdi(assignment.deck.title)
    if deadlines.extension_remove(cohort=cohort, deck_id=deck_id, student_id=student_id):
        messages.success(request, format_html("{} is back on the cohort's deadline for {}.", who, title))
    else:  # a double click, or a stale page
        messages.info(request, format_html("{} had no extension for {}; nothing changed.", who, title))
    return HttpResponseSeeOther(reverse("cohorts:student", args=[cohort.pk, student_id]))


# --- one deck's extensions, every student's ------------------------------------------------------------------------
# Its forms post to their own addresses and land back on the page (POST-redirect-GET), or with HTMX get its panel.


def _day(value) -> str:
    return formats.date_format(value, "j M Y")


def _who(names: list[str]) -> str:
    """ "alice", "alice and ann", "alice, ann and bob", or for more "alice, ann, bob and 4 others"."""
    if len(names) > 4:
        return f"{', '.join(names[:3])} and {len(names) - 3} others"
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def _panel(
    request: HttpRequest,
    cohort: Cohort,
    assignment: Assignment,
    *,
    grant_form: ExtensionsGrantForm | None = None,
    changing: tuple[int, ExtensionForm] | None = None,
    problem: str = "",
    note: str = "",
    note_level: str = "success",
    status: int = 200,
) -> HttpResponse:
    """The page, or its panel for HTMX. `grant_form` and `changing` (a student's id and their change form) are the
    forms sent back with their errors; every other form is a fresh one. Six queries, however many students."""
    extensions = selectors.assignment_extensions(assignment=assignment)
    offered = selectors.students_unextended(assignment=assignment) if assignment.due_date else []
    rows, focus = [], "note" if note or problem else ""
    for extension in extensions:
        form = changing[1] if changing and changing[0] == extension.student_id else None
        if form is None and assignment.due_date:
            form = _change_form(assignment, extension.student_id, initial={"due_date": extension.due_date})
        rows.append((extension, form))
    if grant_form is None and assignment.due_date:
        grant_form = _grant_form(cohort, assignment, offered=offered, extended=extensions)
    if grant_form is not None and grant_form.errors:
        focus = focus or "grant"  # its summary: the boxes are many, and the date may be what is wrong
    if changing is not None and changing[1].errors and not focus:
        changing[1].fields["due_date"].widget.attrs.update({"autofocus": True, "data-focus": True})
    context = {
        "cohort": cohort, "assignment": assignment, "rows": rows, "grant_form": grant_form, "offered": offered,
        "problem": problem, "note": note, "note_level": note_level, "focus": focus,
    }  # fmt: skip
    return render_page_or_partial(request, "cohorts/assignment_extensions.html", "panel", context, status=status)


def _change_form(assignment: Assignment, student_id: int, data=None, initial=None) -> ExtensionForm:
    # Ids apart: the page holds one such form per student.
    return ExtensionForm(data, cohort_due=assignment.due_date, initial=initial, auto_id=f"id_student{student_id}_%s")


def _grant_form(cohort, assignment, *, offered, extended, data=None) -> ExtensionsGrantForm:
    return ExtensionsGrantForm(
        data,
        cohort_due=assignment.due_date,
        offered=offered,
        extended={e.student_id: e.student.get_username() for e in extended},
        cohort_name=cohort.name,
    )


def _done(request: HttpRequest, cohort: Cohort, assignment: Assignment, said: str, *, ok: bool = True) -> HttpResponse:
    """After a POST: the page again with a message, or for HTMX the fresh panel saying it (the page's messages are
    outside the panel). `ok`: it changed something; else only information (a double click)."""
    if request.htmx:
        return _panel(request, cohort, assignment, note=said, note_level="success" if ok else "info")
    messages.add_message(request, messages.SUCCESS if ok else messages.INFO, said)
    return HttpResponseSeeOther(reverse("cohorts:assignment_extensions", args=[cohort.pk, assignment.deck_id]))


@login_required
@require_page_or_form
def assignment_extensions(request: HttpRequest, pk: int, deck_id: int) -> HttpResponse:
    """Every current student's extension on one assigned deck, and the form that extends it for several at once."""
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    assignment = selectors.assignment_for(cohort=cohort, deck_id=deck_id)
    if request.method != "POST":
        return _panel(request, cohort, assignment)
    if assignment.due_date is None:  # the page says so; nothing to grant
        return _panel(request, cohort, assignment, status=422)
    extended = selectors.assignment_extensions(assignment=assignment)
    offered = selectors.students_unextended(assignment=assignment)
    # Bound on any POST, an empty one too: it is refused with its errors, not shown as a blank form.
    form = _grant_form(cohort, assignment, offered=offered, extended=extended, data=request.POST)
    if form.is_valid():
        due, chosen = form.cleaned_data["due_date"], form.cleaned_data["students"]
        try:
            deadlines.extensions_grant(
                cohort=cohort, deck_id=deck_id, student_ids=chosen, due_date=due, granted_by=request.user
            )
        except deadlines.ExtensionsRefusedError as exc:
            _refusals_on(form, exc)
        else:
            names = sorted(form.offered[pk] for pk in chosen)
            verb = "has" if len(names) == 1 else "have"
            said = format_html("{} now {} until {} for {}.", _who(names), verb, _day(due), bdi(assignment.deck.title))
            return _done(request, cohort, assignment, said)
    return _panel(request, cohort, assignment, grant_form=form, status=422)


def _refusals_on(form: ExtensionsGrantForm, refused: deadlines.ExtensionsRefusedError) -> None:
    """Each refusal as an error of the form: one about the date once, on the date; one about students on the
    students, naming them."""
    about: dict[tuple[str | None, str], list[str]] = {}
    for student_id, exc in refused.refusals.items():
        about.setdefault((exc.field, str(exc)), []).append(form.offered.get(student_id, "A student"))
    for (field, message), names in about.items():
        form.add_error(field or "students", message if field else format_html("{}: {}", _who(sorted(names)), message))


def _one_extension(request: HttpRequest, pk: int, deck_id: int, student_id: int):
    """The cohort (the user's to instruct), the assigned deck, and the student, a removed one too (to say so)."""
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    assignment = selectors.assignment_for(cohort=cohort, deck_id=deck_id)
    return cohort, assignment, selectors.membership_for(cohort=cohort, student_id=student_id, or_removed=True)


@login_required
@require_page_or_form
def assignment_extension_change(request: HttpRequest, pk: int, deck_id: int, student_id: int) -> HttpResponse:
    """Moves one student's extension from the deck's page. A GET (signing in on the way) goes to the page."""
    cohort, assignment, membership = _one_extension(request, pk, deck_id, student_id)
    if request.method != "POST":
        return redirect("cohorts:assignment_extensions", cohort.pk, deck_id)
    if assignment.due_date is None:
        return _panel(request, cohort, assignment, status=422)
    who = membership.student.get_username()
    form = _change_form(assignment, student_id, data=request.POST)
    if form.is_valid():
        try:
            granted = deadlines.extension_grant(
                cohort=cohort, deck_id=deck_id, student_id=student_id,
                due_date=form.cleaned_data["due_date"], granted_by=request.user,
            )  # fmt: skip
        except services.CohortError as exc:
            if exc.field is None:  # removed meanwhile: their row is gone, so the panel says it
                return _panel(request, cohort, assignment, problem=format_html("{}: {}", who, str(exc)), status=422)
            form.add_error(exc.field, str(exc))
        else:
            said = format_html("{} now has until {} for {}.", who, _day(granted.due_date), bdi(assignment.deck.title))
            return _done(request, cohort, assignment, said)
    if selectors.extension_for(assignment=assignment, student_id=student_id) is None:
        # A stale page: removed meanwhile, so no row shows the error; said above the list instead.
        errors = html_join(" ", (error for field_errors in form.errors.values() for error in field_errors))
        problem = format_html("{} no longer has an extension. {}", who, errors)
        return _panel(request, cohort, assignment, problem=problem, status=422)
    return _panel(request, cohort, assignment, changing=(student_id, form), status=422)


@login_required
@require_page_or_form
def assignment_extension_remove(request: HttpRequest, pk: int, deck_id: int, student_id: int) -> HttpResponse:
    cohort, assignment, membership = _one_extension(request, pk, deck_id, student_id)
    if request.method != "POST":
        return redirect("cohorts:assignment_extensions", cohort.pk, deck_id)
    who, title = membership.student.get_username(), bdi(assignment.deck.title)
    if deadlines.extension_remove(cohort=cohort, deck_id=deck_id, student_id=student_id):
        return _done(
            request, cohort, assignment, format_html("{} is back on the cohort's deadline for {}.", who, title)
        )
    # A double click, a stale page, or a student removed since (their extensions went with them).
    gone = "{} is no longer a student of {}" if membership.removed_at else "{} had no extension"
    return _done(request, cohort, assignment, format_html(gone + "; nothing changed.", who, bdi(cohort.name)), ok=False)
