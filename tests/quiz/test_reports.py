"""Students report problems with cards from a question's feedback; instructors deal with them in the admin."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone

from apps.quiz import services
from apps.quiz.models import CardReport
from tests.conftest import make_instructor
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db
REPORT = "The model answer says DaemonSet, but the question asks about batch jobs."


@pytest.fixture
def answered(student):
    """Alice's quiz of two questions, the first answered."""
    deck = make_deck(title="Serving")
    make_card(deck=deck, question="Which object runs a batch job?", answer="Job")
    make_card(deck=deck, question="Which object runs pods on every node?", answer="DaemonSet")
    session = services.session_start(user=student, deck=deck, size=2, mode="recall", order="new")
    services.answer_submit(
        user=student, session_id=session.pk, position=1, submission=services.Submission(response="a CronJob")
    )
    return session


def _report_url(session, position: int = 1) -> str:
    return reverse("quiz:report", args=[session.pk, position])


def test_the_feedback_offers_a_report_form_that_works_without_javascript(student_client, answered):
    feedback = student_client.get(reverse("quiz:item", args=[answered.pk, 1])).content.decode()
    assert "<summary>Report a problem with this card</summary>" in feedback
    assert f'action="{_report_url(answered)}"' in feedback and f'data-hx-post="{_report_url(answered)}"' in feedback
    response = student_client.post(_report_url(answered), {"message": f"  {REPORT}  "}, follow=True)
    assert response.redirect_chain == [(reverse("quiz:item", args=[answered.pk, 1]), 303)]
    assert "Thank you: the instructors will see your report." in response.content.decode()
    report = CardReport.objects.get()
    assert report.message == REPORT and report.card.question == "Which object runs a batch job?"
    assert report.answer.response == "a CronJob" and report.resolved_at is None


def test_with_htmx_the_thanks_replaces_the_form_and_the_same_report_again_adds_nothing(student_client, answered, htmx):
    response = student_client.post(_report_url(answered), {"message": REPORT}, **htmx)
    page = response.content.decode()
    assert response.status_code == 200 and '<section class="feedback' in page and "<html" not in page
    assert 'role="status">Thank you: the instructors will see your report.</p>' in page
    assert "Report a problem with this card" not in page
    again = student_client.post(_report_url(answered), {"message": f" {REPORT} "}, **htmx).content.decode()
    assert "You have reported this card already; the instructors will see that report." in again
    assert list(CardReport.objects.values_list("message", flat=True)) == [REPORT]


def test_a_different_note_on_a_card_reported_before_joins_that_report_instead_of_being_dropped(
    student_client, answered
):
    # The feedback offers the form again after a reload, and in every later quiz on the card.
    student_client.post(_report_url(answered), {"message": REPORT})
    response = student_client.post(_report_url(answered), {"message": "Also: 'batch' is misspelt."}, follow=True)
    assert "Thank you: your note is added to the report on this card you sent before." in response.content.decode()
    assert list(CardReport.objects.values_list("message", flat=True)) == [f"{REPORT}\n\nAlso: 'batch' is misspelt."]
    student_client.post(_report_url(answered), {"message": "misspelt"})  # a word of a note is not that note
    assert CardReport.objects.get().message.endswith("\n\nmisspelt")


def test_a_note_that_would_overfill_the_waiting_report_is_a_form_error_that_keeps_it(student_client, answered):
    student_client.post(_report_url(answered), {"message": "x" * 900})
    note = "The answer should say " + "y" * 200
    response = student_client.post(_report_url(answered), {"message": note})
    page = response.content.decode()
    assert response.status_code == 422 and note in page and '<details class="report" open>' in page
    assert "this note would take it past 1,000 characters: shorten it to 98." in page
    assert CardReport.objects.get().message == "x" * 900


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ("   ", "Say what is wrong with this card."),
        ("x" * 1234, "A report holds at most 1,000 characters; this one has 1,234."),
        ("wrong\x00answer", "contains a NUL character, which cannot be stored"),  # was a 500
    ],
)
def test_an_empty_or_overlong_report_is_a_form_error_that_keeps_the_text(student_client, answered, message, error):
    response = student_client.post(_report_url(answered), {"message": message})
    page = response.content.decode()
    assert response.status_code == 422 and error in page
    assert '<details class="report" open>' in page and 'aria-invalid="true"' in page
    assert re.findall(r"<[^>]*\bautofocus\b[^>]*>", page)[0].startswith('<textarea id="report-message"')  # only it
    assert page.count("autofocus") == 1
    assert message.strip()[:50] in page
    assert not CardReport.objects.exists()


