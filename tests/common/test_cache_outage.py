"""A cache server that cannot be reached: /healthz says so, and a page that counts a rate limit in it answers
"try again" (503) naming the cache, with what was typed kept, instead of a 500."""

from __future__ import annotations

import logging

import pytest
from django.test import override_settings
from django.urls import reverse

# A real Redis backend at a port nothing listens on: every call fails as it would with the server down.
UNREACHABLE = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1"}}


@pytest.mark.django_db
def test_healthz_answers_503_and_names_the_cache_when_it_cannot_be_reached(client, caplog):
    with override_settings(CACHES=UNREACHABLE), caplog.at_level(logging.INFO):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable", "database": "ok", "migrations": "ok", "cache": "failing", "static": "ok",
    }  # fmt: skip
    (line,) = [r.getMessage() for r in caplog.records if "cache" in r.getMessage()]
    assert line.startswith("healthz: the cache does not answer: ") and "\n" not in line
    assert client.get("/healthz").json()["cache"] == "ok"  # the configured cache, back


@pytest.mark.django_db(transaction=True)  # the failed query would end a test's enclosing transaction
def test_healthz_reports_a_database_cache_whose_table_was_never_created(client):
    # The release steps' `createcachetable` forgotten: every sign-up failed while /healthz said ok.
    missing = {"default": {"BACKEND": "apps.common.cache.AtomicDatabaseCache", "LOCATION": "no_such_cache_table"}}
    with override_settings(CACHES=missing):
        response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["cache"] == "failing"


@pytest.mark.django_db
def test_a_sign_up_while_the_cache_is_down_says_so_and_keeps_the_form(client, caplog):
    data = {"username": "dana", "email": "dana@example.com", "password1": "a-long-phrase-1", "password2": "x"}
    with override_settings(CACHES=UNREACHABLE), caplog.at_level(logging.INFO):
        page = client.post(reverse("signup"), data)
    html = page.content.decode()
    assert page.status_code == 503 and page["Retry-After"] == "5"
    assert "mlcourse cannot reach its cache right now" in html
    assert 'name="username" value="dana"' in html and "a-long-phrase" not in html
    assert any(r.getMessage().startswith("cache unavailable: ") for r in caplog.records)


@pytest.mark.django_db
def test_a_password_reset_while_the_cache_is_down_is_try_again_not_a_server_error(client):
    with override_settings(CACHES=UNREACHABLE):
        page = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert page.status_code == 503 and "cannot reach its cache" in page.content.decode()
