"""Quiz pages as full pages and as HTMX partials, their permissions, bad input and query counts."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.quiz import services
from apps.quiz.forms import question_token
from apps.quiz.models import Answer, CardReport, CardState, QuizSession
from tests.conftest import PASSWORD
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _deck(size: int = 6):
    deck = make_deck()
    for i in range(size):
        make_card(deck=deck, question=f"Which tool does job {i}?", answer=f"Tool number {i}")
    return deck


def _session(user, *, size=4, mode="recall", deck=None) -> QuizSession:
    return services.session_start(user=user, deck=deck or _deck(), size=size, mode=mode, order="new")


def _post_answer(client, session, position=1, *, headers: dict | None = None, **data):
    item = session.items.get(position=position)
    url = reverse("quiz:item", args=[session.pk, position])
    return client.post(url, {"token": question_token(item), **data}, **(headers or {}))


def test_taking_a_quiz_requires_signing_in_and_returns_there(client, student):
    deck = _deck()
    url = reverse("quiz:start", args=[deck.slug])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"
    response = client.post(reverse("login"), {"username": "alice", "password": "correct-horse-battery", "next": url})
    assert response["Location"] == url


def test_anonymous_visitors_can_browse_decks(client):
    deck = _deck()
    assert client.get(deck.get_absolute_url()).status_code == 200


def test_start_form_creates_a_session_and_redirects_to_it(student_client):
    deck = _deck()
    page = student_client.get(reverse("quiz:start", args=[deck.slug]))
    assert "6 new to you" in page.content.decode()
    response = student_client.post(
        reverse("quiz:start", args=[deck.slug]), {"size": 3, "mode": "choice", "order": "random"}
    )
    session = QuizSession.objects.get()
    assert response["Location"] == session.get_absolute_url()
    assert (session.size, session.mode, session.order, session.items.count()) == (3, "choice", "random", 3)


@pytest.mark.parametrize(
    "data", [{"size": 0, "mode": "mixed", "order": "new"}, {"size": 5, "mode": "x", "order": "new"}]
)
def test_bad_start_options_are_a_form_error(student_client, data):
    deck = _deck()
    response = student_client.post(reverse("quiz:start", args=[deck.slug]), data)
    assert response.status_code == 422
    assert "Please correct the errors below" in response.content.decode()
    assert "From 1 to 50" in response.content.decode()  # the limits are stated, not only enforced
    assert QuizSession.objects.count() == 0


def test_review_with_nothing_due_says_so(student_client):
    _deck()
    response = student_client.post(reverse("quiz:review"), {"size": 10, "mode": "mixed", "order": "due"}, follow=True)
    assert "No cards are due for review right now." in response.content.decode()
    assert QuizSession.objects.count() == 0


def test_review_page_says_when_the_next_card_comes_back(student_client, student):
    fresh = student_client.get(reverse("quiz:review")).content.decode()
    assert "Nothing is due yet" in fresh and "comes back in" not in fresh
    session = _session(student, size=1)
    _post_answer(student_client, session, response=session.items.get().card.answer)
    later = student_client.get(reverse("quiz:review")).content.decode()
    assert "Nothing is due right now. The next card comes back in" in later
    assert "Start" not in later  # nothing to start yet: links onward instead


def test_the_next_card_due_within_a_minute_comes_back_in_less_than_a_minute(student_client, student):
    session = _session(student, size=1)
    _post_answer(student_client, session, response="no idea")
    CardState.objects.update(due=timezone.now() + timedelta(seconds=40))
    html = student_client.get(reverse("quiz:review")).content.decode()
    assert "The next card comes back in less than a minute (" in html and "0\xa0minutes" not in html
    CardState.objects.update(due=timezone.now() + timedelta(hours=3, minutes=5, seconds=30))
    html = student_client.get(reverse("quiz:review")).content.decode()
    assert "The next card comes back in 3\xa0hours, 5\xa0minutes (" in html


def test_a_review_question_names_its_deck_and_the_breadcrumb_says_review(student_client, student):
    session = _session(student, size=1)
    _post_answer(student_client, session, response="no idea")
    CardState.objects.update(due=timezone.now())
    response = student_client.post(reverse("quiz:review"), {"size": 5, "mode": "recall", "order": "due"})
    html = student_client.get(response["Location"]).content.decode()
    assert f'<p class="meta card-deck">From {session.deck.title}</p>' in html
    assert ">End the review here</a>" in html and "End the quiz" not in html
    # and on its feedback, where the deck is as much news as on the question
    review = QuizSession.objects.get(deck=None)
    ending = student_client.get(reverse("quiz:finish", args=[review.pk])).content.decode()
    assert "<h1>End this review?</h1>" in ending and ">End the review</button>" in ending
    _post_answer(student_client, review, response="no idea")
    feedback = student_client.get(reverse("quiz:item", args=[review.pk, 1])).content.decode()
    assert (
        'data-state="feedback"' in feedback and f'<p class="meta card-deck">From {session.deck.title}</p>' in feedback
    )
    assert '<li aria-current="page">Review</li>' in html
    deck_quiz = student_client.get(_session(student, size=1, deck=session.deck).get_absolute_url()).content.decode()
    assert 'data-state="question"' in deck_quiz and "card-deck" not in deck_quiz  # the deck's title heads the page
    assert ">End the quiz here</a>" in deck_quiz


def test_the_size_help_fits_a_review_which_has_no_deck(student_client, student):
    session = _session(student, size=1)
    _post_answer(student_client, session, response="no idea")
    CardState.objects.update(due=timezone.now())
    review = student_client.get(reverse("quiz:review")).content.decode()
    assert "with fewer cards due, the review is shorter" in review and "deck with fewer cards" not in review
    deck_page = student_client.get(reverse("quiz:start", args=[session.deck.slug])).content.decode()
    assert "a deck with fewer cards gives a shorter quiz" in deck_page


@pytest.mark.parametrize(("mode", "cards", "note"), [("choice", 3, True), ("choice", 5, False), ("mixed", 3, False)])
def test_multiple_choice_falling_back_to_free_recall_says_why(student_client, student, mode, cards, note):
    session = _session(student, size=1, mode=mode, deck=_deck(cards))
    html = student_client.get(session.get_absolute_url()).content.decode()
    assert ("Free recall: this deck has too few cards for four options." in html) is note


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
    """Without JavaScript: Back to the question form (or a second tab), another answer, submit."""
    session = _session(student)
    _post_answer(student_client, session, response="Tool number 0")
    response = _post_answer(student_client, session, response="something else")
    html = response.content.decode()
    assert response.status_code == 200  # the feedback itself: the note would not survive a redirect
    assert ALREADY_ANSWERED in html and "Correct" in html
    assert "Tool number 0" in html and "something else" not in html
    assert Answer.objects.get().response == "Tool number 0"


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


def test_override_through_the_page(student_client, student, htmx):
    session = _session(student)
    _post_answer(student_client, session, response="no idea")
    response = student_client.post(reverse("quiz:override", args=[session.pk, 1]), {"verdict": "correct"}, **htmx)
    html = response.content.decode()
    assert "You marked this as correct; the grader said incorrect" in html
    assert "Undo my correction" in html
    assert Answer.objects.get().final_score == 1.0


def _override_buttons(html: str) -> dict[str, str]:
    return dict(re.findall(r'<button type="submit" name="verdict" value="(\w*)"[^>]*>([^<]+)</button>', html))


def test_the_feedback_offers_the_corrections_that_change_the_verdict(student_client, student):
    session = _session(student, size=3)
    answers = {1: "no idea", 2: "{} or maybe a hammer", 3: "{}"}  # wrong, hedged, right
    for position, response in answers.items():
        card = session.items.get(position=position).card
        assert _post_answer(student_client, session, position, response=response.format(card.answer)).status_code == 303
    offered = {}
    for answer in Answer.objects.select_related("item"):
        page = student_client.get(reverse("quiz:item", args=[session.pk, answer.item.position]))
        offered[answer.auto_verdict] = _override_buttons(page.content.decode())
    assert offered == {
        "incorrect": {"correct": "I was right"},
        "partial": {"correct": "I was right", "incorrect": "I was wrong"},
        "correct": {"incorrect": "I was wrong"},
    }


def test_i_was_wrong_on_a_partly_right_answer_makes_it_again(student_client, student, htmx):
    session = _session(student)
    card = session.items.get(position=1).card
    _post_answer(student_client, session, response=f"{card.answer} or maybe a hammer")
    assert Answer.objects.get().auto_verdict == "partial"
    response = student_client.post(reverse("quiz:override", args=[session.pk, 1]), {"verdict": "incorrect"}, **htmx)
    html = response.content.decode()
    assert "You marked this as incorrect; the grader said partly correct (50\u00a0%)." in html
    assert _override_buttons(html) == {"": "Undo my correction"}
    answer = Answer.objects.get()
    assert (answer.final_verdict, answer.final_score, answer.rating) == ("incorrect", 0.0, 1)  # Again
    assert QuizSession.objects.get().score_sum == 0.0


def test_what_was_typed_before_show_answer_is_kept_beside_the_model_answer_not_graded(student_client, student):
    # The Anki habit: type an answer, then show the answer to compare. The words stay; the score is a shown one.
    session = _session(student)
    response = _post_answer(student_client, session, reveal="1", response="  Tool number 0, I think  ")
    html = student_client.get(response["Location"]).content.decode()
    yours = '<p class="response"><bdi>Tool number 0, I think</bdi></p><p class="meta" id="not-checked">Not checked:'
    assert yours in html
    assert "None given" not in html and "Answer shown" in html
    answer = Answer.objects.get()
    assert answer.revealed and answer.final_score == 0.0 and answer.response == "Tool number 0, I think"
    assert answer.response_key == ""  # not counted among the cohort's common wrong answers
    _post_answer(student_client, session, 2, reveal="1", response="   ")
    assert (
        "None given: you showed the answer."
        in student_client.get(reverse("quiz:item", args=[session.pk, 2])).content.decode()
    )


def test_show_answer_tapped_for_check_answer_is_undone_by_check_what_i_typed(student_client, student, htmx):
    session = _session(student)
    card = session.items.get(position=1).card
    response = _post_answer(student_client, session, reveal="1", response=card.answer)
    html = student_client.get(response["Location"]).content.decode()
    assert "Answer shown" in html and "Check what I typed" in html and "I was right" not in html

    response = student_client.post(reverse("quiz:check_typed", args=[session.pk, 1]), **htmx)
    if not htmx:
        assert response.status_code == 303 and response["Location"] == reverse("quiz:item", args=[session.pk, 1])
        response = student_client.get(response["Location"])
    html = response.content.decode()
    assert "Answer shown" not in html and "Check what I typed" not in html and "Not checked" not in html
    assert "Score 100\u00a0%" in html and _override_buttons(html) == {"incorrect": "I was wrong"}
    assert QuizSession.objects.get().score_sum == 1.0


def test_a_shown_answer_with_nothing_typed_offers_nothing_to_check(student_client, student):
    session = _session(student)
    response = _post_answer(student_client, session, reveal="1", response="  ")
    assert "Check what I typed" not in student_client.get(response["Location"]).content.decode()
    response = student_client.post(reverse("quiz:check_typed", args=[session.pk, 1]))
    assert response.status_code == 409 and "There is nothing to check" in response.content.decode()
    unanswered = student_client.post(reverse("quiz:check_typed", args=[session.pk, 2]))
    assert unanswered.status_code == 409 and "Answer the question first" in unanswered.content.decode()
    assert Answer.objects.get().revealed


def test_a_shown_answer_cannot_be_marked_right_and_the_page_says_why(student_client, student):
    session = _session(student)
    _post_answer(student_client, session, reveal="1")
    response = student_client.post(reverse("quiz:override", args=[session.pk, 1]), {"verdict": "correct"})
    html = response.content.decode()
    assert response.status_code == 409
    assert "This answer cannot be marked by hand" in html and "could not be used" not in html
    assert Answer.objects.get().final_score == 0.0


@pytest.mark.parametrize(
    ("scores", "verdict", "total"),
    [
        ([0.7, 0.471], "incorrect", 0.0),  # moved by differences, the total ended a hair below 0
        ([0.1] * 10, "correct", 10.0),  # ... or a hair above the number answered
    ],
)
def test_overrides_on_partial_answers_bring_the_quiz_total_exactly_to_its_bounds(
    student_client, student, htmx, scores, verdict, total
):
    session = _session(student, size=len(scores), deck=_deck(len(scores)))
    for position in range(1, len(scores) + 1):
        assert _post_answer(student_client, session, position, response="no idea").status_code == 303
    # The grader's partial scores, stored as the answer path would have summed them; set on the rows so the
    # test does not hang on how the grader is tuned.
    running = 0.0
    for answer, score in zip(Answer.objects.order_by("item__position"), scores, strict=True):
        Answer.objects.filter(pk=answer.pk).update(
            auto_verdict="partial", final_verdict="partial", auto_score=score, final_score=score
        )
        running += score
    QuizSession.objects.filter(pk=session.pk).update(score_sum=running)
    for position in range(1, len(scores) + 1):
        url = reverse("quiz:override", args=[session.pk, position])
        assert student_client.post(url, {"verdict": verdict}, **htmx).status_code == 200
    session.refresh_from_db()
    assert (session.answered_count, session.score_sum) == (len(scores), total)


def test_summary_lists_each_question_with_its_verdict_and_card_link(student_client, student):
    session = _session(student, size=2)
    _post_answer(student_client, session, 1, response="Tool number 0")
    _post_answer(student_client, session, 2, response="no idea")
    html = student_client.get(session.get_absolute_url()).content.decode()
    assert "Your results: 50\u00a0%" in html
    for item in session.items.all():
        assert f'href="{item.card.get_absolute_url()}?answers=shown"' in html  # the card, its answer open
    assert html.count('class="badge badge-correct"') == 1 and html.count('class="badge badge-incorrect"') == 1
    for position in (1, 2):  # each answer's feedback, with its "I was right" / "I was wrong", is a click away
        assert f'href="{reverse("quiz:item", args=[session.pk, position])}">See your answer' in html
    assert "ended the quiz" not in html


def test_the_summary_of_a_quiz_ended_early_says_what_its_score_covers(student_client, student):
    session = _session(student, size=4)
    _post_answer(student_client, session, 1, response="Tool number 0")
    student_client.post(reverse("quiz:finish", args=[session.pk]))
    html = student_client.get(session.get_absolute_url()).content.decode()
    assert "Your results: 100\u00a0%" in html
    assert "This quiz ended before its last question: the score is over the 1 question you answered, not all 4." in html
    assert html.count("Not answered") == 3
    assert "Ended early: 1 of 4 answered" in html and "Finished" not in html


def test_the_summary_of_a_review_ended_early_calls_it_a_review(student_client, student):
    deck = _deck(size=2)
    services.session_start(user=student, deck=deck, size=2, mode="recall", order="new")
    answered = QuizSession.objects.get(user=student)
    for position in (1, 2):
        _post_answer(student_client, answered, position, response="no idea")
    CardState.objects.filter(user=student).update(due=timezone.now() - timedelta(minutes=1))
    review = services.session_start(user=student, deck=None, size=2, mode="recall", order="due")
    student_client.post(reverse("quiz:finish", args=[review.pk]))
    html = student_client.get(review.get_absolute_url()).content.decode()
    assert "Ended early: 0 of 2 answered" in html
    assert "You ended the review before answering any of its 2 questions." in html


def test_summary_names_a_shown_answer_as_the_feedback_did_and_scores_it_zero(student_client, student):
    session = _session(student, size=2)
    _post_answer(student_client, session, 1, response="Tool number 0")
    _post_answer(student_client, session, 2, reveal="1")
    assert "Answer shown" in student_client.get(reverse("quiz:item", args=[session.pk, 2])).content.decode()
    summary = student_client.get(session.get_absolute_url()).content.decode().split('class="summary"', 1)[1]
    assert "Your results: 50\u00a0%" in summary
    verdicts = re.findall(r'<td data-label="Verdict"><span class="badge[^"]*">([^<]+)</span>', summary)
    scores = re.findall(r'<td data-label="Score">([^<]+)</td>', summary)
    assert list(zip(verdicts, scores, strict=True)) == [("Correct", "100\u00a0%"), ("Answer shown", "0\u00a0%")]


def test_summary_shows_questions_with_their_formulas_typeset(student_client, student):
    deck = make_deck()
    for i in range(2):
        make_card(deck=deck, question=f"What does the temperature $T_{i}$ do in the softmax?", answer=f"Sharpens {i}")
    session = _session(student, size=2, deck=deck)
    _post_answer(student_client, session, 1, response="Sharpens 0")
    _post_answer(student_client, session, 2, response="no idea")
    summary = student_client.get(session.get_absolute_url()).content.decode().split('class="summary"', 1)[1]
    assert "$T_" not in summary  # read out as "dollar T dollar"
    assert summary.count('class="card-title"') == 2 and summary.count("<math") == 2


def test_progress_page_shows_decks_and_recent_sessions(student_client, student):
    session = _session(student, size=2)
    _post_answer(student_client, session, 1, response="Tool number 0")
    html = student_client.get(reverse("quiz:progress")).content.decode()
    assert session.deck.title in html
    assert "1 of 6" in html  # cards seen
    assert "Resume" in html


def test_progress_page_says_a_score_covers_only_the_questions_answered_so_far(student_client, student):
    open_quiz = _session(student, size=3)
    _post_answer(student_client, open_quiz, 1, response="Tool number 0")
    ended = _session(student, size=3)
    _post_answer(student_client, ended, 1, response="Tool number 0")
    services.session_finish(user=student, session_id=ended.pk)
    done = _session(student, size=1)
    _post_answer(student_client, done, 1, response="Tool number 0")
    scores = re.findall(
        r'<td data-label="Score">(.*?)</td>', student_client.get(reverse("quiz:progress")).content.decode()
    )
    assert scores == [
        "100\u00a0%",
        '100\u00a0% <span class="meta">of the 1 answered</span>',
        '100\u00a0% <span class="meta">so far</span>',
    ]


def test_progress_page_counts_cards_due_later_apart_from_those_due_now_and_says_so(student_client, student):
    session = _session(student, size=2)
    _post_answer(student_client, session, 1, response="no idea")
    _post_answer(student_client, session, 2, response="no idea")
    CardState.objects.filter(card__position=1).update(due=timezone.now() - timedelta(minutes=1))
    CardState.objects.filter(card__position=2).update(due=timezone.now() + timedelta(days=2))
    html = student_client.get(reverse("quiz:progress")).content.decode()
    # "Due now 7, Due within a week 0" read as a contradiction: the second column leaves out the first's cards.
    assert (
        '<td data-label="Due now">1</td>' in html
        and '<td data-label="Due later, in the next 7&nbsp;days">1</td>' in html
    )
    assert "Due within a week" not in html
    # What "Mastered" means was only in a title attribute, which a phone never shows.
    assert "Mastered: past the learning steps, and recalled now with at least 90 % probability (FSRS)" in html
    assert "it ends when the card is due for review again, where it counts as due, not mastered." in html


def test_progress_page_says_when_the_next_card_comes_back(student_client, student):
    fresh = student_client.get(reverse("quiz:progress")).content.decode()
    assert "Nothing is due yet" in fresh and "comes back in" not in fresh
    session = _session(student, size=1)
    _post_answer(student_client, session, response="no idea")
    CardState.objects.update(due=timezone.now() + timedelta(hours=3, minutes=30))

    later = student_client.get(reverse("quiz:progress")).content.decode().replace("\xa0", " ")
    assert "Nothing is due right now. The next card comes back in 3 hours" in later  # as "Review due cards" says
    CardState.objects.update(due=timezone.now() - timedelta(minutes=1))
    due = student_client.get(reverse("quiz:progress")).content.decode()
    assert "1 card is due for review now." in due and "comes back in" not in due


# --- query counts ------------------------------------------------------------------------


def _history(user, deck, sessions: int):
    for _ in range(sessions):
        quiz = services.session_start(user=user, deck=deck, size=deck.cards.count(), mode="recall", order="random")
        for item in quiz.items.all():
            services.answer_submit(
                user=user, session_id=quiz.pk, position=item.position, submission=services.Submission(response="x")
            )


def test_starting_a_quiz_takes_as_many_queries_for_three_questions_as_for_eight(student):
    deck = _deck(8)
    counts = []
    for size in (3, 8):
        with CaptureQueriesContext(connection) as queries:
            services.session_start(user=student, deck=deck, size=size, mode="mixed", order="new")
        counts.append(len(queries))
    assert counts[0] == counts[1], counts  # each card's options read its question: not a query per card


@pytest.mark.parametrize("scale", [1, 5])
def test_question_and_submit_use_a_constant_number_of_queries(
    student_client, student, django_assert_num_queries, scale, htmx
):
    deck = _deck(4 * scale)
    _history(student, deck, scale)
    session = services.session_start(user=student, deck=deck, size=3, mode="recall", order="new")
    with django_assert_num_queries(4):
        student_client.get(session.get_absolute_url())
    item = session.items.get(position=1)
    with django_assert_num_queries(13):
        student_client.post(
            reverse("quiz:item", args=[session.pk, 1]), {"token": question_token(item), "response": "x"}, **htmx
        )
    with django_assert_num_queries(4):  # "Next question": the HTMX GET that shows the next one
        next_question = student_client.get(session.get_absolute_url(), **htmx)
    assert 'data-state="question"' in next_question.content.decode()
    item = session.items.get(position=2)
    with django_assert_num_queries(13):  # without JavaScript: the POST that redirects to the feedback
        response = student_client.post(
            reverse("quiz:item", args=[session.pk, 2]), {"token": question_token(item), "response": "x"}
        )
    assert response.status_code == 303


@pytest.mark.parametrize("scale", [1, 5])
def test_progress_uses_a_constant_number_of_queries(student_client, student, django_assert_num_queries, scale):
    for _ in range(scale):
        _history(student, _deck(3), 1)
    with django_assert_num_queries(10):  # "Coming up" is one of them
        student_client.get(reverse("quiz:progress"))


def test_the_start_form_offers_the_options_of_the_last_quiz_on_that_deck(student_client, student, other_student):
    deck, other = _deck(), _deck()
    start = reverse("quiz:start", args=[deck.slug])
    student_client.post(start, {"size": 3, "mode": "choice", "order": "random"})
    services.session_start(user=other_student, deck=deck, size=7, mode="recall", order="due")  # not hers
    page = student_client.get(start).content.decode()
    assert re.search(r'<input type="number" name="size" value="3"', page)
    assert re.search(r'value="choice"[^>]* checked', page) and re.search(r'value="random"[^>]* checked', page)
    fresh = student_client.get(reverse("quiz:start", args=[other.slug])).content.decode()
    assert re.search(r'name="size" value="10"', fresh) and re.search(r'value="mixed"[^>]* checked', fresh)


def test_the_start_page_offers_to_resume_an_unfinished_quiz(student_client, student, other_student):
    deck = _deck()
    start = reverse("quiz:start", args=[deck.slug])
    assert "unfinished" not in student_client.get(start).content.decode()
    session = _session(student, deck=deck, size=3)
    _post_answer(student_client, session, 1, response="Tool number 0")
    _session(other_student, deck=deck)  # someone else's is none of this student's business

    page = student_client.get(start).content.decode()
    assert "You have an unfinished quiz on this deck, started just now: 1 of 3 questions answered." in page
    QuizSession.objects.filter(pk=session.pk).update(created_at=timezone.now() - timedelta(days=2, hours=3))
    page = student_client.get(start).content.decode()
    assert "started 2\xa0days, 3\xa0hours ago: 1 of 3 questions answered." in page
    assert f'href="{session.get_absolute_url()}">Resume it</a>' in page
    assert ">Start a new quiz</button>" in page  # still possible, but no longer the obvious thing

    student_client.post(reverse("quiz:finish", args=[session.pk]))
    assert "unfinished" not in student_client.get(start).content.decode()


def test_the_review_page_offers_to_resume_an_unfinished_review_and_calls_the_other_a_new_review(
    student_client, student
):
    """The note under "Resume it" said "Starting a new review ends this one" over a button saying "new quiz"."""
    first = _session(student, size=2)
    for position in (1, 2):
        _post_answer(student_client, first, position, response="no idea")
    CardState.objects.update(due=timezone.now())
    review = services.session_start(user=student, deck=None, size=2, mode="recall", order="due")
    _post_answer(student_client, review, 1, response="no idea")
    page = student_client.get(reverse("quiz:review")).content.decode()
    assert "You have an unfinished review, started just now: 1 of 2 questions answered." in page
    assert "Starting a new review ends this one" in page and ">Start a new review</button>" in page
    assert "new quiz" not in page


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


def test_starting_a_new_quiz_ends_the_one_left_open_so_it_does_not_come_back_as_unfinished(
    student_client, student, other_student
):
    deck, elsewhere = _deck(), _deck()
    start = reverse("quiz:start", args=[deck.slug])
    left = _session(student, deck=deck, size=3)
    _post_answer(student_client, left, 1, response="Tool number 0")
    on_another_deck, theirs = _session(student, deck=elsewhere), _session(other_student, deck=deck)
    page = student_client.get(start).content.decode()
    assert "Starting a new quiz ends this one; its answers are kept." in page

    new = QuizSession.objects.get(
        pk=student_client.post(start, {"size": 1, "mode": "recall", "order": "new"}).url.split("/")[2]
    )
    _post_answer(student_client, new, 1, response="no idea")
    # Before, once the new one was done the old one was offered again, "unfinished", here and on the home page.
    assert "unfinished" not in student_client.get(start).content.decode()
    left.refresh_from_db()
    assert left.finished_at is not None and left.answers.count() == 1
    assert QuizSession.objects.filter(pk__in=[on_another_deck.pk, theirs.pk], finished_at__isnull=True).count() == 2


@pytest.mark.parametrize("review", [False, True])
def test_a_refused_start_form_opens_on_the_number_of_questions(student_client, student, review):
    session = _session(student, size=1)
    _post_answer(student_client, session, response="no idea")
    CardState.objects.update(due=timezone.now())  # a review's form is shown only with cards due
    url = reverse("quiz:review") if review else reverse("quiz:start", args=[session.deck.slug])
    response = student_client.post(url, {"size": 0, "mode": "mixed", "order": "new"})
    autofocused = re.findall(r"<input[^>]*\bautofocus\b[^>]*>", response.content.decode())
    assert response.status_code == 422
    # Not the top of the page: a keyboard or screen-reader user starts at the field that needs correcting.
    assert len(autofocused) == 1 and 'name="size"' in autofocused[0]


@pytest.mark.parametrize(
    ("size", "error"),
    [
        ("0", "Ask for at least 1 question."),
        ("51", "Ask for at most 50 questions."),
        ("", "Say how many questions: from 1 to 50."),
        ("ten", "Enter a whole number of questions, from 1 to 50."),
    ],
)
def test_a_refused_number_of_questions_says_what_to_ask_for(student_client, size, error):
    """What a browser that does not check the number itself sends: not Django's "Ensure this value is ..."."""
    deck = _deck()
    response = student_client.post(
        reverse("quiz:start", args=[deck.slug]), {"size": size, "mode": "mixed", "order": "new"}
    )
    assert response.status_code == 422
    assert error in response.content.decode() and "Ensure this value" not in response.content.decode()


