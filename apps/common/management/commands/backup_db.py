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
            output.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        else:
            _check_output(output)
        # A path typed again (yesterday's command from the shell history) must not replace the backup it names.
        if output.exists() and not force:
            raise CommandError(f"{output} exists; choose another file, or add --force to replace it.")
        try:
            pg_dump = tool("pg_dump")
        except PgToolError as exc:
            raise CommandError(str(exc)) from exc
        args, env = connection_args()
        partial = output.with_suffix(output.suffix + ".partial")
        # Written beside the target and renamed once complete, so a failed run never leaves a half backup; removed
        # whatever ends the run (pg_dump failing, Ctrl-C), so no stale .partial is left for the next one to meet.
        try:
            # Readable by its owner only, from its first byte: it holds password hashes, emails and live sessions.
            partial.unlink(missing_ok=True)
            partial.touch(mode=0o600)
            partial.chmod(0o600)
            result = subprocess.run(  # noqa: S603 - fixed binary, arguments from settings
                [pg_dump, "--format=custom", "--no-owner", "--no-privileges", f"--file={partial}", *args],
                env=env, capture_output=True, text=True, check=False,
            )  # fmt: skip
            if result.returncode != 0:
                raise CommandError(f"pg_dump failed, no backup was written: {result.stderr.strip()}")
            partial.rename(output)
        except OSError as exc:
            raise CommandError(f"cannot write {output}: {exc.strerror or exc}") from exc
        finally:
            partial.unlink(missing_ok=True)
        self.stdout.write(self.style.SUCCESS(f"backup written: {output} ({output.stat().st_size / 1024:.0f} KiB)"))


def _check_output(output: Path) -> None:
    """Refuses an --output that cannot be the backup file, before pg_dump runs: a folder (pg_dump would fail after
    a long dump, or a rename would put the file inside it), or a file in a folder that does not exist (a typo in the
    path must not create a tree of folders somewhere unexpected)."""
    if output.is_dir():
        raise CommandError(f"{output} is a folder; give the backup file's name, such as {output / 'mlcourse.dump'}")
    if not output.parent.is_dir():
        what = "is not a folder" if output.parent.exists() else "does not exist"
        raise CommandError(f"{output.parent} {what}; create the folder first, or choose another path.")
