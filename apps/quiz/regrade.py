"""Grading past answers again after an instructor corrects a card (a wrong model answer, a missing alias): as
Moodle's "regrade attempts", so students are not left with scores from the mistake."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from apps.common.db import rows_update, student_lock
from apps.content.models import Card
from apps.content.services import card_unchanged_since

from .aggregates import Rescored, answers_rescore
from .grading import Grade, grade
from .memory import card_states_rebuild
from .models import Answer
from .services import answer_finalize, grading_card

# Shown on the confirmation page; the rest are counted.
LISTED_CHANGES = 200


@dataclass(frozen=True)
class RegradeReport:
    checked: int  # free-recall answers typed to the card
    changed: list[Rescored]  # those the grader now grades otherwise (a student's correction may still stand)
    version_id: int = 0  # the card's version they were graded against (0: none): what a confirmation names

    @property
    def students(self) -> int:
        return len({row.answer.user_id for row in self.changed})


def answers_regrade(*, card: Card, apply: bool, seen_version: int | None = None) -> RegradeReport:
    """Grades every answer typed to `card` again against the card as it is now, and (with `apply`) stores the new
    verdicts, scores and feedback with the running totals, quiz scores and review schedules they move.

    `seen_version` (with `apply`): the version (its id; 0: none) of the card that the confirmed preview graded
    against. When the card has another now, CardChangedError is raised and nothing is stored: the preview's counts
    and verdicts were not what this would store. None: whatever the card is now.

    A student's own correction ("I was right" / "I was wrong") stands: it is their verdict. One that the grader
    now agrees with is no longer a correction, as answer_override would have stored it. Multiple-choice answers
    keep theirs: the options were what they were. Answers shown, not typed, stay unanswered.
    """
    typed = Answer.objects.filter(card=card, mode="recall", revealed=False).select_related("user")
    with transaction.atomic():
        if apply:
            # The card's row first, as card_moved takes it: an answer to the card reads it FOR KEY SHARE before its
            # student's lock (_card_deck), so one in flight commits before the students are read, and none starts.
            if seen_version is None:
                list(Card.objects.select_for_update().filter(pk=card.pk).values_list("pk"))
            else:
                card_unchanged_since(card=card, version_id=seen_version)
            student_lock(*sorted(set(typed.values_list("user_id", flat=True))))
            typed = typed.select_for_update(of=("self",))
        # Read after the lock: a save committed meanwhile is what is graded against, and what the version says.
        card = Card.objects.prefetch_related("aliases", "key_terms").get(pk=card.pk)
        gradable = grading_card(
            card, aliases=[alias.text for alias in card.aliases.all()], key_terms=[t.term for t in card.key_terms.all()]
        )
        grades: dict[str, Grade] = {}
        checked, changed, restated = 0, [], []
        for answer in typed.order_by("answered_at", "pk"):
            checked += 1
            if answer.response not in grades:  # many students type the same words
                grades[answer.response] = grade(gradable, answer.response)
            result = grades[answer.response]
            if str(result.verdict) == answer.auto_verdict and result.score == answer.auto_score:
                # The verdict stands, now the corrected card's: its feedback and version say so, and the card's form
                # stops offering to regrade answers that regrading would leave as they are.
                version = card.current_version_id or answer.card_version_id
                if apply and (answer.card_version_id, answer.feedback) != (version, result.feedback):
                    answer.card_version_id, answer.feedback = version, result.feedback
                    restated.append(answer)
                continue
            before = Rescored(answer, answer.final_verdict, answer.final_score, bool(answer.override_verdict))
            answer.auto_verdict, answer.auto_score, answer.feedback = str(result.verdict), result.score, result.feedback
            answer_finalize(answer)
            answer.card_version_id = card.current_version_id or answer.card_version_id
            changed.append(before)
        if apply:
            rows_update(restated, ["card_version", "feedback"])
            fields = ["auto_verdict", "auto_score", "feedback", "override_verdict", "final_verdict", "final_score",
                      "rating", "card_version"]  # fmt: skip
            answers_rescore(card_id=card.pk, rescored=changed, fields=fields)
            card_states_rebuild(user_ids=sorted({row.answer.user_id for row in changed}), card=card)
    return RegradeReport(checked=checked, changed=changed, version_id=card.current_version_id or 0)
