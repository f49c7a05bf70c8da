"""Bad input and permissions on the quiz pages: refused and over-long answers, tampered forms and options, finished
sessions, ending a quiz, 404s for cards and sessions that are not the student's, answers sent while signed out, and
the actions under the feedback on an unanswered question.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.quiz.forms import question_token
from apps.quiz.models import Answer, CardReport, QuizSession
from tests.conftest import PASSWORD
from tests.quiz.views_support import _post_answer, _session

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"response": ""}, "Type an answer"),
        ({"response": "x" * 2001}, "the limit is 2,000"),
    ],
)
def test_bad_answers_get_a_form_error_and_change_nothing(student_client, student, htmx, data, message):
    session = _session(student)
    # Without JavaScript: POST, redirect, GET, so that Back or a reload never asks to send the form again.
    response = _post_answer(student_client, session, **data)
    question = reverse("quiz:item", args=[session.pk, 1])
    assert response.status_code == 303 and response["Location"] == question
    page = student_client.get(question)
    assert page.status_code == 200 and message in page.content.decode()
    assert message not in student_client.get(question).content.decode()  # said once, then the question as it is
    # With HTMX: the question's partial, refused in place.
    swapped = _post_answer(student_client, session, headers=htmx, **data)
    assert swapped.status_code == 422 and message in swapped.content.decode()
    assert Answer.objects.count() == 0


def test_an_over_long_answer_comes_back_whole_with_the_limit_said(student_client, student):
    """The box has no maxlength: the browser cut a pasted 2,340-character answer to 2,000, mid-word, unsaid."""
    session = _session(student)
    assert "maxlength" not in student_client.get(session.get_absolute_url()).content.decode()
    pasted = "gradient " * 260
    page = student_client.get(_post_answer(student_client, session, response=pasted)["Location"]).content.decode()
    assert "Your answer has 2,339 characters; the limit is 2,000." in page
    assert pasted.strip() in page  # to be cut down by its author, not by the browser


def test_a_new_line_counts_as_one_character_as_the_page_counts_it(student_client, student):
    """A browser sends a new line as CR LF: counted so, 1,000 short lines (1,999 characters on the page's count)
    were refused as 2,998."""
    session = _session(student)
    lines = "\r\n".join(["x"] * 1000)
    _post_answer(student_client, session, response=lines)
    answer = Answer.objects.get()
    assert answer.response == "\n".join(["x"] * 1000)


def test_a_huge_refused_answer_waits_in_the_session_cut_to_twice_the_limit(student_client, student):
    """A refused answer waits in the session for the redirect's GET: a 2.25 MB paste was stored whole in the session
    row (and in Redis, with it set), as an answer sent signed out no longer is."""
    session = _session(student)
    pasted = "gradient " * 250_000
    response = _post_answer(student_client, session, response=pasted)
    assert len(student_client.session["quiz_refused_answer"]["sent"]["response"]) == 4000
    page = student_client.get(response["Location"]).content.decode()
    # counted as sent, not as it waited, cut short; and the cut said
    assert "Your answer has 2,249,999 characters; the limit is 2,000." in page
    assert "Only its first 4,000 characters are back in the box." in page
    assert f">{pasted[:4000]}</textarea>" in page
    assert Answer.objects.count() == 0


@pytest.mark.parametrize("option", ["7", "-1", "abc", ""])
def test_an_option_that_is_not_one_of_the_four_is_refused(student_client, student, option):
    session = _session(student, mode="choice")
    response = _post_answer(student_client, session, option=option)
    assert response.status_code == 303
    assert 'id="option-error" role="alert"' in student_client.get(response["Location"]).content.decode()
    assert Answer.objects.count() == 0


def test_a_tampered_form_is_refused(student_client, student):
    session = _session(student)
    other_item_token = question_token(session.items.get(position=2))
    url = reverse("quiz:item", args=[session.pk, 1])
    for token in ["", "forged", other_item_token]:
        response = student_client.post(url, {"token": token, "response": "Tool number 0"})
        assert response.status_code == 400
        assert "could not be used" in response.content.decode()
    assert Answer.objects.count() == 0


def test_a_finished_session_refuses_new_answers(student_client, student):
    session = _session(student)
    student_client.post(reverse("quiz:finish", args=[session.pk]))
    response = _post_answer(student_client, session, position=2, response="Tool number 1")
    assert response.status_code == 409
    assert "This quiz is finished" in response.content.decode()
    assert Answer.objects.count() == 0
    summary = student_client.get(session.get_absolute_url()).content.decode()
    assert "Your results" in summary and "Not answered" in summary


def test_ending_a_quiz_asks_first_and_keep_going_goes_back(student_client, student):
    """Without JavaScript: the link opens a page that asks; only its POST ends the quiz."""
    session = _session(student)
    _post_answer(student_client, session, response="Tool number 0")
    question = student_client.get(session.get_absolute_url()).content.decode()
    finish = reverse("quiz:finish", args=[session.pk])
    assert f'<a href="{finish}">End the quiz here</a>' in question
    assert f'action="{finish}"' not in question  # no one-tap form on the question

    page = student_client.get(finish)
    html = page.content.decode()
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    assert "End this quiz?" in html and "3 of 4 questions unanswered" in html
    assert f'<form method="post" action="{finish}"' in html and ">End the quiz</button>" in html
    assert f'<a class="button button-secondary" href="{session.get_absolute_url()}">Keep going</a>' in html
    assert student_client.head(finish).status_code == 200  # a link checker's HEAD asks too
    session.refresh_from_db()
    assert session.finished_at is None  # asking ended nothing

    assert student_client.post(finish)["Location"] == session.get_absolute_url()
    session.refresh_from_db()
    assert session.finished_at is not None
    assert student_client.get(finish)["Location"] == session.get_absolute_url()  # nothing left to ask


def test_a_card_not_in_the_session_is_404(student_client, student):
    session = _session(student)
    assert student_client.get(reverse("quiz:item", args=[session.pk, 99])).status_code == 404
    response = student_client.post(reverse("quiz:item", args=[session.pk, 99]), {"response": "x"})
    assert response.status_code == 404


def test_another_users_session_is_404_everywhere(client, student, other_student):
    session = _session(student)
    client.force_login(other_student)
    for url in [
        session.get_absolute_url(),
        reverse("quiz:item", args=[session.pk, 1]),
    ]:
        assert client.get(url).status_code == 404
    assert _post_answer(client, session, response="x").status_code == 404
    assert client.post(reverse("quiz:override", args=[session.pk, 1]), {"verdict": "correct"}).status_code == 404
    assert client.post(reverse("quiz:check_typed", args=[session.pk, 1])).status_code == 404
    assert client.post(reverse("quiz:finish", args=[session.pk])).status_code == 404
    assert client.get(reverse("quiz:finish", args=[session.pk])).status_code == 404
    assert Answer.objects.count() == 0
    assert QuizSession.objects.get().finished_at is None


def test_signing_in_after_i_was_right_pressed_while_signed_out_leads_back_to_the_feedback(client, student):
    session = _session(student)
    client.force_login(student)
    _post_answer(client, session, response="no idea")
    client.logout()
    override = reverse("quiz:override", args=[session.pk, 1])
    response = client.post(override, {"verdict": "correct"})
    assert response["Location"] == f"{reverse('login')}?next={override}"

    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD, "next": override}, follow=True)
    assert response.redirect_chain[-1] == (reverse("quiz:item", args=[session.pk, 1]), 302)
    page = response.content.decode()
    assert "I was right" in page  # the buttons, to press again: nothing was changed by the way here
    assert Answer.objects.get().override_verdict == ""


def test_an_answer_sent_after_signing_out_elsewhere_is_back_in_its_box_after_signing_in(client, student):
    # Without JavaScript nothing else keeps it: the POST went to the sign-in page and on to a blank question.
    session = _session(student)
    client.force_login(student)
    client.get(reverse("quiz:item", args=[session.pk, 1]))
    client.logout()  # as in another tab
    response = _post_answer(client, session, response="Tool number 0, <I think>")
    item_url = reverse("quiz:item", args=[session.pk, 1])
    assert response["Location"] == f"{reverse('login')}?next={item_url}"

    login = {"username": "alice", "password": PASSWORD, "next": item_url}
    page = client.post(reverse("login"), login, follow=True).content.decode()
    assert "You had been signed out, so this answer was not sent." in page
    assert ">Tool number 0, &lt;I think&gt;</textarea>" in page
    assert Answer.objects.count() == 0
    again = client.get(item_url).content.decode()  # shown once, as a refused answer is
    assert "signed out" not in again and "></textarea>" in again


def test_an_option_chosen_after_signing_out_elsewhere_is_still_chosen_after_signing_in(client, student):
    session = _session(student, mode="choice")
    client.force_login(student)
    client.logout()
    response = _post_answer(client, session, option="2")
    login = {"username": "alice", "password": PASSWORD, "next": reverse("quiz:item", args=[session.pk, 1])}
    page = client.post(reverse("login"), login, follow=True).content.decode()
    assert "You had been signed out, so this answer was not sent." in page
    assert re.search(r'<input type="radio" name="option" value="2"[^>]* checked>', page)
    assert response.status_code == 302 and Answer.objects.count() == 0


def test_an_answer_sent_signed_out_is_kept_only_for_a_question_and_only_its_student_sees_it(
    client, student, other_student
):
    session = _session(student)
    client.post(reverse("quiz:item", args=[session.pk, 40]), {"response": "Tool number 0"})
    assert "quiz_refused_answer" not in client.session  # no question there: nothing stored for anyone
    _post_answer(client, session, response="Tool number 0")
    client.force_login(other_student)  # another account in this browser: the question is still not theirs
    assert client.get(reverse("quiz:item", args=[session.pk, 1])).status_code == 404


@pytest.mark.parametrize("action", ["quiz:override", "quiz:check_typed", "quiz:report"])
def test_each_action_under_the_feedback_refuses_an_unanswered_question_and_a_get_goes_on_to_the_question(
    student_client, student, other_student, action
):
    session = _session(student)
    url = reverse(action, args=[session.pk, 1])
    # A GET comes only from signing in: on to the question, whose feedback has the button to press again.
    assert student_client.get(url)["Location"] == reverse("quiz:item", args=[session.pk, 1])
    response = student_client.post(url, {"verdict": "correct", "message": "Typo"})
    assert response.status_code == 409 and "Answer the question first" in response.content.decode()
    assert not Answer.objects.exists() and not CardReport.objects.exists()
    # Another student's quiz is not found, whatever the action.
    assert student_client.post(reverse(action, args=[_session(other_student).pk, 1])).status_code == 404
