"""Behind the TLS proxy every request comes from the proxy's address: limits must key on the client's."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import RequestFactory
from django.urls import reverse

from apps.accounts.services import password_reset_mail_wait
from apps.common.clientip import client_ip
from tests.conftest import PASSWORD

PROXY = "10.0.0.2"


@pytest.mark.parametrize(
    ("count", "forwarded_for", "expected"),
    [
        (0, "203.0.113.5", PROXY),  # no proxy trusted: the header is the client's to write
        (1, None, PROXY),
        (1, "203.0.113.5", "203.0.113.5"),
        (1, "198.51.100.1, 203.0.113.5", "203.0.113.5"),  # the left entry is the client's own claim
        (2, "203.0.113.5, 192.0.2.40", "203.0.113.5"),  # a CDN, then the load balancer
        (2, "192.0.2.40", PROXY),  # shorter than the proxies promised
        (1, "not-an-address", PROXY),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_client_ip_counts_trusted_proxies_from_the_right(settings, count, forwarded_for, expected):
    settings.TRUSTED_PROXY_COUNT = count
    headers = {"REMOTE_ADDR": PROXY}
    if forwarded_for is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded_for
    assert client_ip(RequestFactory().get("/", **headers)) == expected


def _sign_in(client, username: str, password: str, forwarded_for: str):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


@pytest.mark.django_db
def test_one_client_locked_out_behind_the_proxy_leaves_the_others_signing_in(client, student, other_student, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.SIGN_IN_ADDRESS_RATE = "4/15m"
    # Different user names, so only the address's limit counts; a fresh spoofed left entry each time.
    for attempt in range(5):
        _sign_in(client, f"guess{attempt}", "wrong", forwarded_for=f"192.0.2.{attempt}, 203.0.113.5")
    assert _sign_in(client, "alice", PASSWORD, forwarded_for="192.0.2.99, 203.0.113.5").status_code == 429
    assert _sign_in(client, "alice", PASSWORD, forwarded_for="203.0.113.5").status_code == 429
    assert _sign_in(client, "bob", PASSWORD, forwarded_for="198.51.100.7").status_code == 302


@pytest.mark.django_db
def test_password_reset_limit_per_address_behind_the_proxy(client, student, other_student, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.PASSWORD_RESET_RATE = "3/h"
    url = reverse("password_reset")
    for attempt in range(3):
        response = client.post(
            url,
            {"email": f"nobody{attempt}@example.com"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR=f"192.0.2.{attempt}, 203.0.113.5",
        )
        assert response.status_code == 302
    spoofed = client.post(
        url, {"email": "alice@example.com"}, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="192.0.2.99, 203.0.113.5"
    )
    assert spoofed.status_code == 429
    other = client.post(url, {"email": "bob@example.com"}, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert other.status_code == 302
    password_reset_mail_wait()
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_password_reset_limit_per_email_ignores_case_and_spaces(client, student, settings):
    settings.PASSWORD_RESET_RATE = "3/h"
    url = reverse("password_reset")
    for attempt, email in enumerate(["alice@example.com", "ALICE@example.com", " Alice@Example.COM "]):
        assert client.post(url, {"email": email}, REMOTE_ADDR=f"203.0.113.{attempt}").status_code == 302
    limited = client.post(url, {"email": "aLiCe@EXAMPLE.com"}, REMOTE_ADDR="203.0.113.50")
    assert limited.status_code == 429
    password_reset_mail_wait()
    assert len(mail.outbox) == 3
