"""Admin-side views for authoring: live preview, the grader box, reverting versions, importing decks."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.contrib import admin, messages
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.decorators import permission_required
from django.core.exceptions import PermissionDenied
from django.db.models import Avg, Count
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode
from django.views.decorators.http import require_POST, require_safe

from apps.cohorts.selectors import student_name, students_taught
from apps.common.http import require_page_or_form
from apps.content.katex import KatexUnavailableError
from apps.content.limits import MAX_MARKDOWN
from apps.content.models import Card, CardVersion
from apps.content.rendering import render as render_text
from apps.content.rendering import style_compact, style_expand
from apps.content.services import CardChangedError, QuestionTakenError, card_revert
from apps.quiz.grading import grade
from apps.quiz.models import Answer, Verdict
from apps.quiz.regrade import LISTED_CHANGES, answers_regrade
from apps.quiz.reports import card_reports_open
from apps.quiz.services import grading_card

from .bundles import deck_imports_check, deck_imports_confirm, deck_imports_recheck
from .diffs import version_changes
from .forms import GraderTryForm, RegradeConfirmForm, inline_texts_sent
from .holds import IMPORT_HOLD_SECONDS, CheckedImport, ImportNotHeldError
from .importforms import ImportConfirmForm, ImportForm
from .services import IMPORT_PERMISSIONS, DeckChangedError, ImportReport
from .stale import card_changes_said
from .transfer import CSV_REQUIRED, TransferError

PREVIEW_FIELDS = ("question", "answer", "short_answer", "explanation")
# Each preview stylesheet URL stays well under the request-line limits of servers and proxies (gunicorn: 4094).
PREVIEW_STYLES_QUERY_LENGTH = 1800
PREVIEW_STYLES_MAX_RULES = 400


def _require(request: HttpRequest, *perms: str) -> None:
    if not any(request.user.has_perm(perm) for perm in perms):
        raise PermissionDenied


def _preview_style_urls(styles: dict[str, str]) -> list[str]:
    """Stylesheet URLs that define these classes, the declarations carried in the query: nothing is stored."""
    base = reverse("admin:content_card_preview_styles")
    urls, chunk, length = [], [], 0
    for declarations in sorted(styles.values()):
        compact = style_compact(declarations)
        try:
            style_expand(compact)
        except ValueError:
            continue  # a value this renderer never writes; the formula shows without that one rule
        size = len(urlencode({"r": compact})) + 1
        if chunk and length + size > PREVIEW_STYLES_QUERY_LENGTH:
            urls.append(f"{base}?{urlencode({'r': chunk}, doseq=True)}")
            chunk, length = [], 0
        chunk.append(compact)
        length += size
    if chunk:
        urls.append(f"{base}?{urlencode({'r': chunk}, doseq=True)}")
    return urls


PREVIEW_DISTRACTORS = 20  # more than multiple choice shows; a form with more previews the first ones


def _preview(data) -> dict:
    """The fields rendered as students would see them, and the stylesheets their maths needs. Writes nothing.

    With KaTeX down it says so in the preview: the site's 503 page would replace the form being edited."""
    preview, styles = {}, {}

    def typeset(text: str) -> str:
        rendered = render_text(text[:MAX_MARKDOWN])
        styles.update(rendered.styles)
        return rendered.html

    sent, _ = inline_texts_sent(data, "distractors")
    # Past its limit a text previews cut short, and saving will refuse it: said at once, not only on saving.
    preview["too_long"] = [
        f"{field.verbose_name.capitalize()}: {len(text):,} characters, over the limit of {field.max_length:,}; "
        "saving will refuse it."
        for name in PREVIEW_FIELDS
        if len(text := str(data.get(name, ""))) > (field := Card._meta.get_field(name)).max_length
    ]
    try:
        for name in PREVIEW_FIELDS:
            preview[f"{name}_html"] = typeset(str(data.get(name, "")))
        preview["distractors_html"] = [typeset(text) for text in [t for t in sent if t.strip()][:PREVIEW_DISTRACTORS]]
    except KatexUnavailableError:
        return {"unavailable": True}
    preview["style_urls"] = _preview_style_urls(styles)
    return preview


