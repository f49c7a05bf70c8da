"""The admin's list and pages of card versions: read only, made by saving, reverting and importing cards."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from apps.content.models import CardVersion

from .diffs import LABELS


@admin.register(CardVersion)
class CardVersionAdmin(admin.ModelAdmin):
    list_display = ("card", "number", "by", "note", "created_at")
    list_select_related = ("card__deck", "author")
    # This week's edits first, not the first card's first version.
    ordering = ("-created_at", "-pk")
    fields = ("card", "number", "by", "note", "created_at", "content")
    readonly_fields = fields

    @admin.display(description="Author", ordering="author__username")
    def by(self, version: CardVersion) -> str:
        # Text, not the admin's link to the user, which instructors may not open (a 403).
        return version.author.get_username() if version.author else "loader"

    @admin.display(description="Content")
    def content(self, version: CardVersion) -> str:
        """The version's texts as its author wrote them, not the stored JSON with its rendered HTML."""
        rows = []
        for name, label in LABELS.items():
            value = version.data.get(name)
            if value in ("", [], None):
                continue
            if isinstance(value, list):
                shown = format_html("<ul>{}</ul>", format_html_join("", "<li>{}</li>", ((item,) for item in value)))
            elif isinstance(value, bool):
                shown = "yes" if value else "no"
            else:
                shown = value
            rows.append((label, shown))
        page = reverse("admin:content_card_change", args=[version.card_id]) + "#versions-heading"
        return format_html(
            '<dl class="changes">{}</dl><p><a href="{}">Every version of the card, with what each changed</a></p>',
            format_html_join("", "<dt>{}</dt><dd>{}</dd>", rows),
            page,
        )

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
