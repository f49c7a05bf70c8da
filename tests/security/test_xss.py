"""Stored and reflected XSS, template injection and CSV formula injection: the site's own pages (content, quiz as
full pages and HTMX partials, progress, cohort, account and instructor dashboards) and the instructor's tools (admin
change lists, forms, previews, the grader, users with payload names, the deck import's dry-run report) show the
stored payloads only as text; every form that echoes its input shows it as text; the CSV exports neutralise
formulas; and the world really holds the payloads. The world is built once for the module, inside a transaction
that is rolled back at the end.
"""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import quote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse

from apps.cohorts.models import Cohort
from apps.content.answers import normal_text
from apps.content.models import Card, CardVersion, Deck
from apps.content.services import card_mark
from apps.quiz import services as quiz
from apps.quiz.models import CardReport, QuizSession
from tests.conftest import instructors_group
from tests.security.xss import (
    FORMULA_STARTS,
    HTMX,
    PAYLOADS,
    TEMPLATE_PAYLOADS,
    USERNAMES,
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


def _csv_problems(response, where: str) -> list[str]:
    assert response.status_code == 200, where
    assert response["Content-Type"].startswith("text/csv"), where
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    problems = []
    for number, row in enumerate(rows, 1):
        for cell in row:
            if cell.startswith(FORMULA_STARTS) and not re.fullmatch(r"-?\d+(\.\d+)?", cell):
                problems.append(f"{where} row {number}: {cell[:60]!r}")
    return problems


def test_csv_exports_neutralise_formulas(world):
    client = _client(world.instructor)
    matrix = client.get(reverse("cohorts:export_matrix", args=[world.cohort.pk]))
    items = client.get(reverse("cohorts:export_items", args=[world.cohort.pk]))
    problems = _csv_problems(matrix, "matrix.csv") + _csv_problems(items, "items.csv")
    assert not problems, "\n".join(problems)
    # The neutralised cells are still there, prefixed, so nothing was silently dropped.
    matrix_text, items_text = matrix.content.decode(), items.content.decode()
    for name in USERNAMES:
        assert ("'" + name if name.startswith(FORMULA_STARTS) else name) in matrix_text
    assert "'=HYPERLINK(" in items_text and "'@SUM(1+1)" in items_text and "'+cmd|" in items_text
    assert "<script>alert(1)</script>" in items_text  # CSV is not HTML: text stays as typed


def test_admin_pages(world):
    report = Report()
    client = _client(world.instructor)
    report.check(client.get(reverse("admin:index")), "admin index")
    cards_url = reverse("admin:content_card_changelist")
    report.check(client.get(cards_url), "card change list")
    for payload in PAYLOADS[::5]:
        report.check(client.get(cards_url, {"q": payload}), f"card search {payload[:30]!r}")
    report.check(client.get(reverse("admin:content_deck_changelist")), "deck change list")
    report.check(client.get(reverse("admin:quiz_cardreport_changelist")), "card reports")
    for card_report in CardReport.objects.all():
        report.check(
            client.get(reverse("admin:quiz_cardreport_change", args=[card_report.pk])), f"report {card_report.pk}"
        )
    for deck, card in zip(world.decks, world.cards, strict=True):
        change = reverse("admin:content_card_change", args=[card.pk])
        report.check(client.get(change), f"card form {deck.slug}")
        report.check(client.get(reverse("admin:content_deck_change", args=[deck.pk])), f"deck form {deck.slug}")
        version = CardVersion.objects.filter(card=card).order_by("-number").first()
        report.check(client.get(reverse("admin:content_cardversion_change", args=[version.pk])), f"version {deck.slug}")
    report.assert_clean(minimum_pages=3 * len(PAYLOADS))


def test_admin_preview_and_grader(world):
    report = Report()
    client = _client(world.instructor)
    preview_url = reverse("admin:content_card_preview")
    for payload, card in zip(PAYLOADS, world.cards, strict=True):
        fields = {"question": payload, "answer": payload, "explanation": payload}
        report.check(client.post(preview_url, fields, **HTMX), f"preview {payload[:30]!r}")
        grader = reverse("admin:content_card_try_grader", args=[card.pk])
        report.check(client.post(grader, {"response": payload}, **HTMX), f"grader partial {payload[:30]!r}")
        report.check(client.post(grader, {"response": payload}), f"grader page {payload[:30]!r}")
    # The change form's Preview button posts the whole form back; nothing is saved.
    card = world.cards[0]
    for payload in PAYLOADS:
        data = {
            "loaded_version": card_mark(Card.objects.get(pk=card.pk)),
            "deck": card.deck_id, "position": card.position, "kind": card.kind, "question": payload,
            "answer": payload, "short_answer": payload[:300], "explanation": payload, "_preview": "1",
            **{f"{prefix}-{key}": value for prefix in ("aliases", "distractors", "key_terms")
               for key, value in (("TOTAL_FORMS", "0"), ("INITIAL_FORMS", "0"))},
        }  # fmt: skip
        response = client.post(reverse("admin:content_card_change", args=[card.pk]), data)
        report.check(response, f"change form preview {payload[:30]!r}")
    report.assert_clean(minimum_pages=4 * len(PAYLOADS))


def test_admin_users_with_payload_names(world):
    report = Report()
    client = _client(world.superuser)
    report.check(client.get(reverse("admin:auth_user_changelist")), "user change list")
    for user in (world.instructor, world.student, *world.others):
        report.check(client.get(reverse("admin:auth_user_change", args=[user.pk])), f"user {user.username}")
    report.check(client.get(reverse("admin:content_card_changelist")), "card list (superuser)")
    report.assert_clean(minimum_pages=len(USERNAMES) + 2)


def _own_word(term: str) -> str:
    """The payload as a key term each of whose |-separated synonyms has a word the question lacks."""
    return "|".join(f"{synonym} zylophant" for synonym in term.split("|"))


def _asked_once(payloads: list[str]) -> list[str]:
    """The payloads as a deck's questions, each asked once as a deck must (letter case aside): a payload that differs
    from an earlier one only in case ("JaVaScRiPt:") is asked with " again" after it."""
    seen: set[str] = set()
    questions = []
    for payload in payloads:
        questions.append(payload if normal_text(payload) not in seen else f"{payload} again")
        seen.add(normal_text(questions[-1]))
    return questions


def _deck_file(payloads: list[str]) -> bytes:
    cards = [
        {
            "uid": f"00000000-0000-4000-8000-{n:012d}", "position": n + 1, "kind": "flashcard", "question": question,
            "answer": payload, "short_answer": payload[:300], "explanation": payload, "archived": False,
            # a distractor that is the answer is refused, and a key term that only repeats the question: the
            # payload goes in with a word of its own
            "aliases": [payload[:300]], "distractors": [f"not {payload}"], "key_terms": [_own_word(payload[:180])],
        }
        for n, (payload, question) in enumerate(zip(payloads, _asked_once(payloads), strict=True))
    ]  # fmt: skip
    data = {
        "format": "mlcourse-deck", "version": 1, "cards": cards,
        # a title of its own (the world's decks hold the payloads as theirs), the payload in it all the same
        "deck": {"slug": "imported-xss", "title": f"Imported {payloads[0]}", "description": payloads[1],
                 "source": payloads[2]},
    }  # fmt: skip
    return json.dumps(data).encode()


# Links, styles and the like inside maths are refused (katex_worker.js): a file with them lists its problems.
REFUSED_IN_MATHS = ("\\href", "\\url", "\\html", "\\includegraphics")


def test_deck_import_dry_run_report(world):
    report = Report()
    client = _client(world.instructor)
    accepted = [payload for payload in PAYLOADS if not any(command in payload for command in REFUSED_IN_MATHS)]
    for name in ('"><img src=x onerror=alert(1)>.json', "<script>alert(1)</script>.json"):
        upload = SimpleUploadedFile(name, _deck_file(accepted), content_type="application/json")
        response = client.post(reverse("admin:content_deck_import"), {"file": upload})
        report.check(response, f"import dry run {name!r}")
    refused = SimpleUploadedFile("all.json", _deck_file(PAYLOADS), content_type="application/json")
    response = client.post(reverse("admin:content_deck_import"), {"file": refused})
    report.check(response, "import refusing maths commands", statuses=(422,))
    broken = SimpleUploadedFile("x.json", b'{"format": "<script>alert(1)</script>"}')
    report.check(client.post(reverse("admin:content_deck_import"), {"file": broken}), "import error", statuses=(422,))
    report.assert_clean(minimum_pages=3)
    assert not Deck.objects.filter(slug="imported-xss").exists()
