"""The logging configuration, shared by Django's settings and gunicorn.conf.py so that gunicorn's own lines come
out in the same format (one JSON object a line) as the app's.

Nothing here imports Django: gunicorn reads it while loading its configuration, before the app.
"""

from __future__ import annotations

import contextvars
import logging
import logging.config

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("json", "text")

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class OneWarningLineFilter(logging.Filter):
    """A request refused as suspicious (400), as one WARNING line naming the method and path.

    Django logs each SuspiciousOperation at ERROR with a traceback, to django.security.<its class>: a host the site
    does not serve (scanners send a bare IP or a stale DNS name all day), a body over DATA_UPLOAD_MAX_MEMORY_SIZE,
    too many fields or files. The client's mistake, not the site's: 40 lines each buried the real errors and woke
    whoever alerts on ERROR, and the 400 answer needs no traceback to explain it.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = None
        request = getattr(record, "request", None)
        if request is not None:
            # Which page was refused: the message alone ("Request body exceeded ...") does not say.
            record.msg, record.args = f"{record.getMessage()} ({request.method} {request.path})", None
        return True


# Django's SuspiciousOperation and the subclasses it raises while reading a request, each logged to its own
# django.security.<class> logger: a logger's filter sees only what is logged to that very logger.
SUSPICIOUS_OPERATIONS = (
    "SuspiciousOperation",
    "DisallowedHost",
    "DisallowedRedirect",
    "RequestDataTooBig",
    "TooManyFieldsSent",
    "TooManyFilesSent",
    "SuspiciousMultipartForm",
    "SuspiciousFileOperation",
    "SuspiciousSession",
)


class ClientErrorFilter(logging.Filter):
    """A 4xx answer (a forbidden page, a missing one) logged without its traceback: Django attaches the
    PermissionDenied or Http404 that produced it, which says nothing the line does not, and 40 lines per refused
    request buried the real errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = record.exc_text = None
        return True


class EmptyListeningAtFilter(logging.Filter):
    """Drops gunicorn's "Listening at:  (pid)" line, empty with reuse_port (each worker binds its own socket,
    so the master has no listener to name); gunicorn.conf.py's on_starting logs the addresses instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.msg == "Listening at: %s (%s)" and record.args and not record.args[0])


def logging_config(log_format: str, level: str, loggers: dict | None = None) -> dict:
    """A dictConfig for LOG_FORMAT and LOG_LEVEL, validated by the caller; `loggers` adds per-logger entries."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request_id": {"()": RequestIdFilter},
            "one_warning_line": {"()": OneWarningLineFilter},
            "client_error": {"()": ClientErrorFilter},
            "empty_listening_at": {"()": EmptyListeningAtFilter},
        },
        "formatters": {
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "fmt": "%(levelname)s %(name)s %(message)s %(request_id)s",
                "rename_fields": {"levelname": "level", "name": "logger"},
                "timestamp": "time",  # ISO 8601 in UTC ("2026-12-04T16:17:41.535000+00:00"), for log shippers
            },
            "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["request_id"],
                "formatter": log_format,
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Django's own default config gives "django" a console handler of its own under DEBUG: every line of
            # it came out twice, once as plain text. Only the root handler, in LOG_FORMAT (runserver's request
            # lines too, which had a handler and format of their own).
            "django": {"handlers": [], "propagate": True},
            "django.request": {"filters": ["client_error"]},
            **{f"django.security.{name}": {"filters": ["one_warning_line"]} for name in SUSPICIOUS_OPERATIONS},
            **(loggers or {}),
        },
    }


def configure(config: dict) -> None:
    """Django's LOGGING_CONFIG: dictConfig, and Python's warnings (whitenoise's "No directory at", deprecations)
    sent to the log as well, so that they too come out in LOG_FORMAT instead of as bare lines on stderr."""
    logging.config.dictConfig(config)
    logging.captureWarnings(True)
