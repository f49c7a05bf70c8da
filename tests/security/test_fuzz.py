"""Property-based fuzzing of every form and HTMX endpoint, as every persona.

Hypothesis posts arbitrary field names and values (the real ones and junk: unicode, NUL
bytes, huge numbers, very long strings, repeated keys) and sends arbitrary query strings.
Whatever arrives, no answer may be a 5xx, the database must stay consistent, and nobody
may create or change what they have no right to.

Every example runs in a savepoint that is rolled back, so each starts from the same world
(sign-in lockouts and reset rate limits live in the database and go with it) and a failing
example replays exactly on the next run. The regressions at the end pin the bugs this file found.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import quote, urlencode, urlparse

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, transaction
from django.db.models import Count, F, Q, Sum
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from apps.authoring.services import import_key
from apps.authoring.transfer import CSV_COLUMNS
from apps.cohorts import deadlines
from apps.cohorts import services as cohorts
from apps.cohorts.models import Assignment, Cohort, CohortCardStat, CohortResponseStat, Membership
from apps.content.models import Alias, Card, Deck, Distractor, KeyTerm
from apps.content.services import card_save
from apps.quiz import services as quiz
from apps.quiz.forms import question_token
from apps.quiz.models import Answer, CardReport, CardState, QuizSession, SessionItem, StudentCardStat, StudentDeckStat
from apps.quiz.scheduling import rating_for
from tests.conftest import PASSWORD, make_instructor
from tests.factories import make_deck

pytestmark = pytest.mark.django_db
User = get_user_model()

PERSONAS = ("anonymous", "student", "other_student", "other_instructor", "instructor", "superuser")
# May edit decks and cards in the admin (the Instructors group, and superusers).
AUTHORS = {"instructor", "other_instructor", "superuser"}
MISSING = 10**6


def fuzz(max_examples: int):
    # FUZZ_SCALE=20 makes a longer hunt; the default keeps the file under a minute.
    return settings(
        max_examples=max_examples * int(os.environ.get("FUZZ_SCALE", "1")),
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
        # No shrinking: each example costs several requests, so shrinking a failure could take many
        # minutes; the falsifying example's draws and the traceback are printed as found.
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )


# --- values --------------------------------------------------------------------------------

NASTY = st.sampled_from(
    [
        "", " ", "\x00", "a\x00b", "\r\n", "\t", "0", "1", "-1", "2", "3", "4", "32767", "32768", "65536",
        "2147483648", "9223372036854775808", "99999999999999999999999", "1e309", "NaN", "-0", "0x10", "1.5",
        "１２", "²", "true", "null", "[]", "{}", "on", "correct", "incorrect", "partial", "choice", "recall",
        "mixed", "new", "due", "random", "matrix", "items", "charts", "-name", "deck-1-accuracy", "deck--",
        "inactive", "any", "<script>alert(1)</script>", "' OR 1=1 --", "%00", "../../etc/passwd", "\u202e",
        "\ufeff", "😀😀😀", "İ", "ß", "ﬁ", "$x$", "$$\\frac{1}{0}$$", "$\\def\\a{\\a}\\a$", "- " * 600 + "x",
        "2026-02-30", "9999-12-31", "0001-01-01", "alice", "carol", "root", "carol, dave, nobody",
    ]
)  # fmt: skip
TEXT = st.text(max_size=60)
WIDE = st.text(st.characters(codec="utf-8"), min_size=50, max_size=400)
LONG = st.one_of(
    st.integers(2_000, 30_000).map(lambda n: "x" * n),
    st.integers(100, 2_000).map(lambda n: "ab\x00 é " * n),
    st.integers(1, 40).map(lambda n: "$" + "\\frac{1}{" * n + "x" + "}" * n + "$"),
)
INTS = st.integers(-(2**70), 2**70).map(str)
VALUE = st.one_of(NASTY, TEXT, INTS, WIDE, LONG)
FIELD_VALUE = st.one_of(VALUE, st.lists(VALUE, min_size=2, max_size=3))  # a key sent several times
JUNK_NAME = st.one_of(st.text(min_size=1, max_size=20), st.sampled_from(["csrfmiddlewaretoken", "_preview", "id"]))
RAW_QUERY = st.one_of(
    st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="#"), max_size=80),
    st.sampled_from(["%", "%ZZ", "%C0%AF", "%FF%FE", "%00", "page=%00", "a=1&a=2&&&=", "tab=items&page=1e9"]),
)
IPS = st.integers(1, 2**32 - 2).map(lambda n: ".".join(str((n >> s) & 255) for s in (24, 16, 8, 0)))


def form(**plausible) -> st.SearchStrategy[dict]:
    """The real fields (each absent, plausible or junk) plus a few junk ones."""
    real = st.fixed_dictionaries({}, optional={name: st.one_of(s, FIELD_VALUE) for name, s in plausible.items()})
    junk = st.dictionaries(JUNK_NAME, FIELD_VALUE, max_size=3)
    return st.tuples(junk, real).map(lambda pair: {**pair[0], **pair[1]})


QUERY = form(
    tab=st.sampled_from(["matrix", "items", "charts", ""]),
    sort=st.sampled_from(["name", "-name", "accuracy", "-activity", "flags", "deck-1-mastered", "-facility", "x"]),
    flag=st.sampled_from(["", "any", "inactive", "low_accuracy", "behind", "nope"]),
    page=st.one_of(st.integers(-3, 5), st.integers(10**6, 10**30)).map(str),
    answers=st.just("shown"),
    deck=st.sampled_from(["", "~reviews", "_reviews", "deck-1", "-", "_", "x" * 300]),  # All your quizzes' filter
)


# --- the world ------------------------------------------------------------------------------


@dataclass
class World:
    users: dict[str, object]
    clients: dict[str, Client]
    deck: Deck
    other_deck: Deck
    cohort: Cohort  # taught by `instructor`; `student` is in it
    other_cohort: Cohort  # taught by `other_instructor`; `other_student` is in it
    session: QuizSession  # the student's, partly answered

    def slugs(self) -> list[str]:
        return [self.deck.slug, self.other_deck.slug, "no-such-deck"]


CARDS = [
    ("Which controller runs a Pod on a schedule?", "CronJob", ["cron job"], ["Job", "DaemonSet", "Deployment"], []),
    ("What does ReLU compute?", "$\\max(0, x)$", ["max(0,x)"], [], []),
    ("Which format makes models portable between frameworks?", "ONNX", ["Open Neural Network Exchange"], [], []),
    ("Which optimiser keeps running averages of the gradient and its square?", "Adam", [], ["SGD", "RMSprop"], []),
]
SYLLABUS = (
    "What is data parallelism in distributed training?",
    "The model is replicated on each device; each replica processes a shard of the batch and gradients are "
    "averaged with all-reduce so the replicas stay identical.",
    ["replicated", "all-reduce|allreduce", "gradients"],
)


def _deck(slug: str, title: str) -> Deck:
    deck = make_deck(slug=slug, title=title, description="A *deck* with $x^2$.")
    for position, (question, answer, aliases, distractors, terms) in enumerate(CARDS, 1):
        card = Card(deck=deck, position=position, kind=Card.Kind.FLASHCARD, question=question, answer=answer)
        card.short_answer = answer
        card_save(card=card, aliases=aliases, distractors=distractors, key_terms=terms)
    question, answer, terms = SYLLABUS
    card_save(
        card=Card(deck=deck, position=len(CARDS) + 1, kind=Card.Kind.SYLLABUS, question=question, answer=answer),
        key_terms=terms,
    )
    return deck


def _answer_some(user, session: QuizSession, count: int) -> None:
    for item in session.items.order_by("position")[:count]:
        submission = (
            quiz.Submission(option=item.correct_option)
            if item.mode == "choice"
            else quiz.Submission(response=item.card.short_answer or "gradients are averaged")
        )
        quiz.answer_submit(user=user, session_id=session.pk, position=item.position, submission=submission)


@pytest.fixture
def world(student, other_student, instructor, superuser) -> World:
    users = {
        "anonymous": None,
        "student": student,
        "other_student": other_student,
        "instructor": instructor,
        "other_instructor": make_instructor("dave"),
        "superuser": superuser,
    }
    deck, other_deck = _deck("containers", "Containers"), _deck("training", "Training")
    cohort = cohorts.cohort_create(name="Spring", instructor=instructor)
    other_cohort = cohorts.cohort_create(name="Autumn", instructor=users["other_instructor"])
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    deadlines.assignment_set(cohort=other_cohort, deck=other_deck, due_date=None)
    cohorts.cohort_join(student=student, code=cohort.join_code)
    cohorts.cohort_join(student=other_student, code=other_cohort.join_code)
    session = quiz.session_start(user=student, deck=deck, size=5, mode="mixed", order="new")
    _answer_some(student, session, 3)
    recall = quiz.session_start(user=student, deck=other_deck, size=2, mode="recall", order="new")
    _answer_some(student, recall, 1)
    quiz.answer_override(user=student, session_id=recall.pk, position=1, verdict="incorrect")
    _answer_some(
        other_student, quiz.session_start(user=other_student, deck=other_deck, size=3, mode="mixed", order="new"), 2
    )
    clients = {}
    for persona, user in users.items():
        clients[persona] = Client()
        if user is not None:
            clients[persona].force_login(user)
    check_consistency()
    return World(users, clients, deck, other_deck, cohort, other_cohort, session)


def _client(world: World, persona: str) -> Client:
    """A client of its own, for requests that may sign someone in or out."""
    client = Client()
    if world.users[persona] is not None:
        client.force_login(world.users[persona])
    return client


# --- invariants -------------------------------------------------------------------------------


def snapshot() -> dict:
    return {
        "users": set(User.objects.values_list("pk", flat=True)),
        "cohorts": {c.pk: (c.name, c.join_code) for c in Cohort.objects.all()},
        "teachers": set(Cohort.instructors.through.objects.values_list("cohort_id", "user_id")),
        "memberships": {(m.cohort_id, m.student_id): (m.removed_at, m.joined_at) for m in Membership.objects.all()},
        "assignments": {(a.cohort_id, a.deck_id): a.due_date for a in Assignment.objects.all()},
        "decks": {d.pk: (d.slug, d.title, d.description, d.source) for d in Deck.objects.all()},
        "cards": {
            c.pk: (c.deck_id, c.position, c.kind, c.question, c.answer, c.short_answer, c.explanation, c.archived)
            for c in Card.objects.all()
        },
        "extras": {
            *(("alias", *row) for row in Alias.objects.values_list("card_id", "text")),
            *(("distractor", *row) for row in Distractor.objects.values_list("card_id", "text", "position")),
            *(("term", *row) for row in KeyTerm.objects.values_list("card_id", "term")),
        },
        "sessions": {s.pk: (s.user_id, s.finished_at) for s in QuizSession.objects.all()},
        "reports": {r.pk: (r.user_id, r.message, r.resolved_at) for r in CardReport.objects.all()},
        "answers": {
            a.pk: (a.user_id, a.final_verdict, a.final_score, a.override_verdict)
            for a in Answer.objects.only("user_id", "final_verdict", "final_score", "override_verdict")
        },
    }


def _changed(before: dict, after: dict) -> set:
    gone = object()
    return {key for key in before.keys() | after.keys() if before.get(key, gone) != after.get(key, gone)}


def check_permissions(before: dict, after: dict, world: World, persona: str) -> None:
    """Only what `persona` may create or change was created or changed."""
    user = world.users[persona]
    uid = user.pk if user is not None else None
    superuser = persona == "superuser"
    taught = {cohort for cohort, teacher in before["teachers"] if teacher == uid}
    new_cohorts = after["cohorts"].keys() - before["cohorts"].keys()

    assert before["users"] - after["users"] <= {uid}, "a user was deleted by someone else"
    deleted = uid not in after["users"]  # their own account: everything of theirs goes with it
    assert persona == "anonymous" or after["users"] <= before["users"], "a signed-in user created an account"
    for pk in _changed(before["sessions"], after["sessions"]):
        owner = (after["sessions"].get(pk) or before["sessions"][pk])[0]
        assert owner == uid, f"{persona} changed quiz session {pk} of user {owner}"
    for pk in _changed(before["reports"], after["reports"]):
        owner = (after["reports"].get(pk) or before["reports"][pk])[0]
        assert owner == uid, f"{persona} changed card report {pk} of user {owner}"
    for pk in _changed(before["answers"], after["answers"]):
        owner = (after["answers"].get(pk) or before["answers"][pk])[0]
        assert owner == uid, f"{persona} changed answer {pk} of user {owner}"
    assert not new_cohorts or persona in AUTHORS, f"{persona} created a cohort"
    for pk in new_cohorts:
        assert (pk, uid) in after["teachers"], "a new cohort without its creator as instructor"
    for pk in _changed(before["cohorts"], after["cohorts"]) - new_cohorts:
        assert superuser or pk in taught, f"{persona} changed cohort {pk}"
    for cohort, _teacher in before["teachers"] ^ after["teachers"]:
        assert superuser or cohort in taught or cohort in new_cohorts, f"{persona} changed who teaches {cohort}"
    for cohort, student in _changed(before["memberships"], after["memberships"]):
        joined = (cohort, student) not in before["memberships"]
        own = student == uid and (deleted or after["memberships"].get((cohort, student), (1,))[0] is None)
        assert own or (not joined and (superuser or cohort in taught)), (
            f"{persona} changed membership {cohort}/{student}"
        )
    for cohort, _deck in _changed(before["assignments"], after["assignments"]):
        assert superuser or cohort in taught or cohort in new_cohorts, f"{persona} changed assignments of {cohort}"
    for key in ("decks", "cards"):
        assert persona in AUTHORS or not _changed(before[key], after[key]), f"{persona} changed {key}"
    assert persona in AUTHORS or before["extras"] == after["extras"], f"{persona} changed aliases or distractors"


def check_consistency() -> None:
    answers = Answer.objects.all()
    out_of_range = Q(final_score__lt=0) | Q(final_score__gt=1) | Q(auto_score__lt=0) | Q(auto_score__gt=1)
    assert not answers.filter(out_of_range).exists(), "a score outside [0, 1]"
    assert not answers.exclude(override_verdict="").exclude(final_verdict=F("override_verdict")).exists()
    assert (
        not answers.filter(override_verdict="")
        .exclude(final_verdict=F("auto_verdict"), final_score=F("auto_score"))
        .exists()
    )
    assert not answers.filter(override_verdict="correct").exclude(final_score=1).exists()
    assert not answers.filter(override_verdict="incorrect").exclude(final_score=0).exists()
    assert not answers.exclude(override_verdict="").filter(Q(mode="choice") | Q(revealed=True)).exists()
    assert not answers.values("session", "card").annotate(n=Count("pk")).filter(n__gt=1).exists()
    assert not answers.exclude(user=F("session__user")).exists(), "an answer in someone else's session"
    assert not answers.exclude(session=F("item__session"), card=F("item__card"), mode=F("item__mode")).exists()
    assert not answers.filter(mode="recall", chosen_option__isnull=False).exists(), "an option on a recall answer"
    for verdict, rating in answers.values_list("final_verdict", "rating"):
        assert rating == rating_for(verdict), (verdict, rating)
    for chosen, options in answers.filter(mode="choice", revealed=False).values_list("chosen_option", "item__options"):
        assert chosen is not None and 0 <= chosen < len(options), (chosen, options)
    complete = QuizSession.objects.annotate(n=Count("items"), done=Count("items__answer"))
    assert not complete.filter(finished_at__isnull=True, n=F("done"), n__gt=0).exists(), "all answered, not finished"

    # The running totals equal a recomputation from the answers.
    per_card = {
        (row["user"], row["card"]): (row["n"], row["s"], row["o"], row["card__deck"])
        for row in answers.values("user", "card", "card__deck").annotate(
            n=Count("pk"), s=Sum("final_score"), o=Count("pk", filter=~Q(override_verdict=""))
        )
    }
    card_stats = {(s.user_id, s.card_id): s for s in StudentCardStat.objects.all()}
    assert card_stats.keys() == per_card.keys(), "card totals for the wrong (user, card) pairs"
    per_deck: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0, 0, 0.0, 0.0])
    for (user, _card), (n, s, overrides, deck) in per_card.items():
        stat = card_stats[(user, _card)]
        assert (stat.attempts, stat.overrides, stat.deck_id) == (n, overrides, deck), (stat, n, overrides, deck)
        assert math.isclose(stat.score_sum, s, abs_tol=1e-9), (stat.score_sum, s)
        totals = per_deck[(user, deck)]
        totals[0] += 1
        totals[1] += n
        totals[2] += s
        totals[3] += s / n
    deck_stats = {(s.user_id, s.deck_id): s for s in StudentDeckStat.objects.all()}
    assert deck_stats.keys() == per_deck.keys(), "deck totals for the wrong (user, deck) pairs"
    for key, (cards, attempts, score, mean) in per_deck.items():
        stat = deck_stats[key]
        assert (stat.cards_attempted, stat.attempts) == (cards, attempts), (stat, cards, attempts)
        assert math.isclose(stat.score_sum, score, abs_tol=1e-9) and math.isclose(stat.mean_sum, mean, abs_tol=1e-9)
    assert set(CardState.objects.values_list("user_id", "card_id")) == set(per_card), "memory states out of step"
    check_cohort_totals(per_card)
    # Deferred constraints (a card's position in its deck) are otherwise only checked at commit,
    # which a test's transaction never reaches.
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def check_cohort_totals(per_card: dict) -> None:
    """Each cohort's item-statistics totals hold exactly its current students' answers."""
    cohorts_of = defaultdict(set)
    for cohort, student in Membership.objects.filter(removed_at__isnull=True).values_list("cohort_id", "student_id"):
        cohorts_of[student].add(cohort)
    expected: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0, 0, 0.0, 0])
    for (user, card), (n, s, overrides, _deck) in per_card.items():
        for cohort in cohorts_of[user]:
            totals = expected[(cohort, card)]
            totals[0] += n
            totals[1] += 1
            totals[2] += s
            totals[3] += overrides
    for stat in CohortCardStat.objects.all():
        attempts, students, score, overrides = expected.pop((stat.cohort_id, stat.card_id), (0, 0, 0.0, 0))
        assert (stat.attempts, stat.students, stat.overrides) == (attempts, students, overrides), stat
        assert math.isclose(stat.score_sum, score, abs_tol=1e-9), (stat, stat.score_sum, score)
    assert not expected, f"cohort totals missing for {sorted(expected)}"
    wrong = Answer.objects.exclude(final_verdict="correct").exclude(response_key="")
    responses = Counter(
        (cohort, card, mode, key)
        for user, card, mode, key in wrong.values_list("user_id", "card_id", "mode", "response_key")
        for cohort in cohorts_of[user]
    )
    stored = Counter({
        (r.cohort_id, r.card_id, r.mode, r.response_key): r.count for r in CohortResponseStat.objects.exclude(count=0)
    })  # fmt: skip
    assert stored == responses, (stored, responses)


@contextmanager
def example(world: World, persona: str):
    with transaction.atomic():
        before = snapshot()
        yield
        check_consistency()
        check_permissions(before, snapshot(), world, persona)
        transaction.set_rollback(True)


def send(
    client: Client, method: str, path: str, data: dict | None = None, *, htmx=False, encoding="multipart", **extra
):
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/%ZZ"} if htmx else {}
    if method == "GET":
        response = client.get(path, data or {}, **headers, **extra)
    elif encoding == "urlencoded":
        body = urlencode(data or {}, doseq=True)
        response = client.post(path, body, content_type="application/x-www-form-urlencoded", **headers, **extra)
    else:
        response = client.post(path, data or {}, **headers, **extra)
    assert response.status_code < 500, f"{method} {path} {data!r:.300} -> {response.status_code}"
    return response


def expect_refused(response, persona: str, *, admin: bool = False) -> None:
    """Anonymous visitors are sent to sign in; signed-in outsiders see nothing (404), or the admin's sign-in."""
    if persona == "anonymous" or (admin and persona in ("student", "other_student")):
        # 400: Django refuses to redirect to a sign-in URL whose ?next= would pass 16384 characters.
        # HTMX requests get the site's sign-in page as HX-Redirect (apps.common.middleware), not a 302.
        assert (
            response.status_code == 400
            or (response.status_code == 302 and "login" in response["Location"])
            or (response.status_code == 200 and "login" in response.get("HX-Redirect", ""))
        ), response.status_code
    else:
        assert response.status_code in (403, 404), response.status_code


