from __future__ import annotations

import contextvars
import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from axes.helpers import get_client_ip_address, get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import AbstractUser, Group
from django.core.mail import EmailMessage
from django.db import connections, transaction
from django.db.models import Max
from django.http import HttpRequest
from django.utils import timezone
from django_ratelimit import ALL
from django_ratelimit.core import get_usage, is_ratelimited

from apps.common.db import name_lock

from .selectors import email_taken, username_taken

logger = logging.getLogger(__name__)

# Known to everyone who reads the README; the command refuses to run with DEBUG off.
DEMO_ACCOUNTS = {
    "student": {"password": "learn-ml-2026", "is_staff": False, "groups": [], "name": ("Sam", "Student")},
    "instructor": {
        "password": "teach-ml-2026",
        "is_staff": True,
        "groups": ["Instructors"],
        "name": ("Ines", "Teacher"),
    },
}


@transaction.atomic
def demo_accounts_ensure() -> list[AbstractUser]:
    """Creates (or resets) the demo student and instructor."""
    User = get_user_model()  # noqa: N806 - Django's idiom
    users = []
    for username, spec in DEMO_ACCOUNTS.items():
        user, _ = User.objects.get_or_create(username=username, defaults={"email": f"{username}@example.com"})
        user.set_password(spec["password"])
        # A name, as the demo cohort's classmates have: the dashboards show it beside the user name.
        user.first_name, user.last_name = spec["name"]
        user.is_staff = spec["is_staff"]
        user.is_active = True
        user.save()
        user.groups.set(Group.objects.filter(name__in=spec["groups"]))
        users.append(user)
    return users


def _reset_email(group: str, request: HttpRequest) -> str:
    # The reset form finds accounts by email__iexact, so ALICE@… must share alice@…'s limit.
    return request.POST.get("email", "").strip().casefold()


def password_reset_refused(*, request: HttpRequest) -> bool:
    """Counts a reset request against its client address and, only if that address may still ask, its email.

    The address comes first and a request it refuses stops there: counting it against the email too would let
    one address over its limit keep naming someone's email and lock her out of resetting from her own address.
    The other way round, every request counts against its address, refused for the email or not, since that
    limit bounds what one client may send whatever it asks for. Both answers look alike and neither depends on
    whether the email has an account. Group names and keys are the ones the view's decorators used, so counts
    already in the cache carry over.
    """
    rate = settings.PASSWORD_RESET_RATE
    if is_ratelimited(request, group="password-reset-ip", key="ip", rate=rate, method="POST", increment=True):
        return True
    return is_ratelimited(
        request, group="password-reset-email", key=_reset_email, rate=rate, method="POST", increment=True
    )


# Sending a reset mail takes from milliseconds to seconds (SMTP round trips) and only happens for an address with
# an account, so sending it in the request let anyone time whether an email is registered. The request queues the
# rendered message here instead. One thread is plenty at the reset rate limits and keeps mail in the order it was
# asked for (password_reset_mail_wait relies on that). It starts at the first mail, so gunicorn's preloaded master
# forks none. It is not a daemon: when a worker is recycled (max_requests) or stopped, the interpreter's exit joins
# it after it has run the queue, so queued mail still goes out, within gunicorn's timeout.
_reset_mail_sender = ThreadPoolExecutor(max_workers=1, thread_name_prefix="password-reset-mail")


def _password_reset_mail_send(message: EmailMessage, user_pk: object) -> None:
    try:
        message.send()
    except Exception:
        # Django's own reset form logs a failure the same way (by user pk, not address) and still shows the page.
        logger.exception("Password reset mail to user %s could not be sent", user_pk)
    finally:
        # Connections are per thread: one an email backend opened here would stay open, idle, for the life of the
        # process, outside the request threads' DB_CONNECTION_BUDGET.
        connections.close_all()


def password_reset_mail_queue(*, message: EmailMessage, user_pk: object) -> None:
    """Sends a rendered reset message in the background; a failure is logged against `user_pk`."""
    # In the request's context: a failure logged in the mail thread carries the request's id, not "-".
    _reset_mail_sender.submit(contextvars.copy_context().run, _password_reset_mail_send, message, user_pk)


def password_reset_mail_wait(*, timeout: float = 30) -> None:
    """Returns once every reset mail queued so far has been sent or its failure logged (for tests and scripts)."""
    _reset_mail_sender.submit(lambda: None).result(timeout=timeout)


def account_names_lock() -> None:
    """Serialises new accounts and email changes until the transaction ends: each checks that no other account has
    the name or the email, then writes it, and eight sign-ups at once all passed the check with one email."""
    name_lock("account-names")


def signup_refused(*, request: HttpRequest) -> bool:
    """Counts a sign-up POST against its client address; True once the address is over SIGNUP_RATE.

    The form says when an email already has an account, which people need to hear, so without a limit anyone
    could test a list of addresses against it. Every POST counts, valid or not: a probe is an invalid one.
    """
    return is_ratelimited(
        request, group="signup-ip", key="ip", rate=settings.SIGNUP_RATE, method="POST", increment=True
    )


# An address's failed sign-ins, kept in the cache as the sign-up limit's requests are. Counting and reading must
# name the same group and key: django-ratelimit makes the count's cache key of them.
_SIGN_IN_FAILURES = {"group": "sign-in-failures-ip", "key": "ip"}


