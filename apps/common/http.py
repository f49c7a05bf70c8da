from __future__ import annotations

from django.http import HttpResponseRedirect


class HttpResponseSeeOther(HttpResponseRedirect):
    """303: after a POST, the browser GETs the new location (POST-redirect-GET)."""

    status_code = 303
