from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.authoring.filekinds import ZIP, file_kind
from apps.authoring.services import deck_import
from apps.authoring.transfer import TransferError, decode, parse
from apps.common.errors import first_line
from apps.content.katex import KatexUnavailableError


class Command(BaseCommand):
    help = "Read a deck written by export_deck (JSON or CSV): create or update by stable key, all or nothing."

    def add_arguments(self, parser):
        parser.add_argument(
            "file",
            type=Path,
            help="The deck file: JSON or CSV as export_deck or the admin's export writes it (UTF-8, with or without "
            "a byte-order mark); the format is told by the .json or .csv ending, else by the content.",
        )
        parser.add_argument("--dry-run", action="store_true", help="Report what would change, write nothing.")

    def handle(self, *args, file: Path, dry_run: bool, **options):
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: cannot be read: {exc.strerror or exc}") from exc
        if (kind := file_kind(raw, name=file.name)) is ZIP:
            raise CommandError(
                f"{file} is a .zip archive, as the admin's export of several decks is: import_deck reads one deck "
                "file, .json or .csv. Unzip it and import each file, or import the .zip as it is in the admin (the "
                "deck list's “Import a deck”). Nothing was written."
            )
        if kind is not None:
            takes = (
                kind.advice or "import_deck reads a .json or .csv file as export_deck or the admin's export writes it"
            )
            raise CommandError(f"{file} is {kind.what}, not a deck file: {takes}. Nothing was written.")
        try:
            text = decode(raw, name=file.name)
            report = deck_import(data=parse(text, name=file.name), dry_run=dry_run, source=file.name)
        except TransferError as exc:
            # Every problem, one a line (str(exc) ends with "and N more" past the first MAX_PROBLEMS).
            problems = "".join(f"\n  {line}" for line in str(exc).splitlines())
            count = f"{exc.count} problem{'s' if exc.count > 1 else ''}"
            raise CommandError(f"{file} would not import ({count}):{problems}\nNothing was written.") from exc
        except KatexUnavailableError as exc:
            # A set-up problem, not the file's: one line saying what to install, not a traceback from the renderer.
            raise CommandError(
                f"KaTeX is not available ({first_line(exc)}): install Node.js and run `npm ci`, or set NODE_BINARY. "
                "Nothing was written."
            ) from exc
        for label in report.created:
            self.stdout.write(f"created: {label}")
        for label in report.updated:
            self.stdout.write(f"updated: {label}")
        prefix = "dry run, nothing written: " if dry_run else ""
        self.stdout.write(self.style.SUCCESS(prefix + report.summary()))
