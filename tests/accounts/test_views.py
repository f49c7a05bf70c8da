"""Sign-up, sign-in, sign-out and password change (reset: test_password_reset.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "a-much-better-passphrase-42"


def test_sign_up_signs_in_and_returns_to_next(client):
    response = client.post(
        reverse("signup"),
        {"username": "dana", "email": "dana@example.com", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD,
         "next": "/progress/"},
    )  # fmt: skip
    assert response.status_code == 302 and response["Location"] == "/progress/"
    assert client.get("/progress/").status_code == 200
    assert get_user_model().objects.get(username="dana").email == "dana@example.com"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": "dana", "email": "not-an-email"}, "Enter a valid email address"),
        ({"username": "alice", "email": "x@example.com"}, "A user with that username already exists"),
        ({"username": "dana", "email": "ALICE@example.com"}, "already exists. Try signing in"),
    ],
)
def test_sign_up_errors_are_shown_on_the_form(client, student, data, message):
    response = client.post(reverse("signup"), {**data, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 422
    assert message in response.content.decode()


def test_weak_or_mismatched_passwords_are_refused(client):
    response = client.post(
        reverse("signup"), {"username": "dana", "email": "d@example.com", "password1": "123", "password2": "124"}
    )
    assert response.status_code == 422
    assert "didn’t match" in response.content.decode()
    assert not get_user_model().objects.filter(username="dana").exists()


def test_next_pointing_off_site_is_ignored(client):
    response = client.post(
        reverse("signup"),
        {"username": "dana", "email": "d@example.com", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD,
         "next": "https://evil.example/"},
    )  # fmt: skip
    assert response["Location"] == "/"


def test_sign_in_and_out(client, student):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert "Sign out" in client.get("/").content.decode()
    assert client.get(reverse("logout")).status_code == 405  # sign-out is a POST, so a link cannot sign you out
    client.post(reverse("logout"))
    assert "Sign in" in client.get("/").content.decode()


def test_the_header_names_the_account_link_for_what_it_opens(client, student):
    client.force_login(student)
    html = client.get("/").content.decode()
    link = f'<a href="{reverse("password_change")}">alice<span class="visually-hidden">: account settings</span></a>'
    assert link in html  # not only in a title, which keyboard and touch users never see


def test_wrong_password_is_a_form_error(client, student):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 422
    assert "Please enter a correct username and password" in response.content.decode()


def test_change_password(client, student):
    client.force_login(student)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response["Location"] == reverse("password_change_done")
    student.refresh_from_db()
    assert student.check_password(NEW_PASSWORD)


def test_a_wrong_old_password_is_a_form_error_and_changes_nothing(client, student):
    client.force_login(student)
    response = client.post(
        reverse("password_change"),
        {"old_password": "not-it", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 422
    assert "Your old password was entered incorrectly" in response.content.decode()
    student.refresh_from_db()
    assert student.check_password(PASSWORD)


def test_demo_accounts_can_sign_in(client, settings):
    settings.DEBUG = True
    call_command("create_demo_accounts", verbosity=0)
    for username, password in (("student", "learn-ml-2026"), ("instructor", "teach-ml-2026")):
        response = client.post(reverse("login"), {"username": username, "password": password})
        assert response.status_code == 302, username
    assert get_user_model().objects.get(username="instructor").is_staff