def same_site(response) -> None:
    if response.status_code in (301, 302, 303, 307, 308):
        target = urlparse(response["Location"])
        assert target.scheme in ("", "http", "https") and target.netloc in ("", "testserver"), response["Location"]


# --- accounts ---------------------------------------------------------------------------------

NEXT = st.sampled_from(
    ["/", "/progress/", "//evil.example/", "https://evil.example/", "javascript:alert(1)", "/\\evil.example",
     "\\\\evil.example", "http:///evil.example", " //evil.example", "/%0d%0aSet-Cookie:x=1"]
)  # fmt: skip
USERNAME = st.one_of(
    st.sampled_from(["alice", "bob", "ALICE", "new_user", "carol"]), st.from_regex(r"[\w.@+-]{1,20}", fullmatch=True)
)
PASSWORD_FIELD = st.sampled_from([PASSWORD, "another-long-passphrase-2026", "x"])
EMAIL = st.one_of(st.sampled_from(["alice@example.com", "ALICE@example.com", "new@example.com"]), st.emails())
ACCOUNT_FORMS = {
    "signup": form(username=USERNAME, email=EMAIL, password1=PASSWORD_FIELD, password2=PASSWORD_FIELD, next=NEXT),
    "login": form(username=USERNAME, password=PASSWORD_FIELD, next=NEXT),
    "admin:login": form(username=USERNAME, password=PASSWORD_FIELD, next=NEXT),
    "password_reset": form(email=EMAIL),
    "account": form(first_name=VALUE, last_name=VALUE, email=EMAIL, current_password=PASSWORD_FIELD),
    "account_delete": form(password=PASSWORD_FIELD),
}


