"""The admin's deck list and form: annotated list, publishing and export actions, the import page's URL."""

from __future__ import annotations

import io
import zipfile

from django.contrib import admin, messages
from django.db.models import Avg, Count, FloatField, IntegerField, Max, OuterRef, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.http import HttpResponse
from django.template.defaultfilters import pluralize
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.http import urlencode

from apps.common.csvexport import BOM
from apps.common.templatetags.common_tags import percent
from apps.content.models import Card, Deck
from apps.content.services import decks_publish
from apps.quiz.models import Answer

from . import views
from .drafts import drafts_warn_assigned
from .forms import DeckAdminForm, RenderedFormAdmin
from .services import deck_export
from .transfer import to_csv, to_json


def _per_deck(queryset, aggregate, *, through: str = "deck") -> Subquery:
    grouped = queryset.filter(**{through: OuterRef("pk")}).order_by().values(through)
    return Subquery(grouped.annotate(v=aggregate).values("v"))


def _deck_cards_url(deck: Deck) -> str:
    """The card list filtered to the deck, in its order."""
    return reverse("admin:content_card_changelist") + "?" + urlencode({"deck__id__exact": deck.pk})


@admin.register(Deck)
class DeckAdmin(RenderedFormAdmin):
    form = DeckAdminForm
    list_display = ("title", "slug", "published", "cards", "answers", "accuracy", "last_change")
    list_filter = ("published",)
    search_fields = ("title", "slug", "description")
    prepopulated_fields = {"slug": ("title",)}
    readonly_fields = ("source", "its_cards")
    actions = ["publish", "make_draft", "export_json", "export_csv"]
    change_list_template = "admin/content/deck/change_list.html"

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                _cards=Coalesce(_per_deck(Card.objects, Count("pk")), 0, output_field=IntegerField()),
                _answers=Coalesce(
                    _per_deck(Answer.objects, Count("pk"), through="card__deck"), 0, output_field=IntegerField()
                ),
                _accuracy=_per_deck(
                    Answer.objects, Avg("final_score", output_field=FloatField()), through="card__deck"
                ),
                # A card's edit or an import changes the deck as its authors see it, not only its own fields.
                _last_change=Greatest("updated_at", _per_deck(Card.objects, Max("updated_at"))),
            )
        )

    @admin.display(description="Last change", ordering="_last_change")
    def last_change(self, deck: Deck):
        return deck._last_change

    @admin.display(description="Cards", ordering="_cards")
    def cards(self, deck: Deck) -> str:
        return format_html('<a href="{}">{}</a>', _deck_cards_url(deck), deck._cards)

    @admin.display(description="Cards")
    def its_cards(self, deck: Deck) -> str:
        return self._its_cards(deck, can_add=True)

    @admin.display(description="Cards")
    def its_cards_without_add(self, deck: Deck) -> str:
        return self._its_cards(deck, can_add=False)

    @staticmethod
    def _its_cards(deck: Deck, *, can_add: bool) -> str:
        if deck.pk is None:
            return "Save the deck, then add its cards here." if can_add else "No cards yet."
        count = deck.cards.count()
        cards = format_html('<a href="{}">{} card{}</a>', _deck_cards_url(deck), count, "" if count == 1 else "s")
        if not can_add:
            return cards
        add = reverse("admin:content_card_add") + "?" + urlencode({"deck": deck.pk})
        return format_html('{} · <a href="{}">Add a card to this deck</a>', cards, add)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "published" in form.changed_data and not obj.published:
            drafts_warn_assigned(request, decks=[obj])

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        # A deck made here starts empty and is written a card at a time: students should not meet it half-written
        # (an empty deck, then questions without distractors). It is published when its author ticks the box.
        initial.setdefault("published", False)
        return initial

    def get_readonly_fields(self, request, obj=None):
        # A display method is not given the request, so the field itself is swapped: a user who may only view
        # cards would follow "Add a card to this deck" to a 403.
        fields = super().get_readonly_fields(request, obj)
        if self.admin_site.get_model_admin(Card).has_add_permission(request):
            return fields
        return tuple("its_cards_without_add" if name == "its_cards" else name for name in fields)

    @admin.display(description="Answers", ordering="_answers")
    def answers(self, deck: Deck) -> int:
        return deck._answers

    @admin.display(description="Accuracy", ordering="_accuracy")
    def accuracy(self, deck: Deck) -> str:
        return percent(deck._accuracy)

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not request.user.is_superuser:
            actions.pop("delete_selected", None)
        return actions

    def get_urls(self):
        return [
            path("import/", self.admin_site.admin_view(views.deck_import_view), name="content_deck_import"),
            *super().get_urls(),
        ]

    @admin.action(description="Publish the selected decks (students see them)", permissions=["change"])
    def publish(self, request, queryset):
        self._publish(request, queryset, published=True)

    @admin.action(description="Make the selected decks drafts (hidden from students)", permissions=["change"])
    def make_draft(self, request, queryset):
        self._publish(request, queryset, published=False)

    def _publish(self, request, queryset, *, published: bool) -> None:
        decks = list(queryset.order_by("title"))
        changed = decks_publish(decks=decks, published=published, author=request.user)
        unchanged = [deck for deck in decks if deck not in changed]

        def titles(group: list[Deck]) -> str:
            return ", ".join(deck.title for deck in group)

        if changed and published:
            messages.success(
                request, f"Published, students see {pluralize(len(changed), 'it,them')}: {titles(changed)}."
            )
        elif changed:
            drafts = "a draft" if len(changed) == 1 else "drafts"
            messages.success(request, f"Made {drafts}, hidden from students: {titles(changed)}.")
            drafts_warn_assigned(request, decks=changed)
        if unchanged:
            state = "published" if published else "a draft" if len(unchanged) == 1 else "drafts"
            messages.info(request, f"Already {state}: {titles(unchanged)}.")

    @admin.action(description="Export the selected decks as JSON (a .zip of them for several)", permissions=["view"])
    def export_json(self, request, queryset):
        return self._export(queryset, "json")

    @admin.action(description="Export the selected decks as CSV (a .zip of them for several)", permissions=["view"])
    def export_csv(self, request, queryset):
        return self._export(queryset, "csv")

    def _export(self, queryset, kind: str) -> HttpResponse:
        def text(deck: Deck) -> str:
            data = deck_export(deck=deck)
            return to_json(data) if kind == "json" else BOM + to_csv(data)

        decks = list(queryset.order_by("slug"))
        if len(decks) == 1:  # the file itself, to open or import as it is
            content_type = "application/json" if kind == "json" else "text/csv"
            response = HttpResponse(text(decks[0]), content_type=f"{content_type}; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{decks[0].slug}.{kind}"'
            return response
        # One file a deck, each importable on its own: the import takes one deck a file.
        archive = io.BytesIO()
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
            for deck in decks:
                bundle.writestr(f"{deck.slug}.{kind}", text(deck).encode())
        response = HttpResponse(archive.getvalue(), content_type="application/zip")
        response["Content-Disposition"] = f'attachment; filename="decks-{kind}.zip"'
        return response
