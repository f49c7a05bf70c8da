"""apps.common.sessions (the session engine without Redis) and the sign-in backend's get_user, which every signed-in
request runs: who a request's cookie signs in, and who it no longer does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

pytestmark = pytest.mark.django_db

PRIVATE = "/progress/"


def signed_in(client, user) -> str:
    client.force_login(user)
    assert client.get(PRIVATE).status_code == 200
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def test_the_engine_is_the_projects():
    assert settings.SESSION_ENGINE == "apps.common.sessions"


def test_an_expired_session_signs_nobody_in(client, student):
    key = signed_in(client, student)
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    response = client.get(PRIVATE)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_a_cookie_kept_after_signing_out_signs_nobody_in(client, student):
    key = signed_in(client, student)
    client.post("/accounts/logout/")
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    assert client.get(PRIVATE).status_code == 302
    assert not Session.objects.filter(session_key=key).exists()


@pytest.mark.parametrize("cookie", ["no-such-session-key-0123456789abcdef", "x", "' OR 1=1 --"])
def test_a_cookie_naming_no_session_signs_nobody_in(client, student, cookie):
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie
    assert client.get(PRIVATE).status_code == 302
    assert client.get("/").status_code == 200


def test_a_deactivated_account_is_signed_out_of_its_sessions(client, student):
    signed_in(client, student)
    student.is_active = False
    student.save(update_fields=["is_active"])
    assert client.get(PRIVATE).status_code == 302


def test_a_changed_password_signs_out_the_other_sessions(client, student):
    signed_in(client, student)
    student.set_password("another-horse-battery")
    student.save(update_fields=["password"])
    assert client.get(PRIVATE).status_code == 302