def change_form_context(request: HttpRequest, *, card: Card | None) -> dict:
    """Extra context for the card form: the preview, the versions with their diffs, the grader box."""
    if request.method == "POST":
        preview = _preview(request.POST)
    elif card is not None:
        preview = {f"{name}_html": getattr(card, f"{name}_html") for name in PREVIEW_FIELDS}
        preview["distractors_html"] = list(
            card.distractors.order_by("position", "pk").values_list("text_html", flat=True)
        )
    else:
        preview = {}
    context = {"preview": preview}
    if card is None:
        return context
    versions = list(CardVersion.objects.filter(card=card).select_related("author").order_by("number"))
    stats = {
        row["card_version"]: row
        for row in Answer.objects.filter(card=card)
        .values("card_version")
        .annotate(n=Count("pk"), acc=Avg("final_score"))
    }
    rows = []
    for index, version in enumerate(versions):
        previous = versions[index - 1].data if index else None
        rows.append(
            {
                "version": version,
                "changes": version_changes(previous, version.data),
                "answers": stats.get(version.pk, {}).get("n", 0),
                "accuracy": stats.get(version.pk, {}).get("acc"),
                "current": version.pk == card.current_version_id,
                "revert_url": reverse("admin:content_card_revert", args=[card.pk, version.number]),
            }
        )
    open_reports = card_reports_open(card=card, user=request.user)
    taught = students_taught(user=request.user, student_ids=(report.user_id for report in open_reports))
    for report in open_reports:
        report.student_name = student_name(student=report.user, taught=taught)
    context.update(
        # What students said is wrong with the card, beside the form that fixes it.
        open_reports=open_reports,
        versions=list(reversed(rows)),
        grader_form=GraderTryForm(),
        grader_url=reverse("admin:content_card_try_grader", args=[card.pk]),
        # Typed answers graded against an earlier version: the corrected card may grade them otherwise.
        answers_of_older_versions=Answer.objects.filter(card=card, mode="recall", revealed=False)
        .exclude(card_version_id=card.current_version_id)
        .count(),
        regrade_url=reverse("admin:content_card_regrade", args=[card.pk]),
    )
    return context


@require_POST
def preview(request: HttpRequest) -> HttpResponse:
    """The question, answer and explanation rendered exactly as students see them, from unsaved text."""
    _require(request, "content.change_card", "content.add_card")
    # A new formula may need style rules nobody has stored yet: the partial links stylesheets that carry them.
    return render(request, "authoring/preview.html", {"preview": _preview(request.POST)})


@require_safe
def preview_styles(request: HttpRequest) -> HttpResponse:
    """The CSS for the classes a preview's maths uses, built from the declarations in the URL alone."""
    _require(request, "content.change_card", "content.add_card")
    compact = request.GET.getlist("r")
    if len(compact) > PREVIEW_STYLES_MAX_RULES:
        return HttpResponseBadRequest("Too many rules.", content_type="text/plain; charset=utf-8")
    try:
        rules = dict(style_expand(item) for item in compact)
    except ValueError as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")
    css = "\n".join(f".{name}{{{declarations}}}" for name, declarations in rules.items())
    response = HttpResponse(css, content_type="text/css; charset=utf-8")
    # The URL alone decides the content.
    response["Cache-Control"] = "private, max-age=86400, immutable"
    return response


@require_POST
def try_grader(request: HttpRequest, pk: int) -> HttpResponse:
    _require(request, "content.view_card")
    card = get_object_or_404(Card.objects.prefetch_related("aliases", "key_terms"), pk=pk)
    form = GraderTryForm(request.POST)
    result = None
    if form.is_valid():
        gradable = grading_card(
            card,
            aliases=[alias.text for alias in card.aliases.all()],
            key_terms=[term.term for term in card.key_terms.all()],
        )
        result = grade(gradable, form.cleaned_data["response"])
    label = Verdict(result.verdict).label if result else ""  # the words the student's pages use
    context = {"form": form, "result": result, "card": card, "verdict_label": label}
    if request.htmx:
        return render(request, "authoring/grader_result.html", context, status=200 if result else 422)
    context.update(admin.site.each_context(request), title=f"Try the grader: {card}")
    return render(request, "authoring/grader_page.html", context, status=200 if result else 422)


@require_POST
def revert(request: HttpRequest, pk: int, version: int) -> HttpResponse:
    _require(request, "content.change_card")
    card = get_object_or_404(Card, pk=pk)
    target = get_object_or_404(CardVersion, card=card, number=version)
    try:
        new = card_revert(card=card, version=target, author=request.user)
    except QuestionTakenError as exc:
        other = reverse("admin:content_card_change", args=[exc.card.pk])
        messages.error(
            request,
            format_html(
                "Version {} was not put back; this card is unchanged. Its question is another card's now: {} "
                '(<a href="{}">open that card</a>). Ask that card differently first, or edit this one instead.',
                target.number,
                exc.holder("it"),
                other,
            ),
        )
        return redirect(reverse("admin:content_card_change", args=[card.pk]))
    if new.number == target.number or new.pk == target.pk:
        messages.info(request, f"The card already has the content of version {target.number}.")
    else:
        said = f"Reverted to version {target.number}; saved as version {new.number}."
        # In the card's admin History too, beside the edits made through its form.
        LogEntry.objects.log_actions(request.user.pk, [card], CHANGE, said, single_object=True)
        messages.success(request, said)
    return redirect(reverse("admin:content_card_change", args=[card.pk]))


def _refusal(exc: TransferError, *, headline: str) -> dict:
    """The import page's context for a file that would not import: every problem found, not only the first."""
    count = f"{exc.count} problem{pluralize(exc.count)}"
    return {"error": f"{headline}: {count}.", "problems": exc.problems, "more": exc.more}


def _imported(name: str, report: ImportReport) -> str:
    said = f"Imported {name}: {report.summary()}."
    if report.deck_created and not report.deck_published:
        change = reverse("admin:content_deck_change", args=[report.deck_id])
        said = format_html(
            '{} The deck is a draft, hidden from students: <a href="{}">tick Published on its page</a> when it is '
            "ready.",
            said, change,
        )  # fmt: skip
    return said


