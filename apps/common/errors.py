"""Errors the whole site answers the same way, whichever app raises them."""

from __future__ import annotations


class DependencyUnavailableError(RuntimeError):
    """A service the site needs, other than the database, is down: a set-up problem, not bad input.

    DatabaseUnavailableMiddleware answers it as it answers a lost database: 503, "try again", the submitted
    fields kept. `service` names it on that page.
    """

    service = "a service it needs"
