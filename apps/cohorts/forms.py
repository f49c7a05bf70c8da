from __future__ import annotations

from datetime import date, timedelta

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.http import QueryDict
from django.utils import formats, timezone
from django.utils.html import format_html

from apps.common.html import bdi, html_join
from apps.content.models import Deck

from .models import Cohort
from .services import can_change_instructors


class CohortForm(forms.Form):
    name = forms.CharField(max_length=120)
    instructors = forms.CharField(
        required=False,
        label="Other instructors",
        help_text="User names, separated by commas. You stay an instructor of the cohort.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, owner: str = "", locked: str = "", **kwargs) -> None:
        """`owner`: the owner's user name when someone else edits the cohort. The owner stays one of its
        instructors, so is not in the field to be deleted from it, and is always among the names sent on.
        `locked`: why the editor may not change the instructors (only the owner may); the field is then shown
        disabled, with that reason."""
        super().__init__(*args, **kwargs)
        self.owner = owner
        field = self.fields["instructors"]
        if locked:
            field.disabled, field.help_text = True, locked
        elif owner:
            field.help_text = format_html(
                "User names, separated by commas. You stay an instructor of the cohort, and so does {}, its owner.",
                bdi(owner),
            )

    def usernames(self) -> list[str]:
        field, key = self.fields["instructors"], self.add_prefix("instructors")
        # A browser does not send a disabled field; a forged or scripted POST may, and what it holds goes on to
        # cohort_update to be refused, rather than dropped while the rest of the form is saved.
        typed = self.data[key] if field.disabled and key in self.data else self.cleaned_data["instructors"]
        names = [name.strip() for name in typed.split(",") if name.strip()]
        return [*names, self.owner] if self.owner else names


def due_date_range(today: date | None = None) -> tuple[date, date]:
    """The due dates an assignment may have: from a year ago (to date a deck that is overdue already) to five
    years ahead. Anything further is a typo ("0001-01-01", "2205-…") that would sort first or last for good."""
    today = today or timezone.localdate()
    try:
        latest = today.replace(year=today.year + 5)
    except ValueError:  # 29 February
        latest = today.replace(year=today.year + 5, day=28)
    return today - timedelta(days=365), latest


class AssignmentForm(forms.Form):
    # Published decks only: a student could not open a draft assigned to them.
    deck = forms.ModelChoiceField(
        queryset=Deck.objects.filter(published=True).order_by("title"), empty_label="Choose a deck"
    )
    due_date = forms.DateField(required=False, label="Due date", widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A deck added or imported in the admin starts as a draft: say why it is not in the list, rather than let
        # its author hunt for it.
        drafts = list(Deck.objects.filter(published=False).order_by("title").values_list("title", flat=True)[:4])
        if drafts:
            named = format_html("{}{}", html_join(", ", map(bdi, drafts[:3])), " …" if len(drafts) > 3 else "")
            # Help text is shown as markup (as Django's own templates do), and any author names a draft.
            self.fields["deck"].help_text = format_html(
                "Drafts ({}) are not listed: students could not open them. Tick Published on a deck's page "
                "in the admin to assign it.",
                named,
            )
        earliest, latest = due_date_range()
        # The browser's date picker offers only these; clean_due_date refuses the rest without it.
        self.fields["due_date"].widget.attrs.update(min=earliest.isoformat(), max=latest.isoformat())

    def clean_due_date(self) -> date | None:
        due = self.cleaned_data["due_date"]
        earliest, latest = due_date_range()
        if due is not None and not earliest <= due <= latest:
            shown = (formats.date_format(day, "j M Y") for day in (earliest, latest))
            raise forms.ValidationError(
                "Choose a due date from {} to {}: at most a year ago and at most five years ahead.".format(*shown)
            )
        return due


class ExtensionForm(forms.Form):
    """One student's later deadline for one deck, at most five years ahead. That it is after the cohort's
    `cohort_due` is extension_grant's rule, checked against the assignment as locked then."""

    due_date = forms.DateField(label="Extended to", widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, cohort_due: date, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The browser's date picker offers only these.
        first, latest = cohort_due + timedelta(days=1), due_date_range()[1]
        self.fields["due_date"].widget.attrs.update(min=first.isoformat(), max=latest.isoformat())

    def clean_due_date(self) -> date:
        due, latest = self.cleaned_data["due_date"], due_date_range()[1]
        if due > latest:
            raise forms.ValidationError(
                f"Choose a date at most five years ahead, by {formats.date_format(latest, 'j M Y')}."
            )
        return due


class _StudentsField(forms.TypedMultipleChoiceField):
    def valid_value(self, value) -> bool:
        return True  # ExtensionsGrantForm.clean_students checks each, to say who is refused and why


class ExtensionsGrantForm(ExtensionForm):
    """The same later deadline for several students at once: the cohort's current students without an extension
    on the deck (`offered`: id, user name, full name). `extended` (id: user name) are those with one already, to
    name them if a stale page offers them."""

    students = _StudentsField(
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": "Choose at least one student.",
            "invalid_choice": "Choose among the students listed.",
        },
    )
    field_order = ("students", "due_date")

    def __init__(
        self, *args, offered: list[tuple[int, str, str]], extended: dict[int, str], cohort_name: str, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["students"].choices = [
            (pk, f"{username} · {full_name}" if full_name else username) for pk, username, full_name in offered
        ]
        self.offered = {pk: username for pk, username, _ in offered}
        self.extended, self.cohort_name = extended, cohort_name

    def clean_students(self) -> list[int]:
        chosen = list(dict.fromkeys(self.cleaned_data["students"]))
        if had := sorted(self.extended[pk] for pk in chosen if pk in self.extended):
            verb = "has" if len(had) == 1 else "have"
            raise forms.ValidationError(f"{', '.join(had)} {verb} an extension already: change it in the list above.")
        if any(pk not in self.offered for pk in chosen):
            # Not named: it may be someone who never was in the cohort.
            said = "Choose among the students listed: one you chose is not (or no longer) a student of {}."
            raise forms.ValidationError(format_html(said, bdi(self.cohort_name)))
        return chosen


class JoinForm(forms.Form):
    code = forms.CharField(
        label="Join code",
        max_length=32,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )


def cohort_manage_form(*, cohort: Cohort, editor: AbstractBaseUser, data: QueryDict | None = None) -> CohortForm:
    """The cohort's name and instructors as `editor` may change them: everyone but the editor, and but the owner
    when the editor is someone else (the page names the owner beside the form); only the owner changes who
    teaches it, so for anyone else the instructors are shown, disabled, and only the name may change."""
    owner = cohort.owner
    kept = owner.get_username() if owner is not None and owner.pk != editor.pk else ""
    others = cohort.instructors.exclude(pk=editor.pk)
    if kept:
        others = others.exclude(pk=owner.pk)
    usernames = others.order_by("username").values_list("username", flat=True)
    initial = {"name": cohort.name, "instructors": ", ".join(usernames)}
    locked = ""
    if not can_change_instructors(cohort=cohort, user=editor):
        locked = (
            format_html("Only {}, its owner, adds and removes its instructors.", bdi(kept))
            if kept
            else "The cohort has no owner: once one of its instructors takes it over (below), they add and remove "
            "its instructors."
        )
    return CohortForm(data, initial=initial, owner=kept, locked=locked)
