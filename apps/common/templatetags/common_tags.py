from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.conf import settings
from django.template import Context
from django.template.defaultfilters import date as date_filter
from django.templatetags.static import static
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timesince import timesince, timeuntil
from django_htmx.templatetags.django_htmx import htmx_script

register = template.Library()


@register.filter
def percent(value: float | None, digits: int = 0) -> str:
    """0.8333 -> "83 %" (a no-break space); None -> an em dash (nothing to show yet)."""
    if value is None:
        return "—"
    # Running float totals can end a hair below zero (-1e-16), which would print as "-0 %"; + 0.0 makes -0.0 plain 0.
    shown = round(value * 100, int(digits)) + 0.0
    return f"{shown:.{int(digits)}f}\u00a0%"  # no-break space: "83" and "%" never part at a line end


@register.filter
def datetime_attr(value: datetime | None) -> str:
    """A <time datetime> value: to the second, with the offset, in the reader's time zone. Django's "c" format
    carries microseconds, which that attribute does not allow."""
    return date_filter(timezone.localtime(value), r"Y-m-d\TH:i:sO") if value else ""


@register.filter
def seconds(milliseconds: int | None) -> str:
    if milliseconds is None:
        return "—"
    total = round(milliseconds / 1000)
    return f"{total // 60} min {total % 60} s" if total >= 60 else f"{total} s"


@register.filter
def from_now(value: datetime | None) -> str:
    """ "in 3 hours, 5 minutes"; under a minute away "in less than a minute" (timeuntil says "0 minutes")."""
    if value is None:
        return ""
    if value - timezone.now() < timedelta(minutes=1):
        return "in less than a minute"
    return f"in {timeuntil(value)}"


@register.filter
def ago(value: datetime | None) -> str:
    """ "3 days, 2 hours ago"; under a minute ago "just now" (timesince says "0 minutes")."""
    if value is None:
        return ""
    if timezone.now() - value < timedelta(minutes=1):
        return "just now"
    return f"{timesince(value)} ago"


@register.simple_tag(takes_context=True)
def back_after_sign_in(context: Context) -> str:
    """Where the header's Sign in and Sign up come back to: this page, but from the sign-in and sign-up pages
    themselves, the page those were to return to (coming back to a sign-up form once signed in is no use)."""
    request = context.get("request")
    if request is None:
        return ""
    match = request.resolver_match
    if match is not None and match.url_name in {"login", "signup"}:
        return request.GET.get("next", "")
    return request.get_full_path()


@register.simple_tag(takes_context=True)
def site_htmx_script(context: Context) -> SafeString:
    """django-htmx's htmx_script (htmx, and with DEBUG on its debug script), preceded with DEBUG on by
    htmx-debug-handled.js, which must run before the debug script to keep the answers the page handles."""
    scripts = htmx_script(context)
    if not settings.DEBUG:
        return scripts
    return format_html('<script src="{}" defer></script>{}', static("js/htmx-debug-handled.js"), scripts)
