"""Runs an action while another connection holds a lock, to show the action waits for it."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection, transaction

from apps.common.db import student_lock


def waited_for_student_lock(user_id: int, action: Callable[[], object]) -> bool:
    """True when `action` was still blocked half a second after starting; it then runs to the end."""
    return waited_for(lambda: student_lock(user_id), action)


def waited_for(hold: Callable[[], object], action: Callable[[], object]) -> bool:
    """Like waited_for_student_lock; `hold` runs in the other connection's transaction, which commits at release."""
    holding, release, errors = threading.Event(), threading.Event(), []

    def other_writer():
        with transaction.atomic():
            hold()
            holding.set()
            release.wait(10)
        connection.close()

    def run():
        try:
            action()
        except Exception as exc:  # re-raised in the test's thread
            errors.append(exc)
        finally:
            connection.close()

    writer, runner = threading.Thread(target=other_writer), threading.Thread(target=run)
    writer.start()
    holding.wait(10)
    runner.start()
    runner.join(0.5)
    waited = runner.is_alive()
    release.set()
    writer.join()
    runner.join(10)
    if errors:
        raise errors[0]
    return waited