def test_the_report_box_says_its_limit_and_its_line_breaks_count_once(student_client, answered):
    """A line break is one character to the student, and the form sends it as two (CRLF). No maxlength, as for
    answers: the browser would cut a pasted report silently; the form says how much is too much."""
    feedback = student_client.get(reverse("quiz:item", args=[answered.pk, 1])).content.decode()
    assert re.search(r'<textarea id="report-message" name="message" rows="3" data-draft', feedback)
    assert "At most 1,000 characters." in feedback
    message = "\r\n".join(["x" * 99] * 10)  # 999 characters as the box counts them, 1,008 as sent
    assert student_client.post(_report_url(answered), {"message": message}).status_code == 303
    assert CardReport.objects.get().message == message.replace("\r\n", "\n")


def test_only_an_answered_question_of_ones_own_quiz_can_be_reported(student_client, other_student, answered):
    assert student_client.post(_report_url(answered, 2), {"message": REPORT}).status_code == 409
    client = Client()
    client.force_login(other_student)
    assert client.post(_report_url(answered), {"message": REPORT}).status_code == 404
    client.logout()
    response = client.post(_report_url(answered), {"message": REPORT})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    # Signed out, the form sends to the sign-in page, which comes back here with a GET: on to the feedback.
    assert student_client.get(_report_url(answered))["Location"] == reverse("quiz:item", args=[answered.pk, 1])
    assert not CardReport.objects.exists()


def test_instructors_see_open_reports_with_the_answer_and_mark_them_dealt_with(student_client, answered):
    student_client.post(_report_url(answered), {"message": REPORT})
    report = CardReport.objects.get()
    client = Client()
    client.force_login(make_instructor("carol"))
    listing = client.get(reverse("admin:quiz_cardreport_changelist"), {"status": "open"}).content.decode()
    assert "Which object runs a batch job?" in listing and ">Open<" in listing
    assert "A student of another cohort" in listing  # Carol teaches none of Alice's cohorts
    # Columns named as people say them, each sortable: not Django's "Card deck" and "User".
    headers = re.findall(r'<div class="text">(?:<a [^>]*>|<span>)([^<]+)<', listing)
    assert headers == ["Created at", "Card", "Deck", "Student", "Report", "Status"]
    assert 'class="sortable column-deck"' in listing and 'class="sortable column-student"' in listing
    detail = client.get(reverse("admin:quiz_cardreport_change", args=[report.pk])).content.decode()
    assert "<bdi>a CronJob</bdi> — graded incorrect (0\u00a0%)" in detail and REPORT in detail
    response = client.post(
        reverse("admin:quiz_cardreport_changelist"), {"action": "resolve", "_selected_action": [report.pk]}
    )
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.resolved_at is not None and report.resolved_by.username == "carol"
    detail = client.get(reverse("admin:quiz_cardreport_change", args=[report.pk])).content.decode()
    when = formats.date_format(timezone.localtime(report.resolved_at), "DATETIME_FORMAT")
    assert when.endswith(" UTC") and f"{when} by carol" in detail  # the time names its zone, as "Created at" does
    assert (
        "Which object"
        not in client.get(reverse("admin:quiz_cardreport_changelist"), {"status": "open"}).content.decode()
    )


def test_after_a_report_is_dealt_with_the_student_may_report_again_and_the_old_one_stays_closed(
    student_client, answered, htmx
):
    student_client.post(_report_url(answered), {"message": REPORT})
    first = CardReport.objects.get()
    client = Client()
    client.force_login(make_instructor("carol"))
    change = reverse("admin:quiz_cardreport_change", args=[first.pk])
    assert client.post(change, {"dealt_with": "on"}).status_code == 302
    page = student_client.post(_report_url(answered), {"message": "Still wrong."}, **htmx).content.decode()
    assert "Thank you: the instructors will see your report." in page
    response = client.post(change, {})  # reopening the first, while the second is open
    assert response.status_code == 200
    assert "The student has reported this card again since; that report is open." in response.content.decode()
    assert CardReport.objects.filter(resolved_at__isnull=True).count() == 1


