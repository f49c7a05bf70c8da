"""`make run`'s demo cohort: the demo student's earlier answers count in its item statistics, classmates with three
weeks of answers fill its dashboards, only published decks are assigned, and a second run leaves the cohort as its
instructor left it."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from apps.cohorts.analytics import cohort_items, cohort_matrix
from apps.cohorts.demo import CLASSMATES
from apps.cohorts.models import Assignment, Cohort, Membership
from apps.quiz import services as quiz
from apps.quiz.models import Answer, QuizSession
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def test_the_demo_student_s_earlier_answers_count_in_the_demo_cohort(settings):
    settings.DEBUG = True
    call_command("create_demo_accounts", verbosity=0)
    student = get_user_model().objects.get(username="student")
    deck = make_deck()
    make_card(deck=deck, answer="Job")
    session = quiz.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    quiz.answer_submit(user=student, session_id=session.pk, position=1, submission=quiz.Submission(response="Job"))

    call_command("create_demo_cohort", classmates=0, verbosity=0)
    call_command("create_demo_cohort", classmates=0, verbosity=0)  # run again by a second `make run`: nothing doubles

    cohort = Cohort.objects.get(instructors__username="instructor")
    rows, _ = cohort_items(cohort=cohort)
    answered = [row for row in rows if row.attempts]
    assert [(row.attempts, row.students) for row in answered] == [(1, 1)]


def test_classmates_give_the_demo_dashboards_a_class_at_work(settings, client):
    settings.DEBUG = True
    call_command("create_demo_accounts", verbosity=0)
    deck = make_deck()
    for n in range(12):
        make_card(deck=deck, question=f"Which tool number {n}?", answer=f"Tool number {n}", short_answer=f"Tool {n}")

    call_command("create_demo_cohort", verbosity=0)
    recorded = Answer.objects.count()
    call_command("create_demo_cohort", verbosity=0)  # a second `make run` adds no history

    assert Answer.objects.count() == recorded > 100
    cohort = Cohort.objects.get(instructors__username="instructor")
    _, rows = cohort_matrix(cohort=cohort)
    by_name = {row.username: row for row in rows}
    assert set(by_name) == {"student"} | {c.username for c in CLASSMATES}
    assert by_name["student"].cells[0].answers == 0  # the demo student's own first quiz is still to come
    # Quizzes draw their cards at random: the margins, not exact figures, are what the demo promises.
    assert by_name["ada"].accuracy > by_name["edsger"].accuracy + 0.25
    assert "inactive" in by_name["ken"].flags and "inactive" not in by_name["ada"].flags
    # Every quiz was taken to its end, one answer per question, as a student would through the quiz pages.
    sessions = QuizSession.objects.exclude(user__username="student")
    assert all(s.finished_at and s.answered_count == s.item_count for s in sessions)
    assert not get_user_model().objects.get(username="ada").has_usable_password()
    client.force_login(get_user_model().objects.get(username="instructor"))
    dashboard = client.get(reverse("cohorts:dashboard", args=[cohort.pk])).content.decode()
    assert "Ada Lovelace" in dashboard and "Sam Student" in dashboard  # named, as a real class would be


def _assigned(cohort: Cohort) -> set[str]:
    return set(Assignment.objects.filter(cohort=cohort).values_list("deck__title", flat=True))


def test_only_published_decks_are_assigned_and_a_second_run_leaves_the_cohort_as_its_instructor_left_it(
    settings, client
):
    settings.DEBUG = True
    call_command("create_demo_accounts", verbosity=0)
    for title, published in (("Serving", True), ("Tracking", True), ("Half-written", False)):
        make_card(deck=make_deck(title=title, published=published))
    out = StringIO()
    call_command("create_demo_cohort", classmates=0, stdout=out)
    cohort = Cohort.objects.get(instructors__username="instructor")
    assert _assigned(cohort) == {"Serving", "Tracking"}  # a draft cannot be assigned: students could not open it
    assert out.getvalue() == f"demo cohort: Demo cohort created, join code {cohort.join_code}\n"

    User = get_user_model()  # noqa: N806 - Django's idiom
    client.force_login(User.objects.get(username="instructor"))
    tracking = Assignment.objects.get(cohort=cohort, deck__title="Tracking").deck_id
    client.post(reverse("cohorts:assignment_remove", args=[cohort.pk, tracking]))
    client.force_login(User.objects.get(username="student"))
    client.post(reverse("cohorts:leave", args=[cohort.pk]))
    make_card(deck=make_deck(title="Published since"))

    out = StringIO()
    call_command("create_demo_cohort", classmates=0, stdout=out)
    assert out.getvalue() == f"demo cohort: Demo cohort exists, join code {cohort.join_code}; left as it is\n"
    assert _assigned(cohort) == {"Serving"}
    assert Membership.objects.get(cohort=cohort, student__username="student").removed_at is not None
    assert Cohort.objects.filter(instructors__username="instructor").count() == 1
