"""Request ids for the logs, no cached copies of signed-in pages, a friendly 503 that keeps the user's input when
the database is away, the sign-in page as a whole page for HTMX requests, and HEAD answered without a body."""

from __future__ import annotations

import logging
import re
import uuid
from urllib.parse import urlsplit

from django.conf import settings
from django.core.signals import request_finished
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.http.response import HttpResponseRedirectBase
from django.shortcuts import resolve_url
from django.template.response import TemplateResponse
from django.utils.cache import add_never_cache_headers
from django_htmx.http import HttpResponseClientRedirect

from .cache import CACHE_UNREACHABLE
from .errors import DependencyUnavailableError
from .http import htmx_current_path
from .logs import request_id
from .views import healthz

_VALID_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
logger = logging.getLogger("mlcourse.requests")


class RequestIdMiddleware:
    """Takes the proxy's X-Request-ID (or makes one), logs it with every line, and echoes it back."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get("X-Request-ID", "")
        this_id = incoming if _VALID_ID.match(incoming) else uuid.uuid4().hex
        # Not reset on the way out: Django logs a 4xx or 5xx (with its traceback) after the middleware
        # returns, and that line above all needs the id. request_finished clears it.
        request_id.set(this_id)
        response = self.get_response(request)
        response["X-Request-ID"] = this_id
        return response


# Browser features no page here uses, turned off for the site and anything it embeds: a script slipped in by
# some future bug still cannot reach the camera, the microphone or the student's location.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in ("accelerometer", "camera", "geolocation", "gyroscope", "magnetometer", "microphone", "payment",
                    "usb")
)  # fmt: skip


class PermissionsPolicyMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


class PrivatePagesMiddleware:
    """A page for a signed-in user, which sets no caching of its own, is kept by no cache: Back showed the home
    page's counts as they were ("0 of 7 questions answered" for a quiz since answered and ended), and a shared
    cache must never hold one user's page for another."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # Pages only: a 304 (the stylesheet's, revalidated) carries no Cache-Control of its own, and "no-store" on it
        # made browsers drop what they had; nor is a user looked up for one. A 5xx page (the database away:
        # DatabaseUnavailableMiddleware) is no page of the user's, and the look-up would fail as it did.
        page = response.get("Content-Type", "").startswith("text/html") and response.status_code < 500
        if page and "Cache-Control" not in response and request.user.is_authenticated:
            add_never_cache_headers(response)
        return response


def _forget_request_id(**kwargs) -> None:
    request_id.set("-")


request_finished.connect(_forget_request_id, dispatch_uid="mlcourse.forget_request_id")


def _kept_fields(request: HttpRequest) -> tuple[list[tuple[str, str]], bool]:
    """The POSTed fields the retry form carries back, every one of them, and whether a password was left out.

    A password is never written into a page, where it would sit in the browser's cache and history: a
    resubmitted sign-in, sign-up or password change shows its form again and asks for it. The CSRF token
    goes back as it came, valid for the same cookie, so the retry is accepted. Nothing else is dropped: a retry
    missing a field would save it blank (the request's size is bounded by DATA_UPLOAD_MAX_MEMORY_SIZE).
    """
    fields, dropped_password = [], False
    for key, values in request.POST.lists():
        if "password" in key.casefold():
            dropped_password = True
            continue
        fields.extend((key, value) for value in values)
    return fields, dropped_password