def sign_in_failure_record(*, request: HttpRequest) -> bool:
    """Counts a failed sign-in against its client address; True once the address is over SIGN_IN_ADDRESS_RATE."""
    return is_ratelimited(request, **_SIGN_IN_FAILURES, rate=settings.SIGN_IN_ADDRESS_RATE, increment=True)


def sign_in_tries_left(*, request: HttpRequest | None, credentials: dict | None) -> tuple[int, timedelta] | None:
    """After a failed sign-in axes has just counted: the tries this name has left at this address before its pause,
    and the pause. None when axes did not count it (an allowed address, a try refused while locked, a form refused
    before the password was checked) or when this failure locked the name.

    Axes counts a name with no account as it counts one with, so the answer does not tell whether a name exists.
    """
    failures = getattr(request, "axes_failures_since_start", None)
    if failures is None or getattr(request, "axes_locked_out", False):
        return None
    left = get_failure_limit(request, credentials) - failures
    return (left, get_cool_off(request) or timedelta(0)) if left > 0 else None


def sign_in_name_pause(*, request: HttpRequest, credentials: dict | None) -> timedelta:
    """How much longer this name is refused from this address: the cool-off from its last counted failure (a
    try while locked is not counted, so the pause does not move)."""
    cool_off = get_cool_off(request) or timedelta(0)
    username = get_client_username(request, credentials)
    address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    last = AccessAttempt.objects.filter(username=username, ip_address=address).aggregate(last=Max("attempt_time"))
    if last["last"] is None:
        return cool_off
    return max(timedelta(0), last["last"] + cool_off - timezone.now())


def _window_left(request: HttpRequest, *, rate: str, method=ALL, **count) -> timedelta | None:
    """How much longer a limit refuses this request's count (`count`: its group and key), or None while it does not.

    The count's fixed window ends at a time of its own (django-ratelimit staggers them per key).
    """
    usage = get_usage(request, **count, rate=rate, method=method, increment=False)
    if usage is None or not usage["should_limit"]:
        return None
    return timedelta(seconds=max(usage["time_left"], 0))


def sign_in_address_pause(*, request: HttpRequest) -> timedelta | None:
    """How much longer sign-ins from this client address are refused, or None while they are not."""
    return _window_left(request, **_SIGN_IN_FAILURES, rate=settings.SIGN_IN_ADDRESS_RATE)


def signup_pause(*, request: HttpRequest) -> timedelta:
    """How long until this address may sign up again, once signup_refused has refused it."""
    pause = _window_left(request, group="signup-ip", key="ip", rate=settings.SIGNUP_RATE, method="POST")
    return pause or timedelta(0)


def password_reset_pause(*, request: HttpRequest) -> timedelta:
    """How long until a reset refused by password_reset_refused may be asked again: the address's limit first, as
    there."""
    rate = settings.PASSWORD_RESET_RATE
    by_address = _window_left(request, group="password-reset-ip", key="ip", rate=rate, method="POST")
    by_email = _window_left(request, group="password-reset-email", key=_reset_email, rate=rate, method="POST")
    return by_address or by_email or timedelta(0)


def password_confirm(*, request: HttpRequest, user: AbstractUser, password: str) -> bool:
    """Whether `password` is the signed-in user's own, checked as signing in checks it (django-axes).

    The account pages that ask for it again (a new email, deleting, a new password) were a way to guess it without
    end for whoever held a session, a computer left signed in: each wrong one now counts as a failed sign-in with
    the account's name from this address, and while that lock holds even the right one is refused, with the
    lockout page (AxesMiddleware answers for the request that axes marked).
    """
    signed_in = authenticate(request, username=user.get_username(), password=password)
    return signed_in is not None and signed_in.pk == user.pk


class AccountError(Exception):
    """An account change refused, with the reason to show and the form field it is about (None: the whole form)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@transaction.atomic
def account_create(*, user: AbstractUser) -> AbstractUser:
    """Saves a new account, its password hashed already (the slow part: sign-ups do not queue behind it), unless
    another took its user name or email since its form was checked. A rule across rows, so checked here, in turn."""
    account_names_lock()
    if username_taken(username=user.get_username()):
        raise AccountError("A user with that username already exists.", field="username")
    if email_taken(email=user.email):
        raise AccountError("An account with this email address already exists. Try signing in.", field="email")
    user.save()
    return user


@transaction.atomic
def account_update(*, user: AbstractUser, first_name: str, last_name: str, email: str) -> AbstractUser:
    """The account's name and email; an email another account took since the form was checked is refused."""
    account_names_lock()
    if email_taken(email=email.strip(), other_than=user.pk):
        raise AccountError("Another account uses this email address.", field="email")
    user.first_name, user.last_name, user.email = first_name.strip(), last_name.strip(), email.strip()
    user.save(update_fields=["first_name", "last_name", "email"])
    return user


@transaction.atomic
def account_delete(*, user: AbstractUser) -> None:
    """Deletes the account and everything that is only its own: quizzes, answers, memory states, memberships.

    The cohorts it was in drop its answers from their statistics (cohorts' pre_delete receiver); a cohort it owned
    stays with its other instructors, ownerless until one of them claims it.
    """
    if user.is_superuser:
        # Locked, so two administrators deleting themselves at once cannot both be "not the last one".
        admins = get_user_model().objects.select_for_update().filter(is_superuser=True, is_active=True)
        if not [pk for pk in admins.values_list("pk", flat=True) if pk != user.pk]:
            raise AccountError(
                "This is the site's only administrator account. Make another account an administrator first."
            )
    user.delete()
