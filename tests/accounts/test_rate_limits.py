"""Rate-limited sign-ups and password resets (sign-in lockouts: test_sign_in_lockout.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from apps.accounts.services import password_reset_mail_wait

pytestmark = pytest.mark.django_db


def test_password_reset_is_rate_limited_per_address_and_per_email(client, student, settings):
    settings.PASSWORD_RESET_RATE = "3/h"
    url = reverse("password_reset")
    for _ in range(3):
        assert client.post(url, {"email": "alice@example.com"}, REMOTE_ADDR="203.0.113.1").status_code == 302
    limited = client.post(url, {"email": "alice@example.com"}, REMOTE_ADDR="203.0.113.2")
    assert limited.status_code == 429 and "Too many reset requests" in limited.content.decode()
    password_reset_mail_wait()
    assert len(mail.outbox) == 3
    other = client.post(url, {"email": "bob@example.com"}, REMOTE_ADDR="203.0.113.1")
    assert other.status_code == 429  # this address has used its three
    fresh = client.post(url, {"email": "bob@example.com"}, REMOTE_ADDR="203.0.113.3")
    assert fresh.status_code == 302


def test_requests_refused_for_their_address_leave_the_email_allowance_alone(client, student, settings):
    """An address over its limit cannot lock the owner out by naming her email: its refused requests are not hers."""
    settings.PASSWORD_RESET_RATE = "3/h"
    url = reverse("password_reset")
    attacker = "198.51.100.66"
    for n in range(3):
        assert client.post(url, {"email": f"nobody{n}@example.com"}, REMOTE_ADDR=attacker).status_code == 302
    for _ in range(5):
        assert client.post(url, {"email": "alice@example.com"}, REMOTE_ADDR=attacker).status_code == 429
    password_reset_mail_wait()
    assert mail.outbox == []
    own = client.post(url, {"email": "alice@example.com"}, REMOTE_ADDR="203.0.113.20")
    assert own.status_code == 302
    password_reset_mail_wait()
    assert [message.to for message in mail.outbox] == [["alice@example.com"]]


def test_requests_refused_for_their_email_still_count_against_the_address(client, student, other_student, settings):
    """The address limit bounds every request a client makes, so asking again for a spent email is not free."""
    settings.PASSWORD_RESET_RATE = "3/h"
    url = reverse("password_reset")
    for n in range(3):
        assert client.post(url, {"email": "alice@example.com"}, REMOTE_ADDR=f"203.0.113.3{n}").status_code == 302
    prober = "198.51.100.77"
    for _ in range(3):
        assert client.post(url, {"email": "alice@example.com"}, REMOTE_ADDR=prober).status_code == 429
    assert client.post(url, {"email": "bob@example.com"}, REMOTE_ADDR=prober).status_code == 429
    password_reset_mail_wait()
    assert len(mail.outbox) == 3


NEW_PASSWORD = "a-much-better-passphrase-42"


def _sign_up(client, username: str, email: str, ip: str, password: str = NEW_PASSWORD):
    return client.post(
        reverse("signup"),
        {"username": username, "email": email, "password1": password, "password2": password},
        REMOTE_ADDR=ip,
    )


def test_sign_up_is_rate_limited_per_address_and_creates_nothing_over_the_limit(client, student, settings):
    """The form tells whether an email has an account, so one address may only ask so often."""
    settings.SIGNUP_RATE = "3/h"
    prober = "198.51.100.88"
    probe = _sign_up(client, "probe", "alice@example.com", prober)
    assert probe.status_code == 422 and "already exists" in probe.content.decode()
    for n in range(2):
        assert _sign_up(client, "probe", f"guess{n}@example.com", prober, password="x").status_code == 422
    limited = _sign_up(client, "dana", "dana@example.com", prober)
    assert limited.status_code == 429
    page = limited.content.decode()
    assert "Too many sign-ups" in page and "already exists" not in page
    assert not get_user_model().objects.filter(username="dana").exists()
    # Looking at the form costs nothing, and another address signs up as usual.
    assert client.get(reverse("signup"), REMOTE_ADDR=prober).status_code == 200
    assert _sign_up(client, "dana", "dana@example.com", "203.0.113.70").status_code == 302
    assert get_user_model().objects.filter(username="dana").exists()


def test_the_default_sign_up_limit_lets_a_class_behind_one_address_through(client, settings):
    """Thirty students on one school address, each getting the password wrong once before signing up."""
    assert settings.SIGNUP_RATE == "100/h"
    school = "192.0.2.80"
    for n in range(30):
        assert _sign_up(client, f"student{n}", f"s{n}@school.example", school, password="123").status_code == 422
        assert _sign_up(client, f"student{n}", f"s{n}@school.example", school).status_code == 302
        client.logout()
    assert get_user_model().objects.filter(username__startswith="student").count() == 30


def _minutes_said(page: str) -> int:
    return int(re.search(r"try again in (\d+) minutes?\.", page).group(1))


def test_the_limit_pages_say_how_long_is_left_of_the_configured_period(client, student, settings):
    """Not "in an hour" whatever the setting: a 15-minute window has at most 15 minutes left."""
    settings.SIGNUP_RATE = "1/15m"
    settings.PASSWORD_RESET_RATE = "1/10m"
    _sign_up(client, "probe", "probe@example.com", "198.51.100.90", password="x")
    limited = _sign_up(client, "probe", "probe@example.com", "198.51.100.90", password="x")
    assert limited.status_code == 429 and 1 <= _minutes_said(limited.content.decode()) <= 15
    url = reverse("password_reset")
    client.post(url, {"email": "alice@example.com"}, REMOTE_ADDR="198.51.100.91")
    refused = client.post(url, {"email": "alice@example.com"}, REMOTE_ADDR="198.51.100.91")
    assert refused.status_code == 429 and 1 <= _minutes_said(refused.content.decode()) <= 10
    by_email = client.post(url, {"email": "ALICE@example.com"}, REMOTE_ADDR="198.51.100.92")  # her email's limit
    assert by_email.status_code == 429 and 1 <= _minutes_said(by_email.content.decode()) <= 10
