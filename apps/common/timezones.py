"""Times shown in the reader's own time zone: the browser names it in a cookie (static/js/timezone.js).

Without the cookie (no JavaScript, or a first visit) pages keep the server's TIME_ZONE, and every time shown
names its zone ("09:54 UTC"), so it is never a wrong hour read as a local one.
"""

from __future__ import annotations

import zoneinfo
from functools import lru_cache

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

COOKIE = "tz"


@lru_cache(maxsize=1)
def _known() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_from_cookie(value: str | None) -> zoneinfo.ZoneInfo | None:
    """The IANA zone the cookie names, or None: only a name of the zone database, never a path."""
    if not value or len(value) > 64 or value not in _known():
        return None
    return zoneinfo.ZoneInfo(value)


class UserTimezoneMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = zone_from_cookie(request.COOKIES.get(COOKIE))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()  # a thread serves other users next
