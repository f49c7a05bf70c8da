"""kill -9 of a gunicorn worker in the middle of an answer leaves all of the answer or none of it."""

from __future__ import annotations

import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from urllib.parse import urlencode

import psutil
import psycopg
import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection

from apps.quiz import services
from apps.quiz.forms import question_token
from apps.quiz.models import Answer, CardState, StudentCardStat
from tests.conftest import make_user
from tests.factories import make_card, make_deck
from tests.ops.test_backup import _dsn, _url

pytestmark = pytest.mark.django_db(transaction=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until(predicate, *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.fixture
def gunicorn():
    port = _free_port()
    # The test's own settings (and so its SECRET_KEY), so the session it creates signs the worker in.
    env = {**os.environ, "DATABASE_URL": _url(connection.settings_dict["NAME"]), "LOG_LEVEL": "WARNING"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    server = subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "gunicorn", "--workers", "1", "--worker-class", "sync", "--timeout", "120",
         "--bind", f"127.0.0.1:{port}", "mlcourse.wsgi"],
        cwd=settings.BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_until(lambda: _listening(port), timeout=30, what="gunicorn to listen")
        yield port, server.pid
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)


def _worker(master: int) -> int:
    children = psutil.Process(master).children()
    assert len(children) == 1, children
    return children[0].pid


def _post_answer(port: int, session_key: str, path: str, data: dict) -> http.client.HTTPConnection:
    csrf = secrets.token_hex(16)
    body = urlencode({**data, "csrfmiddlewaretoken": csrf})
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(
        "POST", path, body=body,
        headers={"Content-Type": "application/x-www-form-urlencoded", "Host": "127.0.0.1",
                 "Cookie": f"{settings.SESSION_COOKIE_NAME}={session_key}; {settings.CSRF_COOKIE_NAME}={csrf}"},
    )  # fmt: skip
    return conn


def test_killing_a_worker_mid_answer_leaves_nothing_half_written(gunicorn):
    port, master = gunicorn
    deck = make_deck()
    for i in range(3):
        make_card(deck=deck, answer=f"Tool {i}")
    student = make_user("alice")
    quiz = services.session_start(user=student, deck=deck, size=3, mode="recall", order="new")
    item = quiz.items.get(position=1)
    store = SessionStore()
    store.update({"_auth_user_id": str(student.pk), "_auth_user_backend": settings.AUTHENTICATION_BACKENDS[-1],
                  "_auth_user_hash": student.get_session_auth_hash()})  # fmt: skip
    store.create()
    path = f"/quiz/{quiz.pk}/q/1/"
    data = {"token": question_token(item), "response": "Tool 0"}

    # Hold the card's FSRS row: the worker stops there, after writing the answer and its
    # totals, inside its uncommitted transaction.
    blocker = psycopg.connect(**_dsn(connection.settings_dict["NAME"]))
    watcher = psycopg.connect(**_dsn(connection.settings_dict["NAME"]), autocommit=True)
    try:
        blocker.execute(
            "INSERT INTO quiz_cardstate (user_id, card_id, deck_id, state, due, reps, lapses) "
            "VALUES (%s, %s, %s, 1, now(), 0, 0)",
            [student.pk, item.card_id, deck.pk],
        )
        request = _post_answer(port, store.session_key, path, data)
        worker = _worker(master)

        def worker_waits_on_lock() -> bool:
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
            ).fetchone()
            return row[0] == 1

        _wait_until(worker_waits_on_lock, timeout=30, what="the worker to block inside its transaction")
        os.kill(worker, signal.SIGKILL)
        with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
            request.getresponse()
    finally:
        blocker.rollback()
        blocker.close()

    def no_transaction_left() -> bool:
        busy = watcher.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND xact_start IS NOT NULL"
        ).fetchone()[0]
        return busy == 0

    _wait_until(no_transaction_left, timeout=30, what="the dead worker's transaction to end")
    watcher.close()
    assert Answer.objects.count() == 0
    assert StudentCardStat.objects.count() == 0 and CardState.objects.count() == 0

    # gunicorn replaces the worker; the student's retry stores the whole answer, once.
    _wait_until(lambda: len(psutil.Process(master).children()) == 1, timeout=30, what="a new worker")
    retry = _post_answer(port, store.session_key, path, data).getresponse()
    assert retry.status == 303
    answer = Answer.objects.get()
    assert answer.response == "Tool 0"
    assert StudentCardStat.objects.get().attempts == 1 and CardState.objects.get().reps == 1
