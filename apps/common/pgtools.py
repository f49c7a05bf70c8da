"""Finding pg_dump/pg_restore that can talk to the configured server, and connection arguments for them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from django.db import connection


class PgToolError(RuntimeError):
    pass


def _major(binary: str) -> int:
    output = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout  # noqa: S603
    return int(re.search(r"(\d+)(?:\.\d+)?", output)[1])


def _candidates(name: str) -> list[str]:
    found = []
    if override := os.environ.get(f"{name.upper()}_BINARY"):
        found.append(override)
    try:
        from apps.common.devdb import bin_dir

        found.append(str(Path(bin_dir()) / name))
    except ImportError:  # pgserver is a development dependency only
        pass
    found.extend(str(path) for path in Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if on_path := shutil.which(name):
        found.append(on_path)
    return [path for path in dict.fromkeys(found) if Path(path).exists()]


def tool(name: str) -> str:
    """The newest `name` (pg_dump, pg_restore) that is at least the server's major version."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        server_major = int(cursor.fetchone()[0]) // 10000
    usable = sorted(((_major(path), path) for path in _candidates(name)), reverse=True)
    for major, path in usable:
        if major >= server_major:
            return path
    seen = ", ".join(f"{path} ({major})" for major, path in usable) or "none"
    raise PgToolError(f"{name} {server_major} or newer is needed for this server; found: {seen}")


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
