"""Property-based fuzzing, as every persona, of the account forms (sign-in, sign-up, password reset and change), of
starting quizzes and reviews and of answering, overriding, reporting and finishing them; and posts without a CSRF
token, refused and changing nothing. The machinery is in tests/security/fuzzing.py.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from apps.cohorts.models import Membership
from apps.quiz import services as quiz
from apps.quiz.forms import question_token
from apps.quiz.models import SessionItem
from tests.conftest import PASSWORD
from tests.security.fuzzing import (
    IPS,
    MISSING,
    PERSONAS,
    QUERY,
    RAW_QUERY,
    RESPONSE,
    VALUE,
    _client,
    example,
    expect_refused,
    form,
    fuzz,
    same_site,
    send,
    snapshot,
)

pytestmark = pytest.mark.django_db


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
