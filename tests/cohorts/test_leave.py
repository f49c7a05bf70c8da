"""A student leaves a cohort they joined: asked first, their answers kept, and back with the code."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone

from apps.cohorts import deadlines, services
from apps.cohorts.models import Assignment, CohortCardStat
from apps.quiz import services as quiz
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def spring(instructor, student):
    """Spring, with one deck assigned, joined by Alice, who has answered its card."""
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    deck = make_deck(title="Serving")
    make_card(deck=deck, question="Which object runs a batch job?", answer="Job")
    Assignment.objects.create(cohort=cohort, deck=deck)
    services.cohort_join(student=student, code=cohort.join_code)
    session = quiz.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    quiz.answer_submit(user=student, session_id=session.pk, position=1, submission=quiz.Submission(response="Job"))
    return cohort


def test_a_student_leaves_a_cohort_from_the_cohorts_page_after_being_asked(client, student, spring):
    client.force_login(student)
    leave = reverse("cohorts:leave", args=[spring.pk])
    listing = client.get(reverse("cohorts:list")).content.decode()
    assert f'<a href="{leave}">Leave<span class="visually-hidden"> <bdi>Spring</bdi></span></a>' in listing
    asked = client.get(leave).content.decode()
    assert "<h1>Leave <bdi>Spring</bdi>?</h1>" in asked
    assert "Your answers, quizzes and review schedule stay yours." in asked
    assert CohortCardStat.objects.filter(cohort=spring).get().attempts == 1
    response = client.post(leave, follow=True)
    page = response.content.decode()
    assert response.redirect_chain == [(reverse("cohorts:list"), 303)]
    assert "You left <bdi>Spring</bdi>. Its instructors no longer see your progress." in page
    assert "Leave<span" not in page
    assert "Spring" not in client.get(reverse("quiz:progress")).content.decode()
    assert CohortCardStat.objects.filter(cohort=spring).get().attempts == 0  # off the item statistics
    # A double click leaves nothing twice, and is no error page.
    assert client.post(leave).status_code == 303
    # The code brings them back, with their answers.
    services.cohort_join(student=student, code=spring.join_code)
    assert CohortCardStat.objects.filter(cohort=spring).get().attempts == 1


def test_only_a_student_of_the_cohort_can_leave_it(student, other_student, instructor, spring):
    leave = reverse("cohorts:leave", args=[spring.pk])
    anonymous = Client().post(leave)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    for user in (other_student, instructor):
        client = Client()
        client.force_login(user)
        assert client.get(leave).status_code == 404 and client.post(leave).status_code == 404
    assert spring.memberships.get(student=student).removed_at is None


def test_leaving_says_which_extended_deadlines_it_drops(client, instructor, student, spring):
    client.force_login(student)
    leave = reverse("cohorts:leave", args=[spring.pk])
    assert "later deadline" not in client.get(leave).content.decode()
    assignment = Assignment.objects.get(cohort=spring)
    today = timezone.localdate()
    deadlines.assignment_set(cohort=spring, deck=assignment.deck, due_date=today)
    extended = today + timedelta(days=7)
    deadlines.extension_grant(
        cohort=spring, deck_id=assignment.deck_id, student_id=student.pk, due_date=extended, granted_by=instructor
    )
    asked = " ".join(re.sub(r"<[^>]+>", " ", client.get(leave).content.decode()).split())
    day = formats.date_format(extended, "j M Y")
    assert f"Your later deadline for Serving ( {day} ) is dropped: joining again puts you on the cohort’s" in asked
