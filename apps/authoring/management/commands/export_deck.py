from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.authoring.services import deck_export
from apps.authoring.transfer import to_csv, to_json
from apps.common.csvexport import BOM
from apps.content.models import Deck


class Command(BaseCommand):
    help = "Write a deck with its cards, aliases, distractors and key terms as JSON or CSV."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The deck's slug, as the admin's deck list shows it.")
        parser.add_argument(
            "--format",
            choices=["json", "csv"],
            default="json",
            help="json (default), or csv for a spreadsheet (UTF-8 with a byte-order mark, lists one item a line).",
        )
        parser.add_argument("--output", "-o", type=Path, help="File to write; default: standard output.")

    def handle(self, *args, slug: str, format: str, output: Path | None, **options):
        deck = Deck.objects.filter(slug=slug).first()
        if deck is None:
            raise CommandError(f"no deck has the slug {slug!r}")
        data = deck_export(deck=deck)
        # A byte-order mark, as the admin's export and the cohort CSVs have: without it Excel reads the file in
        # the legacy code page ("café" opens as "cafÃ©"). The import reads files with or without one.
        text = to_json(data) if format == "json" else BOM + to_csv(data)
        if output is None:
            self.stdout.write(text, ending="")
        else:
            output.write_text(text, encoding="utf-8")
            self.stderr.write(f"wrote {output}")
