"""WSGI entry point, used by gunicorn: `gunicorn mlcourse.wsgi`."""

import os
import sys

from django.core.wsgi import get_wsgi_application

from apps.common.env import ConfigurationError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mlcourse.settings")

try:
    application = get_wsgi_application()
except ConfigurationError as exc:
    # A bad environment value: its message names the variable, which a traceback through gunicorn and Django's
    # settings loading (60-odd lines) would bury. Exit status 3 is gunicorn's "worker failed to boot": a worker
    # loading the app itself (GUNICORN_PRELOAD=0) then stops the master instead of being restarted forever.
    print(f"mlcourse: {exc}", file=sys.stderr, flush=True)
    raise SystemExit(3) from None
