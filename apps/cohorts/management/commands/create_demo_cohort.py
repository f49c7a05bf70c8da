from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.cohorts.demo import CLASSMATES, demo_classmates_ensure, demo_cohort_create, demo_cohort_find


class Command(BaseCommand):
    help = (
        "Create a demo cohort taught by `instructor`, with `student` enrolled, every published deck assigned, and "
        "classmates who have three weeks of answers (they cannot sign in). Run again, it leaves the demo cohort as "
        "its instructors left it: decks unassigned and students gone stay so."
    )

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="Run even with DEBUG off.")
        parser.add_argument(
            "--classmates",
            type=int,
            default=len(CLASSMATES),
            choices=range(len(CLASSMATES) + 1),
            metavar=f"0-{len(CLASSMATES)}",
            help=f"How many classmates with a history to enrol (default {len(CLASSMATES)}); only when the demo "
            "cohort is created.",
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
        cohort = demo_cohort_find(instructor=instructor)
        if cohort is not None:
            self.stdout.write(f"demo cohort: {cohort.name} exists, join code {cohort.join_code}; left as it is")
            return
        cohort = demo_cohort_create(instructor=instructor, student=student)
        answers = demo_classmates_ensure(cohort=cohort, count=classmates)
        self.stdout.write(f"demo cohort: {cohort.name} created, join code {cohort.join_code}")
        if answers:
            self.stdout.write(f"demo classmates: {classmates}, with {answers} answers over the last three weeks")