@fuzz(max_examples=80)
@given(data=st.data())
def test_accounts(world, data):
    """Sign-up, sign-in (site and admin), password reset and the account page (details, deleting oneself); lockouts
    (429) are fine, 5xx and open redirects not."""
    persona = data.draw(st.sampled_from(PERSONAS))
    name = data.draw(st.sampled_from(sorted(ACCOUNT_FORMS)))
    fields = data.draw(ACCOUNT_FORMS[name])
    with example(world, persona):
        client = _client(world, persona)
        extra = {"REMOTE_ADDR": data.draw(IPS)}
        response = send(
            client,
            "POST",
            reverse(name),
            fields,
            encoding=data.draw(st.sampled_from(["multipart", "urlencoded"])),
            **extra,
        )
        same_site(response)
        if name == "signup" and persona != "anonymous":
            assert response.status_code == 200 and "You are signed in as" in response.content.decode()
        send(client, "GET", reverse(name) + "?" + data.draw(RAW_QUERY), **extra)


# --- quizzes ----------------------------------------------------------------------------------

START = form(
    size=st.integers(-5, 60).map(str),
    mode=st.sampled_from(["choice", "recall", "mixed"]),
    order=st.sampled_from(["new", "due", "random"]),
)


@fuzz(max_examples=40)
@given(data=st.data())
def test_quiz_start_and_review(world, data):
    persona = data.draw(st.sampled_from(PERSONAS))
    slug = data.draw(st.sampled_from([*world.slugs(), None]))
    path = reverse("quiz:review") if slug is None else reverse("quiz:start", args=[slug])
    with example(world, persona):
        client = world.clients[persona]
        response = send(
            client, data.draw(st.sampled_from(["GET", "POST"])), path, data.draw(START), htmx=data.draw(st.booleans())
        )
        if persona == "anonymous":
            expect_refused(response, persona)
        elif slug == "no-such-deck":
            assert response.status_code == 404


