"""Runs manage.py in a child process under a chosen environment, for what only process start shows."""

from __future__ import annotations

import os
import subprocess
import sys

from django.conf import settings

GOOD_KEY = "k3y-" + "x7Yq2" * 12
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "quiz.example.edu", "TRUSTED_PROXY_COUNT": "1"}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    dropped = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    environment = {k: v for k, v in os.environ.items() if k not in dropped}
    environment.setdefault("DATABASE_URL", "postgres://localhost/unused")
    environment.update(env)
    return subprocess.run(  # noqa: S603
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def database_url() -> str:
    """The test database as a DATABASE_URL, for a child process that must see the same tables."""
    from urllib.parse import quote

    from django.db import connection

    db = connection.settings_dict
    credentials = quote(db["USER"]) + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    if db["HOST"].startswith("/"):
        return f"postgres://{credentials}@/{db['NAME']}?host={quote(db['HOST'])}" + (
            f"&port={db['PORT']}" if db["PORT"] else ""
        )
    return f"postgres://{credentials}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"
