"""Errors the whole site answers the same way, whichever app raises them."""

from __future__ import annotations


class DependencyUnavailableError(RuntimeError):
    """A service the site needs, other than the database, is down: a set-up problem, not bad input.

    DatabaseUnavailableMiddleware answers it as it answers a lost database: 503, "try again", the submitted
    fields kept. `service` names it on that page.
    """

    service = "a service it needs"


def first_line(exc: BaseException) -> str:
    """An error's message as one log or console line: its first line, or its class's name when it has none
    (psycopg's messages run on with DETAIL and HINT lines; some errors carry no message at all)."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
