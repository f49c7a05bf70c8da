from django.core.management.base import BaseCommand

from apps.content.katex import katex_version
from apps.content.services import content_rerender


class Command(BaseCommand):
    help = "Re-render the stored HTML of every deck and card, e.g. after upgrading KaTeX or Markdown."

    def handle(self, *args, **options):
        changed = content_rerender()
        self.stdout.write(self.style.SUCCESS(f"re-rendered with KaTeX {katex_version()}: {changed} changed"))
