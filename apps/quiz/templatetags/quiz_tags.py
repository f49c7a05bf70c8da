from __future__ import annotations

from django import template

from apps.quiz.selectors import study_today

register = template.Library()


@register.inclusion_tag("quiz/_today.html")
def today(user) -> dict:
    """A signed-in student's due reviews and unfinished quiz, for the page they land on."""
    return {"today": study_today(user=user) if user.is_authenticated else None}
