"""Finding pg_dump/pg_restore that can talk to the configured server, and connection arguments for them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from django.db import connection

# Debian and Ubuntu install each major version's client tools side by side here (postgresql-client-15, -16 ...).
PG_LIB_DIR = Path("/usr/lib/postgresql")


class PgToolError(RuntimeError):
    pass


def _major(binary: str) -> int:
    output = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout  # noqa: S603
    return int(re.search(r"(\d+)(?:\.\d+)?", output)[1])


def server_major() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        return int(cursor.fetchone()[0]) // 10000


def installed(name: str, *, lib_dir: Path = PG_LIB_DIR) -> list[str]:
    """Every `name` on this machine: the embedded server's, each of lib_dir's versions, then the one on PATH."""
    found = []
    try:
        from apps.common.devdb import bin_dir

        found.append(str(Path(bin_dir()) / name))
    except ImportError:  # pgserver is a development dependency only
        pass
    found.extend(str(path) for path in sorted(lib_dir.glob(f"*/bin/{name}")))
    if on_path := shutil.which(name):
        found.append(on_path)
    return [path for path in dict.fromkeys(found) if Path(path).exists()]


def choose(name: str, *, server: int, candidates: Iterable[str]) -> str:
    """The candidate of the server's own major version, else the oldest newer one.

    Not simply the newest (this picked the embedded server's pg_dump 16 for a system server 15): a newer pg_dump's
    output may hold settings an older server does not know, which a restore into that server then refuses. An older
    one cannot dump a newer server at all.
    """
    versions = [(_major(path), path) for path in candidates]
    usable = sorted((major, path) for major, path in versions if major >= server)
    exact = [path for major, path in versions if major == server]
    if exact:
        return exact[0]
    if usable:
        return usable[0][1]
    seen = ", ".join(f"{path} ({major})" for major, path in versions) or "none"
    raise PgToolError(
        f"{name} {server} or newer is needed for this server; found: {seen}. Install postgresql-client-{server}, "
        f"or set {name.upper()}_BINARY to one."
    )


def tool(name: str) -> str:
    """The `name` (pg_dump, pg_restore) to run against the configured server: {NAME}_BINARY when the settings give
    one, else the installed one matching the server's major version (choose)."""
    server = server_major()
    setting = f"{name.upper()}_BINARY"
    if override := getattr(settings, setting):
        path = shutil.which(override)
        if path is None:
            raise PgToolError(f"{setting}={override!r}: no such program")
        # Named by the operator, so used even if not the server's own version, but never one too old to work.
        if (major := _major(path)) < server:
            raise PgToolError(f"{setting}={override!r} is {name} {major}; this server needs {server} or newer")
        return path
    return choose(name, server=server, candidates=installed(name))


def connection_args() -> tuple[list[str], dict[str, str]]:
    """Command-line arguments and environment for libpq tools, from the default database settings.

    Django's psql client already maps every libpq option (TLS files, service, passfile); it ends with
    the database as a positional argument, which pg_restore would read as its input file, so that
    one moves to --dbname.
    """
    args, env = connection.client.settings_to_cmd_args_env(connection.settings_dict, [])
    args = args[1:]  # the psql executable
    if connection.settings_dict["NAME"] or not connection.settings_dict["OPTIONS"].get("service"):
        args[-1:] = ["--dbname", args[-1]]
    return args, {**os.environ, **(env or {})}
