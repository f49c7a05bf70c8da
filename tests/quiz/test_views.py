"""Starting quizzes and reviews: signing in to take one, the start form and its refusals, what the review page says
when nothing is due and when the next card comes back, the options of the last quiz, resuming an unfinished quiz or
review, and a new quiz ending the one left open.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.quiz import services
from apps.quiz.models import CardState, QuizSession
from tests.quiz.views_support import _deck, _post_answer, _session

pytestmark = pytest.mark.django_db


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
