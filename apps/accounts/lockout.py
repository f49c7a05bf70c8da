"""django-axes' handler (AXES_HANDLER) with a second lock: a client address over its sign-in failure limit."""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from django.http import HttpRequest

from .services import sign_in_address_pause, sign_in_failure_record


class SignInLockoutHandler(AxesDatabaseHandler):
    """Axes locks a user name at one address after AXES_FAILURE_LIMIT failures; this also locks an address.

    Axes could count per address too, but with the one failure limit it has for everything: five is right for
    one person's guesses at one name, and locked a whole class out behind its school's address. The address's
    failures are counted as the sign-up limit counts its requests (SIGN_IN_ADDRESS_RATE), and refused through
    axes, so the site's and the admin's sign-ins are both covered and answer with the same lockout page.
    """

    def is_locked(self, request: HttpRequest, credentials: dict | None = None) -> bool:
        # Reached only for a request axes' allow lists (AXES_IP_WHITELIST ...) do not let through: is_allowed.
        return sign_in_address_pause(request=request) is not None or super().is_locked(request, credentials)

    def user_login_failed(self, sender, credentials: dict, request: HttpRequest | None = None, **kwargs) -> None:
        # AxesStandaloneBackend marks a request it refused before any password was checked (with
        # AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT off). Such a try is not a guess: counting it against the
        # address would let one locked student, clicking again and again, use up the class's allowance.
        refused = request is not None and getattr(request, "axes_locked_out", False)
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or refused or self.is_whitelisted(request, credentials):
            return  # an address axes is told to let through is not counted either
        if sign_in_failure_record(request=request):
            # What axes does at a name's last failure: AxesMiddleware turns the mark into the lockout page.
            request.axes_locked_out = True
            request.axes_credentials = credentials