def test_show_answer_with_an_option_chosen_asks_first_without_javascript_and_keeps_the_choice(student_client, student):
    """Without JavaScript quiz.js cannot ask: the question comes back with the choice still checked, asking."""
    session = _session(student, mode="choice")
    response = _post_answer(student_client, session, option="2", reveal="1")
    assert response.status_code == 303 and Answer.objects.count() == 0
    html = student_client.get(response["Location"]).content.decode()
    assert "You chose option 3." in html and "Show the answer without checking your choice?" in html
    assert re.search(r'<input type="radio" name="option" value="2"[^>]* checked', html)
    assert 'name="reveal_confirmed" value="1"' in html and "Show the answer anyway" in html
    assert 'id="reveal-ask" tabindex="-1" data-focus autofocus' in html
    assert "autofocus" not in html.split("reveal-ask")[0]  # not the options: the question by the buttons

    # "Check my choice" grades the option that was kept; the confirmation's field does not get in the way.
    _post_answer(student_client, session, option="2", reveal_confirmed="1")
    assert Answer.objects.get().chosen_option == 2 and not Answer.objects.get().revealed
    # Confirmed, the answer is shown, and the choice is dropped as a shown answer's is.
    _post_answer(student_client, session, 2, option="1", reveal="1", reveal_confirmed="1")
    shown = Answer.objects.get(item__position=2)
    assert shown.revealed and shown.chosen_option is None


