"""The account page: one's details, a download of one's data, and deleting the account."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.accounts.services import account_names_lock
from apps.cohorts import deadlines
from apps.cohorts import services as cohorts
from apps.cohorts.models import Cohort, CohortCardStat
from apps.quiz import memory
from apps.quiz import services as quiz
from apps.quiz.models import Answer, CardState, QuizSession
from tests.conftest import PASSWORD, make_instructor, make_user
from tests.factories import make_card, make_deck
from tests.locks import after_waiting

pytestmark = pytest.mark.django_db


def _answer_all(user, deck, response: str = "x") -> QuizSession:
    session = quiz.session_start(user=user, deck=deck, size=deck.cards.count(), mode="recall", order="new")
    for item in session.items.all():
        quiz.answer_submit(
            user=user, session_id=session.pk, position=item.position, submission=quiz.Submission(response=response)
        )
    return session


@pytest.fixture
def deck():
    deck = make_deck(title="Serving")
    make_card(deck=deck, question="Which object runs a batch job?", answer="Job")
    make_card(deck=deck, question="Which object runs pods on every node?", answer="DaemonSet")
    return deck


@pytest.fixture
def cohort(instructor, student, deck):
    cohort = cohorts.cohort_create(name="Autumn", instructor=instructor)
    cohorts.cohort_join(student=student, code=cohort.join_code)
    return cohort


def test_strangers_are_sent_to_sign_in(client):
    for name in ("account", "account_download", "account_delete"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_a_student_names_themself_and_their_instructor_sees_the_name(client, student, instructor, cohort):
    client.force_login(student)
    page = client.get(reverse("account")).content.decode()
    assert 'value="alice@example.com"' in page and "Change your password" in page
    response = client.post(reverse("account"), {"first_name": " Alice ", "last_name": "Liddell",
                                                "email": "alice@example.com"})  # fmt: skip
    assert response.status_code == 303 and response["Location"] == reverse("account")
    assert "Your details are saved." in client.get(response["Location"]).content.decode()
    client.force_login(instructor)
    assert "Alice Liddell" in client.get(reverse("cohorts:manage", args=[cohort.pk])).content.decode()


def test_a_new_email_needs_the_current_password(client, student):
    client.force_login(student)
    data = {"first_name": "", "last_name": "", "email": "alice@new.example"}
    response = client.post(reverse("account"), data)
    assert response.status_code == 422
    assert "Enter your current password to change your email address." in response.content.decode()
    response = client.post(reverse("account"), {**data, "current_password": "wrong"})
    assert response.status_code == 422
    student.refresh_from_db()
    assert student.email == "alice@example.com"
    response = client.post(reverse("account"), {**data, "current_password": PASSWORD})
    assert response.status_code == 303
    student.refresh_from_db()
    assert student.email == "alice@new.example"


def test_the_same_email_in_other_letters_needs_no_password(client, student):
    client.force_login(student)
    response = client.post(reverse("account"), {"first_name": "A", "last_name": "", "email": "Alice@Example.com"})
    assert response.status_code == 303


@pytest.mark.parametrize(
    ("email", "message"),
    [("BOB@example.com", "Another account uses this email address."), ("", "This field is required."),
     ("Sam@Example.org", "Another account uses this email address."),  # another's user name: signing in meets it first
     ("not-an-email", "Enter a valid email address.")],
)  # fmt: skip
def test_a_refused_email_is_a_form_error_and_changes_nothing(client, student, other_student, email, message):
    make_user("sam@example.org")
    client.force_login(student)
    response = client.post(
        reverse("account"), {"first_name": "Eve", "last_name": "", "email": email, "current_password": PASSWORD}
    )
    assert response.status_code == 422 and message in response.content.decode()
    student.refresh_from_db()
    assert (student.first_name, student.email) == ("", "alice@example.com")


@pytest.mark.django_db(transaction=True)
def test_an_email_another_account_takes_at_the_same_moment_is_refused_and_changes_nothing(client):
    """The form found the address free; the save, in turn with the other account's, finds it taken."""
    student = make_user("alice")

    def other_change():
        account_names_lock()
        get_user_model().objects.filter(pk=make_user("bob").pk).update(email="new@example.com")

    client.force_login(student)
    data = {"first_name": "", "last_name": "", "email": "new@example.com", "current_password": PASSWORD}
    response = after_waiting(other_change, lambda: client.post(reverse("account"), data))
    assert response.status_code == 422 and "Another account uses this email address." in response.content.decode()
    student.refresh_from_db()
    assert student.email == "alice@example.com"


def test_the_download_holds_ones_own_data_and_no_one_elses(client, student, other_student, deck, cohort):
    _answer_all(student, deck, "a Job")
    _answer_all(other_student, deck, "bob's secret answer")
    aside = CardState.objects.filter(user=student).earliest("pk")
    memory.card_set_aside(user=student, card_id=aside.card_id, aside=True)
    client.force_login(student)
    response = client.get(reverse("account_download"))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="mlcourse-alice-')
    assert "no-store" in response["Cache-Control"]
    data = json.loads(response.content)
    assert data["account"]["username"] == "alice"
    assert [a["response"] for a in data["answers"]] == ["a Job", "a Job"]
    assert {a["question"] for a in data["answers"]} == {"Which object runs a batch job?",
                                                         "Which object runs pods on every node?"}  # fmt: skip
    assert data["answers"][0]["final_verdict"] == "correct" and data["answers"][1]["final_verdict"] == "incorrect"
    assert [q["deck_title"] for q in data["quizzes"]] == ["Serving"]
    # The score the pages show (50 %), not the sum of the answers' scores.
    assert (data["quizzes"][0]["score"], data["quizzes"][0]["score_sum"], data["format"]) == (0.5, 1.0, 2)
    assert len(data["memory"]) == 2 and [c["cohort"] for c in data["cohorts"]] == ["Autumn"]
    assert sorted(bool(card["set_aside_at"]) for card in data["memory"]) == [False, True]  # one card set aside
    assert "bob's secret answer" not in response.content.decode()


