from __future__ import annotations

import re

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db.models import CharField, Max, Value
from django.db.models.functions import Cast, Concat
from django.forms.models import BaseInlineFormSet

from apps.common.db import name_lock
from apps.common.textfiles import one_line_break
from apps.content.answers import normal_text, right_answers
from apps.content.models import Alias, Card, Deck, Distractor, KeyTerm
from apps.content.rendering import Rendered, formula_refusal, render
from apps.content.selectors import cards_asking, deck_titled
from apps.content.services import (
    DECK_WRITES_LOCK,
    CardChangedError,
    QuestionTakenError,
    card_lock_unchanged,
    card_mark,
)
from apps.content.slugs import validate_deck_slug
from apps.quiz.authored import question_echoes

from .casing import case_clashes
from .problems import echo_problem
from .stale import card_changes_said

PREVIEW_NOTICE = "Preview only: nothing was saved. Check the preview beside the form, then press Save."


class MarkdownField(forms.CharField):
    """A Markdown text as typed in a textarea (a browser sends CR LF), read with line feeds as it is stored: a card
    saved unchanged is not logged as changed."""

    def to_python(self, value):
        value = super().to_python(value)
        return one_line_break(value) if isinstance(value, str) else value


class RenderedForm(forms.ModelForm):
    """A form of a model with rendered fields (RenderedFields): each source is cleaned by rendering it.

    A formula KaTeX cannot typeset blocks the save, naming the formula and KaTeX's message; the renders are
    kept in `rendered` and saved as they are (RenderedFields.save's `known`), so each formula is typeset once.
    The admin saves with commit=False and then the object: its save_model passes `rendered` on.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.rendered: dict[str, Rendered] = {}

    def clean(self):
        data = super().clean()
        for name in self._meta.model.RENDERED_FIELDS:
            text = data.get(name)
            if text is None:  # not in the form, or already refused
                continue
            self.rendered[text] = result = render(text)
            for formula, message in result.errors:
                self.add_error(name, ValidationError(formula_refusal(formula, message), code="formula"))
        return data

    def save(self, commit: bool = True):
        instance = super().save(commit=False)
        if commit:
            instance.save(known=self.rendered)
            self._save_m2m()
        return instance


class RenderedFormAdmin(admin.ModelAdmin):
    """An admin whose form is a RenderedForm: the object is saved with the renders its form's clean made."""

    def save_model(self, request, obj, form, change):
        obj.save(known=form.rendered)


class DeckAdminForm(RenderedForm):
    # Not Django's SlugField, whose own message ("letters, numbers, underscores or hyphens") allows capitals.
    slug = forms.CharField(
        max_length=200,
        validators=[validate_deck_slug],
        help_text="The deck's address (/decks/<slug>/) and its key in export files: lowercase letters, digits, "
        "hyphens and underscores.",
    )

    class Meta:
        model = Deck
        fields = ("title", "slug", "published", "description")
        field_classes = {"description": MarkdownField}

    def clean_title(self) -> str:
        """A title no other deck has, whatever its letter case or spacing (selectors.deck_titled)."""
        title = " ".join(self.cleaned_data["title"].split())
        # Taking turns with other deck saves, imports and seed loads until the admin's transaction ends: two
        # decks titled alike at once would both pass this check, and the second would meet the constraint (a 500).
        name_lock(DECK_WRITES_LOCK)
        # Asked of a new title only: a deck's own can be no other's (the deck_title_unique constraint).
        if title != self.instance.title and (taken := deck_titled(title=title, other_than=self.instance.pk)):
            raise ValidationError(
                "A deck is titled “%(title)s” already (its slug: %(slug)s). Choose another title, so that students "
                "can tell the two apart.",
                code="unique",
                params={"title": taken.title, "slug": taken.slug},
            )
        return title


