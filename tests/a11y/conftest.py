"""The data and the page list shared by the accessibility (axe-core) and HTML-validity (vnu) checks.

Every page is built with real content: a cohort with two assigned decks, two students with answers
over several days (right and wrong, free recall and multiple choice, an override), quizzes in
progress in both modes, and a finished one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from tests.conftest import make_instructor, make_user

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
VNU = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
JAVA = os.environ.get("JAVA", "java")

FLASHCARDS = "technology-digital-tools-flashcards"
SYLLABUS = "deep-learning-frameworks-production-syllabus"
AFFINE = "Give the standard affine quantization formula mapping a real value to an integer."
TEMPERATURE = "In knowledge distillation, what is the role of the temperature $T$ in the softmax?"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/a11y/test_axe" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@dataclass(frozen=True)
class PageSpec:
    name: str
    path: str
    user: str | None = None  # a key of Site.users; None is a visitor who is not signed in
    math: bool = False  # KaTeX output is on the page, so its MathML must be too
    status: int = 200  # an error page's own (429: a limit's pause)
    # Run just before the page is visited: a limit's window (an hour, starting at a time set by the key) could end
    # between the site's setup and a visit minutes later, and the 429 page was then a 200.
    before: Callable[[], None] | None = None


@dataclass
class Site:
    users: dict = field(default_factory=dict)
    pages: list[PageSpec] = field(default_factory=list)
    recall_quiz: str = ""  # a quiz whose current question is free recall (with maths)
    choice_quiz: str = ""  # a quiz whose current question is multiple choice

    def session_cookie(self, user_key: str) -> dict:
        """A signed-in session for `user_key`, as the cookie a browser would hold."""
        client = Client()
        client.force_login(self.users[user_key])
        return {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}


def _answer_all(user, session, *, now, wrong_recall: int = 1, wrong_choice: int = 1) -> list:
    """Answers every question: the first `wrong_recall` recall and `wrong_choice` choice ones wrongly."""
    from apps.quiz import services

    answers = []
    for item in session.items.select_related("card").order_by("position"):
        if item.mode == "choice":
            wrong = wrong_choice > 0
            wrong_choice -= wrong
            option = (item.correct_option + 1) % len(item.options) if wrong else item.correct_option
            submission = services.Submission(option=option, time_taken_ms=9_000)
        else:
            wrong = wrong_recall > 0
            wrong_recall -= wrong
            response = "I think it is a CronJob" if wrong else (item.card.short_answer or item.card.answer)
            submission = services.Submission(response=response, time_taken_ms=21_000)
        answer, _ = services.answer_submit(
            user=user, session_id=session.pk, position=item.position, submission=submission, now=now
        )
        answers.append(answer)
        now += timedelta(seconds=30)
    return answers


def _join_codes_used_up(user) -> None:
    """`user` has tried every join code JOIN_ACCOUNT_RATE allows (from an address of their own, so that the live
    server's is not used up): their join pages are the 429 that says so."""
    from django.test import RequestFactory

    from apps.cohorts import services as cohorts

    request = RequestFactory().get("/join/", REMOTE_ADDR="192.0.2.99")
    request.user = user
    for _ in range(1000):
        if cohorts.join_try_begin(request=request) is not None:
            return
    raise AssertionError("JOIN_ACCOUNT_RATE never paused the account")


@pytest.fixture
def site(transactional_db):
    from apps.cohorts import deadlines
    from apps.cohorts import services as cohorts
    from apps.content.models import Card, Deck
    from apps.quiz import memory
    from apps.quiz import services as quiz
    from apps.quiz.models import QuizSession, SessionItem

    call_command("load_content", verbosity=0)
    flashcards, syllabus = Deck.objects.get(slug=FLASHCARDS), Deck.objects.get(slug=SYLLABUS)
    affine, temperature = Card.objects.get(question=AFFINE), Card.objects.get(question=TEMPERATURE)
    cache.clear()  # a transactional test's flush leaves the cache table's counts (the limits' tries)
    carol = make_instructor("carol")
    alice, bob, dan = make_user("alice"), make_user("bob"), make_user("dan")
    _join_codes_used_up(dan)
    now = timezone.now()

    cohort = cohorts.cohort_create(name="Autumn 2026", instructor=carol)
    deadlines.assignment_set(cohort=cohort, deck=flashcards, due_date=(now + timedelta(days=2)).date())
    deadlines.assignment_set(cohort=cohort, deck=syllabus, due_date=(now + timedelta(days=14)).date())
    for student in (alice, bob):
        cohorts.cohort_join(student=student, code=cohort.join_code)
    deadlines.extension_grant(  # shown on the student's, the matrix's, the manage page and alice's progress
        cohort=cohort,
        deck_id=syllabus.pk,
        student_id=alice.pk,
        due_date=(now + timedelta(days=20)).date(),
        granted_by=carol,
    )

    # Answers on several days give the charts more than one bar and the item statistics a spread.
    done = quiz.session_start(
        user=alice, deck=flashcards, size=7, mode="mixed", order="new", now=now - timedelta(days=3)
    )
    answers = _answer_all(alice, done, now=now - timedelta(days=3))
    wrong_recall = next(a for a in answers if a.mode == "recall" and a.final_verdict != "correct")
    wrong_choice = next(a for a in answers if a.mode == "choice" and a.final_verdict != "correct")
    right_recall = next((a for a in answers if a.mode == "recall" and a.final_verdict == "correct"), None)
    if right_recall is not None:
        quiz.answer_override(user=alice, session_id=done.pk, position=right_recall.item.position, verdict="incorrect")
    bob_quiz = quiz.session_start(
        user=bob, deck=flashcards, size=5, mode="recall", order="new", now=now - timedelta(days=2)
    )
    _answer_all(bob, bob_quiz, now=now - timedelta(days=2), wrong_recall=3)
    bob_syllabus = quiz.session_start(
        user=bob, deck=syllabus, size=4, mode="mixed", order="random", now=now - timedelta(days=1)
    )
    _answer_all(bob, bob_syllabus, now=now - timedelta(days=1))

    # Built by hand so the current questions are the ones with maths in them.
    recall = QuizSession.objects.create(
        user=alice, deck=syllabus, mode="recall", order="new", size=2, seed=7, item_count=2
    )
    SessionItem.objects.create(session=recall, position=1, card=temperature, mode="recall")
    SessionItem.objects.create(session=recall, position=2, card=affine, mode="recall")
    # Listed on "cards set aside", and so marked on the flashcards' deck page. Before the quiz below, which a card set
    # aside after it started would leave a question short.
    memory.card_set_aside(user=alice, card_id=wrong_choice.card_id, aside=True)
    choice = quiz.session_start(user=alice, deck=flashcards, size=3, mode="choice", order="random")
    shown = quiz.Submission(response="scale the loss", reveal=True)  # typed, then "Show answer"
    quiz.answer_submit(user=alice, session_id=recall.pk, position=2, submission=shown)

    dashboard = f"/cohorts/{cohort.pk}/"
    pages = [
        PageSpec("home", "/"),
        PageSpec("home, signed in with a quiz unfinished", "/", user="alice"),
        PageSpec("deck", f"/decks/{SYLLABUS}/", math=True),
        PageSpec("deck with answers", f"/decks/{SYLLABUS}/?answers=shown", math=True),
        PageSpec("deck, signed in with where each card stands", f"/decks/{FLASHCARDS}/", user="alice"),
        PageSpec("card", affine.get_absolute_url(), math=True),
        PageSpec("card with its answer", f"{affine.get_absolute_url()}?answers=shown", math=True),
        PageSpec("card, signed in with its history", affine.get_absolute_url(), user="alice", math=True),
        PageSpec("search, with results", "/search/?q=quantization"),
        PageSpec("search, nothing found", "/search/?q=zebra"),
        PageSpec("search in one deck", f"/search/?q=quantization&deck={SYLLABUS}"),
        PageSpec("sign in", "/accounts/login/?next=/progress/"),
        PageSpec("sign up", "/accounts/signup/"),
        PageSpec("sign in, signed in already", "/accounts/login/?next=/progress/", user="alice"),
        PageSpec("sign up, signed in already", "/accounts/signup/", user="alice"),
        PageSpec("quiz start", f"/decks/{FLASHCARDS}/quiz/", user="alice"),
        PageSpec("quiz question, free recall", recall.get_absolute_url(), user="alice", math=True),
        PageSpec("quiz question, multiple choice", choice.get_absolute_url(), user="alice"),
        PageSpec("quiz feedback, wrong free recall", f"/quiz/{done.pk}/q/{wrong_recall.item.position}/", user="alice"),
        PageSpec("quiz feedback, multiple choice", f"/quiz/{done.pk}/q/{wrong_choice.item.position}/", user="alice"),
        PageSpec("quiz feedback, answer shown after typing", f"/quiz/{recall.pk}/q/2/", user="alice", math=True),
        PageSpec("quiz summary", done.get_absolute_url(), user="alice"),
        PageSpec("quiz end, asking first", f"{choice.get_absolute_url()}finish/", user="alice"),
        PageSpec("my progress", "/progress/", user="alice"),
        PageSpec("your quizzes", "/quiz/history/", user="alice"),
        PageSpec("cards set aside", "/progress/set-aside/", user="alice"),
        PageSpec("your account", "/accounts/account/", user="alice"),
        PageSpec("delete your account", "/accounts/account/delete/", user="carol"),
        PageSpec("cohort list, student", "/cohorts/", user="alice"),
        PageSpec("cohort list, instructor", "/cohorts/", user="carol"),
        PageSpec("cohort dashboard, matrix", f"{dashboard}?tab=matrix", user="carol"),
        PageSpec("cohort dashboard, item statistics", f"{dashboard}?tab=items", user="carol"),
        PageSpec("cohort dashboard, charts", f"{dashboard}?tab=charts", user="carol"),
        PageSpec("cohort student", f"{dashboard}students/{alice.pk}/", user="carol"),
        PageSpec("cohort manage", f"{dashboard}manage/", user="carol"),
        PageSpec("cohort extension", f"{dashboard}students/{alice.pk}/extensions/{syllabus.pk}/", user="carol"),
        PageSpec("cohort deck extensions", f"{dashboard}assignments/{syllabus.pk}/extensions/", user="carol"),
        PageSpec("invite link, already in the cohort", f"/join/{cohort.join_code}/", user="alice"),
        PageSpec("invite link, joining", f"/join/{cohort.join_code}/"),
        PageSpec("join with a code", "/join/", user="alice"),
        PageSpec(
            "invite link, too many codes tried",
            f"/join/{cohort.join_code}/",
            user="dan",
            status=429,
            before=lambda: _join_codes_used_up(dan),
        ),
        PageSpec("admin card reports", "/admin/quiz/cardreport/", user="carol"),
        PageSpec("admin regrade past answers", f"/admin/content/card/{affine.pk}/regrade/", user="carol"),
        PageSpec("admin card form", f"/admin/content/card/{affine.pk}/change/", user="carol", math=True),
    ]
    yield Site(
        users={"alice": alice, "bob": bob, "carol": carol, "dan": dan},
        pages=pages,
        recall_quiz=recall.get_absolute_url(),
        choice_quiz=choice.get_absolute_url(),
    )
    cache.clear()  # the limits the tests used up (sign-ups, resets, sign-ins from the live server's address)


def limits_used_up(settings) -> None:
    """Sign-ups and reset links from the live server's and the test client's address used up, at one an hour: the
    next of either is the page (429) that says so."""
    from django.test import RequestFactory

    from apps.accounts.services import password_reset_refused, signup_refused

    settings.SIGNUP_RATE = settings.PASSWORD_RESET_RATE = "1/h"
    sent = RequestFactory().post("/", {"email": "someone@example.com"}, REMOTE_ADDR="127.0.0.1")
    assert not signup_refused(request=sent) and not password_reset_refused(request=sent)


def need_file(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path.relative_to(ROOT)} is missing; run `npm ci` (it installs the devDependencies)")


@pytest.fixture(scope="module")
def vnu() -> list[str]:
    """The command that runs the Nu Html Checker, once it is known to start."""
    java = shutil.which(JAVA)
    if java is None:
        pytest.skip(f"{JAVA} not found: the Nu Html Checker needs Java 17 or newer")
    need_file(VNU)
    command = [java, "-jar", str(VNU)]
    probe = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=60, check=False)  # noqa: S603
    if probe.returncode != 0:
        pytest.skip(f"the Nu Html Checker does not start (it needs Java 17 or newer): {probe.stderr.strip()[:300]}")
    return command


@pytest.fixture
def chromium(browser):
    """The suite's shared headless Chromium (tests/conftest.py), once axe-core is known to be there."""
    need_file(AXE)
    return browser
