"""Showing questions and submitting answers, as full pages and as HTMX partials: the feedback page and partial, the
options' order and the focus, the next question, double and stale submits, quiz pages not kept for Back, and an
answer to a quiz that a newer one ended in another tab.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.quiz import services
from apps.quiz.forms import question_token
from apps.quiz.models import Answer, QuizSession
from tests.factories import make_card, make_deck
from tests.quiz.views_support import _deck, _post_answer, _session

pytestmark = pytest.mark.django_db


def test_question_page_shows_one_question_and_resumes_at_the_first_unanswered(student_client, student):
    session = _session(student)
    html = student_client.get(session.get_absolute_url()).content.decode()
    assert "Question 1 of 4" in html and "Which tool does job 0?" in html
    services.answer_submit(
        user=student, session_id=session.pk, position=1, submission=services.Submission(response="x")
    )
    html = student_client.get(session.get_absolute_url()).content.decode()
    assert "Question 2 of 4" in html and "Which tool does job 1?" in html


def test_full_page_post_redirects_to_the_feedback_page(student_client, student):
    session = _session(student)
    response = _post_answer(student_client, session, response="Tool number 0")
    assert response.status_code == 303
    assert response["Location"] == reverse("quiz:item", args=[session.pk, 1])
    html = student_client.get(response["Location"]).content.decode()
    assert "Correct" in html and "Tool number 0" in html
    assert "Model answer" in html and "Your answer" in html
    assert "Next question" in html


def test_htmx_post_returns_only_the_feedback_partial(student_client, student, htmx):
    session = _session(student)
    item = session.items.get(position=1)
    response = student_client.post(
        reverse("quiz:item", args=[session.pk, 1]), {"token": question_token(item), "response": "no clue"}, **htmx
    )
    html = response.content.decode()
    assert response.status_code == 200
    title, stage = html.lstrip().split("\n", 1)
    assert title == f"<title>Feedback on question 1 · {session.title} · mlcourse</title>"  # htmx sets the window's
    assert stage.startswith('<div id="stage"') and "<html" not in html
    assert "no clue" in html and "Tool number 0" in html
    assert html.count("Incorrect") == 1  # the verdict heading; the grader's note under it does not repeat it
    assert f'data-hx-get="{session.get_absolute_url()}"' in html
    assert Answer.objects.get().response == "no clue"
    # The address bar follows: a reload shows this feedback, and "Next" puts the quiz's own address back.
    assert response["HX-Replace-Url"] == reverse("quiz:item", args=[session.pk, 1])
    following = student_client.get(session.get_absolute_url(), **htmx)
    assert following["HX-Replace-Url"] == session.get_absolute_url()


def test_feedback_shows_the_score_and_the_rendered_explanation(student_client, student, htmx):
    deck = make_deck()
    make_card(deck=deck, question="Which tool?", answer="Tool number 0", explanation="*Because* it schedules $k$ pods.")
    session = _session(student, size=1, deck=deck)
    item = session.items.get()
    data = {"token": question_token(item), "response": "Tool number 0"}
    html = student_client.post(reverse("quiz:item", args=[session.pk, 1]), data, **htmx).content.decode()
    assert "Score 100\u00a0%" in html
    assert '<section class="explanation"' in html and "<em>Because</em>" in html and 'class="katex"' in html


def test_the_options_keep_their_order_across_reloads(student_client, student):
    session = _session(student, size=1, mode="choice")
    item = session.items.get(position=1)

    def shown():
        html = student_client.get(session.get_absolute_url()).content.decode()
        return re.findall(r'class="option-text prose" id="option-\d-text">(.*?)</div>', html)

    first = shown()
    assert first == [option["html"] for option in item.options] == shown()


@pytest.mark.parametrize(("mode", "focused"), [("recall", "<textarea"), ("choice", '<fieldset class="options"')])
def test_a_question_page_puts_focus_on_the_answer_but_an_htmx_swap_leaves_it_to_quiz_js(
    student_client, student, htmx, mode, focused
):
    session = _session(student, mode=mode)
    page = student_client.get(session.get_absolute_url()).content.decode()
    assert page.count("autofocus") == 1
    assert re.search(rf"{focused}[^>]* autofocus>", page)
    partial = student_client.get(session.get_absolute_url(), **htmx).content.decode()
    assert "autofocus" not in partial


def test_feedback_and_results_sent_whole_open_on_their_heading_unless_a_message_comes_first(
    student_client, student, htmx
):
    # Without JavaScript every answer lands on a new page: its focus starts at the verdict, one Tab from "Next".
    session = _session(student, size=1)
    feedback = student_client.get(_post_answer(student_client, session, response="no idea")["Location"])
    assert re.findall(r"<[^>]*\bautofocus\b[^>]*>", feedback.content.decode()) == [
        '<h2 id="verdict-heading" class="verdict" tabindex="-1" data-focus autofocus>'
    ]
    assert "autofocus" not in student_client.get(feedback.request["PATH_INFO"], **htmx).content.decode()
    results = student_client.get(session.get_absolute_url()).content.decode()
    assert '<h2 id="summary-heading" tabindex="-1" data-focus autofocus>' in results
    thanks = student_client.post(reverse("quiz:report", args=[session.pk, 1]), {"message": "typo"}, follow=True)
    assert "Thank you" in thanks.content.decode() and "autofocus" not in thanks.content.decode()


def test_htmx_next_returns_the_next_question_partial(student_client, student, htmx):
    session = _session(student)
    _post_answer(student_client, session, response="Tool number 0")
    html = student_client.get(session.get_absolute_url(), **htmx).content.decode()
    assert "<html" not in html and "Question 2 of 4" in html


ALREADY_ANSWERED = "You had already answered this question; this is the answer that counts."


def test_double_submit_returns_the_same_feedback(student_client, student):
    session = _session(student)
    first = _post_answer(student_client, session, response="Tool number 0")
    second = _post_answer(student_client, session, response=" Tool number 0 ")  # a double click
    assert first["Location"] == second["Location"]
    assert ALREADY_ANSWERED not in student_client.get(second["Location"]).content.decode()
    assert Answer.objects.get().response == "Tool number 0"


def test_a_different_answer_from_a_stale_page_shows_the_first_and_says_it_counts(student_client, student):
    """Without JavaScript: Back to the question form (or a second tab), another answer, submit. The feedback came
    as the POST's own page, so that a reload asked to send the form again."""
    session = _session(student)
    _post_answer(student_client, session, response="Tool number 0")
    response = _post_answer(student_client, session, response="something else")
    assert response.status_code == 303
    assert response["Location"] == reverse("quiz:item", args=[session.pk, 1])
    html = student_client.get(response["Location"]).content.decode()
    assert f'<li class="message message-warning">{ALREADY_ANSWERED}</li>' in html and "Correct" in html
    assert "Tool number 0" in html and "something else" not in html
    assert Answer.objects.get().response == "Tool number 0"
    reloaded = student_client.get(response["Location"]).content.decode()  # said once, as a reload finds no news
    assert ALREADY_ANSWERED not in reloaded and "Tool number 0" in reloaded


