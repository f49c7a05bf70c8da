from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length, Lower
from django.db.models.lookups import LessThanOrEqual
from django.urls import reverse
from django.utils import timezone

from apps.common.textfiles import one_line_break

from . import styles
from .limits import MAX_MARKDOWN, MAX_TITLE
from .plaintext import plain_text
from .rendering import Rendered, render
from .slugs import SLUG_CHECK, SLUG_RULE, validate_deck_slug

# Card search stems English words ("quantized" finds "quantization").
SEARCH_CONFIG = "english"


def search_vector(config: str) -> SearchVector:
    """A card's searchable text, weighted: the question, then the short answer and the accepted answers, the answer,
    the explanation."""
    return (
        SearchVector("question_text", weight="A", config=config)
        + SearchVector("short_answer", weight="B", config=config)
        + SearchVector("alias_text", weight="B", config=config)
        + SearchVector("answer_text", weight="C", config=config)
        + SearchVector("explanation_text", weight="D", config=config)
    )


def _at_most(field_name: str, characters: int) -> LessThanOrEqual:
    return LessThanOrEqual(Length(field_name), characters)


class StyleRule(models.Model):
    """A CSS rule that replaced an inline style in rendered HTML; all of them are served as one stylesheet."""

    name = models.CharField(max_length=20, unique=True)
    declarations = models.TextField()

    def __str__(self) -> str:
        return f".{self.name}{{{self.declarations}}}"


def style_rules_add(rules: dict[str, str]) -> None:
    """Stores the style rules (name -> declarations) that rendered HTML relies on; known ones are skipped.

    Most saves need no new rule (KaTeX uses a small set), so the common case is one read, no write, and
    the stylesheet version this process links stays as it is.
    """
    new = set(rules) - set(StyleRule.objects.filter(name__in=list(rules)).values_list("name", flat=True))
    if new:
        StyleRule.objects.bulk_create(
            # In name order: two transactions adding the same new rules then lock them in the same order.
            [StyleRule(name=name, declarations=rules[name]) for name in sorted(new)],
            ignore_conflicts=True,
        )
        styles.version_forget()


class RenderedFields:
    """Keeps each `*_html` field in step with its Markdown source (RENDERED_FIELDS: source -> html)."""

    RENDERED_FIELDS: dict[str, str] = {}
    # An html field -> a field holding it as plain text, formulas read as text (for CSV exports), kept in step too.
    PLAIN_FIELDS: dict[str, str] = {}

    @classmethod
    def stored_fields(cls) -> list[str]:
        """The fields rendering writes: what a bulk update of rendered rows must save."""
        return [*cls.RENDERED_FIELDS.values(), *cls.PLAIN_FIELDS.values()]

    def render(
        self,
        fields: dict[str, str] | None = None,
        *,
        styles: dict[str, str] | None = None,
        known: Mapping[str, Rendered] | None = None,
    ) -> None:
        """Renders the sources into their html fields. The style rules they need are stored at once, or,
        given `styles`, gathered there for the caller to store with others (style_rules_add).

        `known` maps source texts the caller has rendered already to their results, which are used as they are:
        KaTeX is the slow part, and a caller that rendered a text to check its TeX need not typeset it again.
        """
        gathered = {} if styles is None else styles
        for source, target in (self.RENDERED_FIELDS if fields is None else fields).items():
            # Stored with line feeds whoever writes it (a textarea sends CR LF, a file may hold either): a text
            # differing only in its line breaks is the same text, in versions, diffs and exports.
            text = one_line_break(getattr(self, source))
            setattr(self, source, text)
            rendered = known[text] if known is not None and text in known else render(text)
            setattr(self, target, rendered.html)
            if target in self.PLAIN_FIELDS:
                setattr(self, self.PLAIN_FIELDS[target], plain_text(rendered.html))
            gathered.update(rendered.styles)
        if styles is None:
            style_rules_add(gathered)

    def save(self, *args, known: Mapping[str, Rendered] | None = None, **kwargs) -> None:
        """Renders the sources (those in `update_fields`, when given), then saves. `known`: as for render."""
        update_fields = kwargs.get("update_fields")
        fields = self.RENDERED_FIELDS
        if update_fields is not None:
            # A save of other columns (a position, a flag) need not run KaTeX again.
            fields = {source: target for source, target in fields.items() if source in update_fields}
            plain = [self.PLAIN_FIELDS[target] for target in fields.values() if target in self.PLAIN_FIELDS]
            kwargs["update_fields"] = {*update_fields, *fields.values(), *plain}
        self.render(fields, known=known)
        super().save(*args, **kwargs)


