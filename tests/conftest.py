"""Shared fixtures: the personas every permission test walks through."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

PASSWORD = "correct-horse-battery"


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(username: str, **fields):
    return get_user_model().objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD, **fields
    )


@pytest.fixture
def student(db):
    return make_user("alice")


@pytest.fixture
def other_student(db):
    return make_user("bob")


@pytest.fixture
def instructor(db):
    """Staff, in the Instructors group the data migration creates."""
    from django.contrib.auth.models import Group

    user = make_user("carol", is_staff=True)
    user.groups.add(Group.objects.get(name="Instructors"))
    return user


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser(username="root", email="root@example.com", password=PASSWORD)


@pytest.fixture
def student_client(client, student):
    client.force_login(student)
    return client


@pytest.fixture
def htmx():
    """Headers that make a test-client request look like HTMX's."""
    return {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def seeded(db):
    """The two seed decks, loaded by the real loader."""
    from django.core.management import call_command

    call_command("load_content", verbosity=0)