RESPONSE = st.sampled_from(["CronJob", "cron job", "Cronjob", "Job", "max(0, x)", "$\\max(0,x)$", "onnx", "all-reduce"])
ANSWER = form(
    response=RESPONSE,
    option=st.integers(-3, 70_000).map(str),
    reveal=st.sampled_from(["1", "on", "true", "0", "", "false"]),
    reveal_confirmed=st.sampled_from(["1", "0", ""]),  # "Show answer" pressed again after it asked
)
OVERRIDE = form(verdict=st.sampled_from(["", "correct", "incorrect", "partial", "CORRECT"]))
REPORT = form(message=st.one_of(VALUE, st.text(min_size=990, max_size=1010)))
STEP = st.sampled_from(
    ["answer", "answer", "answer", "override", "override", "check", "report", "finish", "item", "session", "progress"]
)


def _token(session_id: int, position: int, kind: str, fields: dict) -> None:
    item = SessionItem.objects.filter(session_id=session_id, position=position).first()
    if kind == "valid" and item is not None:
        fields["token"] = question_token(item)
    elif kind == "other_position":
        fields["token"] = question_token(SessionItem(session_id=session_id, position=position + 1))
    elif kind == "tampered" and item is not None:
        fields["token"] = question_token(item)[:-2] + "xx"
    elif kind == "none":
        fields.pop("token", None)


@fuzz(max_examples=70)
@given(data=st.data())
def test_answer_override_finish(world, data):
    """Answer submit (with and without a valid token, HTMX or not), override, card report, finish, in any order."""
    persona = data.draw(st.sampled_from(PERSONAS))
    user = world.users[persona]
    with example(world, persona):
        whose = data.draw(st.sampled_from(["own", "own", "student's", "missing"]))
        if whose == "own" and user is not None:
            deck = data.draw(st.sampled_from([world.deck, world.other_deck]))
            mode = data.draw(st.sampled_from(["choice", "recall", "mixed"]))
            session_id = quiz.session_start(
                user=user, deck=deck, size=data.draw(st.integers(1, 5)), mode=mode, order="random"
            ).pk
        else:
            session_id = world.session.pk if whose == "student's" else MISSING
        client = world.clients[persona]
        for step in data.draw(st.lists(STEP, min_size=1, max_size=5)):
            position = data.draw(st.one_of(st.integers(1, 6), st.just(40_000)))
            htmx = data.draw(st.booleans())
            if step == "answer":
                fields = data.draw(ANSWER)
                _token(
                    session_id,
                    position,
                    data.draw(st.sampled_from(["valid", "valid", "other_position", "tampered", "junk", "none"])),
                    fields,
                )
                if data.draw(st.booleans()) and "token" not in fields:
                    fields["token"] = data.draw(VALUE)
                response = send(client, "POST", reverse("quiz:item", args=[session_id, position]), fields, htmx=htmx)
            elif step == "override":
                response = send(
                    client,
                    "POST",
                    reverse("quiz:override", args=[session_id, position]),
                    data.draw(OVERRIDE),
                    htmx=htmx,
                )
            elif step == "check":  # "Check what I typed" under a shown answer
                url = reverse("quiz:check_typed", args=[session_id, position])
                response = send(client, "POST", url, data.draw(form()), htmx=htmx)
            elif step == "report":
                url = reverse("quiz:report", args=[session_id, position])
                response = send(client, "POST", url, data.draw(REPORT), htmx=htmx)
            elif step == "finish":
                response = send(client, "POST", reverse("quiz:finish", args=[session_id]), data.draw(form()), htmx=htmx)
            elif step == "item":
                response = send(
                    client,
                    "GET",
                    reverse("quiz:item", args=[session_id, position]) + "?" + data.draw(RAW_QUERY),
                    htmx=htmx,
                )
            elif step == "session":
                response = send(client, "GET", reverse("quiz:session", args=[session_id]), data.draw(QUERY), htmx=htmx)
            else:
                response = send(client, "GET", reverse("quiz:progress") + "?" + data.draw(RAW_QUERY), htmx=htmx)
                continue
            if persona == "anonymous":
                expect_refused(response, persona)
            elif whose != "own" and not (persona == "student" and whose == "student's"):
                assert response.status_code == 404, (step, response.status_code)


