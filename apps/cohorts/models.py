from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from apps.content.models import Deck

# No 0/O or 1/I/L: codes are read aloud and typed from slides.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Cohort(models.Model):
    name = models.CharField(max_length=120)
    join_code = models.CharField(max_length=16, unique=True, default=new_join_code)
    instructors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="teaching_cohorts")
    # The instructor who created it, always one of its instructors: a co-instructor cannot take them off it.
    # Null only once their account is deleted (or for a cohort that had no instructor when owners came in).
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="owned_cohorts"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="cohort_name_not_empty")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("cohorts:dashboard", kwargs={"pk": self.pk})


class Membership(models.Model):
    """A student in a cohort. Removing sets removed_at; the student's answers are theirs and stay."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="memberships")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField(default=timezone.now)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["cohort", "student"], name="membership_unique"),
            models.CheckConstraint(
                condition=Q(removed_at__isnull=True) | Q(removed_at__gte=models.F("joined_at")),
                name="membership_removed_after_joined",
            ),
        ]
        indexes = [models.Index(fields=["cohort"], condition=Q(removed_at__isnull=True), name="membership_active")]

    def __str__(self) -> str:
        return f"{self.student_id} in {self.cohort_id}"


class Assignment(models.Model):
    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="assignments")
    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="assignments")
    due_date = models.DateField(null=True, blank=True)
    assigned_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["due_date", "deck__title"]
        constraints = [models.UniqueConstraint(fields=["cohort", "deck"], name="assignment_unique")]

    def __str__(self) -> str:
        return f"{self.deck} for {self.cohort}"


class Extension(models.Model):
    """One student's own, later deadline for one assigned deck (Moodle's user override). Always later than the
    assignment's due date: services drop it when that date moves past it, and when the student leaves."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="extensions")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="extensions")
    due_date = models.DateField()
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    granted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["assignment", "student"], name="extension_unique")]

    def __str__(self) -> str:
        return f"{self.student_id} on {self.assignment_id}: {self.due_date}"


class CohortCardStat(models.Model):
    """Running totals of the cohort's current students' answers on one card, for item statistics."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="+")
    card = models.ForeignKey("content.Card", on_delete=models.CASCADE, related_name="+")
    attempts = models.IntegerField(default=0)
    students = models.IntegerField(default=0)
    score_sum = models.FloatField(default=0)
    overrides = models.IntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["cohort", "card"], name="cohort_card_stat_unique")]

    def __str__(self) -> str:
        return f"{self.cohort_id}/{self.card_id}: {self.attempts}"


class CohortResponseStat(models.Model):
    """How often the cohort's current students gave one wrong answer (folded) to one card."""

    cohort = models.ForeignKey(Cohort, on_delete=models.CASCADE, related_name="+")
    card = models.ForeignKey("content.Card", on_delete=models.CASCADE, related_name="+")
    mode = models.CharField(max_length=10)
    response_key = models.CharField(max_length=200)
    count = models.IntegerField(default=0)
    sample = models.TextField(help_text="One response as written: for a multiple-choice option, its source text.")
    # The option as the student was shown it: its rendered, sanitised HTML from the quiz's question
    # (SessionItem.options), not the card's or distractor's now, which an instructor may have edited since.
    sample_html = models.TextField(
        blank=True, default="", help_text="A multiple-choice sample's HTML as it was shown; empty for typed answers."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["cohort", "card", "mode", "response_key"], name="cohort_response_unique")
        ]
        indexes = [models.Index(fields=["cohort", "card"], condition=Q(count__gt=0), name="cohort_response_live")]

    def __str__(self) -> str:
        return f"{self.cohort_id}/{self.card_id} {self.response_key!r}: {self.count}"
