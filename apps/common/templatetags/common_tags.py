from __future__ import annotations

from django import template

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