def test_a_reload_of_the_question_asking_first_keeps_the_choice_and_the_question(student_client, student):
    """Without JavaScript the ask is a page of its own: a reload (or coming back to it) cleared the choice and
    the question, and the student had to choose again not knowing why."""
    session = _session(student, mode="choice")
    question = _post_answer(student_client, session, option="2", reveal="1")["Location"]
    student_client.get(question)
    for _reload in range(2):
        html = student_client.get(question).content.decode()
        assert "You chose option 3." in html and 'name="reveal_confirmed" value="1"' in html
        assert re.search(r'<input type="radio" name="option" value="2"[^>]* checked', html)
    # Answered, the question is gone; the next question does not ask.
    _post_answer(student_client, session, option="2", reveal_confirmed="1")
    assert 'id="verdict-heading"' in student_client.get(question).content.decode()
    assert "You chose option" not in student_client.get(session.get_absolute_url()).content.decode()


def test_a_refused_answer_is_said_once_and_the_ask_is_forgotten_once_answered(student_client, student, htmx):
    """A refusal (nothing chosen) is said once; and the ask kept for a reload is not brought back after the
    question got an answer some other way (with JavaScript in another tab)."""
    session = _session(student, mode="choice")
    question = _post_answer(student_client, session, option="2", reveal="1")["Location"]
    _post_answer(student_client, session, option="1", headers=htmx)
    assert "You chose option" not in student_client.get(question).content.decode()
    second = _post_answer(student_client, session, 2)["Location"]
    assert "Choose one of the options" in student_client.get(second).content.decode()
    assert "Choose one of the options" not in student_client.get(second).content.decode()


