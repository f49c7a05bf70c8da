from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from apps.common.forms import focus_first_error
from apps.common.html import bdi
from apps.common.http import HttpResponseSeeOther, render_page_or_partial, require_page_or_form
from apps.common.ratelimits import minutes_left
from apps.content.models import Deck
from apps.quiz.reports import card_reports_open_count

from . import analytics, charts, deadlines, exports, selectors, services, sorting
from .forms import AssignmentForm, CohortForm, ExtensionForm, JoinForm, cohort_manage_form
from .models import Cohort, Extension

PAGE_SIZE = 50
# The dashboard's tabs (?tab=) and, per assigned deck, the matrix's sortable columns (sort=deck-<id>-<key>).
TABS = {"matrix": "Students", "items": "Item statistics", "charts": "Charts"}
DECK_COLUMNS = (("attempted", "Attempted"), ("accuracy", "Accuracy"), ("mastered", "Mastered"))


@login_required
@require_safe
def cohort_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "cohorts/list.html",
        {
            "taught": selectors.cohorts_taught(user=request.user),
            "can_create": services.can_create_cohorts(request.user),
            "joined": selectors.student_cohorts(user=request.user),
            "join_form": JoinForm(),
            "open_reports": card_reports_open_count(user=request.user),
        },
    )


@login_required
@require_page_or_form
def cohort_create(request: HttpRequest) -> HttpResponse:
    if not services.can_create_cohorts(request.user):
        raise PermissionDenied
    form = CohortForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            cohort = services.cohort_create(
                name=form.cleaned_data["name"], instructor=request.user, instructor_usernames=form.usernames()
            )
        except services.CohortError as exc:
            form.add_error(exc.field or "instructors", str(exc))
        else:
            said = "Cohort “<bdi>{}</bdi>” created. Assign decks and share the join code."
            messages.success(request, format_html(said, cohort.name))
            return redirect(reverse("cohorts:manage", args=[cohort.pk]))
    return render(request, "cohorts/new.html", {"form": form}, status=422 if form.errors else 200)


# Far beyond any real page, and keeps (page - 1) * PAGE_SIZE a valid SQL OFFSET (a bigint).
MAX_PAGE = 1_000_000


def _int(value: str | None, default: int = 1) -> int:
    try:
        return min(max(1, int(value or default)), MAX_PAGE)
    except ValueError:
        return default


@login_required
@require_safe
def dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    tab = request.GET.get("tab") if request.GET.get("tab") in TABS else "matrix"
    context = {"cohort": cohort, "tab": tab, "tabs": TABS.items(), "flags": analytics.FLAGS}
    if tab == "matrix":
        context.update(_matrix_context(request, cohort))
    elif tab == "items":
        context.update(_items_context(request, cohort))
    else:
        per_day = charts.answers_per_day(cohort=cohort)
        accuracies = analytics.student_accuracies(cohort=cohort).values()
        context.update(activity=charts.activity_chart(per_day), accuracy=charts.accuracy_histogram(accuracies))
    return render_page_or_partial(request, "cohorts/dashboard.html", "panel", context)


def _matrix_rows(
    request: HttpRequest, cohort: Cohort
) -> tuple[list[analytics.AssignedDeck], list[analytics.StudentRow], str, sorting.MatrixSort]:
    """The students ?flag= picks, in the order ?sort= asks: (decks, rows, flag, sort). The page and its CSV both
    come through here, so the CSV linked from a filtered, sorted page holds exactly that page's students."""
    decks, rows = analytics.cohort_matrix(cohort=cohort)
    flag = request.GET.get("flag", "")
    if flag == "any":
        rows = [row for row in rows if row.flags]
    elif flag in analytics.FLAGS:
        rows = [row for row in rows if flag in row.flags]
    else:
        flag = ""  # unknown: every student, and the filter shows "all"
    sort = sorting.matrix_sort(raw=request.GET.get("sort"), decks=decks)
    return decks, sorting.sort_rows(rows=rows, sort=sort), flag, sort


