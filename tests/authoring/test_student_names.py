"""Any instructor who edits cards reads students' reports and regrades their answers; only a student's own cohorts'
instructors learn who they are."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from apps.cohorts import services as cohorts
from apps.content.services import card_save
from apps.quiz import services
from apps.quiz.models import CardReport
from apps.quiz.reports import card_report_submit
from tests.conftest import make_instructor
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db
ANONYMOUS = "A student of another cohort"


@pytest.fixture
def reported(student, other_student, instructor):
    """Alice, in Carol's cohort, and Bob, in Dave's, each typed a wrong answer to the same card and reported it."""
    card = make_card(deck=make_deck(title="Kubernetes"), question="Which object runs Jobs on a schedule?",
                     answer="Deployment", short_answer="Deployment")  # fmt: skip
    dave = make_instructor("dave")
    for name, teacher, pupil in (("Spring", instructor, student), ("Autumn", dave, other_student)):
        cohorts.cohort_join(student=pupil, code=cohorts.cohort_create(name=name, instructor=teacher).join_code)
        session = services.session_start(user=pupil, deck=card.deck, size=1, mode="recall", order="new")
        services.answer_submit(
            user=pupil, session_id=session.pk, position=1, submission=services.Submission(response="CronJob")
        )
        card_report_submit(user=pupil, item=session.items.get(), message=f"{name}: it is CronJob")
    return card


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _reports(client: Client, **query) -> str:
    return " ".join(client.get(reverse("admin:quiz_cardreport_changelist"), query).content.decode().split())


def test_the_report_list_names_only_the_instructors_own_students(reported, instructor):
    listing = _reports(_signed_in(instructor))
    assert "Spring: it is CronJob" in listing and "Autumn: it is CronJob" in listing  # both reports are there
    assert '<td class="field-student">alice</td>' in listing
    assert f'<td class="field-student">{ANONYMOUS}</td>' in listing
    assert '<td class="field-student">bob</td>' not in listing


def test_searching_a_name_finds_only_ones_own_students_reports(reported, instructor):
    carol = _signed_in(instructor)
    assert "Spring: it is CronJob" in _reports(carol, q="ali")
    assert "Autumn: it is CronJob" not in _reports(carol, q="bob")
    assert "Autumn: it is CronJob" in _reports(carol, q="Autumn")  # what he wrote is searched
    assert "Autumn: it is CronJob" in _reports(_signed_in(User.objects.get(username="dave")), q="bob")


def test_another_cohorts_report_does_not_name_its_student_in_title_or_fields(reported, instructor):
    report = CardReport.objects.get(user__username="bob")
    detail = _signed_in(instructor).get(reverse("admin:quiz_cardreport_change", args=[report.pk])).content.decode()
    assert "Autumn: it is CronJob" in detail and f'<div class="readonly">{ANONYMOUS}</div>' in detail
    assert "Report on Kubernetes #1" in detail
    assert ">bob<" not in detail and "by bob" not in detail


def test_the_card_form_and_the_regrade_page_name_only_the_instructors_own_students(reported, instructor):
    carol = _signed_in(instructor)
    form = carol.get(reverse("admin:content_card_change", args=[reported.pk])).content.decode()
    assert "<li>alice, " in form and f"<li>{ANONYMOUS}, " in form and "<li>bob, " not in form
    assert "by a student of another cohort</span>" in form
    reported.answer = reported.short_answer = "CronJob"
    card_save(card=reported, author=instructor, note="The answer was wrong")
    page = " ".join(carol.get(reverse("admin:content_card_regrade", args=[reported.pk])).content.decode().split())
    assert "from 2 students, would be graded otherwise" in page
    assert "<td>alice</td>" in page and f"<td>{ANONYMOUS}</td>" in page and "<td>bob</td>" not in page


def test_a_superuser_sees_every_name(reported, superuser):
    root = _signed_in(superuser)
    listing = _reports(root)
    assert '<td class="field-student">alice</td>' in listing and '<td class="field-student">bob</td>' in listing
    assert ANONYMOUS not in listing
    assert "Autumn: it is CronJob" in _reports(root, q="bob")
    form = root.get(reverse("admin:content_card_change", args=[reported.pk])).content.decode()
    assert "<li>alice, " in form and "<li>bob, " in form


def test_reports_cannot_be_filtered_by_another_cohorts_student(reported, instructor, superuser):
    """The admin takes a filter on any field of the report from its address: ?user=<id> would gather an anonymous
    student's reports, and tell them from another's, however the names are hidden."""
    bob = User.objects.get(username="bob")
    changelist = reverse("admin:quiz_cardreport_changelist")
    for lookup in ("user", "user__id__exact", "user_id"):
        assert _signed_in(instructor).get(changelist, {lookup: bob.pk}).status_code == 400
    assert "Autumn: it is CronJob" in _reports(_signed_in(superuser), user=bob.pk)  # who sees every name anyway


def test_an_instructor_who_reported_a_card_is_named_to_themself_not_as_another_cohorts_student(reported, instructor):
    session = services.session_start(user=instructor, deck=reported.deck, size=1, mode="recall", order="new")
    services.answer_submit(
        user=instructor, session_id=session.pk, position=1, submission=services.Submission(response="CronJob")
    )
    card_report_submit(user=instructor, item=session.items.get(), message="Trying it out: it is CronJob")
    carol = _signed_in(instructor)
    assert '<td class="field-student">carol</td>' in _reports(carol)
    assert "Trying it out" in _reports(carol, q="carol")
    form = carol.get(reverse("admin:content_card_change", args=[reported.pk])).content.decode()
    assert "<li>carol, " in form
