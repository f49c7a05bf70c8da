"""Cohort services: creating, join codes, joining, removing, assignments."""

from __future__ import annotations

import datetime

import pytest

from apps.cohorts import deadlines, services
from apps.cohorts.models import Assignment, Membership
from apps.quiz import services as quiz
from apps.quiz.models import Answer
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def test_only_instructors_create_cohorts(instructor, student):
    cohort = services.cohort_create(name="  ML Ops 2026 ", instructor=instructor)
    assert cohort.name == "ML Ops 2026" and list(cohort.instructors.all()) == [instructor]
    assert len(cohort.join_code) == 8 and not set(cohort.join_code) & set("0O1IL")
    with pytest.raises(services.CohortError, match="Only instructors"):
        services.cohort_create(name="Mine", instructor=student)


def test_join_with_a_code_typed_loosely(instructor, student):
    cohort = services.cohort_create(name="A", instructor=instructor)
    code = cohort.join_code
    typed = f" {code[:4].lower()}-{code[4:].lower()} "
    membership = services.cohort_join(student=student, code=typed)
    assert membership.cohort == cohort and membership.removed_at is None
    assert services.cohort_join(student=student, code=code).pk == membership.pk  # joining twice is harmless


def test_bad_codes_and_instructors_joining_are_refused(instructor, student):
    cohort = services.cohort_create(name="A", instructor=instructor)
    with pytest.raises(services.CohortError, match="does not match any cohort"):
        services.cohort_join(student=student, code="NOPE2345")
    with pytest.raises(services.CohortError, match="You teach <bdi>A</bdi>"):
        services.cohort_join(student=instructor, code=cohort.join_code)
    assert Membership.objects.count() == 0


def test_a_new_code_retires_the_old_one(instructor, student):
    cohort = services.cohort_create(name="A", instructor=instructor)
    old = cohort.join_code
    new = services.cohort_code_regenerate(cohort=cohort)
    assert new != old
    with pytest.raises(services.CohortError):
        services.cohort_join(student=student, code=old)
    services.cohort_join(student=student, code=new)


def test_removing_a_student_keeps_their_answers_and_they_can_rejoin(instructor, student):
    deck = make_deck()
    for i in range(3):
        make_card(deck=deck, answer=f"A{i}")
    cohort = services.cohort_create(name="A", instructor=instructor)
    services.cohort_join(student=student, code=cohort.join_code)
    session = quiz.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    quiz.answer_submit(user=student, session_id=session.pk, position=1, submission=quiz.Submission(response="A0"))
    services.cohort_remove_student(cohort=cohort, student_id=student.pk)
    membership = Membership.objects.get()
    assert membership.removed_at is not None
    assert Answer.objects.filter(user=student).count() == 1
    services.cohort_join(student=student, code=cohort.join_code)
    membership.refresh_from_db()
    assert membership.removed_at is None


def test_assignments_set_update_and_remove(instructor):
    cohort = services.cohort_create(name="A", instructor=instructor)
    deck = make_deck()
    first = deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    again = deadlines.assignment_set(cohort=cohort, deck=deck, due_date=datetime.date(2027, 1, 15))
    assert (first.created, again.created, again.due_before, again.due) == (
        True,
        False,
        None,
        datetime.date(2027, 1, 15),
    )
    assert list(Assignment.objects.values_list("deck", "due_date")) == [(deck.pk, datetime.date(2027, 1, 15))]
    assert deadlines.assignment_remove(cohort=cohort, deck_id=deck.pk) == 0  # no extensions ended
    assert not Assignment.objects.exists()
    assert deadlines.assignment_remove(cohort=cohort, deck_id=deck.pk) is None  # not assigned: nothing to remove


def test_instructors_can_be_added_by_name_but_only_instructors(instructor, student):
    cohort = services.cohort_create(name="A", instructor=instructor)
    colleague = make_user("dave", is_staff=True)
    colleague.groups.add(*instructor.groups.all())
    services.cohort_update(cohort=cohort, name="B", instructor_usernames=["dave"], editor=instructor)
    assert set(cohort.instructors.all()) == {instructor, colleague} and cohort.name == "B"
    with pytest.raises(services.CohortError, match="No active account is called <bdi>ghost</bdi>"):
        services.cohort_update(cohort=cohort, name="B", instructor_usernames=["ghost"], editor=instructor)
    with pytest.raises(services.CohortError, match="<bdi>alice</bdi> cannot teach"):
        services.cohort_update(cohort=cohort, name="B", instructor_usernames=["alice"], editor=instructor)
    with pytest.raises(services.CohortError) as both:
        services.cohort_update(cohort=cohort, name="B", instructor_usernames=["alice", "ghost"], editor=instructor)
    assert str(both.value) == (
        "No active account is called <bdi>ghost</bdi>. <bdi>alice</bdi> cannot teach: only instructors can."
    )
    services.cohort_update(cohort=cohort, name="B", instructor_usernames=[], editor=instructor)
    assert list(cohort.instructors.all()) == [instructor]


def test_instructors_are_named_in_any_letter_case_as_signing_in_finds_them(instructor):
    cohort = services.cohort_create(name="A", instructor=instructor)
    colleague = make_user("Prof_Two", is_staff=True)
    colleague.groups.add(*instructor.groups.all())
    own = instructor.get_username().upper()
    services.cohort_update(cohort=cohort, name="A", instructor_usernames=["prof_two", own], editor=instructor)
    assert set(cohort.instructors.all()) == {instructor, colleague}
    with pytest.raises(services.CohortError, match="No active account is called <bdi>Ghost</bdi>"):
        services.cohort_update(cohort=cohort, name="A", instructor_usernames=["PROF_TWO", "Ghost"], editor=instructor)

    # Accounts older than that rule, told apart by case alone: the one typed exactly, not both.
    twin = make_user("prof_two", is_staff=True)
    twin.groups.add(*instructor.groups.all())
    services.cohort_update(cohort=cohort, name="A", instructor_usernames=["prof_two"], editor=instructor)
    assert set(cohort.instructors.all()) == {instructor, twin}


def test_a_student_of_the_cohort_is_not_made_one_of_its_instructors(instructor):
    """As an instructor may not join as a student: the dashboard would list them among the students it reports
    on, their answers in its item statistics. Removed first, they may teach it."""
    cohort = services.cohort_create(name="A", instructor=instructor)
    colleague = make_instructor("dave")
    services.cohort_join(student=colleague, code=cohort.join_code)
    with pytest.raises(
        services.CohortError, match="<bdi>dave</bdi> is a student of <bdi>A</bdi>: remove them from its students first"
    ):
        services.cohort_update(cohort=cohort, name="Renamed", instructor_usernames=["dave"], editor=instructor)
    cohort.refresh_from_db()
    assert list(cohort.instructors.all()) == [instructor] and cohort.name == "A"  # nothing half-saved
    services.cohort_remove_student(cohort=cohort, student_id=colleague.pk)
    services.cohort_update(cohort=cohort, name="A", instructor_usernames=["dave"], editor=instructor)
    assert set(cohort.instructors.all()) == {instructor, colleague}
