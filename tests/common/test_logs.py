"""A request Django refuses as suspicious (too big, too many fields, an unknown host) is one WARNING line in the log,
naming the page, not an ERROR with a 40-line traceback."""

from __future__ import annotations

import json
import logging

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils.log import configure_logging

from apps.common.logs import RequestIdFilter


def _refusals(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("django.security.") or r.levelno >= logging.ERROR]


def _as_written(record: logging.LogRecord) -> str:
    """The record as the configured console handler writes it (JSON lines by default)."""
    configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)
    RequestIdFilter().filter(record)
    return logging.getLogger().handlers[0].formatter.format(record)


@pytest.mark.django_db
def test_a_body_over_the_upload_limit_is_one_warning_line_naming_the_page(caplog, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000
    with caplog.at_level(logging.INFO):
        response = Client().post(reverse("login"), {"username": "x" * 5_000, "password": "secret"})
    assert response.status_code == 400
    (record,) = _refusals(caplog)
    assert record.name == "django.security.RequestDataTooBig"
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert record.getMessage() == "Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE. (POST /accounts/login/)"
    line = _as_written(record)
    assert "\n" not in line and "Traceback" not in line
    assert json.loads(line)["level"] == "WARNING"


@pytest.mark.django_db
def test_too_many_fields_is_one_warning_line(caplog, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    body = "&".join(f"field{n}=1" for n in range(50))
    with caplog.at_level(logging.INFO):
        response = Client().post(reverse("signup"), body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    (record,) = _refusals(caplog)
    assert record.name == "django.security.TooManyFieldsSent"
    assert (record.levelname, record.exc_info) == ("WARNING", None)
    assert record.getMessage().endswith("(POST /accounts/signup/)")


@pytest.mark.django_db
def test_a_real_server_error_keeps_its_traceback(caplog):
    """Only the client's mistakes are quietened: a bug in a view is still an ERROR with its traceback."""
    logger = logging.getLogger("django.request")
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        logger.error("Internal Server Error: /", exc_info=True, extra={"status_code": 500})
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert "Traceback" in _as_written(record)
