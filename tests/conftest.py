from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def seeded(db):
    """The two seed decks, loaded by the real loader."""
    from django.core.management import call_command

    call_command("load_content", verbosity=0)
