"""The README's "The first administrator and instructors", step by step: createsuperuser, the superuser signs in,
a colleague signs up, and the superuser makes that account an instructor in the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db

ADMIN_PASSWORD = "a-long-admin-passphrase-2026"
COLLEAGUE_PASSWORD = "a-long-teacher-passphrase-2026"


def _sign_in(username: str, password: str) -> Client:
    client = Client()
    response = client.post(reverse("login"), {"username": username, "password": password})
    assert response.status_code == 302, response.content.decode()[:500]
    return client


def _make_instructor_in_the_admin(admin: Client, user) -> None:
    """Users → the account → Staff status and the Instructors group → Save, as the admin's form sends it."""
    url = reverse("admin:auth_user_change", args=[user.pk])
    assert admin.get(url).status_code == 200
    joined = timezone.localtime(user.date_joined)
    response = admin.post(
        url,
        {
            "username": user.username, "email": user.email, "first_name": "", "last_name": "",
            "is_active": "on", "is_staff": "on", "groups": [Group.objects.get(name="Instructors").pk],
            "date_joined_0": joined.strftime("%Y-%m-%d"), "date_joined_1": joined.strftime("%H:%M:%S"),
            "last_login_0": "", "last_login_1": "", "_save": "Save",
        },
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]


def test_the_documented_steps_make_a_first_administrator_and_an_instructor(monkeypatch):
    # 1. The operator creates the first superuser (the password from the environment, as in a script).
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", ADMIN_PASSWORD)
    call_command("createsuperuser", "--noinput", "--username", "admin", "--email", "admin@example.edu", verbosity=0)
    admin = _sign_in("admin", ADMIN_PASSWORD)
    assert admin.get(reverse("admin:index")).status_code == 200

    # 2. The colleague signs up as anyone does, and is a student so far: no admin, no cohorts of their own.
    colleague = Client()
    signed_up = colleague.post(
        reverse("signup"),
        {"username": "tara", "email": "tara@example.edu", "password1": COLLEAGUE_PASSWORD,
         "password2": COLLEAGUE_PASSWORD},
    )  # fmt: skip
    assert signed_up.status_code == 302
    assert colleague.get(reverse("admin:index")).status_code == 302  # to the admin's sign-in
    assert colleague.get(reverse("cohorts:create")).status_code == 403

    # 3. The superuser makes the account an instructor: Staff status and the Instructors group.
    _make_instructor_in_the_admin(admin, get_user_model().objects.get(username="tara"))

    # 4. The colleague, signed in already, now edits content in the admin and creates cohorts; not a superuser.
    assert colleague.get(reverse("admin:index")).status_code == 200
    assert colleague.get(reverse("admin:content_card_add")).status_code == 200
    assert colleague.get(reverse("cohorts:create")).status_code == 200
    assert colleague.get(reverse("admin:auth_user_changelist")).status_code == 403
    tara = get_user_model().objects.get(username="tara")
    assert tara.is_staff and not tara.is_superuser
