"""The embedded PostgreSQL used by `make run` and `make test` when DATABASE_URL is unset.

    python -m apps.common.devdb url            start it if needed, print its URL
    python -m apps.common.devdb exec CMD ...   run CMD with DATABASE_URL set
    python -m apps.common.devdb stop           stop it

The server (pgserver's PostgreSQL 16 build) keeps its data in var/pgdata and
listens only on a Unix socket there, so it never clashes with a system server.
A DATABASE_URL already in the environment always wins.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
PGDATA = PROJECT_DIR / "var" / "pgdata"
DATABASE_NAME = "mlcourse"


def _pgserver():
    """The pgserver package. Every path into it comes through here: importing it asks platformdirs for a runtime
    directory, which warns when XDG_RUNTIME_DIR is unset (containers, CI, sudo) and falls back to
    /tmp/runtime-$UID, which serves; the warning printed above every `make db-stop`, `backup` and `restore`."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", module="platformdirs")
        import pgserver
        import pgserver._commands
    return pgserver


def _server():
    PGDATA.parent.mkdir(parents=True, exist_ok=True)
    return _pgserver().get_server(PGDATA, cleanup_mode=None)


def embedded_url() -> str:
    server = _server()
    exists = server.psql("SELECT 1 FROM pg_database WHERE datname = 'mlcourse';")
    if "(1 row)" not in exists:
        server.psql("CREATE DATABASE mlcourse;")
    return server.get_uri(DATABASE_NAME)


def bin_dir() -> Path:
    return Path(_pgserver()._commands.POSTGRES_BIN_PATH)


def stop() -> None:
    if not (PGDATA / "postmaster.pid").exists():
        return
    server = _server()
    _pgserver()._commands.pg_ctl(["-w", "stop"], pgdata=PGDATA, user=server.system_user)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"url", "exec", "stop"}:
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "stop":
        stop()
        return 0
    url = os.environ.get("DATABASE_URL") or embedded_url()
    if command == "url":
        print(url)
        return 0
    if not rest:
        print("exec needs a command to run", file=sys.stderr)
        return 2
    os.environ["DATABASE_URL"] = url
    os.execvp(rest[0], rest)  # noqa: S606 - runs the command the developer asked for
    return 0  # pragma: no cover - execvp does not return


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
