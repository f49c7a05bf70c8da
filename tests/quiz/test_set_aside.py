"""Setting a card aside from one's quizzes and reviews (Anki's "suspend") and bringing it back: what it leaves out,
the card page's button with and without htmx, and the list of cards set aside."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.content.models import Card
from apps.quiz import memory, selectors, services
from apps.quiz.models import CardState, QuizSession
from apps.quiz.picking import cards_to_ask
from apps.quiz.retries import session_retry
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db
LIST = reverse("quiz:set_aside_list")


def _answered(user, deck, *, days_ago: float = 30) -> list:
    """Every card of `deck` answered by `user`, `days_ago` days back, so that all are due again now."""
    quiz = services.session_start(user=user, deck=deck, size=10, mode="recall", order="new")
    for item in quiz.items.select_related("card"):
        submission = services.Submission(response=item.card.answer)
        services.answer_submit(user=user, session_id=quiz.pk, position=item.position, submission=submission)
    CardState.objects.filter(user=user).update(due=timezone.now() - timedelta(days=days_ago))
    return [item.card for item in quiz.items.select_related("card").order_by("position")]


@pytest.fixture
def deck():
    deck = make_deck(title="Serving")
    for n in range(3):
        make_card(deck=deck, question=f"Serving question {n}?", answer=f"Answer {n}")
    return deck


def _post(client, card, aside: str, **extra):
    return client.post(reverse("quiz:set_aside", args=[card.pk]), {"aside": aside, **extra}, **extra.pop("headers", {}))


def test_a_card_set_aside_is_asked_in_no_quiz_and_due_nowhere_until_brought_back(student, other_student, deck):
    first, second, third = _answered(student, deck)
    _answered(other_student, deck)
    memory.card_set_aside(user=student, card_id=second.pk, aside=True)
    now = timezone.now()
    for order in ("new", "due", "random", "weakest"):
        asked = list(cards_to_ask(user=student, deck=deck, order=order, now=now, rng=random.Random(1)))
        assert second not in asked and {first, third} <= set(asked), order
    review = services.session_start(user=student, deck=None, size=10, mode="recall", order="due")
    assert set(review.items.values_list("card_id", flat=True)) == {first.pk, third.pk}
    assert selectors.review_outlook(user=student)["due"] == 2
    (row,) = [p for p in selectors.progress_by_deck(user=student) if p.deck == deck]
    assert (row.seen, row.due_now, row.aside) == (3, 2, 1)  # still seen: answered, and its answers count
    assert selectors.deck_study_counts(user=student, deck=deck) == {"total": 3, "new": 0, "due": 2, "aside": 1}
    assert selectors.study_today(user=student).due == 2
    assert sum(day.count for day in selectors.reviews_forecast(user=student).days) == 2
    standing = dict(selectors.deck_standing(user=student, cards=[first, second]).rows)
    assert (standing[first].status, standing[second].status) == ("due", "aside")
    assert not selectors.card_history(user=student, card=second).due
    # Another student's copy of the card is theirs: due as ever.
    assert selectors.review_outlook(user=other_student)["due"] == 3

    memory.card_set_aside(user=student, card_id=second.pk, aside=False)
    assert selectors.review_outlook(user=student)["due"] == 3  # its schedule had it due: due at once
    assert selectors.card_history(user=student, card=second).due


def test_setting_aside_twice_keeps_the_first_date_and_a_card_never_answered_has_nothing_to_set_aside(student, deck):
    card, *_ = _answered(student, deck)
    first = memory.card_set_aside(user=student, card_id=card.pk, aside=True, now=timezone.now() - timedelta(days=2))
    again = memory.card_set_aside(user=student, card_id=card.pk, aside=True)
    assert again.set_aside_at == first.set_aside_at
    with pytest.raises(CardState.DoesNotExist):
        memory.card_set_aside(user=student, card_id=make_card(deck=deck).pk, aside=True)


def test_a_deck_whose_every_card_is_set_aside_says_so_rather_than_that_it_has_none(student, deck):
    for card in _answered(student, deck):
        memory.card_set_aside(user=student, card_id=card.pk, aside=True)
    with pytest.raises(services.NothingToStudyError, match="set aside every card of this deck"):
        services.session_start(user=student, deck=deck, size=10, mode="recall", order="new")


def test_the_card_page_sets_aside_and_brings_back_without_javascript(student_client, student, deck):
    card, *_ = _answered(student, deck)
    page = student_client.get(card.get_absolute_url()).content.decode()
    assert "Set aside</button>" in page
    response = _post(student_client, card, "1")
    assert response.status_code == 303 and response["Location"] == card.get_absolute_url()
    page = student_client.get(card.get_absolute_url()).content.decode()
    assert "Set aside: it is asked in none of your quizzes" in page and "Bring it back</button>" in page
    assert CardState.objects.get(user=student, card=card).set_aside_at is not None
    # From the list, back to the list.
    response = _post(student_client, card, "0", **{"from": "list"})
    assert response.status_code == 303 and response["Location"] == LIST
    assert CardState.objects.get(user=student, card=card).set_aside_at is None


def test_with_htmx_the_answers_section_is_swapped_with_its_note(student_client, student, deck, htmx):
    card, *_ = _answered(student, deck)
    response = _post(student_client, card, "1", headers=htmx)
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<section class="card-history" id="card-history"')
    assert "Set aside: it is asked in none" in html and "Bring it back" in html and "<html" not in html


def test_bad_requests_change_nothing(student_client, student, other_student, deck):
    card, *_ = _answered(student, deck)
    never = make_card(deck=deck, question="Never answered?")
    assert _post(student_client, card, "yes").status_code == 400
    assert _post(student_client, never, "1").status_code == 404
    draft = make_card(deck=make_deck(title="Draft", published=False))
    assert _post(student_client, draft, "1").status_code == 404
    # A GET (from signing in) goes back to the card; a stranger is asked to sign in.
    assert student_client.get(reverse("quiz:set_aside", args=[card.pk]))["Location"] == card.get_absolute_url()
    stranger = Client()
    response = _post(stranger, card, "1")
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    # Bob, who never answered the card, sets nothing of Alice's aside.
    stranger.force_login(other_student)
    assert _post(stranger, card, "1").status_code == 404
    assert not CardState.objects.filter(set_aside_at__isnull=False).exists()


def test_the_list_holds_the_students_own_cards_set_aside_latest_first(
    student_client, student, other_student, deck, django_assert_num_queries
):
    assert "No card is set aside" in student_client.get(LIST).content.decode()
    first, second, third = _answered(student, deck)
    _answered(other_student, deck)
    memory.card_set_aside(user=student, card_id=first.pk, aside=True, now=timezone.now() - timedelta(days=1))
    memory.card_set_aside(user=student, card_id=third.pk, aside=True)
    memory.card_set_aside(user=other_student, card_id=second.pk, aside=True)
    with django_assert_num_queries(4):  # session, user, count, the page of cards with their decks
        html = student_client.get(LIST).content.decode()
    assert html.index("Serving question 2?") < html.index("Serving question 0?")
    assert "Serving question 1?" not in html  # Bob's
    Card.objects.filter(pk=first.pk).update(archived=True)  # asked nowhere now, and counted nowhere
    assert "Serving question 0?" not in student_client.get(LIST).content.decode()
    memory.card_set_aside(user=student, card_id=second.pk, aside=True)
    progress = student_client.get(reverse("quiz:progress")).content.decode()
    assert f'<a href="{LIST}">2 cards set aside</a>' in progress
    start = student_client.get(reverse("quiz:start", args=[deck.slug])).content.decode()
    assert f'<a href="{LIST}">2 set aside</a>, not asked' in start


def test_the_list_leaves_out_cards_of_a_deck_unpublished_since_as_their_pages_and_bring_back_are_gone(
    student_client, student, deck
):
    first, *_ = _answered(student, deck)
    other = make_deck(title="Retired")
    make_card(deck=other, question="Retired question?", answer="Gone")
    (retired,) = _answered(student, other)
    for card in (first, retired):
        memory.card_set_aside(user=student, card_id=card.pk, aside=True)
    other.published = False
    other.save(update_fields=["published"])

    html = student_client.get(LIST).content.decode()
    assert "Serving question 0?" in html and "Retired question?" not in html
    assert "1 card set aside" in html  # as My progress counts them
    assert f'<a href="{LIST}">1 card set aside</a>' in student_client.get(reverse("quiz:progress")).content.decode()


def test_quiz_the_ones_you_missed_leaves_out_a_card_set_aside_since(student_client, student, deck):
    quiz = services.session_start(user=student, deck=deck, size=3, mode="recall", order="new")
    for item in quiz.items.select_related("card"):
        submission = services.Submission(response="no idea")
        services.answer_submit(user=student, session_id=quiz.pk, position=item.position, submission=submission)
    first, *_ = [item.card for item in quiz.items.select_related("card").order_by("position")]
    memory.card_set_aside(user=student, card_id=first.pk, aside=True)
    results = student_client.get(quiz.get_absolute_url()).content.decode()
    assert "Quiz the 2 questions you missed" in results
    again = session_retry(user=student, session=quiz)
    assert first.pk not in set(again.items.values_list("card_id", flat=True)) and again.item_count == 2


# --- from a question's feedback ----------------------------------------------------------


def _answered_quiz(user, deck, *, responses=("no idea", "Answer 1")):
    """A quiz on `deck` with its first questions answered (wrong, then right)."""
    quiz = services.session_start(user=user, deck=deck, size=3, mode="recall", order="new")
    for position, response in enumerate(responses, start=1):
        submission = services.Submission(response=response)
        services.answer_submit(user=user, session_id=quiz.pk, position=position, submission=submission)
    quiz.refresh_from_db()
    return quiz


def _feedback_url(quiz, position=1):
    return reverse("quiz:item", args=[quiz.pk, position])


def _aside_from_feedback(client, quiz, aside: str, position=1, **headers):
    return client.post(reverse("quiz:set_aside_item", args=[quiz.pk, position]), {"aside": aside}, **headers)


def _button(html: str) -> str:
    (button,) = re.findall(r'<form [^>]*class="set-aside".*?<button[^>]*>([^<]*)</button>', html, flags=re.DOTALL)
    return button


def test_the_feedback_sets_its_card_aside_and_brings_it_back_without_javascript(student_client, student, deck):
    quiz = _answered_quiz(student, deck)
    missed = quiz.items.get(position=1).card
    answer = quiz.answers.get(card=missed)
    assert _button(student_client.get(_feedback_url(quiz)).content.decode()) == "Set this card aside"

    response = _aside_from_feedback(student_client, quiz, "1")
    assert response.status_code == 303 and response["Location"] == _feedback_url(quiz)
    page = student_client.get(_feedback_url(quiz)).content.decode()
    assert _button(page) == "Bring it back"
    assert page.count("Set aside: it is asked in none of your quizzes and reviews until you bring it back.") == 2
    assert "This answer and your score stay as they are." in page
    # The answer given and the quiz's score are untouched; the next quiz leaves the card out.
    after = quiz.answers.get(card=missed)
    assert (after.final_verdict, after.final_score, after.rating) == (answer.final_verdict, answer.final_score, 1)
    quiz_after = QuizSession.objects.get(pk=quiz.pk)
    assert (quiz_after.answered_count, quiz_after.score_sum) == (quiz.answered_count, quiz.score_sum) == (2, 1.0)
    again = services.session_start(user=student, deck=deck, size=3, mode="recall", order="weakest")
    assert missed.pk not in set(again.items.values_list("card_id", flat=True))

    response = _aside_from_feedback(student_client, quiz, "0")
    assert response.status_code == 303 and response["Location"] == _feedback_url(quiz)
    page = student_client.get(_feedback_url(quiz)).content.decode()
    assert _button(page) == "Set this card aside" and "Brought back: it is asked again" in page
    assert CardState.objects.get(user=student, card=missed).set_aside_at is None


def test_with_htmx_the_feedback_is_swapped_with_the_button_turned_and_the_note_to_read(
    student_client, student, deck, htmx
):
    quiz = _answered_quiz(student, deck)
    response = _aside_from_feedback(student_client, quiz, "1", **htmx)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html and 'id="stage"' in html
    assert response["HX-Replace-Url"] == _feedback_url(quiz)  # a reload shows this feedback
    assert _button(html) == "Bring it back"
    # The note saying what happened takes the focus, rather than the verdict; the button is described by it.
    assert 'aria-describedby="set-aside-note"' in html
    note = re.search(r'<span class="meta" id="set-aside-note" role="status" tabindex="-1" data-focus>([^<]*)<', html)
    assert note.group(1).startswith("Set aside: it is asked in none of your quizzes and reviews")
    assert html.count("data-focus") == 1
    assert "Next question" in html and "Score 0\u00a0%" in html  # still the question's feedback, its verdict as given
    response = _aside_from_feedback(student_client, quiz, "0", **htmx)
    html = response.content.decode()
    assert _button(html) == "Set this card aside" and "data-focus>Brought back: it is asked again" in html
    assert not CardState.objects.filter(set_aside_at__isnull=False).exists()


def test_a_card_set_aside_on_its_page_says_so_in_the_feedback_and_an_archived_card_offers_nothing(
    student_client, student, deck
):
    quiz = _answered_quiz(student, deck)
    first, second = (quiz.items.get(position=n).card for n in (1, 2))
    _post(student_client, first, "1")
    assert _button(student_client.get(_feedback_url(quiz, 1)).content.decode()) == "Bring it back"
    Card.objects.filter(pk=second.pk).update(archived=True)  # asked nowhere already
    assert 'class="set-aside"' not in student_client.get(_feedback_url(quiz, 2)).content.decode()


def test_only_the_students_own_answered_question_is_set_aside_from_its_feedback(
    student_client, student, other_student, deck
):
    quiz = _answered_quiz(student, deck)
    theirs = _answered_quiz(other_student, deck)
    assert _aside_from_feedback(student_client, theirs, "1").status_code == 404
    assert _aside_from_feedback(student_client, quiz, "yes").status_code == 400
    response = _aside_from_feedback(student_client, quiz, "1", position=3)  # not answered yet
    assert response.status_code == 409 and "Answer the question first" in response.content.decode()
    assert _aside_from_feedback(student_client, quiz, "1", position=9).status_code == 404
    # Signed out: to the sign-in page, which leads back through a GET to the feedback.
    response = _aside_from_feedback(Client(), quiz, "1")
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    url = reverse("quiz:set_aside_item", args=[quiz.pk, 1])
    assert student_client.get(url)["Location"] == _feedback_url(quiz)
    assert not CardState.objects.filter(set_aside_at__isnull=False).exists()


@pytest.mark.parametrize("scale", [1, 4])
def test_the_feedback_and_setting_aside_from_it_take_a_constant_number_of_queries(
    student_client, student, deck, htmx, django_assert_num_queries, scale
):
    for _ in range(scale - 1):  # history: more answers and card states, of this deck and others
        _answered_quiz(student, deck, responses=("x", "y", "z"))
        other = make_deck()
        for n in range(3):
            make_card(deck=other, question=f"Other question {n}?")
        _answered_quiz(student, other, responses=("x", "y", "z"))
    quiz = _answered_quiz(student, deck)
    memory.card_set_aside(user=student, card_id=quiz.items.get(position=2).card_id, aside=True)
    with django_assert_num_queries(4):  # session, user, quiz, the question with its answer and set-aside date
        student_client.get(_feedback_url(quiz, 2))
    with django_assert_num_queries(9):
        _aside_from_feedback(student_client, quiz, "1", **htmx)
    with django_assert_num_queries(9):  # without JavaScript: the message is kept in the session
        _aside_from_feedback(student_client, quiz, "0")


def test_a_card_archived_since_its_feedback_was_shown_says_what_was_done_with_htmx_too(
    student_client, student, deck, htmx
):
    """Its button gone from the feedback swapped in, the note went with it, and nothing took the focus."""
    quiz = _answered_quiz(student, deck)
    Card.objects.filter(pk=quiz.items.get(position=1).card_id).update(archived=True)
    html = _aside_from_feedback(student_client, quiz, "1", **htmx).content.decode()
    assert 'class="set-aside"' not in html
    note = re.search(r'id="set-aside-note" role="status" tabindex="-1" data-focus>([^<]*)<', html)
    assert note.group(1).startswith("Set aside: it is asked in none of your quizzes and reviews")
    assert html.count("data-focus") == 1


def _review_of(user, cards) -> QuizSession:
    """A review of due cards asking `cards`, in this order, all answered wrong."""
    review = services.session_create(
        user=user, deck=None, cards=cards, mode="recall", order="due", size=len(cards),
        rng=random.Random(1), seed=1, now=timezone.now(),
    )  # fmt: skip
    for position in range(1, len(cards) + 1):
        submission = services.Submission(response="no idea")
        services.answer_submit(user=user, session_id=review.pk, position=position, submission=submission)
    return review


def test_a_reviews_card_of_a_deck_made_a_draft_since_is_not_set_aside_from_its_feedback(
    student_client, student, instructor, deck, htmx
):
    """Its page is a 404 to a student and the list of cards set aside leaves it out until the deck is published
    again: set aside from the feedback, it could be neither seen nor brought back there meanwhile."""
    other = make_deck(title="Revised")
    revised = make_card(deck=other, question="Revised question?", answer="Revised")
    review = _review_of(student, [revised])
    other.published = False
    other.save(update_fields=["published"])
    shown = student_client.get(_feedback_url(review)).content.decode()
    assert "Revised question?" in shown and 'class="set-aside"' not in shown and "Set this card aside" not in shown

    # A press on the feedback shown before the deck became a draft does nothing, and says so.
    response = _aside_from_feedback(student_client, review, "1")
    assert response.status_code == 303 and response["Location"] == _feedback_url(review)
    page = student_client.get(_feedback_url(review)).content.decode()
    assert "Its deck is being revised: this card can be set aside or brought back once the deck is published" in page
    html = _aside_from_feedback(student_client, review, "1", **htmx).content.decode()
    note = re.search(r'id="set-aside-note" role="status" tabindex="-1" data-focus>([^<]*)<', html)
    assert note.group(1).startswith("Its deck is being revised") and 'class="set-aside"' not in html
    assert CardState.objects.get(user=student, card=revised).set_aside_at is None

    # One who authors decks may open the draft's cards, and set them aside from their feedback.
    theirs = _review_of(instructor, [revised])
    client = Client()
    client.force_login(instructor)
    assert _button(client.get(_feedback_url(theirs)).content.decode()) == "Set this card aside"
    assert _aside_from_feedback(client, theirs, "1").status_code == 303
    assert CardState.objects.get(user=instructor, card=revised).set_aside_at is not None

    # Published again, the student's feedback offers it again.
    other.published = True
    other.save(update_fields=["published"])
    assert _button(student_client.get(_feedback_url(review)).content.decode()) == "Set this card aside"