class Deck(RenderedFields, models.Model):
    RENDERED_FIELDS = {"description": "description_html"}

    title = models.CharField(max_length=MAX_TITLE)
    slug = models.SlugField(
        max_length=200,
        unique=True,
        validators=[validate_deck_slug],
        error_messages={"unique": "A deck with this slug already exists: choose another."},
    )
    description = models.TextField(blank=True, max_length=MAX_MARKDOWN)
    description_html = models.TextField(blank=True, editable=False)
    source = models.CharField(max_length=255, blank=True, help_text="Seed file this deck was loaded from.")
    published = models.BooleanField(
        default=True,
        db_default=True,  # rows written in SQL (the dashboard benchmark's) are published too
        help_text="Students see the deck and can quiz it. Clear this to work on a deck (or hide one) out of their "
        "sight; instructors still see it, marked as a draft.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["title"]
        constraints = [
            models.CheckConstraint(condition=_at_most("description", MAX_MARKDOWN), name="deck_description_length"),
            models.CheckConstraint(
                condition=SLUG_CHECK, name="deck_slug_valid", violation_error_message=f"A slug {SLUG_RULE}."
            ),
            # Students choose a deck by its title: two of one title could not be told apart in the list, a history
            # or an assignment. The forms and the import name the deck that has it (selectors.deck_titled).
            models.UniqueConstraint(
                Lower("title"),
                name="deck_title_unique",
                violation_error_code="unique",
                violation_error_message="Another deck has this title: choose one students can tell apart.",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("content:deck", kwargs={"slug": self.slug})


class Card(RenderedFields, models.Model):
    class Kind(models.TextChoices):
        FLASHCARD = "flashcard", "Flashcard"
        SYLLABUS = "syllabus", "Syllabus"

    # Source field -> the field holding its rendered HTML, kept in step by save().
    RENDERED_FIELDS = {
        "question": "question_html",
        "answer": "answer_html",
        "short_answer": "short_answer_html",
        "explanation": "explanation_html",
    }
    PLAIN_FIELDS = {
        "question_html": "question_text",
        "answer_html": "answer_text",
        "explanation_html": "explanation_text",
    }

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False, help_text="Stable identity for export.")
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="cards")
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    question = models.TextField(max_length=MAX_MARKDOWN)
    question_html = models.TextField(editable=False)
    question_text = models.TextField(
        blank=True, editable=False, help_text="The rendered question as plain text, formulas read as text (exports)."
    )
    answer = models.TextField(max_length=MAX_MARKDOWN)
    answer_html = models.TextField(editable=False)
    answer_text = models.TextField(
        blank=True, editable=False, help_text="The rendered answer as plain text, formulas read as text (search)."
    )
    short_answer = models.CharField(
        max_length=300,
        blank=True,
        help_text="A few words (Markdown; maths in $…$ is typeset), used as a multiple-choice option and for exact "
        "grading.",
    )
    # Typeset like the distractors beside it: an option set in another style would give the right one away.
    short_answer_html = models.TextField(blank=True, editable=False)
    explanation = models.TextField(blank=True, max_length=MAX_MARKDOWN)
    explanation_html = models.TextField(blank=True, editable=False)
    explanation_text = models.TextField(
        blank=True, editable=False, help_text="The rendered explanation as plain text, formulas read as text (search)."
    )
    source_key = models.CharField(
        max_length=64, blank=True, editable=False, help_text="Stable identity of the card in its seed file."
    )
    source_hash = models.CharField(
        max_length=64, blank=True, editable=False, help_text="Hash of the content as last loaded from the seed file."
    )
    source_distractors = models.JSONField(
        default=list, blank=True, editable=False, help_text="The distractors as last loaded from the seed files."
    )
    # Kept by database triggers from the card's aliases (migration 0011), whatever wrote them and however: a bulk
    # insert, a queryset delete or the admin's inline. A save of the card cannot put back a stale copy either.
    alias_text = models.TextField(
        blank=True, default="", editable=False, help_text="The accepted answers, a line each (search)."
    )
    archived = models.BooleanField(
        default=False, help_text="Archived cards are no longer asked in new quizzes; their history is kept."
    )
    current_version = models.ForeignKey(
        "CardVersion", on_delete=models.SET_NULL, null=True, blank=True, editable=False, related_name="+"
    )
    # Kept by the database from the plain texts, so no save path (admin, import, loader, bulk update) can forget
    # them; stored, so ranking thousands of matches reads them instead of parsing every text again. The second keeps
    # the words as written, for their beginnings: "checkpointing" is stemmed to "checkpoint", which "checkpointin",
    # half typed, does not begin.
    search = models.GeneratedField(
        expression=search_vector(SEARCH_CONFIG), output_field=SearchVectorField(), db_persist=True
    )
    search_words = models.GeneratedField(
        expression=search_vector("simple"), output_field=SearchVectorField(), db_persist=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["deck", "position"]
        indexes = [
            GinIndex(fields=["search"], name="card_search"),
            GinIndex(fields=["search_words"], name="card_search_words"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["deck", "position"],
                name="card_unique_position_in_deck",
                deferrable=models.Deferrable.DEFERRED,
            ),
            models.UniqueConstraint(
                fields=["deck", "source_key"], condition=~Q(source_key=""), name="card_unique_source_key_in_deck"
            ),
            *(
                models.CheckConstraint(condition=_at_most(name, MAX_MARKDOWN), name=f"card_{name}_length")
                for name in ("question", "answer", "explanation")
            ),
            models.CheckConstraint(condition=Q(position__gte=1), name="card_position_positive"),
            models.CheckConstraint(condition=Q(kind__in=["flashcard", "syllabus"]), name="card_kind_valid"),
            models.CheckConstraint(condition=~Q(question=""), name="card_question_not_empty"),
            models.CheckConstraint(condition=~Q(answer=""), name="card_answer_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.deck} #{self.position}"

    def get_absolute_url(self) -> str:
        return reverse("content:card", kwargs={"slug": self.deck.slug, "pk": self.pk})

    def content_hash(self) -> str:
        return content_hash(
            kind=self.kind,
            question=self.question,
            answer=self.answer,
            short_answer=self.short_answer,
            explanation=self.explanation,
        )


def content_hash(*, kind: str, question: str, answer: str, short_answer: str, explanation: str) -> str:
    payload = "\x1f".join([kind, question, answer, short_answer, explanation])
    return hashlib.sha256(payload.encode()).hexdigest()


class Alias(models.Model):
    """Another answer accepted as correct in free recall."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="aliases")
    text = models.CharField(max_length=300)

    class Meta:
        verbose_name_plural = "aliases"
        ordering = ["card", "pk"]
        constraints = [
            models.UniqueConstraint(Lower("text"), "card", name="alias_unique_per_card"),
            models.CheckConstraint(condition=~Q(text=""), name="alias_not_empty"),
        ]

    def __str__(self) -> str:
        return self.text


class Distractor(RenderedFields, models.Model):
    """A wrong multiple-choice option written for one card; offered before generated ones."""

    RENDERED_FIELDS = {"text": "text_html"}

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="distractors")
    text = models.TextField(max_length=MAX_MARKDOWN, help_text="Markdown; maths in $…$ is typeset.")
    text_html = models.TextField(editable=False)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["card", "position", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(text=""), name="distractor_not_empty"),
            models.CheckConstraint(condition=_at_most("text", MAX_MARKDOWN), name="distractor_text_length"),
        ]

    def __str__(self) -> str:
        return self.text


class KeyTerm(models.Model):
    """A concept a long free-recall answer should mention; synonyms separated by `|`."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="key_terms")
    term = models.CharField(max_length=200, help_text="Synonyms separated by |, e.g. all-reduce|allreduce")

    class Meta:
        ordering = ["card", "pk"]
        constraints = [models.CheckConstraint(condition=~Q(term=""), name="key_term_not_empty")]

    def __str__(self) -> str:
        return self.term


class CardVersion(models.Model):
    """The full content of a card as saved once: who saved it, when, and every field, rendered too."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    data = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["card", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["card", "number"], name="card_version_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="card_version_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.card} v{self.number}"
