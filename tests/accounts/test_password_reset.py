"""Password reset by email: the same answer for every address, and the mail sent in the background."""

from __future__ import annotations

import logging
import re
import threading

import pytest
from django.core import mail
from django.urls import reverse

from apps.accounts.services import password_reset_mail_wait
from apps.common.logs import RequestIdFilter
from tests.accounts.mail_backends import HeldBackend
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "a-much-better-passphrase-42"


def _ask(client, email: str):
    return client.post(reverse("password_reset"), {"email": email})


@pytest.fixture
def held_mail(settings, monkeypatch):
    """Mail waits inside the backend until the test sets HeldBackend.release."""
    monkeypatch.setattr(HeldBackend, "sending", threading.Event())
    monkeypatch.setattr(HeldBackend, "release", threading.Event())
    settings.EMAIL_BACKEND = "tests.accounts.mail_backends.HeldBackend"
    yield HeldBackend
    HeldBackend.release.set()  # a failed test must not leave the sender blocked for the next one
    password_reset_mail_wait()


def test_known_and_unknown_addresses_get_the_same_answer(client, student):
    known, unknown = _ask(client, "alice@example.com"), _ask(client, "nobody@example.com")
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert known["Location"] == reverse("password_reset_done")
    for response in (known, unknown):
        assert "Check your email" in client.get(response["Location"]).content.decode()
    password_reset_mail_wait()
    assert [message.to for message in mail.outbox] == [["alice@example.com"]]


def test_the_mailed_link_sets_a_new_password_once(client, student):
    assert _ask(client, "ALICE@example.com")["Location"] == reverse("password_reset_done")
    password_reset_mail_wait()
    [message] = mail.outbox
    assert message.to == ["alice@example.com"] and message.subject == "Reset your mlcourse password"
    assert 'account "alice"' in message.body
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", message.body)[1]
    form_url = client.get(link)["Location"]
    mismatch = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD + "x"})
    assert mismatch.status_code == 422 and "didn’t match" in mismatch.content.decode()
    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response["Location"] == reverse("password_reset_complete")
    assert "no longer works" in client.get(link, follow=True).content.decode()
    assert client.post(reverse("login"), {"username": "alice", "password": PASSWORD}).status_code == 422
    assert client.post(reverse("login"), {"username": "alice", "password": NEW_PASSWORD}).status_code == 302


def test_the_answer_does_not_wait_for_the_mail(client, student, held_mail):
    response = _ask(client, "alice@example.com")
    assert response["Location"] == reverse("password_reset_done")
    # The answer is in while the mail is still inside the backend.
    assert held_mail.sending.wait(timeout=10)
    assert mail.outbox == []
    held_mail.release.set()
    password_reset_mail_wait()
    assert [message.to for message in mail.outbox] == [["alice@example.com"]]


def test_a_mail_that_cannot_be_sent_is_logged_and_the_page_is_the_usual_one(client, student, settings, caplog):
    settings.EMAIL_BACKEND = "tests.accounts.mail_backends.RefusingBackend"
    caplog.handler.addFilter(RequestIdFilter())  # as the site's log handler has it, run where the line is logged
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"}, HTTP_X_REQUEST_ID="req-reset")
    assert response["Location"] == reverse("password_reset_done")
    page = client.get(response["Location"])
    assert page.status_code == 200 and "Check your email" in page.content.decode()
    password_reset_mail_wait()
    [record] = [record for record in caplog.records if record.name == "apps.accounts.services"]
    assert record.levelno == logging.ERROR and record.exc_info[0] is ConnectionRefusedError
    assert record.getMessage() == f"Password reset mail to user {student.pk} could not be sent"
    assert record.request_id == "req-reset"  # logged in the mail thread, matched to its request (it was "-")
    assert mail.outbox == []


def test_an_address_that_is_not_an_email_is_a_form_error(client):
    response = _ask(client, "not-an-email")
    assert response.status_code == 422 and "Enter a valid email address" in response.content.decode()


def test_a_reset_started_from_a_sign_in_with_next_leads_back_there(client, student):
    sign_in = client.get(reverse("login") + "?next=/progress/").content.decode()
    assert '<a href="/accounts/password_reset/?next=/progress/">Forgotten your password?</a>' in sign_in
    client.get(reverse("password_reset") + "?next=/progress/")
    _ask(client, "alice@example.com")
    password_reset_mail_wait()
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body)[1]
    form_url = client.get(link)["Location"]
    done = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=True)
    assert '<a href="/accounts/login/?next=/progress/">Sign in</a> to go on where you were.' in done.content.decode()


def test_a_next_off_the_site_is_not_kept_for_after_the_reset(client):
    client.get(reverse("password_reset") + "?next=https://evil.example/")
    html = client.get(reverse("password_reset_complete")).content.decode()
    assert '<a href="/accounts/login/">Sign in</a>.' in html and "evil" not in html
