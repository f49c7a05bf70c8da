from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

register = template.Library()


@register.filter
def percent(value: float | None, digits: int = 0) -> str:
    """0.8333 -> "83 %" (a no-break space); None -> an em dash (nothing to show yet)."""
    if value is None:
        return "—"
    return f"{value * 100:.{int(digits)}f}\u00a0%"  # no-break space: "83" and "%" never part at a line end


@register.filter
def seconds(milliseconds: int | None) -> str:
    if milliseconds is None:
        return "—"
    total = round(milliseconds / 1000)
    return f"{total // 60} min {total % 60} s" if total >= 60 else f"{total} s"


@register.filter
def ago(moment: datetime | None) -> str:
    """How long ago, in words: "just now" under a minute (timesince would say "0 minutes"), "never" for None."""
    if moment is None:
        return "never"
    if timezone.now() - moment < timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment)} ago"