# --- cohorts ----------------------------------------------------------------------------------

COHORT_FORM = form(
    name=st.sampled_from(["Summer", "  Winter  ", "x" * 120, "x" * 121]),
    instructors=st.sampled_from(["", "carol", "dave", "alice", "root", "carol, dave", "nobody", ",,,"]),
)
ENDPOINTS = (
    "create", "manage", "owner", "assignment_add", "assignment_remove", "code", "student_remove", "extension",
    "extension_remove", "assignment_extensions", "assignment_extension_change", "assignment_extension_remove",
)  # fmt: skip


@fuzz(max_examples=70)
@given(data=st.data())
def test_cohort_management(world, data):
    persona = data.draw(st.sampled_from(PERSONAS))
    endpoint = data.draw(st.sampled_from(ENDPOINTS))
    cohort = data.draw(st.sampled_from([world.cohort.pk, world.other_cohort.pk, MISSING]))
    decks = [str(world.deck.pk), str(world.other_deck.pk), "0", str(MISSING)]
    student_ids = [world.users["student"].pk, world.users["other_student"].pk, MISSING]
    if endpoint == "create":
        path, fields = reverse("cohorts:create"), data.draw(COHORT_FORM)
    elif endpoint == "manage":
        path, fields = reverse("cohorts:manage", args=[cohort]), data.draw(COHORT_FORM)
    elif endpoint == "owner":
        owners = [str(user.pk) for user in world.users.values() if user] + ["", "0", "x", str(MISSING)]
        path, fields = reverse("cohorts:owner", args=[cohort]), data.draw(form(owner=st.sampled_from(owners)))
    elif endpoint == "assignment_add":
        due = st.one_of(st.dates().map(str), NASTY)
        path, fields = (
            reverse("cohorts:assignment_add", args=[cohort]),
            data.draw(form(deck=st.sampled_from(decks), due_date=due)),
        )
    elif endpoint == "assignment_remove":
        deck_id = data.draw(st.sampled_from([world.deck.pk, world.other_deck.pk, MISSING]))
        path, fields = reverse("cohorts:assignment_remove", args=[cohort, deck_id]), data.draw(form())
    elif endpoint == "code":
        path, fields = reverse("cohorts:code", args=[cohort]), data.draw(form())
    elif endpoint.startswith("assignment_extension"):
        deck_id = data.draw(st.sampled_from([world.deck.pk, world.other_deck.pk, MISSING]))
        args = [cohort, deck_id] + (
            [] if endpoint == "assignment_extensions" else [data.draw(st.sampled_from(student_ids))]
        )
        chosen = st.lists(st.one_of(st.sampled_from([str(pk) for pk in student_ids]), NASTY), max_size=4)
        due = st.one_of(st.dates().map(str), NASTY)
        path, fields = reverse(f"cohorts:{endpoint}", args=args), data.draw(form(students=chosen, due_date=due))
    elif endpoint.startswith("extension"):
        deck_id = data.draw(st.sampled_from([world.deck.pk, world.other_deck.pk, MISSING]))
        args = [cohort, data.draw(st.sampled_from(student_ids)), deck_id]
        due = st.one_of(st.dates().map(str), NASTY)
        path, fields = reverse(f"cohorts:{endpoint}", args=args), data.draw(form(due_date=due))
    else:
        student_id = data.draw(st.sampled_from(student_ids))
        path, fields = reverse("cohorts:student_remove", args=[cohort, student_id]), data.draw(form())
    teaches = persona == "superuser" or (persona, cohort) in {
        ("instructor", world.cohort.pk),
        ("other_instructor", world.other_cohort.pk),
    }
    with example(world, persona):
        method = data.draw(st.sampled_from(["POST", "POST", "GET"]))
        response = send(world.clients[persona], method, path, fields, htmx=data.draw(st.booleans()))
        if persona == "anonymous":
            expect_refused(response, persona)
        elif endpoint == "create" and persona not in AUTHORS:
            assert response.status_code == 403
        elif endpoint != "create" and not teaches and cohort != MISSING:
            assert response.status_code in (404, 405)


CODE_TEXT = st.text(st.characters(codec="utf-8", exclude_characters="/"), min_size=1, max_size=40)


@fuzz(max_examples=50)
@given(data=st.data())
def test_join(world, data):
    """Join codes typed into the form and carried by invite links, whatever they hold."""
    persona = data.draw(st.sampled_from(PERSONAS))
    code = world.cohort.join_code
    codes = [code, world.other_cohort.join_code, code.lower(), f" {code[:4]}-{code[4:]} ", "ZZZZZZZZ", ""]
    with example(world, persona):
        client = world.clients[persona]
        fields = data.draw(form(code=st.sampled_from(codes)))
        in_link = data.draw(st.one_of(st.sampled_from(codes[:4]), CODE_TEXT))
        path = data.draw(st.sampled_from([reverse("cohorts:join"), f"/join/{quote(in_link, safe='')}/"]))
        response = send(
            client, data.draw(st.sampled_from(["GET", "POST"])), path, fields, htmx=data.draw(st.booleans())
        )
        if persona == "anonymous" and response.request["REQUEST_METHOD"] == "POST":
            # 400: a junk field name can make the multipart body unparseable. 200: HTMX's HX-Redirect to sign in.
            assert response.status_code in (302, 400) or "login" in response.get("HX-Redirect", "")


# --- dashboards and other pages ------------------------------------------------------------------


