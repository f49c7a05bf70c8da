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
        summary = f"re-rendered with KaTeX {version}: {report.changed} changed"
        if report.kept:
            # Exit status 1 (CommandError's), so that cron or a release script notices: the lines above alone went
            # unread, and the refused maths stayed as the old KaTeX drew it. The rest is saved all the same.
            kept = "1 field kept as it was" if len(report.kept) == 1 else f"{len(report.kept)} fields kept as they were"
            raise CommandError(f"{summary}, {kept} (named above): fix the maths in the admin, then run this again.")
        self.stdout.write(self.style.SUCCESS(summary))
