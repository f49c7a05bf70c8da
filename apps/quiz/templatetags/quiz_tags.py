from __future__ import annotations

from django import template

from apps.common.templatetags.common_tags import percent
from apps.quiz import selectors
from apps.quiz.grading import CORRECT_AT, Verdict
from apps.quiz.models import CardReport

register = template.Library()


@register.simple_tag
def study_today(user) -> selectors.Today | None:
    """A signed-in student's due reviews, unfinished quiz and standing per deck, for the page they land on."""
    return selectors.study_today(user=user) if user.is_authenticated else None


@register.simple_tag
def report_max_length() -> int:
    """How long a report on a card may be, for its box's maxlength."""
    return CardReport.MAX_LENGTH


@register.inclusion_tag("quiz/_today.html")
def today(study: selectors.Today | None, deadlines=()) -> dict:
    """The "Today" panel of `study_today`, with the cohort decks coming due (`deadlines`, the cohorts app's, passed
    in: the quiz app does not depend on it)."""
    return {"today": study, "deadlines": deadlines}


@register.inclusion_tag("quiz/_deck_study.html")
def deck_study(study: selectors.Today | None, deck) -> dict:
    """A deck tile's line for the signed-in student: cards seen, mastered and due, and the way to the due ones."""
    mine = study.decks.get(deck.pk) if study else None
    return {"deck": deck, "mine": mine, "seen": mine.seen if mine else 0, "signed_in": study is not None}


@register.inclusion_tag("quiz/_card_history.html")
def card_history(user, card) -> dict:
    """A signed-in user's answers to the card on its page, and when it comes back for review."""
    return {"history": selectors.card_history(user=user, card=card) if user.is_authenticated else None, "card": card}


@register.simple_tag
def deck_standing(user, cards) -> selectors.DeckStanding:
    """A deck page's cards, each with where it stands with a signed-in user (None for anyone else)."""
    if not user.is_authenticated:
        return selectors.DeckStanding(rows=[(card, None) for card in cards])
    return selectors.deck_standing(user=user, cards=list(cards))


@register.filter
def score_note(answer) -> str:
    """Why an answer graded correct scores under 100 %, which "Correct · Score 86 %" left a puzzle; "" otherwise
    (a full score, another verdict, or the student's own correction, which the grader's score no longer explains)."""
    if answer.final_verdict != Verdict.CORRECT or answer.override_verdict or answer.revealed:
        return ""
    if round(answer.final_score * 100) >= 100:  # 99.8 % shows as "100 %": nothing to explain
        return ""
    if answer.feedback.startswith("Typo tolerated"):
        return f"Not 100\u00a0%: a misspelt term is accepted, at {percent(answer.final_score)}."
    return (
        "Not 100\u00a0%: the score follows how much of the model answer’s key points your answer covers, and"
        f" {percent(CORRECT_AT)} or more counts as correct."
    )
