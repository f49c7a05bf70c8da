from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.common.pgtools import PgToolError, connection_args, tool


class Command(BaseCommand):
    help = "Write the whole database as a pg_dump custom-format file (default: var/backups/mlcourse-<time>.dump)."

    def add_arguments(self, parser):
        parser.add_argument("--output", "-o", type=Path)
        parser.add_argument("--force", action="store_true", help="Replace the output file if it exists.")

    def handle(self, *args, output: Path | None, force: bool, **options):
        if output is None:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            output = Path(settings.BASE_DIR) / "var" / "backups" / f"mlcourse-{stamp}.dump"
        # A path typed again (yesterday's command from the shell history) must not replace the backup it names.
        if output.exists() and not force:
            raise CommandError(f"{output} exists; choose another file, or add --force to replace it.")
        output.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            pg_dump = tool("pg_dump")
        except PgToolError as exc:
            raise CommandError(str(exc)) from exc
        args, env = connection_args()
        partial = output.with_suffix(output.suffix + ".partial")
        # Readable by its owner only, from its first byte: it holds password hashes, emails and live sessions.
        partial.unlink(missing_ok=True)
        partial.touch(mode=0o600)
        partial.chmod(0o600)
        # Written beside the target and renamed once complete, so a failed run never leaves a half backup.
        result = subprocess.run(  # noqa: S603 - fixed binary, arguments from settings
            [pg_dump, "--format=custom", "--no-owner", "--no-privileges", f"--file={partial}", *args],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if result.returncode != 0:
            partial.unlink(missing_ok=True)
            raise CommandError(f"pg_dump failed: {result.stderr.strip()}")
        partial.rename(output)
        self.stdout.write(self.style.SUCCESS(f"backup written: {output} ({output.stat().st_size / 1024:.0f} KiB)"))
