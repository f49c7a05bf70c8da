"""'Quiz the questions you missed' on a quiz's results (retries.session_retry and the retry view)."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.content.models import Card, Deck
from apps.quiz import memory, services
from apps.quiz.models import QuizSession
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck():
    deck = make_deck(title="Serving")
    for n in range(4):
        make_card(deck=deck, question=f"Question {n}?", answer=f"Answer {n}")
    return deck


def _quiz(user, deck, responses: dict[int, str], *, mode: str = "recall") -> QuizSession:
    """A quiz of the deck's four cards in order, answered as `responses` says (position -> response; "" shows the
    answer)."""
    session = services.session_start(user=user, deck=deck, size=4, mode=mode, order="new")
    for position, response in responses.items():
        submission = services.Submission(response=response, reveal=not response)
        services.answer_submit(user=user, session_id=session.pk, position=position, submission=submission)
    return session


def _card(session, position):
    return session.items.get(position=position).card


def test_the_results_offer_the_missed_questions_and_the_new_quiz_holds_exactly_them(client, student, deck):
    quiz = _quiz(student, deck, {1: "Answer 0", 2: "no idea", 3: "", 4: "Answer 3"})
    missed = {_card(quiz, 2), _card(quiz, 3)}
    client.force_login(student)
    results = client.get(quiz.get_absolute_url()).content.decode()
    assert "Quiz the 2 questions you missed" in results
    response = client.post(reverse("quiz:retry", args=[quiz.pk]))
    again = QuizSession.objects.exclude(pk=quiz.pk).get(user=student)
    assert response.status_code == 302 and response["Location"] == again.get_absolute_url()
    assert {item.card for item in again.items.all()} == missed
    assert (again.deck, again.mode, again.item_count, again.finished_at) == (deck, "recall", 2, None)


def test_a_quiz_all_right_offers_no_retry_and_a_forced_one_is_refused_with_a_message(client, student, deck):
    quiz = _quiz(student, deck, {n: f"Answer {n - 1}" for n in range(1, 5)})
    client.force_login(student)
    assert "you missed" not in client.get(quiz.get_absolute_url()).content.decode()
    response = client.post(reverse("quiz:retry", args=[quiz.pk]), follow=True)
    assert "You answered every question of this quiz right" in response.content.decode()
    assert QuizSession.objects.filter(user=student).count() == 1


def test_an_unfinished_quiz_is_finished_first(client, student, deck):
    quiz = _quiz(student, deck, {1: "no idea"})
    client.force_login(student)
    response = client.post(reverse("quiz:retry", args=[quiz.pk]), follow=True)
    assert "Finish this quiz first" in response.content.decode()
    assert QuizSession.objects.filter(user=student).count() == 1


def test_a_quiz_ended_early_retries_what_was_missed_not_what_was_never_asked(client, student, deck):
    quiz = _quiz(student, deck, {1: "no idea"})
    services.session_finish(user=student, session_id=quiz.pk)
    client.force_login(student)
    assert "Quiz the question you missed" in client.get(quiz.get_absolute_url()).content.decode()
    client.post(reverse("quiz:retry", args=[quiz.pk]))
    again = QuizSession.objects.exclude(pk=quiz.pk).get(user=student)
    assert [item.card for item in again.items.all()] == [_card(quiz, 1)]


def test_someone_elses_quiz_is_a_404_and_a_get_goes_back_to_the_results(client, student, other_student, deck):
    quiz = _quiz(student, deck, dict.fromkeys(range(1, 5), "no idea"))
    client.force_login(other_student)
    assert client.post(reverse("quiz:retry", args=[quiz.pk])).status_code == 404
    client.force_login(student)
    response = client.get(reverse("quiz:retry", args=[quiz.pk]))
    assert response.status_code == 302 and response["Location"] == quiz.get_absolute_url()
    assert QuizSession.objects.count() == 1


def test_a_multiple_choice_retry_asks_in_multiple_choice_again(client, student, deck):
    quiz = _quiz(student, deck, dict.fromkeys(range(1, 5), ""), mode="choice")
    client.force_login(student)
    client.post(reverse("quiz:retry", args=[quiz.pk]))
    again = QuizSession.objects.exclude(pk=quiz.pk).get(user=student)
    assert again.mode == "choice" and {item.mode for item in again.items.all()} == {"choice"}
    assert all(len(item.options) == 4 for item in again.items.all())


def _retry_offers_only_the_first(client, student, quiz) -> QuizSession:
    """Of a quiz missing its first two questions, the second no longer asked: the results offer one question to
    retry, and the retry holds that one; the new quiz."""
    client.force_login(student)
    results = client.get(quiz.get_absolute_url()).content.decode()
    assert "Quiz the question you missed" in results and "2 questions" not in results
    client.post(reverse("quiz:retry", args=[quiz.pk]))
    again = QuizSession.objects.exclude(pk=quiz.pk).get(user=student)
    assert [item.card for item in again.items.all()] == [_card(quiz, 1)]
    return again


def test_a_missed_card_archived_since_is_neither_counted_nor_said_to_be_right(client, student, deck):
    quiz = _quiz(student, deck, {1: "no idea", 2: "no idea", 3: "Answer 2", 4: "Answer 3"})
    archived = _card(quiz, 2)
    archived.archived = True
    archived.save(update_fields=["archived"])
    _retry_offers_only_the_first(client, student, quiz)

    Card.objects.filter(pk=_card(quiz, 1).pk).update(archived=True)
    results = client.get(quiz.get_absolute_url()).content.decode()
    assert "you missed" not in results
    response = client.post(reverse("quiz:retry", args=[quiz.pk]), follow=True)
    assert "answered every question of this quiz right" not in response.content.decode()
    assert "are no longer asked" in response.content.decode()


def test_a_review_retries_no_card_of_a_deck_withdrawn_since(client, student, deck):
    hidden = make_card(deck=make_deck(title="Withdrawn"), question="Secret question?", answer="Secret")
    kept = deck.cards.order_by("position").first()
    review = services.session_create(
        user=student, deck=None, cards=[kept, hidden], mode="recall", order="due", size=2,
        rng=random.Random(1), seed=1, now=timezone.now(),
    )  # fmt: skip
    for position in (1, 2):
        submission = services.Submission(response="no idea")
        services.answer_submit(user=student, session_id=review.pk, position=position, submission=submission)
    Deck.objects.filter(pk=hidden.deck_id).update(published=False)
    client.force_login(student)
    assert "Quiz the question you missed" in client.get(review.get_absolute_url()).content.decode()
    client.post(reverse("quiz:retry", args=[review.pk]))
    again = QuizSession.objects.exclude(pk=review.pk).get(user=student)
    assert [item.card for item in again.items.all()] == [kept]


def test_a_missed_card_moved_since_to_a_draft_deck_is_not_counted_nor_asked_again(client, student, deck):
    quiz = _quiz(student, deck, {1: "no idea", 2: "no idea", 3: "Answer 2", 4: "Answer 3"})
    Card.objects.filter(pk=_card(quiz, 2).pk).update(deck=make_deck(title="Being revised", published=False))
    again = _retry_offers_only_the_first(client, student, quiz)
    page = client.get(again.get_absolute_url()).content.decode()
    assert "withdrawn" not in page and "Question 1 of 1" in page


def test_a_double_tap_on_the_retry_button_makes_one_quiz_not_two(client, student, deck):
    quiz = _quiz(student, deck, {1: "Answer 0", 2: "no idea", 3: "", 4: "Answer 3"})
    client.force_login(student)
    first = client.post(reverse("quiz:retry", args=[quiz.pk]))
    second = client.post(reverse("quiz:retry", args=[quiz.pk]))
    assert first["Location"] == second["Location"]
    assert QuizSession.objects.filter(user=student).count() == 2  # the quiz and its one retry
    # Once the retry is under way, the button (after Back, say) starts a fresh one.
    again = QuizSession.objects.exclude(pk=quiz.pk).get(user=student)
    services.answer_submit(user=student, session_id=again.pk, position=1, submission=services.Submission(response="x"))
    third = client.post(reverse("quiz:retry", args=[quiz.pk]))
    assert third["Location"] != first["Location"] and QuizSession.objects.filter(user=student).count() == 3


def test_a_retry_ends_the_other_quiz_left_unfinished_on_the_deck_as_any_new_quiz_does(client, student, deck):
    """Both stayed open: the history offered to resume each, the home page and the deck's page only the retry."""
    quiz = _quiz(student, deck, {1: "Answer 0", 2: "no idea", 3: "", 4: "Answer 3"})
    left = _quiz(student, deck, {1: "Answer 0"})
    client.force_login(student)
    client.post(reverse("quiz:retry", args=[quiz.pk]))
    again = QuizSession.objects.exclude(pk__in=[quiz.pk, left.pk]).get(user=student)
    left.refresh_from_db()
    assert left.finished_at is not None and again.finished_at is None
    assert left.answered_count == 1  # its answer stays, as in a quiz ended by hand


