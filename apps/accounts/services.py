from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, Group
from django.db import transaction

# Known to everyone who reads the README; the command refuses to run with DEBUG off.
DEMO_ACCOUNTS = {
    "student": {"password": "learn-ml-2026", "is_staff": False, "groups": []},
    "instructor": {"password": "teach-ml-2026", "is_staff": True, "groups": ["Instructors"]},
}


@transaction.atomic
def demo_accounts_ensure() -> list[AbstractUser]:
    """Creates (or resets) the demo student and instructor."""
    User = get_user_model()  # noqa: N806 - Django's idiom
    users = []
    for username, spec in DEMO_ACCOUNTS.items():
        user, _ = User.objects.get_or_create(username=username, defaults={"email": f"{username}@example.com"})
        user.set_password(spec["password"])
        user.is_staff = spec["is_staff"]
        user.is_active = True
        user.save()
        user.groups.set(Group.objects.filter(name__in=spec["groups"]))
        users.append(user)
    return users
