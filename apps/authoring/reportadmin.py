"""Students' reports of problems with cards, for the instructors in the admin.

Any instructor who edits cards reads every report; only a student's own cohorts' instructors learn who sent it.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import BooleanField, Case, ExpressionWrapper, Value, When
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html

from apps.cohorts.selectors import taught
from apps.common.templatetags.common_tags import percent
from apps.quiz.models import CardReport
from apps.quiz.reports import card_reports_reopen, card_reports_resolve


def _excerpt(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class OpenFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("open", "Open"), ("resolved", "Dealt with")]

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "resolved":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


class CardReportForm(forms.ModelForm):
    dealt_with = forms.BooleanField(
        required=False, help_text="Tick once the card is fixed, or the report needs nothing done."
    )

    class Meta:
        model = CardReport
        fields = ()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["dealt_with"].initial = self.instance.resolved_at is not None

    def clean_dealt_with(self) -> bool:
        dealt_with = self.cleaned_data["dealt_with"]
        report = self.instance
        reopening = not dealt_with and report.resolved_at is not None
        others = CardReport.objects.filter(user_id=report.user_id, card_id=report.card_id, resolved_at__isnull=True)
        if reopening and others.exclude(pk=report.pk).exists():
            raise forms.ValidationError("The student has reported this card again since; that report is open.")
        return dealt_with


@admin.register(CardReport)
class CardReportAdmin(admin.ModelAdmin):
    form = CardReportForm
    list_display = ("created_at", "card_question", "deck", "student", "excerpt", "status")
    list_display_links = ("created_at", "excerpt")
    list_filter = (OpenFilter, "card__deck")
    list_select_related = ("card__deck", "user")
    search_fields = ("message", "card__question")
    ordering = ("resolved_at", "-created_at")  # open ones (null) first
    actions = ["resolve", "reopen"]
    fields = ("card_link", "student", "message", "their_answer", "created_at", "resolved", "dealt_with")
    readonly_fields = ("card_link", "student", "message", "their_answer", "created_at", "resolved")

    def has_add_permission(self, request) -> bool:
        return False  # students report from a question's feedback, with their answer

    def get_queryset(self, request):
        taught_by_user = (
            Value(True)
            if request.user.is_superuser
            else ExpressionWrapper(taught(user=request.user, student="user"), output_field=BooleanField())
        )
        return (
            super()
            .get_queryset(request)
            .select_related("card__deck", "user", "answer", "resolved_by")
            .annotate(student_taught=taught_by_user)
            # Another cohort's students sort together, in no order that would tell one of them from another.
            .annotate(student_sort=Case(When(student_taught=True, then="user__username"), default=Value("")))
        )

    def lookup_allowed(self, lookup, value, request) -> bool:
        # The admin filters on a report's own fields from the address (?user=<id>): that would gather an anonymous
        # student's reports and tell them from another's.
        if lookup.split("__")[0] in ("user", "user_id") and not request.user.is_superuser:
            return False
        return super().lookup_allowed(lookup, value, request)

    def get_search_results(self, request, queryset, search_term):
        # A student's name finds their reports for their own cohorts' instructors only: for anyone else's it would
        # tell which reports an anonymous student sent.
        found, duplicates = super().get_search_results(request, queryset, search_term)
        if search_term.strip():
            found |= queryset.filter(student_taught=True, user__username__icontains=search_term.strip())
        return found, duplicates

    @admin.display(description="Card", ordering="card__question")
    def card_question(self, report: CardReport) -> str:
        return _excerpt(report.card.question, 70)

    @admin.display(description="Deck", ordering="card__deck__title")
    def deck(self, report: CardReport) -> str:
        return report.card.deck.title

    @admin.display(description="Report")
    def excerpt(self, report: CardReport) -> str:
        return format_html("<bdi>{}</bdi>", _excerpt(report.message, 90))

    @admin.display(description="Status", ordering="resolved_at")
    def status(self, report: CardReport) -> str:
        return "Open" if report.resolved_at is None else "Dealt with"

    @admin.display(description="Card")
    def card_link(self, report: CardReport) -> str:
        change = reverse("admin:content_card_change", args=[report.card_id])
        return format_html('<a href="{}">{}</a> ({})', change, report.card.question, report.card.deck)

    @admin.display(description="Student", ordering="student_sort")
    def student(self, report: CardReport) -> str:
        # The user name as text, not the admin's link to the user, which instructors may not open (a 403). Not their
        # name or email either: those stay on the cohorts' pages.
        return report.user.get_username() if report.student_taught else "A student of another cohort"

    @admin.display(description="Their answer")
    def their_answer(self, report: CardReport) -> str:
        answer = report.answer
        if answer is None:
            return "—"
        verdicts = f"graded {answer.get_auto_verdict_display().lower()} ({percent(answer.auto_score)})"
        if answer.override_verdict:
            verdicts += f", marked {answer.get_override_verdict_display().lower()} by the student"
        if answer.mode == "choice" and not answer.revealed:
            # Its feedback speaks to the quiz page ("the right answer is marked below"); the option chosen says it.
            return format_html("<bdi>{}</bdi> — {}, a multiple-choice option", answer.said, verdicts)
        # Isolated, as on the pages: a right-to-left override in what the student typed turned the verdict after it.
        return format_html("<bdi>{}</bdi> — {}<br><span class='help'>{}</span>", answer.said, verdicts, answer.feedback)

    @admin.display(description="Dealt with")
    def resolved(self, report: CardReport) -> str:
        if report.resolved_at is None:
            return "Not yet"
        by = f" by {report.resolved_by}" if report.resolved_by else ""
        # Named in its zone, as the admin's other times are.
        return f"{formats.date_format(timezone.localtime(report.resolved_at), 'DATETIME_FORMAT')}{by}"

    def save_model(self, request, obj, form, change) -> None:
        reports = CardReport.objects.filter(pk=obj.pk)
        if form.cleaned_data["dealt_with"]:
            card_reports_resolve(reports=reports, by=request.user)
        else:
            card_reports_reopen(reports=reports)

    @admin.action(description="Mark the selected reports dealt with", permissions=["change"])
    def resolve(self, request, queryset) -> None:
        count = card_reports_resolve(reports=queryset, by=request.user)
        self.message_user(request, f"{count} report{'s' if count != 1 else ''} marked dealt with.", messages.SUCCESS)

    @admin.action(description="Open the selected reports again", permissions=["change"])
    def reopen(self, request, queryset) -> None:
        count = card_reports_reopen(reports=queryset)
        self.message_user(request, f"{count} report{'s' if count != 1 else ''} opened again.", messages.SUCCESS)