def test_show_answer_with_an_option_chosen_asks_in_the_htmx_partial_too(student_client, student, htmx):
    session = _session(student, mode="choice")
    response = _post_answer(student_client, session, option="0", reveal="1", headers=htmx)
    html = response.content.decode()
    assert response.status_code == 422 and "<html" not in html
    assert "You chose option 1." in html and "data-focus autofocus" not in html
    assert Answer.objects.count() == 0


def test_show_answer_with_nothing_chosen_does_not_ask(student_client, student):
    session = _session(student, mode="choice")
    _post_answer(student_client, session, reveal="1")
    assert Answer.objects.get().revealed


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


def _results_actions(client, session) -> str:
    html = client.get(session.get_absolute_url()).content.decode().replace("\xa0", " ")
    return html.split('class="summary"', 1)[1].split("</section>", 1)[0]


def test_the_results_offer_a_review_only_when_cards_are_due_and_say_how_many(student_client, student, other_student):
    """The review takes due cards from every deck: after a deck's quiz, its button says so ("9 due" read as the
    deck's own, where the home page gave the deck 4)."""
    session = _session(student, size=2)
    _post_answer(student_client, session, 1, response="Tool number 0")
    _post_answer(student_client, session, 2, response="no idea")
    CardState.objects.filter(user=student).update(due=timezone.now() + timedelta(hours=3, minutes=30))
    nothing_due = _results_actions(student_client, session)
    assert reverse("quiz:review") not in nothing_due  # no button that leads to "Nothing is due right now"
    assert "Nothing is due right now. The next card comes back in 3 hours" in nothing_due

    _session(other_student, size=1)  # a classmate's due cards are not hers
    CardState.objects.filter(user=student).update(due=timezone.now() - timedelta(minutes=1))
    two_due = _results_actions(student_client, session)
    assert f'href="{reverse("quiz:review")}">Review the 2 due cards (all decks)</a>' in two_due
    CardState.objects.filter(user=student, card=session.items.get(position=2).card).update(
        due=timezone.now() + timedelta(days=1)
    )
    one_due = _results_actions(student_client, session)
    assert f'href="{reverse("quiz:review")}">Review the due card (all decks)</a>' in one_due