@fuzz(max_examples=70)
@given(data=st.data())
def test_dashboards_and_pages_with_any_query(world, data):
    """The dashboards' ?tab=&sort=&flag=&page=, the drill-down, the exports, and every page's query string."""
    persona = data.draw(st.sampled_from(PERSONAS))
    cohort = data.draw(st.sampled_from([world.cohort, world.other_cohort]))
    card = world.deck.cards.first()
    student = data.draw(st.sampled_from([world.users["student"].pk, world.users["other_student"].pk, MISSING]))
    paths = [
        reverse("cohorts:dashboard", args=[cohort.pk]),
        reverse("cohorts:student", args=[cohort.pk, student]),
        reverse("cohorts:export_matrix", args=[cohort.pk]),
        reverse("cohorts:export_items", args=[cohort.pk]),
        reverse("cohorts:list"),
        reverse("content:home"),
        reverse("content:deck", args=[world.deck.slug]),
        reverse("content:card", args=[world.deck.slug, card.pk]),
        reverse("content:styles"),
        reverse("quiz:progress"),
        reverse("quiz:history"),
        reverse("quiz:session", args=[world.session.pk]),
    ]
    path = data.draw(st.sampled_from(paths))
    with example(world, persona):
        client = world.clients[persona]
        if data.draw(st.booleans()):
            response = send(client, "GET", path, data.draw(QUERY), htmx=data.draw(st.booleans()))
        else:
            response = send(client, "GET", path + "?" + data.draw(RAW_QUERY), htmx=data.draw(st.booleans()))
        teaches = persona == "superuser" or (persona, cohort.pk) in {
            ("instructor", world.cohort.pk),
            ("other_instructor", world.other_cohort.pk),
        }
        if path.startswith(f"/cohorts/{cohort.pk}/") and not teaches:
            expect_refused(response, persona)


# --- authoring ----------------------------------------------------------------------------------

MARKDOWN = st.sampled_from(
    ["$x^2$", "$$\\int_0^1 x\\,dx$$", "$\\frac{1}{$", "$\\href{javascript:alert(1)}{x}$", "*a* **b** `c`",
     "| a | b |\n|---|---|\n| 1 | 2 |", "```\ncode $x$\n```", "- " * 600 + "x", "> " * 300 + "q", "[a](b) ![c](d)",
     "$\\def\\x{\\x\\x}\\x$", "\\$5 and $6", "$" * 50]
)  # fmt: skip
PREVIEW = form(question=MARKDOWN, answer=MARKDOWN, explanation=MARKDOWN)
GRADER = form(response=RESPONSE)


def _card_form(card: Card, decks: list[Deck], data) -> dict:
    """The card's change form as the admin would post it, then fuzzed."""
    fields = {
        "deck": str(card.deck_id), "position": str(card.position), "kind": card.kind, "question": card.question,
        "answer": card.answer, "short_answer": card.short_answer, "explanation": card.explanation,
        "aliases-TOTAL_FORMS": "2", "aliases-INITIAL_FORMS": "0",
        "aliases-0-text": data.draw(st.one_of(st.sampled_from(["cron job", "Cron Job", "Job", "CRONJOB"]), VALUE)),
        "aliases-1-text": data.draw(st.one_of(st.sampled_from(["cron job", "Cron Job", ""]), VALUE)),
        "distractors-TOTAL_FORMS": "1", "distractors-INITIAL_FORMS": "0",
        "distractors-0-text": data.draw(st.one_of(MARKDOWN, VALUE)), "distractors-0-position": data.draw(INTS),
        "key_terms-TOTAL_FORMS": "1", "key_terms-INITIAL_FORMS": "0", "key_terms-0-term": data.draw(VALUE),
    }  # fmt: skip
    deck = st.sampled_from([str(deck.pk) for deck in decks])
    position = st.one_of(st.integers(1, 120).map(str), INTS)
    fields.update(
        data.draw(form(question=MARKDOWN, answer=MARKDOWN, position=position, deck=deck, _preview=st.just("1")))
    )
    return fields


@fuzz(max_examples=50)
@given(data=st.data())
def test_admin_preview_grader_and_card_form(world, data):
    persona = data.draw(st.sampled_from(PERSONAS))
    card = data.draw(st.sampled_from(list(world.deck.cards.order_by("position"))))
    endpoint = data.draw(st.sampled_from(["preview", "grader", "grader_missing", "change"]))
    with example(world, persona):
        client = world.clients[persona]
        htmx = data.draw(st.booleans())
        if endpoint == "preview":
            response = send(client, "POST", reverse("admin:content_card_preview"), data.draw(PREVIEW), htmx=htmx)
        elif endpoint.startswith("grader"):
            pk = card.pk if endpoint == "grader" else MISSING
            response = send(
                client, "POST", reverse("admin:content_card_try_grader", args=[pk]), data.draw(GRADER), htmx=htmx
            )
        else:
            response = send(
                client,
                "POST",
                reverse("admin:content_card_change", args=[card.pk]),
                _card_form(card, [world.deck, world.other_deck], data),
            )
        if persona not in AUTHORS:
            expect_refused(response, persona, admin=True)


def _containers(children: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(children, max_size=3) | st.dictionaries(TEXT, children, max_size=3)


JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT, _containers, max_leaves=8
)
TEXTISH = st.one_of(TEXT, NASTY, MARKDOWN)
EXPORT_CARD = st.fixed_dictionaries(
    {
        "uid": st.one_of(st.uuids().map(str), st.just("00000000-0000-4000-8000-000000000001"), JSON_VALUE),
        "position": st.one_of(
            st.integers(-2, 6), st.integers(2**31 - 2, 2**64), st.sampled_from(["3", "²", "１"]), JSON_VALUE
        ),
        "kind": st.one_of(st.sampled_from(["flashcard", "syllabus"]), JSON_VALUE),
        "question": TEXTISH,
        "answer": TEXTISH,
    },
    optional={
        "short_answer": TEXTISH,
        "explanation": TEXTISH,
        "archived": st.one_of(st.booleans(), JSON_VALUE),
        "aliases": st.one_of(
            st.lists(st.one_of(st.sampled_from(["Job", "job", "JOB"]), TEXTISH), max_size=3), JSON_VALUE
        ),
        "distractors": st.one_of(st.lists(TEXTISH, max_size=3), JSON_VALUE),
        "key_terms": st.one_of(st.lists(TEXTISH, max_size=3), JSON_VALUE),
    },
)
EXPORT = st.fixed_dictionaries(
    {
        "format": st.one_of(st.just("mlcourse-deck"), JSON_VALUE),
        "version": st.one_of(st.just(1), JSON_VALUE),
        "deck": st.one_of(
            st.fixed_dictionaries(
                {
                    "slug": st.one_of(st.sampled_from(["containers", "training", "new-deck", "Bad Slug"]), TEXT),
                    "title": TEXTISH,
                },
                optional={"description": TEXTISH, "source": TEXTISH},
            ),
            JSON_VALUE,
        ),
        "cards": st.one_of(st.lists(EXPORT_CARD, max_size=4), JSON_VALUE),
    }
)


def _csv_text(rows: list[list[str]], header: bool) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    if header:
        writer.writerow(CSV_COLUMNS)
    writer.writerows(rows)
    return out.getvalue()


