from __future__ import annotations

from datetime import date

from django import template
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from apps.cohorts.analytics import FLAG_SHORT, FLAGS
from apps.cohorts.selectors import deadlines_near, student_cohorts
from apps.content.plaintext import plain_text

register = template.Library()


@register.simple_tag(takes_context=True)
def next_sort(context, key: str, descending_first: bool = False) -> str:
    """The `sort` a click on column `key` asks for: the other direction if the table is sorted by it already.

    Used with Django's {% querystring sort=... page=None %}, which keeps the other parameters (tab, flag).
    """
    current = context.get("sort", "")
    if current == key:
        return f"-{key}"
    if current == f"-{key}":
        return key
    return f"-{key}" if descending_first else key


@register.simple_tag(takes_context=True)
def aria_sort(context, key: str) -> str:
    """How the shown table is sorted by column `key`: the view's `sort`, already checked, not the raw parameter."""
    current = context.get("sort", "")
    if current == key:
        return "ascending"
    if current == f"-{key}":
        return "descending"
    return "none"


@register.simple_tag
def deck_sort_key(deck_id: int, metric: str) -> str:
    return f"deck-{deck_id}-{metric}"


@register.filter
def short_date(value: date) -> str:
    """1 Jan in the current year, 1 Jan 2020 in any other: without its year a date reads as this year's."""
    return formats.date_format(value, "j M" if value.year == timezone.localdate().year else "j M Y")


@register.simple_tag
def flag_label(key: str) -> SafeString:
    """A flag's short label, the rest of its wording hidden from sight only: "Behind" reads "Behind on a deck …"."""
    full, short = FLAGS[key], FLAG_SHORT.get(key)
    if short is None:
        return format_html("{}", full)
    return format_html('{}<span class="visually-hidden">{}</span>', short, full.removeprefix(short))


# About two lines of a wrong option on a 360 px phone, where it gets the screen's width: past it, or holding a table
# (which the clamped line leaves out), an option is clamped and offers "Show all".
CLAMPED_OPTION_CHARS = 80


@register.filter
def runs_long(html: str) -> bool:
    """Whether a wrong option (its stored, sanitised HTML) may not fit the two lines the item statistics give it."""
    return "<table" in html or len(plain_text(html)) > CLAMPED_OPTION_CHARS


@register.filter
def get_item(mapping: dict, key: str):
    return mapping.get(key, key)


@register.inclusion_tag("cohorts/_my_cohorts.html")
def my_cohorts(user):
    """The student's cohorts, assigned decks, due dates and completion, for the progress page."""
    return {"cohorts": student_cohorts(user=user)}


@register.simple_tag
def near_deadlines(user) -> list:
    """For the home page's Today panel, which the quiz app renders: it takes them as it is given them."""
    return deadlines_near(user=user) if user.is_authenticated else []
