from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.content.katex import KatexUnavailableError
from apps.content.loader import LoaderError, parse_file
from apps.content.seeding import content_load


class Command(BaseCommand):
    help = "Load seed decks (by default every .txt file in fixtures/) into the database, idempotently."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="*", type=Path, help="Seed files; default: fixtures/*.txt")
        parser.add_argument("--dry-run", action="store_true", help="Report what would change, write nothing.")
        parser.add_argument(
            "--overwrite", action="store_true", help="Replace cards edited in the admin with the seed text."
        )

    def handle(self, *args, files: list[Path], dry_run: bool, overwrite: bool, **options):
        if not files:
            files = sorted((settings.BASE_DIR / "fixtures").glob("*.txt"))
            if not files:
                raise CommandError("no seed files found in fixtures/")
        try:
            decks = [parse_file(path, display_path=_shown(path)) for path in files]
            report = content_load(decks=decks, overwrite=overwrite, dry_run=dry_run)
        except LoaderError as exc:
            raise CommandError(f"{exc}\nNothing was written.") from exc
        except KatexUnavailableError as exc:
            raise CommandError(f"KaTeX is not available: {exc}\nNothing was written.") from exc

        verbosity = options["verbosity"]
        for label in report.conflicts:
            self.stderr.write(f"conflict: {label} was edited in the admin and its seed text changed; kept as edited")
        if verbosity >= 1:
            lines = [
                *(f"deck created: {slug}" for slug in report.decks_created),
                *(f"deck updated: {slug}" for slug in report.decks_updated),
                *(f"created: {label}" for label in report.created),
                *(f"updated: {label}" for label in report.updated),
                *(f"no longer in the seed file (kept): {label}" for label in report.orphaned),
                *(f"unchanged: {label}" for label in report.unchanged if verbosity >= 2),
            ]
            for line in lines:
                self.stdout.write(line)
            prefix = "dry run, nothing written: " if dry_run else ""
            self.stdout.write(self.style.SUCCESS(prefix + report.summary()))


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(settings.BASE_DIR))
    except ValueError:
        return str(path)