CSV_ROWS = st.lists(
    st.lists(st.one_of(st.sampled_from(["deck", "card", "true", "[]", '["a"]', "1"]), TEXTISH), max_size=16), max_size=4
)
UPLOAD = st.one_of(
    EXPORT.map(lambda d: ("deck.json", json.dumps(d).encode())),
    st.tuples(CSV_ROWS, st.booleans()).map(lambda rows: ("deck.csv", _csv_text(*rows).encode())),
    st.tuples(st.sampled_from(["x.json", "x.csv", "x", ""]), st.binary(max_size=300)),
    st.tuples(st.sampled_from(["x.json", "x.txt"]), st.integers(1, 50_000).map(lambda n: ("[" * n).encode())),
    st.tuples(st.sampled_from(["x.csv"]), st.integers(1, 3).map(lambda n: b"record," + b"x" * (140_000 * n))),
)


@fuzz(max_examples=50)
@given(data=st.data())
def test_deck_import(world, data):
    """Uploaded junk, near-valid exports, and the confirm step posted directly."""
    persona = data.draw(st.sampled_from(PERSONAS))
    with example(world, persona):
        client = world.clients[persona]
        url = reverse("admin:content_deck_import")
        if data.draw(st.booleans()):
            name, content = data.draw(UPLOAD)
            upload = SimpleUploadedFile(name or "upload", content)
            response = send(client, "POST", url, {"file": upload, **data.draw(form())})
            confirm = response.context.get("confirm") if response.context else None
            if confirm is not None and data.draw(st.booleans()):
                send(client, "POST", url, {"confirm": "1", "key": confirm.initial["key"]})
        else:
            # The confirmation posted directly: the key of a file never checked, junk, or the old form's fields.
            name, content = data.draw(UPLOAD)
            key = import_key(name=name, text=content.decode("utf-8", "replace"))
            fields = data.draw(
                form(
                    key=st.sampled_from([key, "0" * 64, key.upper(), key[:10]]),
                    name=st.just(name),
                    content=st.just(content.decode("utf-8", "replace")),
                    confirm=st.just("1"),
                )
            )
            response = send(client, "POST", url, fields)
            if persona in AUTHORS:
                # Nothing was checked in this example, so nothing can be confirmed.
                assert response.status_code == 422, response.status_code
        if persona not in AUTHORS:
            expect_refused(response, persona, admin=True)


# --- CSRF ---------------------------------------------------------------------------------------


def test_posts_without_a_csrf_token_are_refused_and_change_nothing(world):
    student = Client(enforce_csrf_checks=True)
    student.force_login(world.users["student"])
    instructor = Client(enforce_csrf_checks=True)
    instructor.force_login(world.users["instructor"])
    anonymous = Client(enforce_csrf_checks=True)
    session = world.session
    item = session.items.filter(answer__isnull=True).order_by("position").first()
    answered = session.items.filter(answer__isnull=False, mode="recall").first() or session.items.first()
    answer = {"token": question_token(item), "response": "CronJob", "option": "0"}
    cohort = world.cohort.pk
    attempts = [
        (student, reverse("quiz:item", args=[session.pk, item.position]), answer),
        (student, reverse("quiz:override", args=[session.pk, answered.position]), {"verdict": "correct"}),
        (student, reverse("quiz:finish", args=[session.pk]), {}),
        (student, reverse("quiz:start", args=[world.deck.slug]), {"size": "3", "mode": "mixed", "order": "new"}),
        (student, reverse("quiz:review"), {"size": "3", "mode": "mixed", "order": "due"}),
        (student, reverse("cohorts:join"), {"code": world.other_cohort.join_code}),
        (
            student,
            reverse("cohorts:invite", args=[world.other_cohort.join_code]),
            {"code": world.other_cohort.join_code},
        ),
        (instructor, reverse("cohorts:create"), {"name": "Summer"}),
        (instructor, reverse("cohorts:manage", args=[cohort]), {"name": "Renamed", "instructors": "dave"}),
        (instructor, reverse("cohorts:assignment_add", args=[cohort]), {"deck": world.other_deck.pk}),
        (instructor, reverse("cohorts:assignment_remove", args=[cohort, world.deck.pk]), {}),
        (instructor, reverse("cohorts:code", args=[cohort]), {}),
        (instructor, reverse("cohorts:extension", args=[cohort, world.users["student"].pk, world.deck.pk]), {}),
        (instructor, reverse("cohorts:extension_remove", args=[cohort, world.users["student"].pk, world.deck.pk]), {}),
        (instructor, reverse("cohorts:student_remove", args=[cohort, world.users["student"].pk]), {}),
        (instructor, reverse("admin:content_card_preview"), {"question": "$x$"}),
        (instructor, reverse("admin:content_deck_import"), {"confirm": "1", "key": "0" * 64}),
        (anonymous, reverse("login"), {"username": "alice", "password": PASSWORD}),
        (
            anonymous,
            reverse("signup"),
            {"username": "mallory", "email": "m@example.com", "password1": PASSWORD, "password2": PASSWORD},
        ),
        (anonymous, reverse("password_reset"), {"email": "alice@example.com"}),
    ]
    before = snapshot()
    for client, url, fields in attempts:
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            assert client.post(url, fields, **headers).status_code == 403, url
    assert snapshot() == before
    assert "_auth_user_id" not in anonymous.session
    # The same request with the token goes through: the 403s above were the CSRF check.
    student.get(reverse("cohorts:join"))
    token = student.cookies["csrftoken"].value
    joined = student.post(reverse("cohorts:join"), {"code": world.other_cohort.join_code, "csrfmiddlewaretoken": token})
    assert joined.status_code == 303
    assert Membership.objects.filter(cohort=world.other_cohort, student=world.users["student"]).exists()


# --- regressions: the bugs this file found -------------------------------------------------------


def _instructor_client(world):
    return world.clients["instructor"]


def test_regression_recall_answer_ignores_a_stray_option(world):
    """A recall form posted with option=70000 was a 500 (smallint overflow); any option was stored with the answer."""
    session = quiz.session_start(user=world.users["student"], deck=world.deck, size=2, mode="recall", order="new")
    item = session.items.get(position=1)
    url = reverse("quiz:item", args=[session.pk, 1])
    response = world.clients["student"].post(
        url, {"token": question_token(item), "response": "CronJob", "option": "70000"}
    )
    assert response.status_code == 303
    assert Answer.objects.get(item=item).chosen_option is None
    check_consistency()


@pytest.mark.parametrize("code", ["%00", "AB%00CD", "%00%00"])
def test_regression_invite_link_with_a_nul_byte(world, code):
    """PostgreSQL refuses NUL in a query: /join/%00/ was a 500."""
    assert world.clients["student"].get(f"/join/{code}/").status_code == 404
    assert Client().get(f"/join/{code}/").status_code == 404


