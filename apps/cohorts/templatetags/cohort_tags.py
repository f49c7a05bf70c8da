from __future__ import annotations

from django import template
from django.http import QueryDict

from apps.cohorts.selectors import student_cohorts

register = template.Library()


@register.simple_tag(takes_context=True)
def sort_query(context, key: str, descending_first: bool = False) -> str:
    """The current query string with `sort` set to `key`, flipped if the list is already sorted by it."""
    query: QueryDict = context["request"].GET.copy()
    current = query.get("sort", "")
    if current == key:
        value = f"-{key}"
    elif current == f"-{key}":
        value = key
    else:
        value = f"-{key}" if descending_first else key
    query["sort"] = value
    query.pop("page", None)
    return "?" + query.urlencode()


@register.simple_tag(takes_context=True)
def aria_sort(context, key: str) -> str:
    current = context["request"].GET.get("sort", context.get("sort", ""))
    if current == key:
        return "ascending"
    if current == f"-{key}":
        return "descending"
    return "none"


@register.simple_tag(takes_context=True)
def page_query(context, number: int) -> str:
    query = context["request"].GET.copy()
    query["page"] = number
    return "?" + query.urlencode()


@register.simple_tag
def deck_sort_key(deck_id: int, metric: str) -> str:
    return f"deck-{deck_id}-{metric}"


@register.filter
def pairs(spec: str) -> list[tuple[str, str]]:
    """ "a:A,b:B" -> [("a", "A"), ("b", "B")], for short fixed lists written in a template."""
    return [tuple(item.split(":", 1)) for item in spec.split(",")]


@register.filter
def get_item(mapping: dict, key: str):
    return mapping.get(key, key)


@register.inclusion_tag("cohorts/_my_cohorts.html")
def my_cohorts(user):
    """The student's cohorts, assigned decks, due dates and completion, for the progress page."""
    return {"cohorts": student_cohorts(user=user)}
