from __future__ import annotations

from django.contrib.staticfiles.storage import staticfiles_storage
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

# A file every page links: if the manifest cannot name it, collectstatic did not run.
_PROBE_ASSET = "css/app.css"


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return False
    return True


def _static_ok() -> bool:
    try:
        staticfiles_storage.url(_PROBE_ASSET)
    except ValueError:
        return False
    return True


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers and the static manifest is in place, 503 otherwise."""
    checks = {
        "database": "ok" if _database_ok() else "unavailable",
        "static": "ok" if _static_ok() else "missing manifest",
    }
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse({"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503)