@pytest.mark.parametrize("page", ["99999999999999999999", str(2**63), "1" * 400])
def test_regression_huge_page_numbers(world, page):
    """?page= beyond a bigint made the drill-down's SQL OFFSET overflow (a 500)."""
    client = _instructor_client(world)
    student = world.users["student"].pk
    assert client.get(reverse("cohorts:student", args=[world.cohort.pk, student]), {"page": page}).status_code == 200
    for tab in ("matrix", "items"):
        assert (
            client.get(reverse("cohorts:dashboard", args=[world.cohort.pk]), {"tab": tab, "page": page}).status_code
            == 200
        )


@pytest.mark.parametrize("url", ["login", "admin:login"])
def test_regression_overlong_user_name_at_sign_in(world, url):
    """AuthenticationForm does not enforce max_length, so django-axes tried to store 300 characters in 255 (a 500)."""
    response = Client().post(reverse(url), {"username": "a" * 300, "password": "x"})
    assert response.status_code == (422 if url == "login" else 200)  # the admin's own sign-in answers 200
    assert "correct username" in response.content.decode()  # ours, and the admin's own wording


def _upload(client, data):
    content = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post(reverse("admin:content_deck_import"), {"file": SimpleUploadedFile("deck.json", content)})


IMPORT_CARD = {
    "uid": "00000000-0000-4000-8000-00000000abcd",
    "position": 1,
    "kind": "flashcard",
    "question": "Q?",
    "answer": "A",
}
BROKEN_IMPORTS = {
    "a NUL byte in a text": {"question": "Q\x00?"},
    "a NUL byte in a list": {"key_terms": ["a\x00b"]},
    "aliases differing only in case": {"aliases": ["Job", "job"]},
    "a position beyond an integer": {"position": 2**40},
    "a position that is a digit but not a number": {"position": "²"},
    "Markdown nested too deeply to render": {"answer": "- " * 600 + "x"},
}


@pytest.mark.parametrize("problem", sorted(BROKEN_IMPORTS))
def test_regression_deck_import_refuses_what_the_database_cannot_store(world, problem):
    export = {
        "format": "mlcourse-deck", "version": 1, "deck": {"slug": "imported", "title": "Imported"},
        "cards": [{**IMPORT_CARD, **BROKEN_IMPORTS[problem]}],
    }  # fmt: skip
    client = _instructor_client(world)
    response = _upload(client, export)
    url = reverse("admin:content_deck_import")
    if problem.startswith("Markdown"):
        # Too deep for Python-Markdown: shown as typed rather than failing, and it imports so.
        assert response.status_code == 200
        assert client.post(url, {"confirm": "1", "key": response.context["confirm"].initial["key"]}).status_code == 302
        assert Card.objects.get(deck__slug="imported").answer_html == f"<p>{'- ' * 600}x</p>"
    else:
        assert response.status_code == 422, problem
        assert response.context.get("confirm") is None  # nothing offered for confirmation
        # Nor is the file kept: confirming it anyway imports nothing.
        key = import_key(name="deck.json", text=json.dumps(export))
        refused = client.post(url, {"confirm": "1", "key": key})
        assert refused.status_code == 422 and "no longer waiting" in refused.content.decode()
        assert not Deck.objects.filter(slug="imported").exists()


def test_regression_deck_import_of_deeply_nested_json(world):
    assert _upload(_instructor_client(world), b"[" * 100_000).status_code == 422


def test_regression_preview_of_deeply_nested_markdown(world):
    """Python-Markdown recursed once per nested list level and ran out of stack (a 500)."""
    response = _instructor_client(world).post(reverse("admin:content_card_preview"), {"question": "- " * 600 + "x"})
    assert response.status_code == 200


def test_regression_admin_aliases_differing_only_in_case(world):
    """Two accepted answers "Job" and "job" passed the form and broke the Lower(text) constraint (a 500)."""
    card = world.deck.cards.get(position=1)  # has the alias "cron job"
    data = {
        "deck": card.deck_id, "position": card.position, "kind": card.kind, "question": card.question,
        "answer": card.answer, "short_answer": card.short_answer, "explanation": card.explanation,
        "aliases-TOTAL_FORMS": "2", "aliases-INITIAL_FORMS": "0", "aliases-0-text": "Job", "aliases-1-text": "job",
        "distractors-TOTAL_FORMS": "0", "distractors-INITIAL_FORMS": "0",
        "key_terms-TOTAL_FORMS": "0", "key_terms-INITIAL_FORMS": "0",
    }  # fmt: skip
    url = reverse("admin:content_card_change", args=[card.pk])
    client = _instructor_client(world)
    assert client.post(url, data).status_code == 200  # the form again, with the error
    # Clashing with an alias already stored (and not in the form) is refused the same way.
    assert client.post(url, {**data, "aliases-0-text": "Cron Job", "aliases-1-text": ""}).status_code == 200
    assert sorted(card.aliases.values_list("text", flat=True)) == ["cron job"]
    # "Job" is also one of the card's distractors: an accepted answer cannot be one.
    refused = client.post(url, {**data, "aliases-1-text": "k8s cronjob"})
    assert refused.status_code == 200 and "“Job” is a right answer of this card" in refused.content.decode()
    # Distinct aliases still save.
    saved = client.post(url, {**data, "aliases-0-text": "scheduled job", "aliases-1-text": "k8s cronjob"})
    assert saved.status_code == 302
    assert sorted(card.aliases.values_list("text", flat=True)) == ["cron job", "k8s cronjob", "scheduled job"]


def test_regression_moving_a_card_moves_its_running_totals(world):
    """Moving an answered card to another deck left the per-deck totals and memory states in the old deck."""
    card = world.deck.cards.get(position=1)
    assert Answer.objects.filter(card=card).exists()
    # Reworded: the other deck asks each of this deck's questions already, and a deck asks a question once.
    data = {
        "deck": world.other_deck.pk, "position": 99, "kind": card.kind, "question": f"{card.question} (moved)",
        "answer": card.answer, "short_answer": card.short_answer, "explanation": card.explanation,
        **{f"{prefix}-{key}": "0" for prefix in ("aliases", "distractors", "key_terms")
           for key in ("TOTAL_FORMS", "INITIAL_FORMS")},
    }  # fmt: skip
    response = _instructor_client(world).post(reverse("admin:content_card_change", args=[card.pk]), data)
    assert response.status_code == 302
    assert not CardState.objects.filter(card=card).exclude(deck=world.other_deck).exists()
    check_consistency()


@pytest.mark.parametrize("target", ["foo", "content:home", "0", "?next=x"])
def test_regression_signup_next_that_is_not_a_path(world, target):
    """redirect() took a bare word for a view name: a signed-in visit to /accounts/signup/?next=foo was a 500."""
    response = world.clients["student"].get(reverse("signup"), {"next": target})
    assert response.status_code == 200
    assert '<a class="button" href="/">Continue as' in response.content.decode()


def test_regression_csv_import_with_a_huge_header_cell(world):
    content = b"record," + b"x" * 200_000
    upload = SimpleUploadedFile("deck.csv", content)
    response = _instructor_client(world).post(reverse("admin:content_deck_import"), {"file": upload})
    assert response.status_code == 422
