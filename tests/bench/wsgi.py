"""The app as production serves it, plus one bench-only page: a signed-in view that does nothing.

Its rate is the floor under every quiz request (session and user lookups, CSRF, the middleware), which
the answer rate is compared with; it sits last in the URL list, so it changes no other route.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import clear_url_caches, path

from mlcourse.wsgi import application  # noqa: F401 - gunicorn serves it from here; it also sets Django up

from .server import SIGNED_IN_FLOOR_PATH


@login_required
def _signed_in(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def _mount() -> None:
    from mlcourse.urls import urlpatterns  # only once Django is set up, above

    urlpatterns.append(path(SIGNED_IN_FLOOR_PATH.strip("/") + "/", _signed_in))
    clear_url_caches()


_mount()
