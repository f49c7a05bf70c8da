"""Which pg_dump and pg_restore backup_db and restore_db run: the server's own major version when several are
installed, or the one PG_DUMP_BINARY / PG_RESTORE_BINARY names."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from apps.common.pgtools import PgToolError, _major, choose, installed, server_major, tool
from tests.manage import manage

pytestmark = pytest.mark.django_db


def _fake(root, name: str, version: str) -> str:
    """A stand-in for one installed version, laid out as Debian installs them: only its --version is asked."""
    path = root / version.split(".")[0] / "bin" / name
    path.parent.mkdir(parents=True)
    path.write_text(f'#!/bin/sh\necho "{name} (PostgreSQL) {version}"\n')
    path.chmod(0o755)
    return str(path)


def test_of_several_installed_versions_the_servers_own_major_is_chosen(tmp_path):
    for version in ("14.9", "15.4", "16.2", "17.1"):
        _fake(tmp_path, "pg_dump", version)
    found = [path for path in installed("pg_dump", lib_dir=tmp_path) if path.startswith(str(tmp_path))]
    assert [_major(path) for path in found] == [14, 15, 16, 17]
    assert choose("pg_dump", server=15, candidates=found) == str(tmp_path / "15" / "bin" / "pg_dump")
    # None of its own: the oldest newer one, not the newest.
    without_16 = [path for path in found if "/16/" not in path]
    assert choose("pg_dump", server=16, candidates=without_16) == str(tmp_path / "17" / "bin" / "pg_dump")


def test_with_only_older_versions_the_error_says_what_was_found_and_what_to_install(tmp_path):
    old = [_fake(tmp_path, "pg_restore", "13.2"), _fake(tmp_path, "pg_restore", "14.9")]
    with pytest.raises(PgToolError) as raised:
        choose("pg_restore", server=16, candidates=old)
    assert str(raised.value) == (
        f"pg_restore 16 or newer is needed for this server; found: {old[0]} (13), {old[1]} (14). "
        "Install postgresql-client-16, or set PG_RESTORE_BINARY to one."
    )


def test_the_tools_chosen_for_this_server_are_of_its_major_version():
    # This machine has the embedded server's tools (16) beside the system's: the newest was picked before.
    server = server_major()
    for name in ("pg_dump", "pg_restore"):
        if server not in {_major(path) for path in installed(name)}:
            pytest.skip(f"no {name} {server} installed here")
        assert _major(tool(name)) == server


def test_pg_dump_binary_names_the_pg_dump_backup_db_runs(tmp_path, settings):
    real = tool("pg_dump")
    wrapper = tmp_path / "my-pg_dump"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path}/calls"\nexec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    settings.PG_DUMP_BINARY = str(wrapper)
    call_command("backup_db", "--output", str(tmp_path / "b.dump"), verbosity=0)
    assert (tmp_path / "b.dump").read_bytes().startswith(b"PGDMP")
    assert "--format=custom" in (tmp_path / "calls").read_text().splitlines()[-1]


def test_an_override_that_does_not_exist_or_is_too_old_is_refused_naming_the_variable(tmp_path, settings):
    settings.PG_RESTORE_BINARY = "/nonexistent/pg_restore"
    with pytest.raises(PgToolError, match=r"^PG_RESTORE_BINARY='/nonexistent/pg_restore': no such program$"):
        tool("pg_restore")
    settings.PG_DUMP_BINARY = _fake(tmp_path, "pg_dump", "9.6")
    with pytest.raises(PgToolError, match=rf"PG_DUMP_BINARY='.*' is pg_dump 9; this server needs {server_major()}"):
        tool("pg_dump")


def test_the_overrides_are_read_from_the_environment():
    code = "from django.conf import settings; print(settings.PG_DUMP_BINARY, settings.PG_RESTORE_BINARY)"
    shown = manage(
        "shell", "--no-imports", "-c", code,
        DEBUG="1", PG_DUMP_BINARY="/opt/pg17/bin/pg_dump", PG_RESTORE_BINARY="pg_restore-17",
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split() == ["/opt/pg17/bin/pg_dump", "pg_restore-17"]
