"""Sign-in lockout per user name and per address (django-axes), and rate-limited sign-ups and password resets."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from apps.accounts.services import password_reset_mail_wait
from tests.conftest import PASSWORD, make_instructor, make_user

pytestmark = pytest.mark.django_db


def _sign_in(client, username: str, password: str, ip: str = "203.0.113.5"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def test_five_failures_lock_the_user_name_until_reset(client, student, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _sign_in(client, "alice", "wrong").status_code == 422
    locked = _sign_in(client, "alice", "wrong")
    assert locked.status_code == 429
    assert "Too many sign-in attempts" in locked.content.decode()
    assert "paused for 15 minutes." in locked.content.decode()
    # Even the right password is refused while locked, from another address too.
    assert _sign_in(client, "alice", PASSWORD, ip="198.51.100.7").status_code == 429
    call_command("axes_reset_username", "alice")
    assert _sign_in(client, "alice", PASSWORD).status_code == 302


def test_failures_from_one_address_lock_that_address_across_user_names(client, student, other_student, settings):
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        _sign_in(client, f"guess{attempt}", "wrong", ip="192.0.2.9")
    assert _sign_in(client, "bob", PASSWORD, ip="192.0.2.9").status_code == 429
    assert _sign_in(client, "bob", PASSWORD, ip="192.0.2.10").status_code == 302
    call_command("axes_reset_ip", "192.0.2.9")
    client.logout()
    assert _sign_in(client, "alice", PASSWORD, ip="192.0.2.9").status_code == 302


def test_signing_into_ones_own_account_does_not_clear_guesses_at_someone_else(client, student, settings):
    """Regression: a success used to wipe the address's failures, so an attacker with an account guessed for ever."""
    make_user("mallory")
    attacker = "198.51.100.9"
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _sign_in(client, "alice", "guess", ip=attacker).status_code == 422
    assert _sign_in(client, "mallory", PASSWORD, ip=attacker).status_code == 302
    client.logout()
    refused = _sign_in(client, "alice", "one-guess-too-many", ip=attacker)
    assert refused.status_code == 429 and "Too many sign-in attempts" in refused.content.decode()
    # Alice's name is locked wherever the next try comes from, and the attacker's address is locked for its own name.
    assert _sign_in(client, "alice", PASSWORD, ip="203.0.113.50").status_code == 429
    assert _sign_in(client, "mallory", PASSWORD, ip=attacker).status_code == 429


def test_signing_in_elsewhere_does_not_clear_guesses_made_in_the_admin(client, student, settings):
    """The admin's sign-in goes through the same lockout: guesses there are not forgiven by a site sign-in either."""
    make_instructor("carol")
    make_user("mallory")
    attacker = "198.51.100.10"
    admin_login = reverse("admin:login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(admin_login, {"username": "carol", "password": "guess"}, REMOTE_ADDR=attacker)
        assert response.status_code == 200
    assert _sign_in(client, "mallory", PASSWORD, ip=attacker).status_code == 302
    client.logout()
    refused = client.post(admin_login, {"username": "carol", "password": "guess"}, REMOTE_ADDR=attacker)
    assert refused.status_code == 429
    elsewhere = client.post(admin_login, {"username": "carol", "password": PASSWORD}, REMOTE_ADDR="203.0.113.51")
    assert elsewhere.status_code == 429


def test_a_successful_sign_in_clears_that_users_own_failures_and_no_one_elses(client, student, other_student, settings):
    """A class behind one NAT address: alice's typos are forgiven when she gets in, bob's still count."""
    classroom = "192.0.2.44"
    for _ in range(2):
        assert _sign_in(client, "bob", "typo", ip=classroom).status_code == 422
        assert _sign_in(client, "alice", "typo", ip=classroom).status_code == 422
    assert _sign_in(client, "alice", "typo-on-her-phone", ip="203.0.113.60").status_code == 422
    assert _sign_in(client, "alice", PASSWORD, ip=classroom).status_code == 302
    client.logout()
    assert list(AccessAttempt.objects.values_list("username", "ip_address", "failures_since_start")) == [
        ("bob", classroom, 2)
    ]
    # The address's count went down by alice's two only: bob's two and three more make a lockout.
    for _ in range(settings.AXES_FAILURE_LIMIT - 3):
        assert _sign_in(client, "dave", "typo", ip=classroom).status_code == 422
    assert _sign_in(client, "dave", "typo", ip=classroom).status_code == 429


def test_a_successful_sign_in_clears_that_users_failures_before_the_limit(client, student, settings):
    """Four typos and then the right password: the next day's typo starts from one, not five."""
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _sign_in(client, "alice", "typo")
    assert _sign_in(client, "alice", PASSWORD).status_code == 302
    client.logout()
    assert not AccessAttempt.objects.exists()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _sign_in(client, "alice", "typo").status_code == 422


def test_lockout_ends_after_the_cool_off(client, student, settings, monkeypatch):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _sign_in(client, "alice", "wrong")
    assert _sign_in(client, "alice", PASSWORD).status_code == 429
    from axes.models import AccessAttempt

    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.first().attempt_time - settings.AXES_COOLOFF_TIME * 2
    )
    assert _sign_in(client, "alice", PASSWORD).status_code == 302


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
