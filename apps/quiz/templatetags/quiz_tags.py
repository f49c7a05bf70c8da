from __future__ import annotations

from django import template

from apps.quiz import selectors

register = template.Library()


@register.inclusion_tag("quiz/_today.html")
def today(user, deadlines=()) -> dict:
    """A signed-in student's due reviews and unfinished quiz, for the page they land on, and the cohort decks
    coming due (`deadlines`, the cohorts app's, passed in: the quiz app does not depend on it)."""
    return {"today": selectors.study_today(user=user) if user.is_authenticated else None, "deadlines": deadlines}


@register.inclusion_tag("quiz/_card_history.html")
def card_history(user, card) -> dict:
    """A signed-in user's answers to the card on its page, and when it comes back for review."""
    return {"history": selectors.card_history(user=user, card=card) if user.is_authenticated else None, "card": card}