@pytest.mark.parametrize("scale", [1, 5])
def test_the_results_page_uses_a_constant_number_of_queries(student_client, student, django_assert_num_queries, scale):
    deck = _deck(4 * scale)
    _history(student, deck, scale)
    session = QuizSession.objects.filter(user=student).latest("pk")
    CardState.objects.filter(user=student).update(due=timezone.now() - timedelta(minutes=1))
    # How many are due and when the next comes back is one; which missed cards were set aside since, another; the
    # deck's open quiz a retry would end, one more.
    with django_assert_num_queries(7):
        student_client.get(session.get_absolute_url())


def _answer_seed_card(client, user, question: str, response: str) -> str:
    """The feedback page for `response` to the seed card asking `question`, answered in a free-recall quiz."""
    from apps.content.models import Card

    card = Card.objects.get(question=question)
    quiz = services.session_start(user=user, deck=card.deck, size=50, mode="recall", order="new")
    position = quiz.items.get(card=card).position
    _post_answer(client, quiz, position, response=response)
    html = client.get(reverse("quiz:item", args=[quiz.pk, position])).content.decode().replace("\xa0", " ")
    section = html.split('<section class="feedback', 1)[1].split('<div class="prose question-text">', 1)[0]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", section.split(">", 1)[1])).split())


