from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.cohorts import services
from apps.cohorts.demo import CLASSMATES, demo_classmates_ensure
from apps.cohorts.models import Assignment, Cohort
from apps.content.models import Deck

DEMO_NAME = "Demo cohort"


class Command(BaseCommand):
    help = (
        "Create (once) a demo cohort taught by `instructor`, with `student` enrolled, every deck assigned, and "
        "classmates who have three weeks of answers (they cannot sign in)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="Run even with DEBUG off.")
        parser.add_argument(
            "--classmates",
            type=int,
            default=len(CLASSMATES),
            choices=range(len(CLASSMATES) + 1),
            metavar=f"0-{len(CLASSMATES)}",
            help=f"How many classmates with a history to enrol (default {len(CLASSMATES)}).",
        )

    @transaction.atomic
    def handle(self, *args, force: bool, classmates: int, **options):
        if not settings.DEBUG and not force:
            raise CommandError("The demo cohort is for development; refusing with DEBUG off (use --force).")
        User = get_user_model()  # noqa: N806 - Django's idiom
        instructor = User.objects.filter(username="instructor").first()
        student = User.objects.filter(username="student").first()
        if instructor is None or student is None:
            raise CommandError("Run create_demo_accounts first.")
        cohort = Cohort.objects.filter(name__iexact=DEMO_NAME, instructors=instructor).first()
        if cohort is None:
            cohort = services.cohort_create(name=DEMO_NAME, instructor=instructor)
        # Through the service, so the cohort's running totals take in the student's earlier answers.
        services.cohort_join(student=student, code=cohort.join_code)
        for deck in Deck.objects.all():
            Assignment.objects.get_or_create(cohort=cohort, deck=deck)
        answers = demo_classmates_ensure(cohort=cohort, count=classmates)
        self.stdout.write(f"demo cohort: {cohort.name}, join code {cohort.join_code}")
        if answers:
            self.stdout.write(f"demo classmates: {classmates}, with {answers} answers over the last three weeks")
