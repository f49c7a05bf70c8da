"""first_line: an error's message as one log or console line."""

from __future__ import annotations

import pytest

from apps.common.errors import first_line


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (OSError('connection refused\nDETAIL:  is the server running on "127.0.0.1"?'), "connection refused"),
        (RuntimeError("  Node.js is not on PATH  "), "Node.js is not on PATH"),
        # No message, or only spaces (a psycopg error can carry "\n"): the class says what failed.
        (TimeoutError(), "TimeoutError"),
        (ConnectionError(" \n "), "ConnectionError"),
    ],
)
def test_first_line_of_an_error(error, line):
    assert first_line(error) == line