def _dry_run(context: dict, check: Callable[[], list[CheckedImport]], *, name: str | None, headline: str) -> None:
    """The import page's context for a dry run of what `check` checks: its summary, or why it would not import.
    `name`: the upload's file name; None, the checked files' own names."""
    try:
        checked = check()
    except TransferError as exc:
        context.update(_refusal(exc, headline=headline))
        return
    context.update(
        checked=checked,
        file_name=name or ", ".join(one.name for one in checked),
        keys=[one.key for one in checked if one.report.changes_anything],
        hold_minutes=IMPORT_HOLD_SECONDS // 60,
    )
    if len(checked) == 1:
        context.update(report=checked[0].report, confirm=ImportConfirmForm(initial={"key": checked[0].key}))


@require_page_or_form
@permission_required(IMPORT_PERMISSIONS, raise_exception=True)
def deck_import_view(request: HttpRequest) -> HttpResponse:
    """Upload, see a dry-run summary, then confirm: the upload waits server-side, and the import is one transaction,
    into the decks as the dry run found them (else the dry run again, afresh)."""
    context = {
        **admin.site.each_context(request), "title": "Import a deck", "form": ImportForm(),
        "required_columns": CSV_REQUIRED,
    }  # fmt: skip
    if request.method == "POST" and "confirm" in request.POST:
        # One key a deck file: several when a .zip was checked, imported together.
        keys = request.POST.getlist("key")
        if not keys or not all(ImportConfirmForm({"key": key}).is_valid() for key in keys):
            context["error"] = ImportNotHeldError.message
        else:
            try:
                imported = deck_imports_confirm(keys=keys, author=request.user)
            except ImportNotHeldError as exc:
                context["error"] = str(exc)
            except TransferError as exc:  # the database changed since the check
                context.update(_refusal(exc, headline="The checked file no longer imports"))
            except DeckChangedError as exc:
                context["changed"] = (
                    f"The deck “{exc.title}” changed since your dry run (a card was saved, added or moved there "
                    "meanwhile, or the deck itself), so nothing was imported: importing now would not do what the dry "
                    "run said, and could put back edits made since. Below is the dry run again, against the decks as "
                    "they are now."
                )
                try:
                    recheck = partial(deck_imports_recheck, keys=keys, user=request.user)
                    _dry_run(context, recheck, name=None, headline="The checked file no longer imports")
                except ImportNotHeldError as held:
                    context["error"] = str(held)
            else:
                for name, report in imported:
                    messages.success(request, _imported(name, report))
                return redirect(reverse("admin:content_deck_changelist"))
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            upload = request.FILES["file"].name
            check = partial(deck_imports_check, files=form.cleaned_data["file"], user=request.user)
            _dry_run(context, check, name=upload, headline=f"{upload} would not import")
    status = 422 if context.get("error") or (request.method == "POST" and context["form"].errors) else 200
    return render(request, "authoring/import.html", context, status=409 if context.get("changed") else status)


def _regraded(request: HttpRequest, card: Card, report) -> HttpResponse:
    if report.changed:
        said = (
            f"Graded {report.checked} answer{pluralize(report.checked)} again: {len(report.changed)} changed, "
            f"from {report.students} student{pluralize(report.students)}; their scores and reviews follow."
        )
        LogEntry.objects.log_actions(request.user.pk, [card], CHANGE, said, single_object=True)
    else:
        said = f"Graded {report.checked} answer{pluralize(report.checked)} again: none changed."
    messages.success(request, said)
    return redirect("admin:content_card_change", card.pk)


@require_page_or_form
def regrade(request: HttpRequest, pk: int) -> HttpResponse:
    """What grading the card's past answers again would change (GET), and doing it (POST), provided the card is still
    as the preview confirmed graded it: else the preview again, made afresh."""
    _require(request, "content.change_card")
    card = get_object_or_404(Card, pk=pk)
    refused = ""
    if request.method == "POST":
        confirm = RegradeConfirmForm(request.POST)
        if not confirm.is_valid():
            refused = (
                "This confirmation does not say which version of the card its preview graded: nothing was regraded."
            )
        else:
            try:
                report = answers_regrade(card=card, apply=True, seen_version=confirm.cleaned_data["version"])
            except CardChangedError as exc:
                said = card_changes_said(exc, reader=request.user)
                refused = f"The card was saved since this preview: {said}. Nothing was regraded."
            else:
                return _regraded(request, card, report)
    report = answers_regrade(card=card, apply=False)
    listed = report.changed[:LISTED_CHANGES]
    taught = students_taught(user=request.user, student_ids=(row.answer.user_id for row in listed))
    for row in listed:
        row.answer.student_name = student_name(student=row.answer.user, taught=taught)
    context = {
        **admin.site.each_context(request),
        "title": f"Regrade past answers: {card}",
        "card": card,
        "report": report,
        "listed": listed,
        "refused": refused,
    }
    # 409: what the confirmation was made from is no longer so; the page is the preview made afresh.
    return render(request, "authoring/regrade.html", context, status=409 if refused else 200)
