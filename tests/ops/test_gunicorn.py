"""gunicorn under gunicorn.conf.py: a port already taken stops it at once, a bad environment value is one line, and
what it logs is one JSON object a line."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings

from tests.manage import PRODUCTION, database_url
from tests.ops.test_worker_kill import _free_port, _listening, _wait_until

_DROPPED = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE", "LOG_LEVEL", "LOG_FORMAT", "PORT"}


def _gunicorn(port: int, **env: str) -> subprocess.Popen[str]:
    environment = {k: v for k, v in os.environ.items() if k not in _DROPPED}
    environment.setdefault("DATABASE_URL", "postgres://localhost/unused")
    environment.update({"DEBUG": "1", "WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "2", **env})
    return subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "mlcourse.wsgi"],
        cwd=settings.BASE_DIR, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def _exit(server: subprocess.Popen[str]) -> str:
    """stderr of a gunicorn that should stop by itself; one still running after 30 s failed the test."""
    try:
        return server.communicate(timeout=30)[1]
    except subprocess.TimeoutExpired:
        server.kill()
        server.communicate()
        raise AssertionError("gunicorn kept running") from None


@pytest.mark.parametrize("reuse_port", [False, True], ids=["another program", "a second instance"])
def test_a_port_in_use_stops_gunicorn_at_once_with_one_line(reuse_port):
    # A second gunicorn by the same user holds the port with SO_REUSEPORT, which the workers' own sockets would
    # have joined: it shared the traffic instead of failing. Another program made the workers fail to bind, again
    # and again, under a master that never exited.
    with socket.socket() as holder:
        if reuse_port:
            holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        server = _gunicorn(port)
        stderr = _exit(server)
    assert server.returncode != 0
    assert stderr.strip().splitlines()[-1] == f"gunicorn: port {port} on 127.0.0.1 is in use by another process"
    assert "Traceback" not in stderr and "Booting worker" not in stderr


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({"DEBUG": "maybe"}, "mlcourse: DEBUG='maybe' is not a boolean"),
        ({"DEBUG": "0"}, "mlcourse: SECRET_KEY must be set"),
        ({"LOG_LEVEL": "LOUD"}, "gunicorn: LOG_LEVEL='LOUD' must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ({"GUNICORN_THREADS": "many"}, "gunicorn: GUNICORN_THREADS='many' is not an integer"),
        # Both once ended a traceback: gunicorn's worker loader, and the port check's bind().
        ({"GUNICORN_WORKER_CLASS": "gevnet"}, "gunicorn: GUNICORN_WORKER_CLASS='gevnet' must be one of gthread, sync"),
        ({"PORT": "80000"}, "gunicorn: PORT=80000 must be at most 65535"),
        # 0 is gunicorn's "unlimited" (a megabyte), and over 8,190 it quietly takes 8,190.
        ({"GUNICORN_LIMIT_REQUEST_LINE": "0"}, "gunicorn: GUNICORN_LIMIT_REQUEST_LINE=0 must be at least 1024"),
        ({"GUNICORN_LIMIT_REQUEST_LINE": "9000"}, "gunicorn: GUNICORN_LIMIT_REQUEST_LINE=9000 must be at most 8190"),
    ],
)
def test_a_bad_environment_value_stops_gunicorn_with_one_line(env, line):
    server = _gunicorn(_free_port(), **env)
    stderr = _exit(server)
    assert server.returncode != 0
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert stderr.startswith(line)


@pytest.mark.django_db
def test_gunicorn_logs_one_json_object_a_line():
    port = _free_port()
    server = _gunicorn(
        port, **{**PRODUCTION, "ALLOWED_HOSTS": "127.0.0.1"}, DATABASE_URL=database_url(), SECURE_SSL_REDIRECT="0",
        LOG_FORMAT="json", LOG_LEVEL="INFO", GUNICORN_ACCESS_LOG="1",
    )  # fmt: skip
    try:
        _wait_until(lambda: _listening(port), timeout=30, what="gunicorn to listen")
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        probe.request("HEAD", "/healthz")
        probe.getresponse().read()
        # A scanner's request for a host the site does not serve.
        probe.request("GET", "/", headers={"Host": "scanner.example"})
        assert probe.getresponse().status == 400
        probe.close()
    finally:
        server.send_signal(signal.SIGTERM)
        _, stderr = server.communicate(timeout=30)
    lines = [json.loads(line) for line in stderr.splitlines()]
    messages = [line["message"] for line in lines]
    assert messages.count(f"Listening at: http://127.0.0.1:{port} ({server.pid})") == 1
    assert not [m for m in messages if m.startswith("Listening at:  (")]
    assert any(line["logger"] == "gunicorn.access" and '"HEAD /healthz' in line["message"] for line in lines)
    # The body of a HEAD response is dropped by the app, not by gunicorn with a warning a request.
    assert not [m for m in messages if "no-body response" in m]
    (disallowed,) = [line for line in lines if line["logger"] == "django.security.DisallowedHost"]
    assert disallowed["level"] == "WARNING" and "exc_info" not in disallowed
    assert "scanner.example" in disallowed["message"]


def test_gunicorn_opens_no_control_socket(tmp_path):
    """gunicorn 25+ would open one in the home directory: shared by two instances, and a way around the budget."""
    port = _free_port()
    environment = {"HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(tmp_path)}
    server = _gunicorn(port, **environment)
    try:
        _wait_until(lambda: _listening(port), timeout=30, what="gunicorn to listen")
        opened = list(tmp_path.rglob("*.ctl"))  # while it runs: gunicorn removes the socket as it stops
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)
    assert not opened


@pytest.mark.django_db
def test_a_search_too_long_for_the_default_request_line_gets_the_sites_form_error():
    """gunicorn's default limit (4,094 bytes) answered a long pasted search with its own bare 400; up to the 8,190
    bytes it can take (nginx's default too) the search page refuses it itself, saying how long it may be."""
    port = _free_port()
    # DEBUG on, so the page's static files need no collectstatic: the limit is gunicorn's, whatever the settings.
    server = _gunicorn(port, DATABASE_URL=database_url())
    try:
        _wait_until(lambda: _listening(port), timeout=30, what="gunicorn to listen")
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for length in (5_000, 8_000):
            probe.request("GET", "/search/?q=" + "x" * length)
            response = probe.getresponse()
            page = response.read().decode()
            assert response.status == 200, page[:200]
            assert f"A search holds at most 200 characters; this one has {length}." in page
            assert page.startswith("<!doctype html>")
        probe.close()
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)