def test_students_cannot_read_reports_in_the_admin(student_client, answered):
    student_client.post(_report_url(answered), {"message": REPORT})
    response = student_client.get(reverse("admin:quiz_cardreport_changelist"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_a_report_on_an_answer_shown_after_typing_shows_the_instructor_what_was_typed(student_client, answered):
    submission = services.Submission(response="a ReplicaSet", reveal=True)
    services.answer_submit(user=answered.user, session_id=answered.pk, position=2, submission=submission)
    student_client.post(_report_url(answered, 2), {"message": REPORT})
    client = Client()
    client.force_login(make_instructor("carol"))
    detail = client.get(reverse("admin:quiz_cardreport_change", args=[CardReport.objects.get().pk])).content.decode()
    assert "<bdi>(asked to see the answer, having typed) a ReplicaSet</bdi> — graded incorrect (0\u00a0%)" in detail
    # The card's own form says it the same way, beside the fields that fix the card.
    card_id = CardReport.objects.get().card_id
    form = client.get(reverse("admin:content_card_change", args=[card_id])).content.decode()
    assert "(answered: <bdi>(asked to see the answer, having typed) a ReplicaSet</bdi>; graded incorrect)" in form


def test_a_report_names_the_student_and_card_and_links_nothing_an_instructor_may_not_open(student_client, answered):
    """The page was titled "Report on card 7 by 3", and the student's name led to a 403 (the admin's user page)."""
    student_client.post(_report_url(answered), {"message": REPORT})
    report = CardReport.objects.get()
    student = report.user
    student.first_name, student.last_name, student.email = "Alice", "Liddell", "alice@example.com"
    student.save()
    client = Client()
    client.force_login(make_instructor("carol"))
    detail = client.get(reverse("admin:quiz_cardreport_change", args=[report.pk])).content.decode()
    assert "Report on Serving #1" in detail
    # Carol teaches none of Alice's cohorts: she reads the report, not who sent it (tests/authoring/test_student_names).
    assert re.search(r"Student:</label>\s*<div class=\"readonly\">A student of another cohort</div>", detail)
    assert "Liddell" not in detail and "alice@example.com" not in detail
    assert reverse("admin:auth_user_change", args=[student.pk]) not in detail
    for link in set(re.findall(r'href="(/admin/[^"#?]*)"', detail)):
        assert client.get(link).status_code == 200, link


def test_the_cohorts_page_tells_instructors_when_reports_wait(student_client, answered):
    """Reports waited in the admin unseen: nothing on the pages an instructor opens said there were any."""
    client = Client()
    client.force_login(make_instructor("carol"))
    assert "on cards from students" not in client.get(reverse("cohorts:list")).content.decode()
    student_client.post(_report_url(answered), {"message": REPORT})
    html = client.get(reverse("cohorts:list")).content.decode()
    link = f'<a href="{reverse("admin:quiz_cardreport_changelist")}?status=open">Read it</a>'
    assert f"1 report on cards from students waits to be dealt with. {link}" in html
    assert "on cards from students" not in student_client.get(reverse("cohorts:list")).content.decode()
    CardReport.objects.update(resolved_at=timezone.now())
    assert "on cards from students" not in client.get(reverse("cohorts:list")).content.decode()


def test_a_reported_card_shows_its_open_reports_above_its_form(student_client, answered):
    """Fixing a card meant reading its reports in another list, with the form out of sight."""
    student_client.post(_report_url(answered), {"message": REPORT})
    report = CardReport.objects.get()
    client = Client()
    client.force_login(make_instructor("carol"))
    change = reverse("admin:content_card_change", args=[report.card_id])
    html = client.get(change).content.decode()
    assert "Open reports from students (1)" in html and f"“<bdi>{REPORT}</bdi>”" in html
    assert "(answered: <bdi>a CronJob</bdi>; graded incorrect)" in html
    assert html.index("Open reports from students") < html.index('name="question"')  # above the fields
    assert f'<a href="{reverse("admin:quiz_cardreport_change", args=[report.pk])}">Open the report' in html
    CardReport.objects.update(resolved_at=timezone.now())
    assert "Open reports from students" not in client.get(change).content.decode()


def test_a_report_on_a_wrong_option_shows_the_option_without_the_quiz_pages_wording(student):
    deck = make_deck(title="Objects")
    for n, name in enumerate(("Job", "CronJob", "DaemonSet", "Deployment", "StatefulSet")):
        make_card(deck=deck, question=f"Which object is number {n}?", answer=name, short_answer=name)
    session = services.session_start(user=student, deck=deck, size=1, mode="choice", order="new")
    item = session.items.get(position=1)
    wrong = (item.correct_option + 1) % 4
    services.answer_submit(
        user=student, session_id=session.pk, position=1, submission=services.Submission(option=wrong)
    )
    client = Client()
    client.force_login(student)
    client.post(_report_url(session), {"message": REPORT})
    client.force_login(make_instructor("carol"))
    detail = client.get(reverse("admin:quiz_cardreport_change", args=[CardReport.objects.get().pk])).content.decode()
    assert f"<bdi>{item.options[wrong]['text']}</bdi> — graded incorrect (0\u00a0%), a multiple-choice option" in detail
    assert "marked below" not in detail  # nothing is, on this page
