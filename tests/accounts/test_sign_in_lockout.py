"""Sign-in lockouts: a user name at one address (django-axes), and an address over its failure limit."""

from __future__ import annotations

import logging
import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse

from tests.conftest import PASSWORD, make_instructor, make_user

pytestmark = pytest.mark.django_db

CLASSROOM = "192.0.2.44"


def _sign_in(client, username: str, password: str, ip: str = "203.0.113.5", *, url: str = "login"):
    return client.post(reverse(url), {"username": username, "password": password}, REMOTE_ADDR=ip)


def _age_failures(by: timedelta) -> None:
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time - by)


def test_five_failures_lock_that_name_at_that_address(client, student, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _sign_in(client, "alice", "wrong").status_code == 422
    locked = _sign_in(client, "alice", "wrong")
    assert locked.status_code == 429
    page = locked.content.decode()
    assert "Too many sign-in attempts" in page
    assert "signing in with this name from your network is paused for 15 minutes." in page
    assert _sign_in(client, "alice", PASSWORD).status_code == 429  # even the right password, while locked
    call_command("axes_reset_username", "alice")
    assert _sign_in(client, "alice", PASSWORD).status_code == 302


def test_a_lockout_is_logged_with_the_clients_address_and_not_the_name_typed(client, student, settings, caplog):
    """The operator could tell neither who nor where: both were masked. The name stays masked (it is sometimes a
    password typed in the wrong box); the address is what fail2ban and the operator need."""
    settings.LOG_LEVEL_AXES = "INFO"
    with caplog.at_level(logging.INFO, logger="axes"):
        for _ in range(settings.AXES_FAILURE_LIMIT):
            _sign_in(client, "alice", "wrong", ip="198.51.100.7")
    lockout = [r.getMessage() for r in caplog.records if "Locking out" in r.getMessage()]
    assert lockout and "198.51.100.7" in lockout[0] and "alice" not in lockout[0]


def test_one_students_wrong_passwords_leave_everyone_else_on_the_network_signing_in(
    client, student, other_student, settings
):
    """Regression: a name and an address were locked separately, so bob's typos locked out his whole class,
    instructor included, behind their school's one address."""
    make_instructor("carol")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _sign_in(client, "bob", "typo", ip=CLASSROOM)
    assert _sign_in(client, "bob", PASSWORD, ip=CLASSROOM).status_code == 429
    for name in ("alice", "carol"):
        assert _sign_in(client, name, PASSWORD, ip=CLASSROOM).status_code == 302, name
        client.logout()


def test_a_name_locked_on_one_network_still_signs_in_from_another(client, student, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _sign_in(client, "alice", "guess", ip="198.51.100.9")
    assert _sign_in(client, "alice", PASSWORD, ip="198.51.100.9").status_code == 429
    assert _sign_in(client, "alice", PASSWORD, ip="203.0.113.50").status_code == 302


def test_trying_again_while_locked_does_not_extend_the_lockout(client, student, settings):
    """The page says how long the pause lasts; a retry at minute 10 used to start the 15 minutes over."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _sign_in(client, "alice", "wrong")
    _age_failures(timedelta(minutes=10))
    refused = _sign_in(client, "alice", PASSWORD)
    assert refused.status_code == 429
    # The time left, not the whole cool-off again.
    assert "from your network is paused for 5 minutes." in refused.content.decode()
    _age_failures(timedelta(minutes=6))
    assert _sign_in(client, "alice", PASSWORD).status_code == 302


def test_lockout_ends_after_the_cool_off(client, student, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _sign_in(client, "alice", "wrong")
    assert _sign_in(client, "alice", PASSWORD).status_code == 429
    _age_failures(settings.AXES_COOLOFF_TIME * 2)
    assert _sign_in(client, "alice", PASSWORD).status_code == 302


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


def test_signing_in_elsewhere_does_not_clear_guesses_made_in_the_admin(client, student, settings):
    """The admin's sign-in goes through the same lockout: guesses there are not forgiven by a site sign-in either."""
    make_instructor("carol")
    make_user("mallory")
    attacker = "198.51.100.10"
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _sign_in(client, "carol", "guess", ip=attacker, url="admin:login").status_code == 200
    assert _sign_in(client, "mallory", PASSWORD, ip=attacker).status_code == 302
    client.logout()
    assert _sign_in(client, "carol", "guess", ip=attacker, url="admin:login").status_code == 429


def test_a_successful_sign_in_clears_that_users_failures_there_and_no_one_elses(
    client, student, other_student, settings
):
    """A class behind one NAT address: alice's typos there are forgiven when she gets in there, bob's still count."""
    phone = "203.0.113.60"
    for _ in range(2):
        assert _sign_in(client, "bob", "typo", ip=CLASSROOM).status_code == 422
        assert _sign_in(client, "alice", "typo", ip=CLASSROOM).status_code == 422
    assert _sign_in(client, "alice", "typo-on-her-phone", ip=phone).status_code == 422
    assert _sign_in(client, "alice", PASSWORD, ip=CLASSROOM).status_code == 302
    client.logout()
    # Not the phone's: a success here does not show that a failure from elsewhere was hers.
    assert sorted(AccessAttempt.objects.values_list("username", "ip_address", "failures_since_start")) == [
        ("alice", phone, 1),
        ("bob", CLASSROOM, 2),
    ]
    for _ in range(settings.AXES_FAILURE_LIMIT - 3):
        assert _sign_in(client, "bob", "typo", ip=CLASSROOM).status_code == 422
    assert _sign_in(client, "bob", "typo", ip=CLASSROOM).status_code == 429


def test_a_successful_sign_in_clears_that_users_failures_before_the_limit(client, student, settings):
    """Four typos and then the right password: the next day's typo starts from one, not five."""
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _sign_in(client, "alice", "typo")
    assert _sign_in(client, "alice", PASSWORD).status_code == 302
    client.logout()
    assert not AccessAttempt.objects.exists()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _sign_in(client, "alice", "typo").status_code == 422


# --- the address's own limit ------------------------------------------------------------------


def test_a_class_behind_one_address_signs_in_through_its_typos(client, settings):
    """Thirty students on one school address, each getting the password wrong three times first."""
    assert settings.SIGN_IN_ADDRESS_RATE == "100/15m"
    for n in range(30):
        make_user(f"student{n}")
        for _ in range(3):
            assert _sign_in(client, f"student{n}", "typo", ip=CLASSROOM).status_code == 422
        assert _sign_in(client, f"student{n}", PASSWORD, ip=CLASSROOM).status_code == 302
        client.logout()


def test_guesses_spread_over_many_names_from_one_address_lock_that_address(client, student, settings):
    """Password spraying: one guess at each of many names stays under every name's limit, not the address's."""
    sprayer = "198.51.100.9"
    for n in range(100):
        assert _sign_in(client, f"user{n}", "Summer2026!", ip=sprayer).status_code == 422, n
    refused = _sign_in(client, "user100", "Summer2026!", ip=sprayer)
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many sign-in attempts" in page and "signing in from your network is paused for" in page
    # Refused before any password is checked, so a right one tells the sprayer nothing.
    assert _sign_in(client, "alice", PASSWORD, ip=sprayer).status_code == 429
    assert _sign_in(client, "alice", PASSWORD, ip="203.0.113.50").status_code == 302


def test_the_admins_sign_in_counts_against_the_address_and_is_refused_with_it(client, student, settings):
    settings.SIGN_IN_ADDRESS_RATE = "4/15m"
    make_instructor("carol")
    for n in range(2):
        assert _sign_in(client, f"guess{n}", "wrong", ip=CLASSROOM).status_code == 422
        assert _sign_in(client, f"admin{n}", "wrong", ip=CLASSROOM, url="admin:login").status_code == 200
    assert _sign_in(client, "carol", "wrong", ip=CLASSROOM, url="admin:login").status_code == 429
    assert _sign_in(client, "carol", PASSWORD, ip=CLASSROOM, url="admin:login").status_code == 429
    assert _sign_in(client, "alice", PASSWORD, ip=CLASSROOM).status_code == 429


def test_tries_refused_for_the_address_are_not_counted_against_the_name(client, student, settings):
    """While the address is paused nothing is checked: a student who kept trying can sign in when it ends."""
    settings.SIGN_IN_ADDRESS_RATE = "2/15m"
    for n in range(3):
        _sign_in(client, f"guess{n}", "wrong", ip=CLASSROOM)
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        assert _sign_in(client, "alice", PASSWORD, ip=CLASSROOM).status_code == 429
    assert not AccessAttempt.objects.filter(username="alice").exists()
    cache.clear()  # the address's 15-minute window ends
    assert _sign_in(client, "alice", PASSWORD, ip=CLASSROOM).status_code == 302


def test_an_address_axes_lets_through_is_neither_counted_nor_paused(client, student, settings):
    settings.AXES_NEVER_LOCKOUT_WHITELIST, settings.AXES_IP_WHITELIST = True, [CLASSROOM]
    settings.SIGN_IN_ADDRESS_RATE = "3/15m"
    for n in range(6):
        assert _sign_in(client, f"name{n}", "guess", ip=CLASSROOM).status_code == 422
    assert _sign_in(client, "alice", PASSWORD, ip=CLASSROOM).status_code == 302


def test_a_name_signs_in_whatever_its_letter_case(client, student):
    # Sign-up refuses "Alice" beside "alice"; sign-in refused "Alice" for alice's right password.
    assert _sign_in(client, "Alice", PASSWORD).status_code == 302
    assert int(client.session["_auth_user_id"]) == student.pk
    assert client.get(reverse("quiz:progress")).status_code == 200  # the session holds: the backend is known


def test_two_accounts_differing_only_in_case_stay_apart(client, student):
    """Accounts made before sign-up refused case variants: each name signs in to its own account only."""
    capital = make_user("Alice")
    assert _sign_in(client, "Alice", PASSWORD).status_code == 302
    assert int(client.session["_auth_user_id"]) == capital.pk != student.pk


def test_changing_the_case_of_a_name_does_not_buy_more_guesses(client, student, settings):
    for name in ("alice", "Alice", "ALICE", "aLiCe", "alicE")[: settings.AXES_FAILURE_LIMIT]:
        _sign_in(client, name, "wrong")
    assert _sign_in(client, "AlIcE", PASSWORD).status_code == 429


def test_an_account_signs_in_with_its_email_address_in_any_letter_case(client, student):
    page = client.get(reverse("login")).content.decode()
    assert '<label for="id_username">Username or email</label>' in page
    assert _sign_in(client, "ALICE@Example.COM", PASSWORD).status_code == 302
    assert int(client.session["_auth_user_id"]) == student.pk


def test_an_email_address_is_never_taken_for_a_user_name_that_is_one(client, student):
    # A user name with an @ that is someone else's email signs in to its own account, not to theirs.
    namesake = make_user("alice@example.com")
    assert _sign_in(client, "alice@example.com", PASSWORD).status_code == 302
    assert int(client.session["_auth_user_id"]) == namesake.pk != student.pk


def test_guesses_typed_as_the_email_address_count_against_the_account(client, student, settings):
    for name in ("alice@example.com", "alice", "ALICE@example.com", "Alice", "alice@EXAMPLE.com")[
        : settings.AXES_FAILURE_LIMIT
    ]:
        _sign_in(client, name, "wrong")
    assert _sign_in(client, "alice", PASSWORD).status_code == 429


def _account_form(client, page: str, password: str, ip: str = "203.0.113.5"):
    """A form of the account pages that asks for the current password, sent with `password`."""
    fields = {
        "account_delete": {"password": password},
        "account": {"first_name": "", "last_name": "", "email": "new@example.com", "current_password": password},
        "password_change": {"old_password": password, "new_password1": "a-new-passphrase-2026",
                            "new_password2": "a-new-passphrase-2026"},
    }[page]  # fmt: skip
    return client.post(reverse(page), fields, REMOTE_ADDR=ip)


@pytest.mark.parametrize("page", ["account_delete", "account", "password_change"])
def test_guesses_at_the_password_on_the_account_pages_count_as_failed_sign_ins(client, student, settings, page):
    """Whoever holds a session (a computer left signed in) could guess the password there without end, each wrong
    one only a form error, and then sign in anywhere with it, or delete the account."""
    client.force_login(student)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _account_form(client, page, "guess").status_code == 422
    assert _account_form(client, page, "guess").status_code == 429
    locked = _account_form(client, page, PASSWORD)  # even the right password, while locked
    assert locked.status_code == 429 and "Too many" in locked.content.decode()
    student.refresh_from_db()
    assert student.email == "alice@example.com" and student.check_password(PASSWORD)
    # Axes keeps each failure's form fields: no password typed there, old or new, is kept in the clear.
    kept = "".join(AccessAttempt.objects.values_list("post_data", flat=True))
    assert "current_password=" in kept or "old_password=" in kept or "password=" in kept
    assert "guess" not in kept and PASSWORD not in kept and "a-new-passphrase" not in kept
    client.logout()
    assert _sign_in(client, "alice", PASSWORD).status_code == 429  # the same lock as signing in
    assert _sign_in(client, "alice", PASSWORD, ip="198.51.100.9").status_code == 302


def test_guesses_at_the_password_on_the_admins_password_change_count_as_failed_sign_ins(client, instructor, settings):
    client.force_login(instructor)
    new = "a-new-passphrase-2026"
    fields = {"old_password": "guess", "new_password1": new, "new_password2": new}
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post(reverse("admin:password_change"), fields, REMOTE_ADDR="203.0.113.5").status_code == 422
    assert client.post(reverse("admin:password_change"), fields, REMOTE_ADDR="203.0.113.5").status_code == 429
    right = {**fields, "old_password": PASSWORD}
    assert client.post(reverse("admin:password_change"), right, REMOTE_ADDR="203.0.113.5").status_code == 429
    instructor.refresh_from_db()
    assert instructor.check_password(PASSWORD)
    # Not locked, it changes the password as before and ends on the admin's "changed" page.
    client.force_login(instructor)
    changed = client.post(reverse("admin:password_change"), right, REMOTE_ADDR="198.51.100.9")
    assert changed.status_code == 302 and changed["Location"] == reverse("admin:password_change_done")


def _said(response) -> str:
    """The sign-in form's error."""
    errors = re.search(r'<div class="form-errors" role="alert">(.*?)</div>', response.content.decode(), re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", errors.group(1)).replace("\xa0", " ").split())


def test_a_failed_sign_in_says_how_many_tries_are_left_before_the_pause(client, student, settings):
    """The lockout came with no warning: the fifth typo paused sign-in for a quarter of an hour, unannounced."""
    first = _sign_in(client, "alice", "wrong")
    assert first.status_code == 422
    assert "4 more tries before signing in with this name from your network pauses for 15 minutes." in _said(first)
    for _ in range(2):
        _sign_in(client, "ALICE", "wrong")  # however the name is typed, it is the one account's count
    last_chance = _sign_in(client, "alice", "wrong")
    assert "1 more try before signing in with this name from your network pauses for 15 minutes." in _said(last_chance)
    assert _sign_in(client, "alice", "wrong").status_code == 429  # as it warned
    other_network = _sign_in(client, "alice", "wrong", ip="198.51.100.9")
    assert "4 more tries before" in _said(other_network)  # counted per network, as the lock is


def test_the_warning_is_the_same_for_a_name_with_no_account(client, student, settings):
    """Counted as axes counts them, a name nobody has warns alike: the page does not tell which names exist."""
    settings.AXES_COOLOFF_TIME = timedelta(minutes=30)
    known, unknown = (_sign_in(client, name, "wrong") for name in ("alice", "nobody-here"))
    warning = "4 more tries before signing in with this name from your network pauses for 30 minutes."
    assert warning in _said(known) and warning in _said(unknown)
    assert _said(known) == _said(unknown)


def _field_errors(response, field: str) -> list[str]:
    """The errors shown under one field of the form."""
    errors = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', response.content.decode(), re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in re.findall(r"<li>(.*?)</li>", errors.group(1))]


@pytest.mark.parametrize(
    ("page", "field", "refusal"),
    [
        ("account_delete", "password", "That is not your password; nothing was deleted."),
        ("account", "current_password", "Enter your current password to change your email address."),
        ("password_change", "old_password", "Your old password was entered incorrectly. Please enter it again."),
    ],
)
def test_a_wrong_password_on_the_account_pages_says_how_many_tries_are_left(client, student, settings, page, field,
                                                                             refusal):  # fmt: skip
    """Counted towards the sign-in pause, the account pages' wrong passwords paused it unannounced, where signing in
    warns."""
    client.force_login(student)
    first = _account_form(client, page, "guess")
    assert first.status_code == 422
    warning = "4 more tries before signing in with this name from your network pauses for 15 minutes."
    assert _field_errors(first, field) == [refusal, warning]
    for _ in range(2):
        _account_form(client, page, "guess")
    last_chance = _account_form(client, page, "guess")
    assert _field_errors(last_chance, field)[1] == (
        "1 more try before signing in with this name from your network pauses for 15 minutes."
    )
    locked = _account_form(client, page, "guess")  # as it warned: the lockout page
    assert locked.status_code == 429 and "Too many sign-in attempts" in locked.content.decode()


def test_a_new_email_sent_without_the_password_is_not_counted_as_a_wrong_one(client, student, settings):
    """The box is optional, so the browser sends it empty: that was counted as a wrong password, and a student who
    forgot it a few times was paused from signing in."""
    client.force_login(student)
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        forgot = _account_form(client, "account", "")
        assert forgot.status_code == 422
        assert _field_errors(forgot, "current_password") == [
            "Enter your current password to change your email address."
        ]
    assert not AccessAttempt.objects.exists()
    client.logout()
    assert _sign_in(client, "alice", PASSWORD).status_code == 302
