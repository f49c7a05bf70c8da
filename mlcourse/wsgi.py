"""WSGI entry point, used by gunicorn: `gunicorn mlcourse.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mlcourse.settings")

application = get_wsgi_application()
