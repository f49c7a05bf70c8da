"""Sign-up, sign-in, sign-out and password change (reset: test_password_reset.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from apps.accounts.services import account_names_lock
from tests.conftest import PASSWORD, make_user
from tests.locks import after_waiting

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "a-much-better-passphrase-42"


def test_sign_up_signs_in_and_returns_to_next(client):
    response = client.post(
        reverse("signup"),
        {"username": "dana", "email": "dana@example.com", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD,
         "next": "/progress/"},
    )  # fmt: skip
    assert response.status_code == 302 and response["Location"] == "/progress/"
    page = client.get("/progress/")
    assert page.status_code == 200
    assert "Your account is ready: you are signed in as dana." in page.content.decode()
    assert get_user_model().objects.get(username="dana").email == "dana@example.com"


def test_sign_up_says_who_sees_the_email(client):
    """It said "Used only to reset your password", while the instructors of a student's cohorts see it."""
    page = client.get(reverse("signup")).content.decode()
    assert "Used to reset your password; the instructors of cohorts you join see it too." in page
    assert "Used only to" not in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": "dana", "email": "not-an-email"}, "Enter a valid email address"),
        ({"username": "alice", "email": "x@example.com"}, "A user with that username already exists"),
        ({"username": "dana", "email": "ALICE@example.com"}, "already exists. Try signing in"),
        ({"username": "dana", "email": "d" * 250 + "@example.com"}, "can be at most 254 characters long"),
        # Signing in by email would reach the new account first, and alice could no longer sign in by hers.
        ({"username": "Alice@Example.com", "email": "x@example.com"}, "another account&#x27;s email address"),
    ],
)
def test_sign_up_errors_are_shown_on_the_form(client, student, data, message):
    response = client.post(reverse("signup"), {**data, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert client.post(reverse("login"), {"username": "alice@example.com", "password": PASSWORD}).status_code == 302


def test_an_email_that_is_another_accounts_user_name_is_refused(client):
    make_user("sam@example.org")  # a user name with an @, as an admin may have made one
    data = {"username": "dana", "email": "SAM@example.org", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    response = client.post(reverse("signup"), data)
    assert response.status_code == 422 and "already exists. Try signing in" in response.content.decode()
    assert not get_user_model().objects.filter(username="dana").exists()


@pytest.mark.django_db(transaction=True)
def test_a_sign_up_with_an_email_another_is_taking_at_the_same_moment_waits_and_is_refused(client):
    """Eight sign-ups at once with one email all went through, and none of them could sign in by it."""

    def other_sign_up():
        account_names_lock()
        get_user_model().objects.create_user(username="erin", email="race@example.com", password=PASSWORD)

    data = {"username": "dana", "email": "race@example.com", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    response = after_waiting(other_sign_up, lambda: client.post(reverse("signup"), data))
    assert response.status_code == 422 and "already exists. Try signing in" in response.content.decode()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["erin"]


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


def test_signing_out_says_so_on_the_page_it_lands_on_and_only_there(student_client):
    response = student_client.post(reverse("logout"), follow=True)
    assert response.redirect_chain == [("/", 302)]
    page = response.content.decode()
    assert "You have signed out." in page and "Sign out" not in page
    assert "You have signed out." not in student_client.get("/").content.decode()


def _signed_in_block(html: str) -> str:
    return html[html.index("<h1>") : html.index("</main>")]


@pytest.mark.parametrize(
    ("next_url", "continue_to"),
    [("", "/"), ("/progress/", "/progress/"), ("https://evil.example/", "/")],
)
def test_the_sign_in_page_says_who_is_signed_in_and_how_to_go_on(student_client, next_url, continue_to):
    """It showed a blank form, as if no one were signed in."""
    response = student_client.get(reverse("login"), {"next": next_url} if next_url else {})
    assert response.status_code == 200
    page = _signed_in_block(response.content.decode())
    assert "You are signed in as <strong>alice</strong>." in page
    assert f'<a class="button" href="{continue_to}">Continue as alice</a>' in page
    assert f'action="{reverse("logout")}"' in page and ">Sign out</button>" in page
    assert "Sign in as someone else" in page and 'name="password"' in page
    assert "autofocus" not in page  # a screen reader starts at the message, not in the form below it


def test_signing_in_as_someone_else_from_the_sign_in_page(student_client, other_student):
    response = student_client.post(reverse("login"), {"username": "bob", "password": PASSWORD, "next": "/progress/"})
    assert response.status_code == 302 and response["Location"] == "/progress/"
    assert "bob<span" in student_client.get("/").content.decode()


def test_signed_out_the_sign_in_page_is_only_the_form(client):
    page = _signed_in_block(client.get(reverse("login"), {"next": "/progress/"}).content.decode())
    assert "signed in as" not in page and "Sign in to continue." in page and "autofocus" in page


@pytest.mark.parametrize(
    ("asked_from", "says_continue"),
    [("/progress/", True), ("/decks/some-deck/quiz/", True), ("/", False), ("/decks/some-deck/", False),
     ("/no/such/page/", False), ("//evil.example/progress/", False)],
)  # fmt: skip
def test_sign_in_to_continue_only_where_a_page_asked_for_it(client, asked_from, says_continue):
    """A page that needs an account sends the visitor here; the header's Sign in link is followed freely."""
    page = client.get(reverse("login"), {"next": asked_from}).content.decode()
    assert ("Sign in to continue." in page) is says_continue


@pytest.mark.parametrize("method", ["get", "post"])
def test_the_sign_up_page_says_who_is_signed_in_instead_of_redirecting(student_client, method):
    """It sent a signed-in visitor home without a word; a sign-up sent while signed in creates nothing."""
    data = {"username": "dana", "email": "dana@example.com", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    url = reverse("signup") + "?next=/progress/"
    response = getattr(student_client, method)(url, data if method == "post" else {})
    assert response.status_code == 200
    page = _signed_in_block(response.content.decode())
    assert "You are signed in as <strong>alice</strong>." in page
    assert '<a class="button" href="/progress/">Continue as alice</a>' in page
    # Signing out from here comes back to the sign-up form, with the same next.
    assert '<input type="hidden" name="next" value="/accounts/signup/?next=%2Fprogress%2F">' in page
    assert 'name="password1"' not in page
    assert not get_user_model().objects.filter(username="dana").exists()


def test_signing_out_from_the_sign_up_page_comes_back_to_its_form(student_client):
    response = student_client.post(reverse("logout"), {"next": "/accounts/signup/?next=%2Fprogress%2F"}, follow=True)
    assert response.redirect_chain == [("/accounts/signup/?next=%2Fprogress%2F", 302)]
    page = response.content.decode()
    assert "You have signed out." in page and 'name="password1"' in page


def test_the_header_names_the_account_link_for_what_it_opens(client, student):
    client.force_login(student)
    html = client.get("/").content.decode()
    hidden = '<span class="visually-hidden">: your account</span>'
    link = f'<a href="{reverse("account")}">alice{hidden}</a>'
    assert link in html  # not only in a title, which keyboard and touch users never see


def test_wrong_password_is_a_form_error(client, student):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 422
    page = response.content.decode()
    assert "Please enter a correct username (or email address) and password" in page
    assert "the username is not" in page and "both fields may be case-sensitive" not in page  # "Alice" signs in


def test_the_password_change_form_names_its_fields_as_the_account_page_does(client, student):
    client.force_login(student)
    page = client.get(reverse("password_change")).content.decode()
    assert ">Current password<" in page and ">New password again<" in page
    assert "Old password" not in page and "New password confirmation" not in page


def test_change_password(client, student):
    from django.test import Client

    elsewhere = Client()
    elsewhere.force_login(student)
    client.force_login(student)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response["Location"] == reverse("password_change_done")
    student.refresh_from_db()
    assert student.check_password(NEW_PASSWORD)
    done = client.get(response["Location"]).content.decode()
    # The page was reached from the account page: the way back is offered, not only the decks.
    assert f'<a href="{reverse("account")}">Back to your account</a>' in done
    assert "other browser or device signed in to this account is signed out" in done
    assert elsewhere.get(reverse("account")).status_code == 302 and client.get(reverse("account")).status_code == 200


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


def test_a_refused_sign_up_opens_on_the_field_in_error(client, db):
    page = client.post(
        reverse("signup"),
        {"username": "newbie", "email": "newbie@example.com", "password1": "a-Long-pass-1", "password2": "other"},
    ).content.decode()
    autofocused = re.findall(r"<input[^>]*\bautofocus\b[^>]*>", page)
    assert len(autofocused) == 1 and 'name="password2"' in autofocused[0]  # not the user name typed right


def test_a_refused_password_change_opens_on_the_field_in_error(client, student):
    client.force_login(student)
    page = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": "a-Long-pass-1", "new_password2": "different-1"},
    ).content.decode()
    autofocused = re.findall(r"<input[^>]*\bautofocus\b[^>]*>", page)
    assert len(autofocused) == 1 and 'name="new_password2"' in autofocused[0]


def test_the_headers_sign_in_and_sign_up_come_back_to_the_page_not_to_the_other_form(client):
    deck_page = client.get("/").content.decode()
    assert '<a href="/accounts/login/?next=/">Sign in</a>' in deck_page
    sign_up = client.get(reverse("signup") + "?next=/progress/").content.decode()
    # Signing in from the sign-up page's header went back to the sign-up form, signed in.
    assert '<a href="/accounts/login/?next=/progress/">Sign in</a>' in sign_up
    sign_in = client.get(reverse("login")).content.decode()
    assert '<a href="/accounts/signup/">Sign up</a>' in sign_in
