"""Text a student typed is isolated (<bdi>) where it is shown inline: a right-to-left override in it (U+202E) turned
the text after it backwards, the count after a wrong answer, the verdict after a reported one, the rest of a sentence.

What was stored is shown as stored; only its effect on what follows it ends at the isolate.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from apps.cohorts import services as cohorts
from apps.cohorts.models import Assignment
from apps.quiz import services as quiz
from apps.quiz.models import SessionItem
from apps.quiz.reports import card_report_submit
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db

RLO = "\u202e"
FIRST, LAST = f"Ada{RLO}", "Lovelace"
TYPED = f"a CronJob{RLO} 1 ×"
REPORTED = f"The key is wrong{RLO} — resolved"
COHORT = f"Spring{RLO} 2026"


@pytest.fixture
def world():
    teacher = make_instructor("carol")
    cohort = cohorts.cohort_create(name=COHORT, instructor=teacher)
    deck = make_deck(title="Serving")
    make_card(deck=deck, question="Which object runs a batch job?", answer="Job")
    Assignment.objects.create(cohort=cohort, deck=deck)
    student = make_user("ada", first_name=FIRST, last_name=LAST)
    cohorts.cohort_join(student=student, code=cohort.join_code)
    session = quiz.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    quiz.answer_submit(user=student, session_id=session.pk, position=1, submission=quiz.Submission(response=TYPED))
    report, _ = card_report_submit(user=student, item=SessionItem.objects.get(), message=REPORTED)
    return {"teacher": teacher, "cohort": cohort, "student": student, "session": session, "report": report}


def _page(user, url: str, **query) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url, query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_matrix_isolates_the_students_name(world):
    page = _page(world["teacher"], reverse("cohorts:dashboard", args=[world["cohort"].pk]))
    assert f"<bdi>{FIRST} {LAST}</bdi>" in page


def test_item_statistics_isolate_a_wrong_answer_from_its_count(world):
    page = _page(world["teacher"], reverse("cohorts:dashboard", args=[world["cohort"].pk]), tab="items")
    assert f"“<bdi>{TYPED}</bdi>” × 1" in page  # counted as the grader folds them, shown as the student wrote it


def test_the_student_page_isolates_the_name_and_the_answers(world):
    url = reverse("cohorts:student", args=[world["cohort"].pk, world["student"].pk])
    page = _page(world["teacher"], url)
    assert f"<bdi>{FIRST} {LAST}</bdi>" in page and f"<bdi>{TYPED}</bdi>" in page


def test_the_feedback_isolates_your_answer(world):
    page = _page(world["student"], reverse("quiz:item", args=[world["session"].pk, 1]))
    assert f"<bdi>{TYPED}</bdi>" in page


def test_pages_isolate_the_cohort_name_inside_a_sentence(world):
    invite = _page(world["teacher"], reverse("cohorts:invite", args=[world["cohort"].join_code]))
    assert f"Open the <bdi>{COHORT}</bdi> dashboard" in invite
    manage = _page(world["teacher"], reverse("cohorts:manage", args=[world["cohort"].pk]))
    assert f"ada</bdi> leaves <bdi>{COHORT}</bdi>: they are taken off its dashboard" in manage


def test_a_message_isolates_the_cohort_name_from_the_rest_of_its_sentence(world):
    client = Client()
    client.force_login(world["student"])
    left = client.post(reverse("cohorts:leave", args=[world["cohort"].pk]), follow=True).content.decode()
    assert f"You left <bdi>{COHORT}</bdi>. Its instructors no longer see your progress." in left


def test_the_card_reports_admin_isolates_the_report_and_the_answer(world):
    listing = _page(world["teacher"], reverse("admin:quiz_cardreport_changelist"))
    assert f"<bdi>{REPORTED}</bdi>" in listing
    detail = _page(world["teacher"], reverse("admin:quiz_cardreport_change", args=[world["report"].pk]))
    assert f"<bdi>{TYPED}</bdi> — graded incorrect" in detail
    card = _page(world["teacher"], reverse("admin:content_card_change", args=[world["report"].card_id]))
    assert f'“<bdi>{REPORTED}</bdi>” <span class="help">(answered: <bdi>{TYPED}</bdi>; graded' in card


def test_what_was_typed_is_stored_as_typed(world):
    world["report"].refresh_from_db()
    assert world["report"].message == REPORTED and world["report"].answer.response == TYPED
    assert world["student"].first_name == FIRST
