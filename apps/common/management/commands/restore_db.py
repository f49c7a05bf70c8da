from __future__ import annotations

import subprocess
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from apps.common.pgtools import PgToolError, connection_args, tool


class Command(BaseCommand):
    help = "Restore a backup_db file into the configured database, which must be empty; all or nothing."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options):
        if not file.is_file():
            raise CommandError(f"{file}: no such backup file")
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
            (tables,) = cursor.fetchone()
        if tables:
            name = connection.settings_dict["NAME"]
            raise CommandError(
                f"the database {name!r} already has {tables} tables; restore into an empty database "
                "(createdb a new one and point DATABASE_URL at it)"
            )
        try:
            pg_restore = tool("pg_restore")  # asks the server its version: before the connection is closed
        except PgToolError as exc:
            raise CommandError(str(exc)) from exc
        connection.close()
        args, env = connection_args()
        result = subprocess.run(  # noqa: S603 - fixed binary, arguments from settings
            [pg_restore, "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", *args, str(file)],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if result.returncode != 0:
            raise CommandError(f"pg_restore failed, nothing was restored: {result.stderr.strip()}")
        self.stdout.write(self.style.SUCCESS(f"restored {file}"))