class CardAdminForm(RenderedForm):
    # The card as the form was made from it (card_mark), sent back with it: a form made before another save of the
    # card would silently undo that save.
    loaded_version = forms.CharField(required=False, widget=forms.HiddenInput)
    editor = None  # who sends the form (CardAdmin.get_form): "you", where the error says who saved the card

    class Meta:
        model = Card
        fields = ("deck", "position", "kind", "question", "answer", "short_answer", "explanation", "archived")
        field_classes = dict.fromkeys(("question", "answer", "short_answer", "explanation"), MarkdownField)
        widgets = {
            "question": forms.Textarea(attrs={"rows": 3}),
            "answer": forms.Textarea(attrs={"rows": 6}),
            "explanation": forms.Textarea(attrs={"rows": 4}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["loaded_version"].initial = card_mark(self.instance)
        if "position" in self.fields:  # not in a view-only form
            position = self.fields["position"]
            position.required = False
            position.help_text = "Its place in the deck. Leave it empty to add the card at the end."
            # The model's "greater than or equal to 0" would answer -1, where 0 is refused too: clean_position says
            # where positions start, for both.
            position.validators = [v for v in position.validators if not isinstance(v, MinValueValidator)]
            position.widget.attrs["min"] = 1

    def clean_position(self) -> int | None:
        position = self.cleaned_data["position"]
        if position is not None and position < 1:
            raise ValidationError("Positions start at 1.", code="position")
        return position

    def clean(self):
        data = super().clean()
        deck = data.get("deck")
        if deck is not None:
            # Taking turns with other card and deck saves and imports until the admin's transaction ends: two at
            # once (a double click on Save) both took the deck's end and deadlocked, or added the card twice.
            name_lock(DECK_WRITES_LOCK)
        if self.instance.pk:
            self._unchanged_since_loaded(data.get("loaded_version") or "")
        if deck is not None:
            if "position" in data:
                self._place(data, deck)
            if "question" in data:
                self._new_question(data["question"], deck)
        if "_preview" in self.data:
            # Keeps the admin on the form, with everything as typed, and nothing saved.
            raise ValidationError(PREVIEW_NOTICE, code="preview")
        return data

    def _unchanged_since_loaded(self, mark: str) -> None:
        """The card's row stays locked until the admin's transaction ends, so no save comes between this check and
        this form's save."""
        try:
            card_lock_unchanged(card=self.instance, mark=mark)
        except CardChangedError as exc:
            said = card_changes_said(exc, reader=self.editor)
            message = (
                f"This card was saved since you opened this form: {said}. Nothing was saved, so as not to undo that "
                "change. Open the card again to start from it (its versions, below, show what changed) and make your "
                "edit there; what you typed is still here to copy."
            )
            self.add_error(None, ValidationError(message, code="card_changed"))

    def _new_question(self, question: str, deck: Deck) -> None:
        """A question the deck asks already (letter case and spacing aside, as imports match cards) is refused,
        naming the card that asks it: students would meet it twice, and an import could not tell which card a row
        without an id updates."""
        own = self.instance.pk and self.instance.deck_id == deck.pk
        if own and normal_text(self.instance.question) == normal_text(question):
            return  # its own question, as it was: a deck that holds it twice already is not this save's doing
        taken = cards_asking(deck=deck, questions=[question], other_than=[self.instance.pk] if own else [])
        if taken:
            clash = QuestionTakenError(card=taken[0])
            instead = "restore that card instead" if clash.card.archived else "edit that card instead"
            message = f"{clash.holder()}: {instead}, or ask this one differently."
            self.add_error("question", ValidationError(message, code="question_taken"))

    def _place(self, data: dict, deck: Deck) -> None:
        """An empty position is the end of the deck; a taken one says which card holds it and what is free."""
        others = Card.objects.filter(deck=deck).exclude(pk=self.instance.pk)
        end = (others.aggregate(last=Max("position"))["last"] or 0) + 1
        position = data["position"]
        if position is None:
            data["position"] = self.instance.position = end
            return
        holder = others.filter(position=position).only("question_text").first()
        if holder is not None:
            # The first gap after it, which may come before the end (positions 1-8 and 20-24: 9 is free).
            taken = set(others.filter(position__gt=position).values_list("position", flat=True))
            free = next(p for p in range(position + 1, end + 1) if p not in taken)
            self.add_error(
                "position",
                ValidationError(
                    "Position %(position)s of %(deck)s is taken by “%(holder)s”. The next free one is %(free)s, or "
                    "leave it empty to add the card at the end.",
                    code="position_taken",
                    params={"position": position, "deck": deck, "holder": holder.question_text[:60], "free": free},
                ),
            )


class SpacesAreBlank:
    """A new inline row whose typed fields hold only spaces is a blank row, left out as an empty one is, not
    refused with "This field is required" (a MarkdownField keeps spaces, so Django sees a change)."""

    def has_changed(self) -> bool:
        typed = [str(self[name].data or "") for name in self.changed_data]
        if self.instance.pk is None and typed and not any(text.strip() for text in typed):
            return False
        return super().has_changed()


class DistractorForm(SpacesAreBlank, RenderedForm):
    class Meta:
        model = Distractor
        fields = ("text", "position")
        field_classes = {"text": MarkdownField}
        widgets = {"text": forms.Textarea(attrs={"rows": 2})}


class KeyTermFormSet(BaseInlineFormSet):
    """A key term, or a synonym of it, made only of the question's words is refused: the grader ignores such
    words (they are no evidence of knowing the answer), so the term would silently count for nothing."""

    def clean(self) -> None:
        super().clean()
        question = self.instance.question or ""
        for form in self.forms:
            term = form.cleaned_data.get("term") if hasattr(form, "cleaned_data") else None
            if term and not self._should_delete_form(form):
                echoes = question_echoes(term, question)
                if echoes:
                    form.add_error("term", ValidationError(echo_problem(echoes), code="echoes_question"))


class KeyTermForm(forms.ModelForm):
    class Meta:
        model = KeyTerm
        fields = ("term",)

    def clean_term(self) -> str:
        synonyms = [part.strip() for part in self.cleaned_data["term"].split("|") if part.strip()]
        if not synonyms:
            raise ValidationError("Give the term, and any synonyms after it, separated by |.", code="term")
        return "|".join(synonyms)


class _TextsFormSet(BaseInlineFormSet):
    """An inline of texts (accepted answers, distractors) that must differ from one another in more than
    letter case. The comparison is the database's own lower(), not str.lower(), which differs for some letters
    ("İ"); the rows the request did not include count as they are."""

    noun = ""  # what a text is, for the error: "answer", "distractor"

    def texts(self) -> list[str]:
        texts = [
            form.cleaned_data["text"]
            for form in self.forms
            if form.cleaned_data.get("text") and not self._should_delete_form(form)
        ]
        if self.instance.pk:
            shown = [form.instance.pk for form in self.initial_forms]
            texts += self.model.objects.filter(card=self.instance).exclude(pk__in=shown).values_list("text", flat=True)
        return texts

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        texts = self.texts()
        clashes = case_clashes([texts])
        if clashes:
            _, first, second = clashes[0]
            raise ValidationError(
                "“%(first)s” and “%(second)s” are the same %(noun)s: letter case does not count. Keep one.",
                params={"first": first, "second": second, "noun": self.noun},
                code=f"{self.noun}_twice",
            )
        self.check_texts(texts)

    def check_texts(self, texts: list[str]) -> None:
        pass


class DistractorFormSet(_TextsFormSet):
    """A distractor must be wrong, and offered once: one that is the answer, an accepted answer, or another
    distractor in other letter case would be dropped from the options (or marked wrong where free recall
    accepts it)."""

    noun = "distractor"

    def save_new(self, form, commit=True):
        # Every row added in one save starts at the position the form offered (after the card's last distractor,
        # 0 on a new card): tied, they sorted by id, and one could push another out of the three a question offers.
        # A taken position moves after the last, in the order the rows were typed.
        if not hasattr(self, "_taken"):
            stored = self.model.objects.filter(card=self.instance).values_list("position", flat=True)
            self._taken = set(stored) if self.instance.pk else set()
        position = form.instance.position or 0
        if position in self._taken:
            position = max(self._taken) + 1
        form.instance.position = position
        self._taken.add(position)
        return super().save_new(form, commit=commit)

    def check_texts(self, texts: list[str]) -> None:
        card = self.instance
        right = right_answers(answer=card.answer or "", short_answer=card.short_answer or "", aliases=self._accepted())
        for text in texts:
            if normal_text(text) in right:
                raise ValidationError(
                    "“%(text)s” is a right answer of this card (its answer or an accepted answer), "
                    "so it cannot be a distractor.",
                    params={"text": text},
                    code="distractor_right",
                )

    def _accepted(self) -> list[str]:
        """The accepted answers as sent beside this formset (the admin validates each inline on its own), and
        those saved that the request leaves as they are."""
        prefix = Alias._meta.get_field("card").remote_field.get_accessor_name()  # the inline's prefix: "aliases"
        sent, shown = inline_texts_sent(self.data, prefix)
        if not self.instance.pk:
            return sent
        kept = Alias.objects.filter(card=self.instance).exclude(pk__in=[pk for pk in shown if str(pk).isdigit()])
        return sent + list(kept.values_list("text", flat=True))


def inline_texts_sent(data, prefix: str) -> tuple[list[str], set[str]]:
    """The texts an inline of the card form sends (rows `<prefix>-N-text`), in its order, without the rows marked
    for deletion; and the ids of the stored rows it shows."""
    row = re.compile(rf"{re.escape(prefix)}-(\d+)-text")
    rows = [f"{prefix}-{n}" for n in sorted(int(m[1]) for m in map(row.fullmatch, data) if m)]
    sent = [str(data[f"{row}-text"]) for row in rows if not data.get(f"{row}-DELETE")]
    return sent, {data.get(f"{row}-id") for row in rows}


class AliasFormSet(_TextsFormSet):
    """Accepted answers are unique per card regardless of case, a constraint on Lower(text).

    Django validates neither an expression constraint nor one on the inline's foreign key, so
    "Job" beside "job" reached the database and failed there (a 500).
    """

    noun = "answer"

    def save_existing_objects(self, commit: bool = True) -> list:
        # Rows are updated one at a time and the unique index on lower(text) cannot wait for the last one:
        # renaming "Job", "Task" to "Task", "Job" would clash halfway. Changed rows first take a placeholder
        # that clashes with nothing.
        if commit:
            changed = [
                form.instance.pk
                for form in self.initial_forms
                if form.instance.pk and form.has_changed() and not self._should_delete_form(form)
            ]
            Alias.objects.filter(pk__in=changed).update(text=Concat(Value("\u2060renaming "), Cast("pk", CharField())))
        return super().save_existing_objects(commit)


class RegradeConfirmForm(forms.Form):
    """Names the card's version (its id; 0: none) that the confirmed preview graded answers against."""

    version = forms.IntegerField(min_value=0, max_value=2**63 - 1, widget=forms.HiddenInput)


class GraderTryForm(forms.Form):
    # The result area, swapped in after a try, holds the error: the box points to it (when it is there).
    response = forms.CharField(
        label="A student's answer",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3, "aria-describedby": "grader-response-error"}),
    )
