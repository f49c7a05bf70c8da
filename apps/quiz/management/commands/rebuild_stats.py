from django.core.management.base import BaseCommand

from apps.quiz.aggregates import stats_rebuild


class Command(BaseCommand):
    help = "Recompute the per-student running totals that dashboards read from the raw answers."

    def handle(self, *args, **options):
        stats_rebuild()
        self.stdout.write(self.style.SUCCESS("running totals rebuilt from the answers"))
