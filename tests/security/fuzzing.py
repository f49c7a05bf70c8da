"""The machinery of the property-based fuzzing in test_fuzz*.py: Hypothesis posts arbitrary field names and values (the
real ones and junk: unicode, NUL bytes, huge numbers, very long strings, repeated keys) and sends arbitrary query
strings; whatever arrives, no answer may be a 5xx, the database must stay consistent, and nobody may create or
change what they have no right to. Here are the personas, the value strategies, the world's decks, the invariants
checked after every example, and `example`, which runs each example in a savepoint that is rolled back, so each
starts from the same world (sign-in lockouts and reset rate limits live in the database and go with it) and a
failing example replays exactly on the next run.
"""

from __future__ import annotations

import math
import os
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import urlencode, urlparse

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, F, Q, Sum
from django.test import Client
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from apps.cohorts.models import Assignment, Cohort, CohortCardStat, CohortResponseStat, Membership
from apps.content.models import Alias, Card, Deck, Distractor, KeyTerm
from apps.content.services import card_save
from apps.quiz import services as quiz
from apps.quiz.models import Answer, CardReport, CardState, QuizSession, StudentCardStat, StudentDeckStat
from apps.quiz.scheduling import rating_for
from tests.factories import make_deck

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


# --- values ----------------------------------------------------------------------------------------


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


# --- the world -------------------------------------------------------------------------------------


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


def _client(world: World, persona: str) -> Client:
    """A client of its own, for requests that may sign someone in or out."""
    client = Client()
    if world.users[persona] is not None:
        client.force_login(world.users[persona])
    return client


# --- invariants ------------------------------------------------------------------------------------


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


RESPONSE = st.sampled_from(["CronJob", "cron job", "Cronjob", "Job", "max(0, x)", "$\\max(0,x)$", "onnx", "all-reduce"])
