from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.accounts.services import DEMO_ACCOUNTS, demo_accounts_ensure


class Command(BaseCommand):
    help = "Create or reset the demo accounts `student` and `instructor` (development only)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="Run even with DEBUG off.")

    def handle(self, *args, force: bool, **options):
        if not settings.DEBUG and not force:
            raise CommandError("Demo accounts have published passwords; refusing with DEBUG off (use --force).")
        for user in demo_accounts_ensure():
            password = DEMO_ACCOUNTS[user.username]["password"]
            self.stdout.write(f"demo account: {user.username} / {password}")
