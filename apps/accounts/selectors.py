"""What the site holds about one account, for its owner to download."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db.models import Count, F, FloatField, Q
from django.db.models.functions import Cast, NullIf

from apps.cohorts.models import Cohort, Extension, Membership
from apps.quiz.models import Answer, CardReport, CardState, QuizSession

# Raised when a field changes meaning, so a script reading old downloads can tell. 2: a quiz's "score" is its mean
# score, as the pages show it, no longer the sum of its answers' scores (now "score_sum").
EXPORT_FORMAT = 2


def account_summary(*, user: AbstractUser) -> dict[str, int]:
    """Counts for the account page: what downloading or deleting the account concerns."""
    return {
        "quizzes": QuizSession.objects.filter(user=user).count(),
        "answers": Answer.objects.filter(user=user).count(),
        "cohorts": Membership.objects.filter(student=user, removed_at__isnull=True).count(),
    }


def account_owned_cohorts(*, user: AbstractUser) -> list[Cohort]:
    """Cohorts the account owns, with how many instructors besides it would keep each after a deletion."""
    others = Count("instructors", filter=~Q(instructors=user))
    return list(Cohort.objects.filter(owner=user).annotate(other_instructors=others).order_by("name"))


# Each list: the query's columns, renamed where the export names them more plainly.
_QUIZ = {"id": "id", "deck__slug": "deck", "deck__title": "deck_title", "mode": "mode", "order": "order",
         "size": "size", "created_at": "created_at", "finished_at": "finished_at", "item_count": "questions",
         "answered_count": "answered", "mean_score": "score", "score_sum": "score_sum"}  # fmt: skip
_ANSWER = {"session_id": "quiz", "item__position": "position", "card__deck__slug": "deck",
           "card_version__data__question": "question", "mode": "mode", "response": "response", "revealed": "revealed",
           "auto_verdict": "auto_verdict", "auto_score": "auto_score", "override_verdict": "override_verdict",
           "final_verdict": "final_verdict", "final_score": "final_score", "feedback": "feedback",
           "time_taken_ms": "time_taken_ms", "answered_at": "answered_at"}  # fmt: skip
_MEMORY = {"card__deck__slug": "deck", "card__question": "question", "state": "state", "due": "due",
           "last_review": "last_review", "stability": "stability", "difficulty": "difficulty", "reps": "reps",
           "lapses": "lapses", "set_aside_at": "set_aside_at"}  # fmt: skip
_COHORT = {"cohort__name": "cohort", "joined_at": "joined_at", "removed_at": "removed_at"}
# A later deadline an instructor gave the student; who gave it is the instructor's, not theirs.
_EXTENSION = {"assignment__cohort__name": "cohort", "assignment__deck__slug": "deck", "due_date": "due_date",
              "granted_at": "granted_at"}  # fmt: skip
_REPORT = {"card__deck__slug": "deck", "card__question": "question", "message": "message",
           "created_at": "created_at", "resolved_at": "resolved_at"}  # fmt: skip


def account_export(*, user: AbstractUser) -> dict:
    """Everything stored about `user` that is theirs, in six queries whatever the history's size."""
    lists = {
        "quizzes": (
            # The mean over the questions answered, 0 to 1 (null before any): what the pages show as the quiz's score.
            QuizSession.objects.filter(user=user)
            .annotate(mean_score=F("score_sum") / Cast(NullIf(F("answered_count"), 0), FloatField()))
            .order_by("created_at", "pk"),
            _QUIZ,
        ),
        "answers": (Answer.objects.filter(user=user).order_by("answered_at", "pk"), _ANSWER),
        "memory": (CardState.objects.filter(user=user).order_by("due", "pk"), _MEMORY),
        "cohorts": (Membership.objects.filter(student=user).order_by("joined_at", "pk"), _COHORT),
        "extensions": (Extension.objects.filter(student=user).order_by("due_date", "pk"), _EXTENSION),
        "card_reports": (CardReport.objects.filter(user=user).order_by("created_at", "pk"), _REPORT),
    }
    account = {
        "username": user.get_username(),
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "date_joined": user.date_joined,
        "last_login": user.last_login,
    }
    return {
        "format": EXPORT_FORMAT,
        "account": account,
        **{
            name: [{columns[key]: value for key, value in row.items()} for row in rows.values(*columns)]
            for name, (rows, columns) in lists.items()
        },
    }


def email_taken(*, email: str, other_than: int | None = None) -> bool:
    """Another account has this email, or has it as its user name (which signing in by email would reach first)."""
    users = get_user_model().objects.exclude(pk=other_than)
    return users.filter(Q(email__iexact=email) | Q(username__iexact=email)).exists()


def username_taken(*, username: str) -> bool:
    """An account has this user name in some letter case (sign-up refuses "Sam" beside "sam")."""
    return get_user_model().objects.filter(username__iexact=username).exists()
