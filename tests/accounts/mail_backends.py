"""Email backends for the reset-mail tests: both end in Django's test outbox (mail.outbox) or never reach it."""

from __future__ import annotations

import threading

from django.core.mail.backends.locmem import EmailBackend


class HeldBackend(EmailBackend):
    """Delivers to mail.outbox once the test sets `release`; `sending` is set as soon as a send begins."""

    sending = threading.Event()
    release = threading.Event()

    def send_messages(self, messages):
        self.sending.set()
        # Bounded, so a request that waited for its mail fails the test instead of hanging it.
        if not self.release.wait(timeout=10):
            raise TimeoutError("the test never released the mail")
        return super().send_messages(messages)


class RefusingBackend(EmailBackend):
    """An SMTP server that is down."""

    def send_messages(self, messages):
        raise ConnectionRefusedError(111, "Connection refused")
