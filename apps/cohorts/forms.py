from __future__ import annotations

from django import forms

from apps.content.models import Deck

from .models import Cohort


class CohortForm(forms.Form):
    name = forms.CharField(max_length=120)
    instructors = forms.CharField(
        required=False,
        label="Other instructors",
        help_text="User names, separated by commas. You stay an instructor of the cohort.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def usernames(self) -> list[str]:
        return [name.strip() for name in self.cleaned_data["instructors"].split(",") if name.strip()]


class AssignmentForm(forms.Form):
    deck = forms.ModelChoiceField(queryset=Deck.objects.order_by("title"), empty_label="Choose a deck")
    due_date = forms.DateField(required=False, label="Due date", widget=forms.DateInput(attrs={"type": "date"}))


class JoinForm(forms.Form):
    code = forms.CharField(
        label="Join code",
        max_length=32,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )


def cohort_form_initial(cohort: Cohort, editor) -> dict:
    others = cohort.instructors.exclude(pk=editor.pk).order_by("username").values_list("username", flat=True)
    return {"name": cohort.name, "instructors": ", ".join(others)}
