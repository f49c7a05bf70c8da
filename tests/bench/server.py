"""The bench's own database (`<name>_bench` beside DATABASE_URL's) and the gunicorn serving it."""

from __future__ import annotations

import http.client
import os
import runpy
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit, urlunsplit

PROJECT_DIR = Path(__file__).resolve().parents[2]
LOG_FILE = PROJECT_DIR / "var" / "bench" / "gunicorn.log"
HOST = "127.0.0.1"
STUDENT_PASSWORD = "bench-student-2026"
STUDENT_PREFIX = "bench-student-"
# A signed-in page that does nothing, which tests/bench/wsgi.py adds to the app for the bench only.
SIGNED_IN_FLOOR_PATH = "/bench/signed-in/"
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 15.0


@dataclass(frozen=True)
class Target:
    """What the benchmarks get: the running server and the seeded accounts and decks."""

    port: int
    server_pid: int
    usernames: tuple[str, ...]
    password: str
    deck_slugs: tuple[str, ...]


def bench_database_url(url: str) -> tuple[str, str]:
    """(URL of `<name>_bench` on the same server, that name)."""
    parts = urlsplit(url)
    name = unquote(parts.path.lstrip("/")) + "_bench"
    return urlunsplit(parts._replace(path="/" + quote(name))), name


def _recreate_database(url: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    from apps.common.env import parse_database_url

    config = parse_database_url(url)
    params = {
        "host": config["HOST"] or None,
        "port": config["PORT"] or None,
        "user": config["USER"] or None,
        "password": config["PASSWORD"] or None,
        **config["OPTIONS"],
    }
    errors = []
    # Any database we may connect to will do for CREATE DATABASE; DATABASE_URL's own may not exist yet.
    for maintenance in dict.fromkeys(("postgres", config["NAME"], "template1")):
        try:
            connection = psycopg.connect(dbname=maintenance, autocommit=True, connect_timeout=10, **params)
        except psycopg.OperationalError as exc:
            errors.append(f"{maintenance}: {exc}".strip())
            continue
        with connection:
            # FORCE ends sessions a killed earlier run may have left behind.
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return
    raise RuntimeError("cannot connect to the database server to create the bench database:\n" + "\n".join(errors))


def server_environment(database_url: str) -> dict[str, str]:
    """Production-like settings; the bench process itself runs with them too, so collectstatic matches."""
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS=f"{HOST},localhost",
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="0",
        DATABASE_URL=database_url,
        HOST=HOST,
    )
    return env


def prepare(database_url: str, *, students: int) -> tuple[dict[str, str], list[str], list[str]]:
    """Recreates and fills the bench database; returns (server environment, usernames, deck slugs)."""
    url, name = bench_database_url(database_url)
    print(f"bench database: {name} (dropped and recreated)", flush=True)
    _recreate_database(database_url, name)
    env = server_environment(url)
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mlcourse.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connections

    from apps.content.models import Card, Deck

    call_command("migrate", interactive=False, verbosity=0)
    call_command("createcachetable", verbosity=0)  # a database cache, if configured, needs its table
    call_command("load_content", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    user_model = get_user_model()
    # One PBKDF2 hash for all: seeding stays fast, and every login still verifies it in full.
    password = make_password(STUDENT_PASSWORD)
    usernames = [f"{STUDENT_PREFIX}{number:03d}" for number in range(1, students + 1)]
    user_model.objects.bulk_create(
        user_model(username=username, email=f"{username}@example.com", password=password) for username in usernames
    )
    slugs = list(Deck.objects.order_by("slug").values_list("slug", flat=True))
    connections.close_all()  # the bench process holds no connection while gunicorn is measured
    print(f"seeded {Card.objects.count()} cards in decks {', '.join(slugs)}; {len(usernames)} students", flush=True)
    return env, usernames, slugs


def describe_gunicorn(env: dict[str, str]) -> str:
    """The settings gunicorn.conf.py resolves to under `env`, for the report."""
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        conf = runpy.run_path(str(PROJECT_DIR / "gunicorn.conf.py"))
        conn_max_age = os.environ.get("DB_CONN_MAX_AGE", "0")  # the config may supply the default
    finally:
        os.environ.clear()
        os.environ.update(saved)
    keys = ("worker_class", "workers", "threads", "reuse_port", "keepalive", "max_requests", "preload_app")
    return "gunicorn: " + " ".join(f"{key}={conf.get(key)}" for key in keys) + f" DB_CONN_MAX_AGE={conn_max_age}"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def _healthz_status(port: int) -> int | None:
    connection = http.client.HTTPConnection(HOST, port, timeout=2)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status
    except OSError:
        return None
    finally:
        connection.close()


def _log_tail(lines: int = 40) -> str:
    try:
        return "\n".join(LOG_FILE.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@contextmanager
def gunicorn(env: dict[str, str]) -> Iterator[tuple[int, int]]:
    """Runs gunicorn with gunicorn.conf.py on tests/bench/wsgi.py on a free port; yields (port, master's pid)."""
    port = _free_port()
    LOG_FILE.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "tests.bench.wsgi"]
    # The control socket's default path is per user, so it would clash with any other gunicorn on the machine.
    command += ["--no-control-socket", "--error-logfile", "-"]
    with LOG_FILE.open("w") as log:
        # A session of its own: the terminal's Ctrl-C reaches only the bench, which then stops gunicorn in order.
        process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            command, cwd=PROJECT_DIR, env={**env, "PORT": str(port)}, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while _healthz_status(port) != 200:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with status {process.returncode}:\n{_log_tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer /healthz within {START_TIMEOUT_S:.0f} s:\n{_log_tail()}")
            time.sleep(0.2)
        print(f"gunicorn pid {process.pid} serving http://{HOST}:{port}/ (log: {LOG_FILE})", flush=True)
        yield port, process.pid
    finally:
        _stop(process)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)  # graceful: the master stops its workers and exits
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(STOP_TIMEOUT_S)
    print(f"gunicorn stopped (exit status {process.returncode})", flush=True)
