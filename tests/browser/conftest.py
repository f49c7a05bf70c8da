from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD, make_instructor, make_user

FLASHCARDS = "technology-digital-tools-flashcards"
SYLLABUS = "deep-learning-frameworks-production-syllabus"


def eventually(page, script: str, holds, *, arg=None, seconds: float = 5.0):
    """What `script` evaluates to in the page, polled until `holds` it (or the time is up): the page's state
    after a scroll or a swap. Playwright's wait_for_function evaluates with eval, which the site's CSP refuses."""
    for _ in range(int(seconds * 10)):
        value = page.evaluate(script, arg)
        if holds(value):
            return value
        page.wait_for_timeout(100)
    return page.evaluate(script, arg)


def seed_cohort():
    """The seed decks; carol's cohort with both assigned (a wide matrix) and alice in it, who answered two cards
    of a two-question quiz wrong. Returns (cohort, alice's quiz)."""
    from django.core.management import call_command

    from apps.cohorts import deadlines
    from apps.cohorts import services as cohorts
    from apps.content.models import Deck
    from apps.quiz import services as quiz

    call_command("load_content", verbosity=0)
    carol, alice = make_instructor("carol"), make_user("alice")
    cohort = cohorts.cohort_create(name="Autumn 2026", instructor=carol)
    for slug in (FLASHCARDS, SYLLABUS):
        deadlines.assignment_set(cohort=cohort, deck=Deck.objects.get(slug=slug), due_date=None)
    cohorts.cohort_join(student=alice, code=cohort.join_code)
    session = quiz.session_start(user=alice, deck=Deck.objects.get(slug=SYLLABUS), size=2, mode="recall", order="new")
    for item in session.items.order_by("position"):
        quiz.answer_submit(
            user=alice, session_id=session.pk, position=item.position, submission=quiz.Submission(response="no idea")
        )
    return cohort, session


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def sign_in(live_server):
    """`sign_in(page, username, next_url)`: signs a persona in through the real login form, landing on next_url.

    It waits for next_url, so a sign-in that fails stops the test here: no check after it can pass (or fail
    confusingly) on the login page. `login` is the form's page: the admin has its own; None means the page already
    shows the form, as after the redirect from a page that needs an account.
    """

    def sign_in(page, username: str, next_url: str = "/", *, login: str | None = "/accounts/login/") -> None:
        if login is not None:
            page.goto(f"{live_server.url}{login}?{urlencode({'next': next_url})}")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        # The site's button says "Sign in", the admin's "Log in".
        page.get_by_role("button", name="Sign in").or_(page.get_by_role("button", name="Log in")).click()
        expect(page, f"{username} could not sign in").to_have_url(f"{live_server.url}{next_url}")
        # htmx and the shortcuts are deferred scripts: a key pressed before they run follows a link as a page load.
        page.wait_for_load_state("load")

    return sign_in