def test_the_download_holds_ones_own_deadline_extensions_and_no_one_elses(
    client, instructor, student, other_student, deck, cohort
):
    today = timezone.localdate()
    cohorts.cohort_join(student=other_student, code=cohort.join_code)
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=today)
    for user, days in ((student, 5), (other_student, 9)):
        deadlines.extension_grant(
            cohort=cohort, deck_id=deck.pk, student_id=user.pk, due_date=today + timedelta(days=days),
            granted_by=instructor,
        )  # fmt: skip
    client.force_login(student)
    extensions = json.loads(client.get(reverse("account_download")).content)["extensions"]
    assert [(e["cohort"], e["deck"], e["due_date"]) for e in extensions] == [
        ("Autumn", deck.slug, (today + timedelta(days=5)).isoformat())
    ]


def test_the_download_takes_as_many_queries_for_a_long_history_as_for_a_short_one(client, student, deck):
    client.force_login(student)
    counts = []
    for _ in range(2):
        _answer_all(student, deck)
        with CaptureQueriesContext(connection) as queries:
            client.get(reverse("account_download"))
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_deleting_needs_the_password_and_a_wrong_one_deletes_nothing(client, student, deck):
    _answer_all(student, deck)
    client.force_login(student)
    page = client.get(reverse("account_delete")).content.decode()
    assert "Your 2 answers, 1 quiz, progress and review schedule are deleted." in page
    response = client.post(reverse("account_delete"), {"password": "wrong"})
    assert response.status_code == 422
    assert "That is not your password; nothing was deleted." in response.content.decode()
    assert get_user_model().objects.filter(pk=student.pk).exists() and Answer.objects.filter(user=student).count() == 2


def test_deleting_says_which_cohorts_are_left_in_plain_words(client, student, instructor, cohort):
    client.force_login(student)
    page = client.get(reverse("account_delete")).content.decode()
    assert "You leave your cohort, and your answers drop out of its statistics." in page
    second = cohorts.cohort_create(name="Spring", instructor=instructor)
    cohorts.cohort_join(student=student, code=second.join_code)
    page = client.get(reverse("account_delete")).content.decode()
    assert "You leave your 2 cohorts, and your answers drop out of their statistics." in page


def test_deleting_removes_the_account_its_answers_and_its_share_of_cohort_statistics(
    client, student, other_student, deck, cohort
):
    cohorts.cohort_join(student=other_student, code=cohort.join_code)
    _answer_all(student, deck)
    _answer_all(other_student, deck)
    assert sum(CohortCardStat.objects.filter(cohort=cohort).values_list("attempts", flat=True)) == 4
    client.force_login(student)
    response = client.post(reverse("account_delete"), {"password": PASSWORD}, follow=True)
    assert response.redirect_chain == [(reverse("content:home"), 303)]
    assert "Your account and everything in it have been deleted." in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated
    assert not get_user_model().objects.filter(pk=student.pk).exists()
    assert not Answer.objects.filter(user_id=student.pk).exists()
    assert Answer.objects.filter(user=other_student).count() == 2
    assert sum(CohortCardStat.objects.filter(cohort=cohort).values_list("attempts", flat=True)) == 2
    assert client.post(reverse("login"), {"username": "alice", "password": PASSWORD}).status_code == 422


def test_an_owner_is_told_what_becomes_of_their_cohorts(client, instructor):
    taught_alone = cohorts.cohort_create(name="Solo", instructor=instructor)
    make_instructor("dave")
    shared = cohorts.cohort_create(name="Shared", instructor=instructor, instructor_usernames=["dave"])
    client.force_login(instructor)
    page = client.get(reverse("account_delete")).content.decode()
    stays = "<strong><bdi>Shared</bdi></strong>: it stays with its other instructor, and any of them can take it over."
    assert stays in page
    assert "<strong><bdi>Solo</bdi></strong>: no one else teaches it" in page
    client.post(reverse("account_delete"), {"password": PASSWORD})
    shared.refresh_from_db()
    assert shared.owner is None and [u.username for u in shared.instructors.all()] == ["dave"]
    assert Cohort.objects.filter(pk=taught_alone.pk).exists()


def test_the_only_administrator_cannot_delete_themself(client, superuser):
    client.force_login(superuser)
    response = client.post(reverse("account_delete"), {"password": PASSWORD})
    assert response.status_code == 422
    assert "This is the site&#x27;s only administrator account." in response.content.decode()
    assert get_user_model().objects.filter(pk=superuser.pk).exists()
    make_user("root2", is_superuser=True)
    assert client.post(reverse("account_delete"), {"password": PASSWORD}).status_code == 303
    assert not get_user_model().objects.filter(pk=superuser.pk).exists()


def test_a_wrong_password_opens_the_delete_page_on_the_password_box(client, student):
    client.force_login(student)
    page = client.post(reverse("account_delete"), {"password": "wrong"}).content.decode()
    autofocused = re.findall(r"<input[^>]*\bautofocus\b[^>]*>", page)
    assert len(autofocused) == 1 and 'name="password"' in autofocused[0]
