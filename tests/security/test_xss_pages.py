"""Stored and reflected XSS and template injection on the site's own pages: content, quiz (full pages and HTMX
partials), progress, cohort, account and instructor dashboard pages show the stored payloads only as text; every
form that echoes its input shows it as text; and the world really holds the payloads. The world is built once per
module inside a transaction that is rolled back at the end.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from apps.cohorts.models import Cohort
from apps.content.models import Card
from apps.quiz import services as quiz
from apps.quiz.models import QuizSession
from tests.conftest import instructors_group
from tests.security.xss import (
    HTMX,
    PAYLOADS,
    TEMPLATE_PAYLOADS,
    Report,
    _build_world,
    _client,
    _user,
    scan,
)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield _build_world()
        transaction.set_rollback(True)


pytestmark = pytest.mark.django_db


# --- pages -----------------------------------------------------------------------------------


def test_content_pages(world):
    report = Report()
    for client, who in ((_client(), "anonymous"), (_client(world.student), "student")):
        report.check(client.get(reverse("content:home")), f"home as {who}", expect=(world.decks[0].title,))
        for deck, card in zip(world.decks, world.cards, strict=True):
            report.check(client.get(deck.get_absolute_url()), f"deck {deck.slug} as {who}", expect=(deck.title,))
            report.check(client.get(deck.get_absolute_url(), {"answers": "shown"}), f"deck {deck.slug} answers")
            report.check(client.get(card.get_absolute_url()), f"card {deck.slug} as {who}")
    report.assert_clean(minimum_pages=6 * len(PAYLOADS))


def test_template_syntax_is_shown_literally(world):
    client = _client()
    for payload in TEMPLATE_PAYLOADS:
        card = world.cards[PAYLOADS.index(payload)]
        text = scan(client.get(card.get_absolute_url()).content.decode()).visible_text()
        # Question, answer and explanation each show it as typed (evaluated, it would read "49" or a context dump).
        assert text.count(payload) >= 3, text


def test_quiz_pages_full_and_partial(world):
    """Question, feedback (after an answer and after an override) and summary, as pages and as HTMX partials."""
    report = Report()
    client = _client(world.student)
    for i, deck in enumerate(world.decks):
        report.check(client.get(reverse("quiz:start", args=[deck.slug])), f"start {deck.slug}", expect=(deck.title,))
        for mode in ("choice", "recall"):
            session = quiz.session_start(user=world.student, deck=deck, size=1, mode=mode, order="random")
            url = reverse("quiz:session", args=[session.pk])
            item_url = reverse("quiz:item", args=[session.pk, 1])
            where = f"{deck.slug} {mode}"
            page = client.get(url)
            report.check(page, f"question page {where}")
            report.check(client.get(url, **HTMX), f"question partial {where}")
            token = re.search(r'name="token" value="([^"]+)"', page.content.decode())[1]
            item = session.items.get()
            if item.mode == "choice":
                data = {"token": token, "option": str((item.correct_option + 1) % len(item.options))}
                expect: tuple[str, ...] = ()
            else:
                data = {"token": token, "response": PAYLOADS[-i - 1]}
                expect = (PAYLOADS[-i - 1].strip(),)
            report.check(client.post(item_url, data, **HTMX), f"feedback partial {where}", expect=expect)
            report.check(client.get(item_url), f"feedback page {where}", expect=expect)
            if item.mode == "recall":
                override = client.post(reverse("quiz:override", args=[session.pk, 1]), {"verdict": "correct"}, **HTMX)
                report.check(override, f"override partial {where}", expect=expect)
            report.check(client.get(url), f"summary page {where}")
            report.check(client.get(url, **HTMX), f"summary partial {where}")
    report.check(client.get(reverse("quiz:review")), "review start page")
    report.assert_clean(minimum_pages=14 * len(PAYLOADS))


def test_student_progress_and_cohort_pages(world):
    report = Report()
    client = _client(world.student)
    names = tuple(cohort.name for cohort in world.cohorts[:5])
    report.check(client.get(reverse("quiz:progress")), "my progress", expect=(world.cohort.name, *names))
    report.check(client.get(reverse("cohorts:list")), "cohort list (student)", expect=names)
    for cohort in world.cohorts:
        invite = reverse("cohorts:invite", args=[cohort.join_code])
        report.check(client.get(invite), f"invite page {cohort.pk}", expect=(cohort.name,))
        report.check(_client().get(invite), f"invite page {cohort.pk} (anonymous)", expect=(cohort.name,))
    report.assert_clean(minimum_pages=2 * len(PAYLOADS))


def test_account_pages(world):
    """One's own name (a payload here) in the details form, and the cohorts one owns (payload names) on the page
    that says what deleting the account does to them."""
    report = Report()
    student, instructor = _client(world.student), _client(world.instructor)
    report.check(student.get(reverse("account")), "account page (student)", expect=(world.student.username,))
    report.check(instructor.get(reverse("account")), "account page (instructor)")
    names = tuple(cohort.name for cohort in world.cohorts[:5])
    report.check(instructor.get(reverse("account_delete")), "delete account page (instructor)", expect=names)
    report.assert_clean(minimum_pages=3)


def test_instructor_dashboards(world):
    report = Report()
    client = _client(world.instructor)
    cohort = world.cohort
    url = reverse("cohorts:dashboard", args=[cohort.pk])
    report.check(client.get(reverse("cohorts:list")), "cohort list (instructor)", expect=(cohort.name,))
    for tab in ("matrix", "items", "charts"):
        for sort in ("", "-name", "accuracy", f"deck-{world.decks[3].pk}-accuracy", "-attempts", "discrimination"):
            params = {"tab": tab, "sort": sort}
            report.check(client.get(url, params), f"dashboard {params}", expect=(cohort.name,))
            report.check(client.get(url, params, **HTMX), f"dashboard partial {params}")
    report.check(client.get(url, {"flag": "any"}), "dashboard flagged")
    for each in world.cohorts:
        report.check(
            client.get(reverse("cohorts:dashboard", args=[each.pk])), f"dashboard {each.pk}", expect=(each.name,)
        )
        report.check(client.get(reverse("cohorts:manage", args=[each.pk])), f"manage {each.pk}")
    report.check(
        client.get(reverse("cohorts:manage", args=[cohort.pk])),
        "manage (members)",
        expect=tuple(user.username for user in world.others),
    )
    for user in (world.student, *world.others):
        detail = reverse("cohorts:student", args=[cohort.pk, user.pk])
        for page in (1, 2, 3, 4):
            report.check(
                client.get(detail, {"page": page}), f"student {user.username} page {page}", expect=(user.username,)
            )
    report.assert_clean(minimum_pages=2 * len(PAYLOADS) + 40)


def test_forms_echo_input_as_text(world, settings):
    """Reflected input: every form that re-displays what was typed, and the messages after a success."""
    # Every payload is a wrong join code, from one address and one student: each must reach the form, not the limit.
    settings.JOIN_RATE = settings.JOIN_ACCOUNT_RATE = "1000/h"
    report = Report()
    for i, payload in enumerate(PAYLOADS):
        anonymous = Client()
        ip = f"198.51.100.{i % 250}"
        signup = anonymous.post(
            reverse("signup"),
            {"username": payload, "email": payload, "password1": "x", "password2": "y", "next": payload},
            REMOTE_ADDR=ip,
        )
        report.check(signup, f"signup {i}", statuses=(422,))
        login = anonymous.post(
            reverse("login"), {"username": payload[:150], "password": "x", "next": payload}, REMOTE_ADDR=ip
        )
        report.check(login, f"login {i}", statuses=(422, 429))
        report.check(anonymous.get(reverse("login"), {"next": payload}), f"login next {i}")
        reset = anonymous.post(reverse("password_reset"), {"email": payload}, REMOTE_ADDR=ip)
        report.check(reset, f"password reset {i}", statuses=(422, 429))
        code = quote(payload.replace("/", ""), safe="")
        report.check(anonymous.get(f"/join/{code}/"), f"invite link {i}", statuses=(404, 200))
    student = _client(world.student)
    instructor = _client(world.instructor)
    for i, payload in enumerate(PAYLOADS):
        report.check(student.post(reverse("cohorts:join"), {"code": payload}), f"join code {i}", statuses=(422,))
        report.check(
            student.get(f"/join/{quote(payload.replace('/', ''), safe='')}/"), f"invite link {i}", statuses=(404, 200)
        )
        bad = instructor.post(reverse("cohorts:create"), {"name": payload[:120], "instructors": payload})
        report.check(bad, f"create with unknown instructor {i}", statuses=(422,))
        # The world's instructor has a cohort of nearly every payload's name already: that refusal too.
        taken = instructor.post(reverse("cohorts:create"), {"name": world.cohorts[i].name, "instructors": ""})
        report.check(taken, f"create with a name taken {i}", statuses=(422,))
        teacher = _user(f"creator{i}", is_staff=True)  # one of their own, so the name is free
        teacher.groups.add(instructors_group())
        creator = _client(teacher)
        created = creator.post(reverse("cohorts:create"), {"name": payload[:120], "instructors": ""})
        made = creator.get(created["Location"])
        report.check(made, f"created cohort {i}", expect=(payload[:120].strip(),))
        cohort = Cohort.objects.get(pk=re.search(r"/cohorts/(\d+)/", created["Location"])[1])
        manage = creator.post(
            reverse("cohorts:manage", args=[cohort.pk]), {"name": payload[:120], "instructors": payload}
        )
        report.check(manage, f"manage with unknown instructor {i}", statuses=(422,))
        joined = student.post(reverse("cohorts:join"), {"code": cohort.join_code}, follow=True)
        # The name is text of its own (isolated in <bdi>), so the scanner reads the full stop as a separate word.
        report.check(joined, f"joined message {i}", expect=(f"You joined {payload[:120].strip()} .",))
    report.assert_clean(minimum_pages=10 * len(PAYLOADS))


def test_the_quiz_world_is_complete(world):
    """Guards the other tests from passing vacuously: the payloads really are stored and answered."""
    assert QuizSession.objects.filter(user=world.student).count() == 2 * len(PAYLOADS)
    assert Card.objects.filter(question__in=PAYLOADS).count() == len(PAYLOADS)
    kinds = set(
        world.student.answers.values_list("mode", flat=True)  # both question types were answered
    )
    assert kinds == {"choice", "recall"}
