from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from apps.content.models import Card, CardVersion, Deck


class Verdict(models.TextChoices):
    CORRECT = "correct", "Correct"
    PARTIAL = "partial", "Partly correct"
    INCORRECT = "incorrect", "Incorrect"


class QuizSession(models.Model):
    class Mode(models.TextChoices):
        CHOICE = "choice", "Multiple choice"
        RECALL = "recall", "Free recall"
        MIXED = "mixed", "Mixed"

    class Order(models.TextChoices):
        NEW = "new", "New cards first"
        DUE = "due", "Due reviews first"
        RANDOM = "random", "Random"
        WEAKEST = "weakest", "Your weakest first"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quiz_sessions")
    # No deck: a "review due cards" session across every deck.
    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, null=True, blank=True, related_name="quiz_sessions")
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.MIXED)
    order = models.CharField(max_length=10, choices=Order.choices, default=Order.NEW)
    size = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(help_text="Makes option shuffles stable across reloads.")
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # "Quiz the questions you missed": its size and order were not the student's choice, so are not offered again.
    # Defaults in the database too, for rows written by SQL and by the previous release's servers during a deploy.
    retry = models.BooleanField(default=False, db_default=False)
    # Kept by answer_submit and answer_override (item_count by withdrawal.py), so a page counts no answers.
    item_count = models.PositiveSmallIntegerField(default=0)
    answered_count = models.PositiveSmallIntegerField(default=0)
    score_sum = models.FloatField(default=0)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "-created_at"], name="quiz_session_user_recent")]
        constraints = [
            models.CheckConstraint(condition=Q(size__gte=1, size__lte=100), name="session_size_range"),
            models.CheckConstraint(condition=Q(mode__in=["choice", "recall", "mixed"]), name="session_mode_valid"),
            models.CheckConstraint(
                condition=Q(order__in=["new", "due", "random", "weakest"]), name="session_order_valid"
            ),
            models.CheckConstraint(
                condition=Q(finished_at__isnull=True) | Q(finished_at__gte=F("created_at")),
                name="session_finished_after_created",
            ),
            models.CheckConstraint(condition=Q(answered_count__lte=F("item_count")), name="session_answered_in_range"),
            models.CheckConstraint(
                condition=Q(score_sum__gte=0, score_sum__lte=F("answered_count")), name="session_score_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.created_at:%Y-%m-%d %H:%M})"

    def get_absolute_url(self) -> str:
        return reverse("quiz:session", kwargs={"pk": self.pk})

    @property
    def title(self) -> str:
        return self.deck.title if self.deck_id else "Review due cards"

    @property
    def score(self) -> float | None:
        """The mean final score of the answers so far."""
        return self.score_sum / self.answered_count if self.answered_count else None


class SessionItem(models.Model):
    """One question of a session, fixed when the session starts."""

    class Withdrawn(models.TextChoices):
        """Why a question not yet answered is no longer asked (see apps/quiz/withdrawal.py)."""

        NO = "", "Asked"
        DRAFT = "draft", "Its deck is being revised"
        ARCHIVED = "archived", "Its card is no longer asked"
        ASIDE = "aside", "The student set its card aside"

    session = models.ForeignKey(QuizSession, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveSmallIntegerField()
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    mode = models.CharField(max_length=10, choices=[("choice", "Multiple choice"), ("recall", "Free recall")])
    # Multiple choice: the options' HTML in display order, and which one is right.
    options = models.JSONField(default=list, blank=True)
    correct_option = models.PositiveSmallIntegerField(null=True, blank=True)
    # Kept in its place, so the other questions' addresses (and forms open in other tabs) still point where they did.
    withdrawn = models.CharField(
        max_length=10, choices=Withdrawn.choices, default=Withdrawn.NO, db_default=Withdrawn.NO, blank=True
    )

    class Meta:
        ordering = ["session", "position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="item_unique_position"),
            models.UniqueConstraint(fields=["session", "card"], name="item_unique_card"),
            models.CheckConstraint(condition=Q(position__gte=1), name="item_position_positive"),
            models.CheckConstraint(
                condition=(Q(mode="choice") & Q(correct_option__isnull=False))
                | (Q(mode="recall") & Q(correct_option__isnull=True)),
                name="item_choice_has_correct_option",
            ),
            models.CheckConstraint(
                condition=Q(withdrawn__in=["", "draft", "archived", "aside"]), name="item_withdrawn_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session_id} #{self.position}"


class Answer(models.Model):
    session = models.ForeignKey(QuizSession, on_delete=models.CASCADE, related_name="answers")
    item = models.OneToOneField(SessionItem, on_delete=models.CASCADE, related_name="answer")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="answers")
    # The card as it was when answered: past answers stay readable after edits.
    card_version = models.ForeignKey(CardVersion, on_delete=models.PROTECT, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="answers")
    mode = models.CharField(max_length=10, choices=[("choice", "Multiple choice"), ("recall", "Free recall")])
    response = models.TextField(blank=True, help_text="What the student typed, or the text of the chosen option.")
    # The response folded (case, spacing, punctuation), so common wrong answers can be counted.
    response_key = models.CharField(max_length=200, blank=True)
    chosen_option = models.PositiveSmallIntegerField(null=True, blank=True)
    revealed = models.BooleanField(default=False, help_text="The student asked for the answer without answering.")
    auto_verdict = models.CharField(max_length=10, choices=Verdict.choices)
    auto_score = models.FloatField()
    feedback = models.TextField(blank=True)
    override_verdict = models.CharField(max_length=10, choices=Verdict.choices, blank=True)
    final_verdict = models.CharField(max_length=10, choices=Verdict.choices)
    final_score = models.FloatField()
    rating = models.PositiveSmallIntegerField(help_text="FSRS rating: 1 again, 2 hard, 3 good, 4 easy.")
    time_taken_ms = models.PositiveIntegerField(null=True, blank=True)
    answered_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["answered_at"]
        indexes = [
            models.Index(fields=["user", "card", "answered_at"], name="answer_user_card_time"),
            models.Index(fields=["card", "answered_at"], name="answer_card_time"),
            # Covering, so counting a cohort's common wrong answers reads only the index.
            models.Index(
                fields=["card", "response_key"],
                include=["user", "mode"],
                condition=~Q(final_verdict="correct") & ~Q(response_key=""),
                name="answer_wrong_responses",
            ),
            models.Index(fields=["answered_at"], include=["user"], name="answer_time"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["session", "card"], name="answer_unique_per_session_card"),
            models.CheckConstraint(condition=Q(auto_score__gte=0, auto_score__lte=1), name="answer_auto_score_range"),
            models.CheckConstraint(
                condition=Q(final_score__gte=0, final_score__lte=1), name="answer_final_score_range"
            ),
            models.CheckConstraint(condition=Q(rating__gte=1, rating__lte=4), name="answer_rating_range"),
            models.CheckConstraint(
                condition=Q(override_verdict="") | Q(final_verdict=F("override_verdict")),
                name="answer_final_follows_override",
            ),
            models.CheckConstraint(
                condition=Q(mode="recall") | Q(chosen_option__isnull=False) | Q(revealed=True),
                name="answer_choice_has_option",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.card_id}: {self.final_verdict}"

    @property
    def overridden(self) -> bool:
        return bool(self.override_verdict)

    @property
    def said(self) -> str:
        """What the student gave, as instructors read it beside their report: what was typed, and whether they
        asked to see the answer (what was typed before that is kept, not graded)."""
        if not self.revealed:
            return self.response
        if not self.response:
            return "(asked to see the answer)"
        return f"(asked to see the answer, having typed) {self.response}"


class CardState(models.Model):
    """A student's FSRS memory state for one card."""

    class State(models.IntegerChoices):
        LEARNING = 1
        REVIEW = 2
        RELEARNING = 3

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="card_states")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="states")
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="+", help_text="The card's deck, copied.")
    state = models.PositiveSmallIntegerField(choices=State.choices, default=State.LEARNING)
    step = models.PositiveSmallIntegerField(null=True, blank=True)
    stability = models.FloatField(null=True, blank=True)
    difficulty = models.FloatField(null=True, blank=True)
    due = models.DateTimeField()
    last_review = models.DateTimeField(null=True, blank=True)
    reps = models.PositiveIntegerField(default=0)
    lapses = models.PositiveIntegerField(default=0)
    # Retrievability is >= 0.9 exactly until last_review + stability days (FSRS's definition of
    # stability), so "mastered now" is a plain, indexable comparison. Null unless in review.
    mastered_until = models.DateTimeField(null=True, blank=True)
    # Set aside by the student (Anki's "suspend"): asked in no quiz and counted due nowhere until brought back.
    set_aside_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["user", "due"], name="card_state_user_due"),
            models.Index(fields=["deck", "mastered_until", "user"], name="card_state_mastery"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["user", "card"], name="card_state_unique"),
            models.CheckConstraint(condition=Q(stability__isnull=True) | Q(stability__gt=0), name="stability_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}/{self.card_id} due {self.due:%Y-%m-%d %H:%M}"


class StudentCardStat(models.Model):
    """Running totals of one student's answers on one card, kept in step with every answer and override."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="+")
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="+")
    attempts = models.PositiveIntegerField()
    score_sum = models.FloatField()
    overrides = models.PositiveIntegerField(default=0)
    last_answered_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "card"], name="student_card_stat_unique"),
            models.CheckConstraint(condition=Q(attempts__gte=1), name="student_card_stat_attempted"),
        ]
        indexes = [models.Index(fields=["card", "user"], name="student_card_stat_card")]

    def __str__(self) -> str:
        return f"{self.user_id}/{self.card_id}: {self.attempts} answers"


class StudentDeckStat(models.Model):
    """Running totals of one student's answers in one deck: the dashboard matrix reads only these."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="+")
    cards_attempted = models.PositiveIntegerField()
    attempts = models.PositiveIntegerField()
    score_sum = models.FloatField()
    # Sum over cards of the student's mean score on each: the "rest score" of the discrimination index.
    mean_sum = models.FloatField()
    last_answered_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "deck"], name="student_deck_stat_unique")]

    def __str__(self) -> str:
        return f"{self.user_id}/deck {self.deck_id}: {self.cards_attempted} cards"


class CardReport(models.Model):
    """A student's note that something is wrong with a card (its answer, its grading, a typo), for the instructors.

    Made from the feedback on one of their answers, which it keeps: what they answered and what the grader said.
    """

    MAX_LENGTH = 1000

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="reports")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="card_reports")
    answer = models.ForeignKey(Answer, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    message = models.TextField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["card"], condition=Q(resolved_at__isnull=True), name="card_report_open")]
        constraints = [
            # One open report per student and card: a second click or a resend adds nothing to the queue.
            models.UniqueConstraint(
                fields=["user", "card"], condition=Q(resolved_at__isnull=True), name="card_report_one_open"
            ),
            models.CheckConstraint(condition=~Q(message=""), name="card_report_message_not_empty"),
            models.CheckConstraint(
                condition=Q(resolved_by__isnull=True) | Q(resolved_at__isnull=False), name="card_report_resolved_when"
            ),
        ]

    def __str__(self) -> str:
        # The admin's title and breadcrumb: the card as instructors know it, not two ids. Not the student: every
        # instructor reads the report, and only the student's own cohorts' instructors learn their name.
        return f"Report on {self.card}"