def test_the_results_say_which_unfinished_quiz_a_retry_would_end(client, student, deck):
    quiz = _quiz(student, deck, {1: "Answer 0", 2: "no idea", 3: "", 4: "Answer 3"})
    client.force_login(student)
    assert 'id="retry-ends"' not in client.get(quiz.get_absolute_url()).content.decode()
    left = _quiz(student, deck, {1: "Answer 0"})
    results = client.get(quiz.get_absolute_url()).content.decode()
    assert "Quizzing the ones you missed ends your unfinished quiz on this deck, 1 of 4 questions answered" in results
    assert f'<a href="{left.get_absolute_url()}">carry on with it</a>' in results


def test_the_next_quiz_of_the_deck_is_offered_as_the_student_set_it_not_as_the_retry_was(client, student, deck):
    """A retry is as long as the questions missed, shuffled: the start form offered "2, Random" after it."""
    quiz = _quiz(student, deck, {1: "Answer 0", 2: "no idea", 3: "", 4: "Answer 3"})
    client.force_login(student)
    client.post(reverse("quiz:retry", args=[quiz.pk]))
    assert QuizSession.objects.filter(user=student).count() == 2
    form = client.get(reverse("quiz:start", args=[deck.slug])).content.decode()
    assert re.search(r'<input type="number" name="size" value="4"', form)
    assert re.search(r'<input type="radio" name="order" value="new"[^>]* checked', form)


@pytest.mark.parametrize("opened", [False, True], ids=["not-yet-opened", "opened"])
def test_the_retry_button_resumes_the_retry_not_begun_though_one_of_its_cards_was_set_aside_since(
    client, student, deck, opened
):
    """The results then offer one question fewer: the retry not begun asks (or already asks) just those, and is
    resumed rather than left unfinished beside a new one."""
    quiz = _quiz(student, deck, {1: "Answer 0", 2: "no idea", 3: "", 4: "no idea"})
    client.force_login(student)
    first = client.post(reverse("quiz:retry", args=[quiz.pk]))
    memory.card_set_aside(user=student, card_id=_card(quiz, 4).pk, aside=True)
    if opened:  # its question is withdrawn when the retry is opened
        assert "1 question was withdrawn" in client.get(first["Location"]).content.decode()
    assert "Quiz the 2 questions you missed" in client.get(quiz.get_absolute_url()).content.decode()
    second = client.post(reverse("quiz:retry", args=[quiz.pk]))
    assert second["Location"] == first["Location"]
    assert QuizSession.objects.filter(user=student).count() == 2
    assert "Question 1 of 2 · 0 answered" in client.get(second["Location"]).content.decode()
