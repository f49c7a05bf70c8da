"""Shared fixtures: the personas every permission test walks through."""

from __future__ import annotations

import os
import shutil

import pytest
from django.contrib.auth import get_user_model

PASSWORD = "correct-horse-battery"


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _reset_mail_sent():
    # Reset mail is sent in the background: a test that asked for one and did not wait must not have it land in
    # the next test's mail.outbox.
    yield
    from apps.accounts.services import password_reset_mail_wait

    password_reset_mail_wait()


@pytest.fixture(autouse=True)
def _fresh_content_types():
    # A transactional test's flush recreates the content types under new ids; the process-wide cache would
    # hand the old ones to the next admin save (its log entry then breaks a foreign key at commit).
    from django.contrib.contenttypes.models import ContentType

    ContentType.objects.clear_cache()


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


def instructors_group():
    """The Instructors group as the data migrations make it (a transactional test's flush removes it)."""
    import importlib

    from django.apps import apps
    from django.contrib.auth.models import Group

    if not Group.objects.filter(name="Instructors").exists():
        importlib.import_module("apps.authoring.migrations.0001_instructors_group").create_group(apps, None)
        importlib.import_module("apps.cohorts.migrations.0002_instructors_manage_cohorts").grant(apps, None)
        importlib.import_module("apps.quiz.migrations.0006_instructors_handle_card_reports").grant(apps, None)
    return Group.objects.get(name="Instructors")


def make_instructor(username: str):
    user = make_user(username, is_staff=True)
    user.groups.add(instructors_group())
    return user


@pytest.fixture
def instructor(db):
    """Staff, in the Instructors group the data migration creates."""
    return make_instructor("carol")


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


@pytest.fixture
def katex_down(settings):
    """KaTeX cannot start (no node): anything that renders math from here on raises KatexUnavailableError."""
    from apps.content import katex

    settings.NODE_BINARY = "/nonexistent/node"
    katex._worker._stop()
    yield
    # The next formula starts a worker with the node the settings name once more.
    katex._worker._stop()


CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole run: Playwright's sync API cannot start twice in a process."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"Chromium not found at {CHROMIUM}; `make test` installs Debian's chromium when it can")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in the test thread; the ORM calls
    # made around it are still plain synchronous code.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def typeset(monkeypatch) -> list[str]:
    """The TeX of every formula KaTeX typesets, counted at the node worker: the real renderer still runs."""
    from apps.content import katex

    calls: list[str] = []
    real = katex._worker.render

    def counting(tex: str, *, display: bool) -> str:
        calls.append(tex)
        return real(tex, display=display)

    monkeypatch.setattr(katex._worker, "render", counting)
    return calls