def _healthz_fresh(port: int) -> int | str:
    """/healthz on a new connection each time, as the requests of many clients arrive: its status, or the error."""
    try:
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        probe.request("GET", "/healthz", headers={"Connection": "close"})
        return probe.getresponse().status
    except OSError as exc:
        return type(exc).__name__
    finally:
        probe.close()


@pytest.mark.django_db
def test_requests_arriving_while_the_workers_restart_wait_for_them_instead_of_failing():
    """With a socket per worker (SO_REUSEPORT), a recycled worker's queued connections were reset, and while every
    worker restarted nothing listened: 22 requests of one bench run failed. The master's one socket holds them."""
    port = _free_port()
    # A recycle every 20 requests: nine over the run, each with no worker left to accept for a moment.
    server = _gunicorn(port, DATABASE_URL=database_url(), GUNICORN_MAX_REQUESTS="20", GUNICORN_MAX_REQUESTS_JITTER="0")
    try:
        _wait_until(lambda: _listening(port), timeout=30, what="gunicorn to listen")
        with ThreadPoolExecutor(max_workers=8) as pool:
            outcomes = list(pool.map(lambda _: _healthz_fresh(port), range(200)))
    finally:
        server.send_signal(signal.SIGTERM)
        _, stderr = server.communicate(timeout=30)
    assert Counter(outcomes) == {200: 200}
    assert stderr.count("Booting worker") >= 5  # the workers did restart, again and again
