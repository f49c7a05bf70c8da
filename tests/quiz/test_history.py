"""The page of every quiz a student has taken: theirs only, by deck or reviews, a page at a time, with and
without htmx."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.quiz import services
from apps.quiz.history import PAGE_SIZE, REVIEWS
from apps.quiz.models import QuizSession
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db
HISTORY = reverse("quiz:history")


def _deck(title: str, **fields):
    deck = make_deck(title=title, **fields)
    for i in range(3):
        make_card(deck=deck, question=f"{title} question {i}?", answer=f"Answer {i}")
    return deck


def _quiz(user, deck, *, days_ago: float = 0, mode: str = "recall") -> QuizSession:
    quiz = services.session_start(user=user, deck=deck, size=2, mode=mode, order="new")
    QuizSession.objects.filter(pk=quiz.pk).update(created_at=timezone.now() - timedelta(days=days_ago))
    return quiz


def _answer(user, quiz, position: int, response: str) -> None:
    submission = services.Submission(response=response)
    services.answer_submit(user=user, session_id=quiz.pk, position=position, submission=submission)


def _quiz_links(html: str) -> list[str]:
    return re.findall(r'<th scope="row"><a href="(/quiz/\d+/)">', html)


def test_a_stranger_is_asked_to_sign_in_first(client):
    response = client.get(HISTORY)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_every_quiz_of_the_student_newest_first_with_totals_and_none_of_anyone_elses(
    student_client, student, other_student
):
    training, serving = _deck("Training"), _deck("Serving")
    old = _quiz(student, training, days_ago=3)
    new = _quiz(student, serving, days_ago=1, mode="choice")
    for position in (1, 2):
        card = old.items.get(position=position).card
        _answer(student, old, position, card.answer if position == 1 else "no idea")
    theirs = _quiz(other_student, training)
    _answer(other_student, theirs, 1, "no idea")
    html = student_client.get(HISTORY).content.decode()
    assert _quiz_links(html) == [new.get_absolute_url(), old.get_absolute_url()]
    assert theirs.get_absolute_url() not in html
    assert "2 quizzes, 2 answers, 50\xa0% on average." in html
    assert "Multiple choice" in html and "Free recall" in html
    assert f'<a href="{new.get_absolute_url()}">Resume' in html  # unfinished: carry on from here


def test_the_quizzes_of_one_deck_or_the_reviews_alone(student_client, student):
    training, serving = _deck("Training"), _deck("Serving")
    on_training = _quiz(student, training, days_ago=2)
    _quiz(student, serving, days_ago=1)
    html = student_client.get(HISTORY, {"deck": training.slug}).content.decode()
    assert _quiz_links(html) == [on_training.get_absolute_url()]
    assert "1 quiz on Training" in html
    assert f'<option value="{training.slug}" selected>Training</option>' in html
    # Only the decks quizzed on are offered, by title.
    assert re.findall(r'<option value="([^"~][^"]*)"', html) == [serving.slug, training.slug]
    reviews = student_client.get(HISTORY, {"deck": REVIEWS}).content.decode()
    assert _quiz_links(reviews) == [] and "No review of due cards yet" in reviews


def test_a_deck_never_quizzed_or_unknown_is_not_found(student_client, student, other_student):
    theirs = _deck("Theirs")
    _quiz(other_student, theirs)
    for deck in (theirs.slug, "no-such-deck", "\x00"):
        assert student_client.get(HISTORY, {"deck": deck}).status_code == 404


def test_quizzes_on_a_deck_made_a_draft_since_are_left_out(student_client, student):
    kept, hidden = _deck("Kept"), _deck("Hidden")
    _quiz(student, kept)
    gone = _quiz(student, hidden)
    hidden.published = False
    hidden.save()
    html = student_client.get(HISTORY).content.decode()
    assert gone.get_absolute_url() not in html and "1 quiz," in html and "Hidden" not in html


def test_pages_of_twenty_five_older_ones_after_and_htmx_gets_the_results_alone(student_client, student, htmx):
    deck = _deck("Training")
    quizzes = [_quiz(student, deck, days_ago=n / 24) for n in range(PAGE_SIZE + 2)]
    first = student_client.get(HISTORY).content.decode()
    assert _quiz_links(first) == [quiz.get_absolute_url() for quiz in quizzes[:PAGE_SIZE]]
    assert "Page 1 of 2" in first and 'href="?page=2">Older →</a>' in first
    second = student_client.get(HISTORY, {"page": 2}, **htmx)
    html = second.content.decode()
    assert _quiz_links(html) == [quiz.get_absolute_url() for quiz in quizzes[PAGE_SIZE:]]
    assert "<h1>" not in html and html.lstrip().startswith("<title>") and "HX-Request" in second["Vary"]
    # A page past the end, or no number, is the nearest page rather than an error.
    assert _quiz_links(student_client.get(HISTORY, {"page": 99}).content.decode()) == _quiz_links(html)
    assert student_client.get(HISTORY, {"page": "x"}).status_code == 200


@pytest.mark.parametrize("quizzes", [1, 30])
def test_the_page_takes_as_many_queries_for_thirty_quizzes_as_for_one(
    student_client, student, quizzes, django_assert_num_queries
):
    deck = _deck("Training")
    for n in range(quizzes):
        _quiz(student, deck, days_ago=n)
    # The session and its user, the decks quizzed on, the totals (with the count), the page.
    with django_assert_num_queries(5):
        student_client.get(HISTORY, {"deck": deck.slug})


def test_a_student_with_no_quizzes_is_pointed_to_the_decks(student_client):
    home = reverse("content:home")
    for url in (HISTORY, reverse("quiz:progress")):
        html = student_client.get(url).content.decode()
        assert f'No quizzes yet: <a href="{home}">pick a deck</a> to start one.' in html


def test_my_progress_links_to_every_quiz(student_client, student):
    _quiz(student, _deck("Training"))
    assert f'<a href="{HISTORY}">All your quizzes</a>' in student_client.get(reverse("quiz:progress")).content.decode()


def test_a_quiz_ended_before_its_last_question_says_so_not_finished(student_client, student):
    """A quiz ended with 1 of 2 answered (ended for a new one, or by "End the quiz here") was listed as "Finished",
    on My progress too, where its results page says it ended before its last question."""
    deck = _deck("Serving")
    done, ended = _quiz(student, deck, days_ago=3), _quiz(student, deck, days_ago=2)
    _answer(student, done, 1, "Answer 0")
    _answer(student, done, 2, "Answer 1")
    _answer(student, ended, 1, "Answer 0")
    services.session_finish(user=student, session_id=ended.pk)
    _quiz(student, deck)
    for page in (HISTORY, reverse("quiz:progress")):
        statuses = re.findall(r'<td data-label="Status">(.*?)</td>', student_client.get(page).content.decode())
        assert [re.sub(r"<[^>]+>", "", status).split()[0] for status in statuses] == ["Resume", "Ended", "Finished"]
        assert "Ended early" in statuses[1], page


def test_a_quiz_ended_with_nothing_answered_is_not_listed(student_client, student):
    """Each quiz ended by starting another before answering was a row "Ended early, 0 of 2" among those taken."""
    deck = _deck("Serving")
    taken, empty = _quiz(student, deck, days_ago=2), _quiz(student, deck, days_ago=1)
    _answer(student, taken, 1, "Answer 0")
    services.session_finish(user=student, session_id=empty.pk)
    for page in (HISTORY, reverse("quiz:progress")):
        html = student_client.get(page).content.decode()
        assert taken.get_absolute_url() in html and empty.get_absolute_url() not in html, page
    assert "1 quiz," in student_client.get(HISTORY).content.decode()
