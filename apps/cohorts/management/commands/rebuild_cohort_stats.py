from django.core.management.base import BaseCommand

from apps.cohorts.aggregates import cohort_stats_rebuild


class Command(BaseCommand):
    help = "Recompute the cohorts' running totals (item statistics) from the answers of their current students."

    def handle(self, *args, **options):
        cohort_stats_rebuild()
        self.stdout.write(self.style.SUCCESS("cohort totals rebuilt from the answers"))
