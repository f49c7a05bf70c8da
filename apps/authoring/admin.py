"""Admin for cards: annotated list, inlines, live preview, versions, grader box; decks are in deckadmin.py."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from django.contrib import admin, messages
from django.db.models import Avg, Count, Max
from django.http import HttpResponse, QueryDict
from django.urls import path, reverse

from apps.accounts.forms import AdminSignInForm
from apps.common.templatetags.common_tags import percent
from apps.content.models import Alias, Card, CardVersion, Distractor, KeyTerm
from apps.content.services import card_version_record
from apps.quiz.services import card_moved

from . import deckadmin, reportadmin, versionadmin, views  # noqa: F401 (the *admin modules register their admins)
from .forms import (
    PREVIEW_NOTICE,
    AliasFormSet,
    CardAdminForm,
    DistractorForm,
    DistractorFormSet,
    KeyTermForm,
    KeyTermFormSet,
    RenderedFormAdmin,
)
from .services import cards_archive

admin.site.login_form = AdminSignInForm
admin.site.site_header = "mlcourse authoring"
admin.site.site_title = "mlcourse admin"
admin.site.index_title = "Course content"
# Four links the breadcrumbs and the index give too: beside them, the card list's columns ran out of a 1280 px window.
admin.site.enable_nav_sidebar = False


class AliasInline(admin.TabularInline):
    model = Alias
    formset = AliasFormSet
    extra = 1
    verbose_name = "accepted answer"
    verbose_name_plural = "Accepted answers (free recall)"


def _live_preview() -> dict[str, str]:
    """What makes a field of the card form update the preview as the author types."""
    fields = [*views.PREVIEW_FIELDS, "csrfmiddlewaretoken", "distractors-"]
    return {
        "data-hx-post": reverse("admin:content_card_preview"),
        # Debounced: one request once typing pauses, the newest replacing any in flight.
        "data-hx-trigger": "input changed delay:400ms",
        "data-hx-target": "#card-preview",
        "data-hx-swap": "innerHTML",
        # The distractors' rows by their prefix: their texts, and which of them are to be deleted.
        "data-hx-include": ", ".join(
            f"#card_form [name^={name}]" if name.endswith("-") else f"#card_form [name={name}]" for name in fields
        ),
        "data-hx-sync": "#card_form:replace",
    }


class DistractorInline(admin.TabularInline):
    model = Distractor
    form = DistractorForm
    formset = DistractorFormSet
    extra = 1
    verbose_name_plural = "Distractors (multiple choice, offered before generated ones)"

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        if "text" in formset.form.base_fields:  # not for a user who may only view cards
            formset.form.base_fields["text"].widget.attrs.update(_live_preview())
        if obj is not None and "position" in formset.form.base_fields:
            # A new row after the card's last: at 0 it tied with the first and sorted before the others, so it
            # could push an older one out of the three distractors a question offers.
            last = obj.distractors.aggregate(last=Max("position"))["last"]
            formset.form.base_fields["position"].initial = 0 if last is None else last + 1
        return formset


class KeyTermInline(admin.TabularInline):
    model = KeyTerm
    form = KeyTermForm
    formset = KeyTermFormSet
    extra = 1
    verbose_name_plural = "Key terms (what a long free-recall answer should mention; synonyms separated by |)"


@admin.register(Card)
class CardAdmin(RenderedFormAdmin):
    form = CardAdminForm
    inlines = [AliasInline, DistractorInline, KeyTermInline]
    list_display = ("position", "question_excerpt", "deck", "kind", "answer_count", "accuracy", "archived")
    list_display_links = ("question_excerpt",)
    list_filter = ("deck", "kind", "archived")
    list_select_related = ("deck",)
    search_fields = ("question", "answer", "short_answer", "explanation")
    ordering = ("deck__title", "position")
    list_per_page = 50
    actions = ["archive", "restore"]
    save_on_top = True

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_answers=Count("answers"), _accuracy=Avg("answers__final_score"))

    def get_fields(self, request, obj=None):
        # Sent as a hidden input at the top of the form (change_form.html), not as a row of the form.
        return [name for name in super().get_fields(request, obj) if name != "loaded_version"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.editor = request.user  # the class is made for this request
        # A user who may only view cards gets a form without these fields (they show as text): nothing to preview.
        for name in (name for name in views.PREVIEW_FIELDS if name in form.base_fields):
            form.base_fields[name].widget.attrs.update(_live_preview())
        return form

    @admin.display(description="Question", ordering="question")
    def question_excerpt(self, card: Card) -> str:
        flat = " ".join(card.question.split())
        return flat if len(flat) <= 90 else flat[:89] + "…"

    @admin.display(description="Answers", ordering="_answers")
    def answer_count(self, card: Card) -> int:
        return card._answers

    @admin.display(description="Accuracy", ordering="_accuracy")
    def accuracy(self, card: Card) -> str:
        return percent(card._accuracy)

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        # "Add card" from the list filtered to one deck: the new card is most likely that deck's.
        listed = QueryDict(request.GET.get("_changelist_filters", ""))
        if "deck" not in initial and listed.get("deck__id__exact", "").isdigit():
            initial["deck"] = listed["deck__id__exact"]
        if "kind" not in initial and str(initial.get("deck", "")).isdigit():
            # A deck's cards are mostly of one kind: the new card is of its last card's.
            last = Card.objects.filter(deck_id=initial["deck"]).order_by("-position").values_list("kind", flat=True)
            if kind := last.first():
                initial["kind"] = kind
        return initial

    def response_add(self, request, obj, post_url_continue=None):
        return self._next_in_deck(request, obj, super().response_add(request, obj, post_url_continue))

    def response_change(self, request, obj):
        return self._next_in_deck(request, obj, super().response_change(request, obj))

    def _next_in_deck(self, request, card: Card, response: HttpResponse) -> HttpResponse:
        """Save and add another: the next card's form has this one's deck and kind, not blanks. Cards are written a
        deck at a time, and choosing the deck again for each one is how a card lands in the wrong deck."""
        if "_addanother" in request.POST and response.status_code == 302:
            url = urlsplit(response["Location"])
            query = QueryDict(url.query, mutable=True)
            query["deck"], query["kind"] = card.deck_id, card.kind
            response["Location"] = urlunsplit(url._replace(query=query.urlencode()))
        return response

    def get_actions(self, request):
        actions = super().get_actions(request)
        # Cards with answers must not go; archiving is the way out, so no bulk delete.
        actions.pop("delete_selected", None)
        return actions

    @admin.action(
        description="Archive the selected cards (they leave new quizzes, history stays)", permissions=["change"]
    )
    def archive(self, request, queryset):
        self._set_archived(request, queryset, True)

    @admin.action(description="Restore the selected cards to quizzes", permissions=["change"])
    def restore(self, request, queryset):
        self._set_archived(request, queryset, False)

    def _set_archived(self, request, queryset, archived: bool) -> None:
        count = cards_archive(cards=queryset, archived=archived, author=request.user)
        self.message_user(request, f"{count} card{'s' if count != 1 else ''} {'archived' if archived else 'restored'}.")

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "deck" in form.changed_data:
            # The running totals are kept per deck; without this they keep counting the card in its old deck.
            card_moved(card=obj)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # After the inlines, so the version holds the aliases, distractors and key terms too.
        card_version_record(card=form.instance, author=request.user, note="Edited in the admin")

    def get_deleted_objects(self, objs, request):
        # A card students were asked or answered is kept by the database (on_delete=PROTECT from answers and quiz
        # items), so Django's delete page refuses it; admin/content/card/delete_confirmation.html says why, and
        # to archive it instead.
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        # A card's versions go with it; nobody deletes versions on their own.
        perms_needed.discard(CardVersion._meta.verbose_name)
        return deleted, counts, perms_needed, protected

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("preview/", wrap(views.preview), name="content_card_preview"),
            path("preview/styles.css", wrap(views.preview_styles), name="content_card_preview_styles"),
            path("<int:pk>/try-grader/", wrap(views.try_grader), name="content_card_try_grader"),
            path("<int:pk>/regrade/", wrap(views.regrade), name="content_card_regrade"),
            path("<int:pk>/versions/<int:version>/revert/", wrap(views.revert), name="content_card_revert"),
            *super().get_urls(),
        ]

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        context.update(views.change_form_context(request, card=obj))
        form = context["adminform"].form
        preview = [error for error in form.non_field_errors().as_data() if error.code == "preview"]
        if preview and len(context["errors"]) == 1:
            # The preview button keeps the admin on the form by failing validation; with nothing else wrong,
            # the page must not read as an error ("Error:" title, "Please correct the error below.").
            context["errors"] = []
            messages.info(request, PREVIEW_NOTICE)
        return super().render_change_form(request, context, add, change, form_url, obj)
