from django.core.management.base import BaseCommand, CommandError

from apps.content.katex import KatexUnavailableError, katex_version
from apps.content.services import content_rerender


class Command(BaseCommand):
    help = "Re-render the stored HTML of every deck and card, e.g. after upgrading KaTeX or Markdown."

    def handle(self, *args, **options):
        try:
            report = content_rerender()
            version = katex_version()
        except KatexUnavailableError as exc:
            raise CommandError(f"KaTeX is not available: {exc}\nNothing was changed.") from exc
        for where in report.kept:
            self.stderr.write(f"kept as it was: {where}: KaTeX {version} refuses its maths; fix it in the admin")
        self.stdout.write(self.style.SUCCESS(f"re-rendered with KaTeX {version}: {report.changed} changed"))
