from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods

# A page with a form. HEAD as well as GET: uptime monitors and link checkers ask with HEAD.
require_page_or_form = require_http_methods(["GET", "HEAD", "POST"])

# The request headers that choose between a page and one of its partials.
HTMX_VARY = ("HX-Request", "HX-History-Restore-Request")


class HttpResponseSeeOther(HttpResponseRedirect):
    """303: after a POST, the browser GETs the new location (POST-redirect-GET)."""

    status_code = 303


def htmx_current_path(request: HttpRequest) -> str | None:
    """The path of the page HTMX sent this request from, if that page is on this site; else None.

    django-htmx parses HX-Current-URL unguarded: a malformed one ("http://[") raises ValueError.
    """
    try:
        return request.htmx.current_url_abs_path if getattr(request, "htmx", False) else None
    except ValueError:
        return None


def render_page_or_partial(
    request: HttpRequest, template: str, partial: str, context: dict, *, status: int = 200
) -> HttpResponse:
    """The page, or its inline `partial` when HTMX swaps that part in.

    A history restore gets the page: htmx puts that answer in <body>. Page and partial share a URL, so the
    response varies on the headers, or a cache (the browser's, which Back reads) hands the partial back as
    the page.
    """
    wants_partial = bool(request.htmx) and not request.htmx.history_restore_request
    response = render(request, f"{template}#{partial}" if wants_partial else template, context, status=status)
    patch_vary_headers(response, HTMX_VARY)
    return response