@pytest.mark.parametrize(
    ("question", "response", "score", "why"),
    [
        (  # the grader names what is missing only when more is missing than covered
            "Which technique does TensorFlow's tf.data API primarily optimize?",
            "data loading speed",
            "95 %",
            "Not 100 %: the score follows how much of the model answer’s key points your answer covers, and 75 %"
            " or more counts as correct.",
        ),
        (
            "What does the all-reduce operation do in distributed data-parallel training?",
            "all reduce sums gradient tensors over every worker and broadcasts the reduced result back to each one",
            "84 %",
            "Not 100 %: the score follows how much of the model answer’s key points your answer covers, and 75 %"
            " or more counts as correct.",
        ),
        (
            "When using Kubernetes for ML workload orchestration, what resource type is typically used to run a"
            " one-time batch training job?",
            "a Jobb resource",
            "90 %",
            "Not 100 %: a misspelt term is accepted, at 90 %.",
        ),
    ],
)
def test_a_correct_answer_scored_under_100_says_why(seeded, student_client, student, question, response, score, why):
    """ "Correct · Score 86 %" with only "You covered …" under it left the missing 14 % unexplained."""
    feedback = _answer_seed_card(student_client, student, question, response)
    assert feedback.startswith(f"Correct Score {score}")
    assert why in feedback


def test_a_full_score_or_a_corrected_verdict_needs_no_such_note(seeded, student_client, student, htmx):
    kubernetes = (
        "When using Kubernetes for ML workload orchestration, what resource type is typically used to run a one-time"
        " batch training job?"
    )
    full = _answer_seed_card(student_client, student, kubernetes, "a Job")
    assert full.startswith("Correct Score 100 %") and "Not 100 %" not in full
    question = "What does the all-reduce operation do in distributed data-parallel training?"
    graded = _answer_seed_card(student_client, student, question, "aggregates gradients across workers")
    assert graded.startswith("Correct Score 76 %") and "Not 100 %" in graded
    quiz = QuizSession.objects.filter(user=student).latest("pk")
    position = quiz.answers.get().item.position
    student_client.post(reverse("quiz:override", args=[quiz.pk, position]), {"verdict": "incorrect"}, **htmx)
    overridden = student_client.get(reverse("quiz:item", args=[quiz.pk, position])).content.decode()
    assert "You marked this as incorrect" in overridden and "Not 100" not in overridden