class DatabaseUnavailableMiddleware:
    """Turns a lost database connection, an unreachable cache server, or another service down
    (DependencyUnavailableError), into "try again" (503) instead of a 500.

    For a POST, the page carries the submitted fields back in a form, so an answer
    typed before the outage is resubmitted with one click rather than lost.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        conflict = False
        if isinstance(exception, DependencyUnavailableError):
            service = exception.service
        elif isinstance(exception, CACHE_UNREACHABLE):
            # The rate limits are counted in the cache: a Redis that is down failed every sign-in and sign-up.
            service = "its cache"
        elif isinstance(exception, OperationalError | InterfaceError):
            service = "its database"
            # A deadlock, a serialisation failure or a lock waited for too long: the database is there, another
            # save got in the way. By SQLSTATE: psycopg's classes for them share no base but OperationalError.
            conflict = getattr(exception.__cause__, "sqlstate", None) in {"40P01", "40001", "55P03"}
        else:
            return None
        # The page's words ("its database") are the site's; the log says which service failed, and how.
        if conflict:
            logger.warning("database conflict: %s", exception)
        else:
            logger.warning("%s unavailable: %s", service.removeprefix("its ").removeprefix("a "), exception)
        fields, dropped_password = _kept_fields(request) if request.method == "POST" else ([], False)
        response = TemplateResponse(
            request,
            "503.html",
            {
                "fields": fields,
                "dropped_password": dropped_password,
                "action": request.get_full_path(),
                "method": request.method,
                "service": service,
                "dropped_file": bool(request.FILES),
                "conflict": conflict,
            },
            status=409 if conflict else 503,
        )
        if not conflict:
            response["Retry-After"] = "5"
        if getattr(request, "htmx", False):
            # Swap the whole page: the retry form is a plain form, so it works whatever was on screen.
            response["HX-Retarget"] = "body"
            response["HX-Reswap"] = "innerHTML"
        return response.render()


class HtmxLoginRedirectMiddleware:
    """Sends an HTMX request that needs signing in to the sign-in page as a whole page.

    login_required answers a signed-out request with a redirect, which the browser follows inside HTMX's
    request: the sign-in page would be swapped into a part of the page (a second header and footer in the
    quiz card). HX-Redirect makes HTMX load it as a page instead, with `next` the page the user is on
    (HX-Current-URL, when it is this site), not the URL of the fragment or form that was requested, so
    signing in brings them back to it. Below HtmxMiddleware: it needs request.htmx.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not getattr(request, "htmx", False) or not isinstance(response, HttpResponseRedirectBase):
            return response
        login_url = resolve_url(settings.LOGIN_URL)
        if urlsplit(response["Location"]).path != login_url:
            return response
        # current_url_abs_path is None unless the header names this scheme and host (no open redirect).
        query = QueryDict(mutable=True)
        query["next"] = htmx_current_path(request) or request.get_full_path()
        return HttpResponseClientRedirect(f"{login_url}?{query.urlencode(safe='/')}")


class HealthzMiddleware:
    """Answers GET and HEAD /healthz whatever the Host header says, so a load balancer can probe each server.

    Load balancers and orchestrators probe a server by its own address (AWS's target groups, Kubernetes' HTTP
    probes send Host: 10.0.3.17:8000), which is not in ALLOWED_HOSTS: CommonMiddleware's Host check answered 400,
    and every server looked down. /healthz builds no URL and shows no page, so the host does not matter to it.
    Above CommonMiddleware, the first to read the Host header.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == "/healthz" and request.method in ("GET", "HEAD"):
            response = healthz(request)
            response["Content-Length"] = str(len(response.content))  # as CommonMiddleware, skipped here, sets it
            return response
        return self.get_response(request)


class MethodNotAllowedPageMiddleware:
    """Gives a 405 the site's page, saying what happened, instead of Django's blank one.

    People reach one by following a link to what only takes a form: /accounts/logout/ typed or bookmarked
    (signing out takes a POST), an old link to a form's action. A blank white page explains nothing. The
    status and the Allow header stay as they were.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.streaming or response.content:
            return response
        allowed = {method.strip() for method in response.get("Allow", "").split(",")}
        page = TemplateResponse(
            request, "405.html", {"form_only": request.method in ("GET", "HEAD") and "POST" in allowed}, status=405
        ).render()
        page["Allow"] = response.get("Allow", "")
        # Whatever answered 405 has logged it (require_http_methods, View.http_method_not_allowed): without this
        # flag Django's handler would log the new response a second time.
        page._has_been_logged = True
        return page


class HeadWithoutBodyMiddleware:
    """Answers HEAD with the status and headers GET would get, and no body (RFC 9110 §9.3.2).

    Django runs the GET view for HEAD and hands the WSGI server its body. gunicorn drops it but logs a warning
    each time, and load balancers and uptime monitors send HEAD all day. Content-Length stays that of the GET
    body, which RFC 9110 §8.6 allows (Django's runserver keeps it too). First in MIDDLEWARE: it must see the
    response every other middleware has finished with.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method != "HEAD":
            return response
        if response.streaming:
            # Its length is unknown without reading it through; the file or iterator behind it is closed with the
            # response all the same.
            response.streaming_content = []
        else:
            if not response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
            response.content = b""
        return response
