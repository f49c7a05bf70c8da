from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from .errors import first_line
from .http import htmx_current_path, render_page_or_partial

logger = logging.getLogger("mlcourse.requests")
# A file every page links: if the manifest cannot name it, collectstatic did not run.
_PROBE_ASSET = "css/app.css"


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        logger.warning("healthz: the database does not answer: %s", first_line(exc))
        return False
    return True


_migrated: list[bool] = []  # once the schema is seen complete, this process does not read the migrations again


def _migrations_ok() -> bool:
    """Whether every migration has been applied: a release served before `migrate` ran answered every page with a
    500 while /healthz said ok, and a load balancer sent it traffic."""
    if _migrated:
        return True
    try:
        executor = MigrationExecutor(connection)
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError:
        return False
    if pending:
        logger.warning("healthz: %d migrations not applied; run manage.py migrate", len(pending))
        return False
    _migrated.append(True)
    return True


def _cache_ok() -> bool:
    """Whether the cache answers a read: the rate limits live there, so without it no one signs in or up."""
    try:
        cache.get("healthz-probe")
    # Whatever the backend raises (redis-py's errors, a missing cache table's ProgrammingError): any failure is one.
    except Exception as exc:
        logger.warning("healthz: the cache does not answer: %s", first_line(exc))
        return False
    return True


def _static_ok() -> bool:
    try:
        staticfiles_storage.url(_PROBE_ASSET)
    except ValueError as exc:
        # The 503 alone ("missing manifest") left operators looking at the database: say what to run, once a probe.
        logger.warning(
            "healthz: the static files manifest names no %s (%s) in %s; run manage.py collectstatic",
            _PROBE_ASSET, exc, settings.STATIC_ROOT,
        )  # fmt: skip
        return False
    return True


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers with every migration applied, the cache answers and the static manifest is in
    place, else 503."""
    database = _database_ok()
    checks = {
        "database": "ok" if database else "unavailable",
        **({"migrations": "ok" if _migrations_ok() else "pending"} if database else {}),
        "cache": "ok" if _cache_ok() else "failing",
        "static": "ok" if _static_ok() else "missing manifest",
    }
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse({"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503)


def _page_before(request: HttpRequest) -> str | None:
    """The page the user came from, if it is on this site and is not this very page; else None."""
    before = htmx_current_path(request) or request.headers.get("Referer", "")
    same_site = url_has_allowed_host_and_scheme(
        before, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    if not same_site:
        return None
    if request.method == "GET" and before in (request.get_full_path(), request.build_absolute_uri()):
        return None  # a link back to the forbidden page itself would go round in a circle
    return before


def _on_admin_page(request: HttpRequest) -> bool:
    """Whether an HTMX request's answer lands in an admin page: htmx names the page it was sent from."""
    page = htmx_current_path(request) or request.path
    return page.startswith(reverse("admin:index"))


def _forbidden(request: HttpRequest, template: str, context: dict | None = None) -> HttpResponse:
    """A 403 page; for HTMX, its `message` partial in the page's message area.

    Swapped where the request meant to put its answer, a 403 would replace a part of the page (or, as
    htmx does by default, show nothing at all and leave a button that seems dead). htmx-config swaps 403s;
    every 403 comes through here, so each says where it goes. An admin page has the admin's stylesheet,
    not the site's: there the message comes in the admin's own markup (`admin_message`).
    """
    htmx = getattr(request, "htmx", False)
    partial = "admin_message" if htmx and _on_admin_page(request) else "message"
    response = render_page_or_partial(
        request, template, partial, {"back": _page_before(request), **(context or {})}, status=403
    )
    if htmx and not request.htmx.history_restore_request:
        response["HX-Retarget"] = "#messages"
        response["HX-Reswap"] = "innerHTML show:top"  # on a phone the message area may be scrolled away
    return response


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler403: the site's page (Django's default is a bare "403 Forbidden") or, for HTMX, a message."""
    return _forbidden(request, "403.html")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a form sent with a token that is no longer valid, most often because the user
    signed in or out in another tab (signing in changes the token). Nothing was saved; a reload gives the
    page a valid token. Django's own view would render 403_csrf.html without HTMX handling.
    """
    # Over plain HTTP a browser keeps no Secure cookie, so every form fails this way, again and again: saying
    # "you signed in or out in another tab" there sent people round in circles.
    if reason == REASON_NO_CSRF_COOKIE and settings.CSRF_COOKIE_SECURE and not request.is_secure():
        return _forbidden(
            request, "403_csrf.html", {"https_url": f"https://{request.get_host()}{request.get_full_path()}"}
        )
    return _forbidden(request, "403_csrf.html", {"typed": _typed(request)})


_NOT_TYPED = frozenset({"csrfmiddlewaretoken", "token", "next"})
_MAX_TYPED = 20_000


def _typed(request: HttpRequest) -> list[tuple[str, str]]:
    """The text the refused form held, to copy before reloading (a page that keeps a draft does so with JavaScript
    only): its fields with words in them, never a password. Only for a form sent from a page of this site, so that
    another site's form cannot put words of its own on this one's page."""
    if getattr(request, "htmx", False) or _page_before(request) is None:
        return []  # htmx leaves the form and its words on screen
    typed = []
    for name, value in request.POST.items():
        if name in _NOT_TYPED or "password" in name.lower() or len(value.split()) < 2:
            continue
        typed.append((name.replace("_", " ").capitalize(), value[:_MAX_TYPED]))
    return typed[:6]