def _matrix_context(request: HttpRequest, cohort: Cohort) -> dict:
    decks, rows, flag, sort = _matrix_rows(request, cohort)
    page = Paginator(rows, PAGE_SIZE).get_page(_int(request.GET.get("page")))
    # The export link carries the checked filter and sort, not the raw query (nor the tab or the page).
    shown = {"flag": flag, "sort": "" if sort.key == sorting.BY_NAME.key else sort.key}
    query = urlencode({key: value for key, value in shown.items() if value})
    export = reverse("cohorts:export_matrix", args=[cohort.pk])
    return {
        "decks": decks, "page": page, "rows": page.object_list, "sort": sort.key, "flag": flag, "total": len(rows),
        "deck_columns": DECK_COLUMNS, "colspan": 4 + len(DECK_COLUMNS) * len(decks),
        "export_url": f"{export}?{query}" if query else export,
        "mail_url": exports.mailto_bcc(rows=rows),
        "mail_count": sum(1 for row in rows if row.email),
    }  # fmt: skip


def _items_context(request: HttpRequest, cohort: Cohort) -> dict:
    sort = analytics.item_sort(raw=request.GET.get("sort"))
    number = _int(request.GET.get("page"))
    items, total = analytics.cohort_items(cohort=cohort, sort=sort, offset=(number - 1) * PAGE_SIZE, limit=PAGE_SIZE)
    pages = max(1, -(-total // PAGE_SIZE))
    return {
        "items": items, "sort": sort, "page_number": min(number, pages), "pages": pages, "total": total,
        "min_discrimination_students": analytics.MIN_DISCRIMINATION_STUDENTS,
    }  # fmt: skip


@login_required
@require_safe
def student_detail(request: HttpRequest, pk: int, student_id: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    membership = selectors.membership_for(cohort=cohort, student_id=student_id)
    number = _int(request.GET.get("page"))
    answers, total = selectors.student_answers(
        cohort=cohort, student_id=student_id, offset=(number - 1) * PAGE_SIZE, limit=PAGE_SIZE
    )
    decks, rows = analytics.cohort_matrix(cohort=cohort, student_id=student_id)
    row = rows[0] if rows else None
    decks_cells = []
    for deck, cell in zip(decks, row.cells, strict=True) if row else ():
        # With a due date, the form that extends it for this student (ids apart: the page holds one per deck).
        initial, auto_id = {"due_date": cell.extended_to}, f"id_deck{deck.deck_id}_%s"
        form = ExtensionForm(cohort_due=deck.due_date, initial=initial, auto_id=auto_id) if deck.due_date else None
        decks_cells.append((deck, cell, form))
    return render(
        request,
        "cohorts/student.html",
        {
            "cohort": cohort, "membership": membership, "answers": answers, "total": total, "row": row,
            "decks_cells": decks_cells, "flags": analytics.FLAGS,
            "today": timezone.localdate(),
            "page_number": min(number, pages := max(1, -(-total // PAGE_SIZE))), "pages": pages,
        },
    )  # fmt: skip


@login_required
@never_cache  # every student's name and email: no shared cache, and no copy left in the browser's, as account_download
@require_safe
def export_matrix(request: HttpRequest, pk: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    decks, rows, flag, _sort = _matrix_rows(request, cohort)
    return exports.matrix_csv(cohort=cohort, decks=decks, rows=rows, flag=flag)


@login_required
@never_cache
@require_safe
def export_items(request: HttpRequest, pk: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    return exports.items_csv(cohort=cohort)


# --- managing a cohort -------------------------------------------------------------------


@login_required
@require_page_or_form
def manage(request: HttpRequest, pk: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    form = cohort_manage_form(cohort=cohort, editor=request.user, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.cohort_update(
                cohort=cohort,
                name=form.cleaned_data["name"],
                instructor_usernames=form.usernames(),
                editor=request.user,
            )
        except services.CohortError as exc:
            form.add_error(exc.field or "instructors", str(exc))
        else:
            messages.success(request, "Cohort saved.")
            return HttpResponseSeeOther(reverse("cohorts:manage", args=[cohort.pk]))
    return _manage_page(request, cohort, form=form, status=422 if form.errors else 200)


@login_required
@require_POST
def owner_set(request: HttpRequest, pk: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    try:
        owner_id = int(request.POST.get("owner", ""))
        cohort = services.cohort_owner_set(cohort=cohort, owner_id=owner_id, editor=request.user)
    except (ValueError, services.CohortError) as exc:
        said = str(exc) if isinstance(exc, services.CohortError) else "Choose one of the cohort's instructors."
        messages.error(request, said)
        return _manage_page(request, cohort, status=422)
    messages.success(request, format_html("{} now owns {}.", bdi(cohort.owner.get_username()), bdi(cohort.name)))
    return HttpResponseSeeOther(reverse("cohorts:manage", args=[cohort.pk]))


def _manage_page(request, cohort, *, form=None, assignment_form=None, status=200) -> HttpResponse:
    invite = request.build_absolute_uri(reverse("cohorts:invite", args=[cohort.join_code]))
    context = {
        "cohort": cohort,
        "form": form or cohort_manage_form(cohort=cohort, editor=request.user),
        "assignment_form": assignment_form or AssignmentForm(),
        "assignments": cohort.assignments.select_related("deck").prefetch_related(
            Prefetch(
                "extensions", Extension.objects.select_related("student").order_by("due_date", "student__username")
            )
        ),
        "memberships": analytics.members(cohort=cohort).select_related("student").order_by("student__username"),
        "invite_url": invite,
        # Who may take the cohort over: shown to its owner, or to its instructors when it has none.
        "successors": cohort.instructors.exclude(pk=request.user.pk).order_by("username")
        if cohort.owner_id in (None, request.user.pk)
        else (),
    }
    return render(request, "cohorts/manage.html", context, status=status)


@login_required
@require_POST
def assignment_add(request: HttpRequest, pk: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    form = AssignmentForm(request.POST)
    if not form.is_valid():
        return _manage_page(request, cohort, assignment_form=form, status=422)
    deck = form.cleaned_data["deck"]
    change = deadlines.assignment_set(cohort=cohort, deck=deck, due_date=form.cleaned_data["due_date"])
    said = _assignment_said(deck.title, change)
    if dropped := change.extensions_dropped:
        why = "no longer later than the due date" if change.due else "with no due date, there is none to extend"
        said = format_html("{} {}: {}.", said, _extensions_lost(dropped), why)
    messages.success(request, said)
    return HttpResponseSeeOther(reverse("cohorts:manage", args=[cohort.pk]))


def _extensions_lost(count: int) -> str:
    return f"{count} student{'s' if count > 1 else ''} lost {'their extensions' if count > 1 else 'an extension'}"


def _assignment_said(title: str, change: deadlines.AssignmentChange) -> SafeString:
    """What the one form for assigning a deck and changing its due date did: a deck assigned already, sent with
    the date left empty, loses its due date, which the instructor may not have meant."""

    def day(value) -> str:
        return formats.date_format(value, "j M Y")

    due, before, title = change.due, change.due_before, bdi(title)
    if change.created:
        return format_html("{} is assigned, {}.", title, f"due {day(due)}" if due else "with no due date")
    if before == due:
        state = f"due {day(due)}" if due else "with no due date"
        return format_html("{} was assigned already, {}: nothing changed.", title, state)
    if due is None:
        return format_html("{} no longer has a due date (it was due {}).", title, day(before))
    was = f"was {day(before)}" if before else "had no due date"
    return format_html("{} is now due {} ({}).", title, day(due), was)


@login_required
@require_POST
def assignment_remove(request: HttpRequest, pk: int, deck_id: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    deck = Deck.objects.filter(pk=deck_id).values_list("title", flat=True).first()
    ended = deadlines.assignment_remove(cohort=cohort, deck_id=deck_id)
    if ended is None:
        # A double click, or a stale page: say so rather than claim a removal that did not happen.
        said = "<bdi>{}</bdi> was not assigned to <bdi>{}</bdi>; nothing changed."
        messages.info(request, format_html(said, deck or "That deck", cohort.name))
    else:
        lost = f" {_extensions_lost(ended)}." if ended else ""
        said = "<bdi>{}</bdi> is no longer assigned to <bdi>{}</bdi>; students' answers are kept.{}"
        messages.success(request, format_html(said, deck, cohort.name, lost))
    return HttpResponseSeeOther(reverse("cohorts:manage", args=[cohort.pk]))


@login_required
@require_POST
def code_regenerate(request: HttpRequest, pk: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    code = services.cohort_code_regenerate(cohort=cohort)
    messages.success(request, f"New join code: {code}. The old code and invite link no longer work.")
    return HttpResponseSeeOther(reverse("cohorts:manage", args=[cohort.pk]))


@login_required
@require_POST
def student_remove(request: HttpRequest, pk: int, student_id: int) -> HttpResponse:
    cohort = selectors.cohort_for_instructor(user=request.user, pk=pk)
    # A student removed already is not in the cohort: 404 (a double click), and nothing moves twice.
    membership = selectors.membership_for(cohort=cohort, student_id=student_id)
    ended = services.cohort_remove_student(cohort=cohort, student_id=student_id)
    also = f", and their {ended} extensions ended" if ended > 1 else ", and their extension ended" if ended else ""
    removed = bdi(membership.student.get_username())
    messages.success(request, format_html("{} was removed{}. Their answers are kept.", removed, also))
    return HttpResponseSeeOther(reverse("cohorts:manage", args=[cohort.pk]))


@login_required
@require_page_or_form
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    """A student leaves a cohort they joined (by mistake, or a course over); GET asks first, POST leaves.

    Never a member, it is a 404, as for anyone else's cohort; left already (a double click), it leaves nothing twice.
    """
    cohort = selectors.cohort_for_student(user=request.user, pk=pk, or_left=request.method == "POST")
    if request.method != "POST":
        extensions = selectors.student_extensions(user=request.user, cohort=cohort)
        return render(request, "cohorts/leave.html", {"cohort": cohort, "extensions": extensions})
    services.cohort_remove_student(cohort=cohort, student_id=request.user.pk)
    said = "You left <bdi>{}</bdi>. Its instructors no longer see your progress."
    messages.success(request, format_html(said, cohort.name))
    return HttpResponseSeeOther(reverse("cohorts:list"))


# --- joining -----------------------------------------------------------------------------


def _already_in(cohort: Cohort, place: str) -> str:
    """Where someone already in the cohort goes instead of joining it: their progress, or its dashboard."""
    return reverse("quiz:progress") if place == "student" else reverse("cohorts:dashboard", args=[cohort.pk])


@require_page_or_form
def join(request: HttpRequest, code: str = "") -> HttpResponse:
    """Join with a code typed in, or through an invite link that carries it.

    Someone already in the cohort (a student, or one of its instructors) is told so, with a link on, rather than
    offered a Join button that says "You joined" again or ends in an error.
    """
    form = JoinForm(request.POST or None, initial={"code": code})
    typed = request.method == "POST" and request.user.is_authenticated and form.is_valid()
    # Counted as a wrong code before any is looked up (JOIN_RATE, JOIN_ACCOUNT_RATE), given back if they match.
    if (code or typed) and (pause := services.join_try_begin(request=request)):
        return _join_paused(request, pause)
    cohort = services.cohort_for_code(code) if code else None
    joining = services.cohort_for_code(form.cleaned_data["code"]) if typed else None
    looked_up = ([cohort] if code else []) + ([joining] if typed else [])
    if looked_up and all(looked_up):
        services.join_try_right(request=request)
    place = selectors.place_in_cohort(user=request.user, cohort=cohort) if cohort else None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        if typed:
            already = selectors.place_in_cohort(user=request.user, cohort=joining) if joining else None
            if already:
                messages.info(request, format_html("You’re already in {}.", bdi(joining.name)))
                return HttpResponseSeeOther(_already_in(joining, already))
            try:
                membership = services.cohort_join(student=request.user, code=form.cleaned_data["code"])
            except services.CohortError as exc:
                form.add_error("code", str(exc))
            else:
                messages.success(request, format_html("You joined {}.", bdi(membership.cohort.name)))
                return HttpResponseSeeOther(reverse("quiz:progress"))
    status = 422 if form.errors else (404 if code and cohort is None else 200)
    focus_first_error(form)
    context = {"form": form, "cohort": cohort, "code": code, "place": place}
    if place:
        context["onward"] = _already_in(cohort, place)
    return render(request, "cohorts/join.html", context, status=status)


def _join_paused(request: HttpRequest, pause: services.JoinPause) -> HttpResponse:
    return render(request, "cohorts/join.html", {"paused": pause, "minutes": minutes_left(pause.left)}, status=429)