@pytest.mark.parametrize(
    ("first", "second", "note"),
    [
        ({"option": "0"}, {"option": "0"}, False),
        ({"option": "0"}, {"option": "1"}, True),
        ({"option": "0"}, {"reveal": "1"}, True),
        ({"reveal": "1"}, {"reveal": "1", "option": "2"}, False),  # the stale form still had an option checked
        ({"reveal": "1"}, {"option": "2"}, True),
        ({"option": "0"}, {}, True),  # nothing chosen on the stale page: still not what counts
    ],
)
def test_with_htmx_only_a_different_resubmit_gets_the_note(student_client, student, htmx, first, second, note):
    session = _session(student, mode="choice")
    url = reverse("quiz:item", args=[session.pk, 1])
    token = question_token(session.items.get(position=1))
    assert ALREADY_ANSWERED not in student_client.post(url, {"token": token, **first}, **htmx).content.decode()
    response = student_client.post(url, {"token": token, **second}, **htmx)
    assert response.status_code == 200 and "<html" not in response.content.decode()
    assert (ALREADY_ANSWERED in response.content.decode()) is note
    assert Answer.objects.count() == 1


@pytest.mark.parametrize("page", ["start", "review", "question", "question partial", "feedback", "answer"])
def test_quiz_pages_are_not_kept_for_back(student_client, student, htmx, page):
    """Back (or a tab left open) must fetch the quiz as it is now, not show a stale question form."""
    session = _session(student)
    if page in ("feedback", "answer"):
        answered = _post_answer(student_client, session, response="Tool number 0")
    response = {
        "start": lambda: student_client.get(reverse("quiz:start", args=[session.deck.slug])),
        "review": lambda: student_client.get(reverse("quiz:review")),
        "question": lambda: student_client.get(session.get_absolute_url()),
        "question partial": lambda: student_client.get(session.get_absolute_url(), **htmx),
        "feedback": lambda: student_client.get(reverse("quiz:item", args=[session.pk, 1])),
        "answer": lambda: answered,
    }[page]()
    assert response.status_code in (200, 303)
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


def test_an_answer_to_a_quiz_a_newer_one_ended_in_another_tab_is_given_back_with_the_newer_quiz(
    student_client, student, htmx
):
    deck = _deck()
    start = reverse("quiz:start", args=[deck.slug])
    old = _session(student, deck=deck, size=3)
    _post_answer(student_client, old, 1, response="Tool number 0")
    # Another tab starts a new quiz on the deck, which ends this one.
    newer = QuizSession.objects.get(
        pk=student_client.post(start, {"size": 2, "mode": "recall", "order": "new"}).url.split("/")[2]
    )
    response = _post_answer(student_client, old, 2, response="My long\nthought-out answer")
    html = response.content.decode()
    assert response.status_code == 409 and Answer.objects.filter(session=old).count() == 1
    assert "It ended in another tab or window, where a newer quiz on this deck is open" in html
    assert "My long<br>thought-out answer" in html  # not lost: given back to copy
    assert f'<a class="button" href="{newer.get_absolute_url()}">Carry on with the newer quiz</a>' in html
    # With htmx the page reloads to the results: the words come in the message, the newer quiz on the results.
    response = _post_answer(student_client, old, 2, headers=htmx, response="Typed in the old tab")
    assert response.status_code == 409 and response["HX-Refresh"] == "true"
    summary = student_client.get(old.get_absolute_url()).content.decode()
    assert "Your answer was not saved; here it is: “<bdi>Typed in the old tab</bdi>”" in summary
    assert summary.count("This quiz is finished and takes no more answers.") == 1  # said once, with the words
    assert "Your newer quiz on this deck is still open, 0 of 2 questions answered" in summary
    assert f'<a href="{newer.get_absolute_url()}">carry on with it</a>' in summary
    # Once the newer one is done, or for a quiz answered in full, nothing is offered.
    for position in (1, 2):
        _post_answer(student_client, newer, position, response="x")
    assert "still open" not in student_client.get(old.get_absolute_url()).content.decode()
    assert "still open" not in student_client.get(newer.get_absolute_url()).content.decode()
