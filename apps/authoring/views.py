"""Admin-side views for authoring: live preview, the grader box, reverting versions, importing decks."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Avg, Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from apps.content.models import Card, CardVersion, render_stored
from apps.content.selectors import style_rules_version
from apps.content.services import card_revert
from apps.quiz.grading import grade
from apps.quiz.models import Answer
from apps.quiz.services import grading_card

from .diffs import version_changes
from .forms import GraderTryForm, ImportConfirmForm, ImportForm
from .services import deck_import
from .transfer import TransferError, parse

PREVIEW_FIELDS = ("question", "answer", "explanation")


def _require(request: HttpRequest, *perms: str) -> None:
    if not any(request.user.has_perm(perm) for perm in perms):
        raise PermissionDenied


def _preview(data) -> dict[str, str]:
    return {f"{name}_html": render_stored(str(data.get(name, ""))[:20000]) for name in PREVIEW_FIELDS}


def change_form_context(request: HttpRequest, *, card: Card | None) -> dict:
    """Extra context for the card form: the preview, the versions with their diffs, the grader box."""
    if request.method == "POST":
        preview = _preview(request.POST)
    elif card is not None:
        preview = {f"{name}_html": getattr(card, f"{name}_html") for name in PREVIEW_FIELDS}
    else:
        preview = {}
    context = {"preview": preview, "preview_url": reverse("admin:content_card_preview")}
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
    context.update(
        versions=list(reversed(rows)),
        grader_form=GraderTryForm(),
        grader_url=reverse("admin:content_card_try_grader", args=[card.pk]),
    )
    return context


@require_POST
def preview(request: HttpRequest) -> HttpResponse:
    """The question, answer and explanation rendered exactly as students see them, from unsaved text."""
    _require(request, "content.change_card", "content.add_card")
    preview = _preview(request.POST)
    # A new formula may need style rules the page's stylesheet predates: the partial links a fresh copy.
    context = {"preview": preview, "styles_version": style_rules_version()}
    return render(request, "authoring/preview.html", context)


@require_http_methods(["POST"])
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
    context = {"form": form, "result": result, "card": card}
    if request.htmx:
        return render(request, "authoring/grader_result.html", context, status=200 if result else 422)
    context.update(admin.site.each_context(request), title=f"Try the grader: {card}")
    return render(request, "authoring/grader_page.html", context, status=200 if result else 422)


@require_POST
def revert(request: HttpRequest, pk: int, version: int) -> HttpResponse:
    _require(request, "content.change_card")
    card = get_object_or_404(Card, pk=pk)
    target = get_object_or_404(CardVersion, card=card, number=version)
    new = card_revert(card=card, version=target, author=request.user)
    if new.number == target.number or new.pk == target.pk:
        messages.info(request, f"The card already has the content of version {target.number}.")
    else:
        messages.success(request, f"Reverted to version {target.number}; saved as version {new.number}.")
    return redirect(reverse("admin:content_card_change", args=[card.pk]))


@require_http_methods(["GET", "POST"])
def deck_import_view(request: HttpRequest) -> HttpResponse:
    """Upload, see a dry-run summary, then confirm: the import itself is one transaction."""
    _require(request, "content.add_deck")
    if not all(request.user.has_perm(p) for p in ("content.change_deck", "content.add_card", "content.change_card")):
        raise PermissionDenied
    context = {**admin.site.each_context(request), "title": "Import a deck", "form": ImportForm()}
    if request.method == "POST" and "confirm" in request.POST:
        confirm = ImportConfirmForm(request.POST)
        if confirm.is_valid():
            name, text = confirm.cleaned_data["name"], confirm.cleaned_data["content"]
            try:
                report = deck_import(data=parse(text, name=name), author=request.user, source=name)
            except TransferError as exc:
                context["error"] = str(exc)
            else:
                messages.success(request, f"Imported {name}: {report.summary()}.")
                return redirect(reverse("admin:content_deck_changelist"))
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            name, text = form.cleaned_data["file"]
            try:
                context["report"] = deck_import(data=parse(text, name=name), dry_run=True, source=name)
            except TransferError as exc:
                context["error"] = f"{name}: {exc}"
            else:
                context["confirm"] = ImportConfirmForm(initial={"name": name, "content": text})
                context["file_name"] = name
    status = 422 if context.get("error") or (request.method == "POST" and context["form"].errors) else 200
    return render(request, "authoring/import.html", context, status=status)
