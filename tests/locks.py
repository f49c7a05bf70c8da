"""Runs actions while another connection holds a lock: to show an action waits for it, what it holds meanwhile,
or to hold a race open."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from django.db import connection, transaction

from apps.common.db import student_lock

T = TypeVar("T")


def waited_for_student_lock(user_id: int, action: Callable[[], object]) -> bool:
    """True when `action` was still blocked half a second after starting; it then runs to the end."""
    return waited_for(lambda: student_lock(user_id), action)


def waited_for(hold: Callable[[], object], action: Callable[[], object]) -> bool:
    """Like waited_for_student_lock; `hold` runs in the other connection's transaction, which commits at release."""
    held = Hold(hold)
    try:
        runner = Background(action)
        waited = not runner.finished_within(0.5)
    finally:
        held.release()
    runner.join(10)
    return waited


def lock_waiters() -> int:
    """How many connections to the test database wait for a lock (row, table or advisory) right now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return cursor.fetchone()[0]


def wait_until(condition: Callable[[], bool], *, what: str, timeout: float = 10) -> None:
    """Polls `condition` until it holds: a state the test can observe, not a guess at how long things take."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


class Background:
    """Runs `action` in a thread with its own database connection; join() returns its result or re-raises."""

    def __init__(self, action: Callable[[], object], *, name: str | None = None):
        self._action, self._result, self._error = action, None, None
        self._thread = threading.Thread(target=self._run, name=name)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._result = self._action()
        except Exception as exc:  # re-raised in the test's thread by join()
            self._error = exc
        finally:
            connection.close()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def finished_within(self, seconds: float) -> bool:
        self._thread.join(seconds)
        return not self._thread.is_alive()

    def join(self, timeout: float = 20) -> object:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the background action did not finish"
        if self._error is not None:
            raise self._error
        return self._result


class Hold:
    """Another connection's transaction that takes what `hold` takes and keeps it, its locks held, until release()."""

    def __init__(self, hold: Callable[[], object]):
        self._held, self._release = threading.Event(), threading.Event()

        def other_writer():
            with transaction.atomic():
                hold()
                self._held.set()
                self._release.wait(30)

        self._writer = Background(other_writer)
        assert self._held.wait(10), "the other connection did not take its lock"

    def release(self) -> None:
        """Commits the hold and waits until its connection is gone, so nobody waits for it any more."""
        self._release.set()
        self._writer.join()


def after_waiting(hold: Callable[[], object], action: Callable[[], T]) -> T:
    """`action`'s result, run in its own connection while another transaction holds what `hold` takes: it must still
    be waiting half a second in, and goes on once the hold commits (a race held open at its worst moment)."""
    held = Hold(hold)
    try:
        runner = Background(action)
        assert not runner.finished_within(0.5), "the action did not wait for the other transaction"
    finally:
        held.release()
    return runner.join()


@contextmanager
def holding(hold: Callable[[], object]) -> Iterator[None]:
    """A Hold for the duration of the block."""
    held = Hold(hold)
    try:
        yield
    finally:
        held.release()


def while_waiting(
    holds: list[Callable[[], object]], actions: list[Callable[[], object]], probe: Callable[[], T] = lambda: None
) -> T:
    """Runs each action in its own thread while other connections' transactions hold what `holds` take.

    Once PostgreSQL reports every action's connection waiting for a lock (pg_blocking_pids, no sleeping
    on a guess), returns what `probe` finds from the test's own connection. The holds are released one
    at a time, in order, each time waiting until every action is again waiting or done, so the order in
    which the actions go on is fixed too. The first error of an action (a deadlock, say) is re-raised.
    An action that finishes before the first release fails the test: the holds did not stand in its way.
    """
    errors, pids = [], {}
    holders: list[Hold] = []

    def run(action):
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pids[threading.current_thread()] = cursor.fetchone()[0]
            action()
        except Exception as exc:  # re-raised in the test's thread
            errors.append(exc)
        finally:
            connection.close()

    runners = [threading.Thread(target=run, args=(action,)) for action in actions]
    try:
        for hold in holds:
            holders.append(Hold(hold))
        for runner in runners:
            runner.start()
        _settle(runners, pids, errors, finishing=False)
        found = probe()
        for holder in holders:
            holder.release()
            _settle(runners, pids, errors, finishing=True)
    finally:
        for holder in holders:
            holder.release()
        for runner in runners:
            runner.join(10)
    if errors:
        raise errors[0]
    return found


def _settle(runners: list[threading.Thread], pids: dict, errors: list, *, finishing: bool) -> None:
    """Waits until every action is waiting for a lock (or, once `finishing`, is done)."""
    deadline = time.monotonic() + 10
    while True:
        alive = [pids[runner] for runner in runners if runner.is_alive() and runner in pids]
        if len(pids) == len(runners) and _all_waiting(alive):
            return
        if not finishing:
            assert all(runner.is_alive() for runner in runners), f"an action finished without waiting: {errors}"
        assert time.monotonic() < deadline, "the actions never waited for a lock"
        time.sleep(0.01)


def _all_waiting(pids: list[int]) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(bool_and(cardinality(pg_blocking_pids(p)) > 0), true) FROM unnest(%s::int[]) AS p", [pids]
        )
        return bool(cursor.fetchone()[0])
