"""The "Your weakest first" order: by the student's memory of each card (FSRS), the cards most likely forgotten by
now first, then the least stable; cards never answered last. Every answer goes through the services, at set times."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.quiz import memory, scheduling, services
from apps.quiz.models import CardState
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db
NOW = timezone.now().replace(microsecond=0)
RIGHT, WRONG = True, False


def _deck(*names: str):
    deck = make_deck()
    return deck, {
        name: make_card(deck=deck, question=f"What is {name}?", answer=f"The {name} answer") for name in names
    }


def _answer(user, deck, *, days_ago: float, answers: dict) -> None:
    """A quiz of the whole deck started `days_ago` days before NOW, the cards of `answers` answered then (right or
    wrong), the others left unanswered."""
    at = NOW - timedelta(days=days_ago)
    quiz = services.session_start(user=user, deck=deck, size=50, mode="recall", order="new", now=at)
    for item in quiz.items.select_related("card"):
        if item.card in answers:
            response = item.card.answer if answers[item.card] else "no idea"
            submission = services.Submission(response=response)
            services.answer_submit(user=user, session_id=quiz.pk, position=item.position, submission=submission, now=at)


def _weakest_first(user, deck, *, now=NOW, size: int = 50) -> list:
    quiz = services.session_start(user=user, deck=deck, size=size, mode="recall", order="weakest", now=now)
    return [item.card for item in quiz.items.select_related("card").order_by("position")]


def test_the_cards_most_likely_forgotten_by_now_come_first_and_those_never_answered_last(student, other_student):
    deck, cards = _deck("unseen", "well known", "just missed", "missed yesterday", "missed often", "right long ago")
    # A month ago, then twenty and ten days ago, two days ago, yesterday and an hour ago:
    _answer(student, deck, days_ago=30, answers={
        cards["right long ago"]: RIGHT, cards["missed yesterday"]: RIGHT, cards["well known"]: RIGHT,
        cards["missed often"]: WRONG,
    })  # fmt: skip
    _answer(student, deck, days_ago=20, answers={
        cards["missed yesterday"]: RIGHT, cards["well known"]: RIGHT, cards["missed often"]: WRONG,
    })  # fmt: skip
    _answer(student, deck, days_ago=10, answers={cards["well known"]: RIGHT, cards["missed often"]: WRONG})
    _answer(student, deck, days_ago=2, answers={cards["missed often"]: RIGHT})
    _answer(student, deck, days_ago=1, answers={cards["missed yesterday"]: WRONG})
    _answer(student, deck, days_ago=1 / 24, answers={cards["just missed"]: WRONG})
    # Another student's memory is his own: his misses of the card she knows well and of the one she never saw do
    # not count.
    _answer(other_student, deck, days_ago=1, answers={cards["well known"]: WRONG, cards["unseen"]: WRONG})

    # Right once, a month ago, its memory good for about two days: the most likely forgotten (R 0.67),
    # although never missed; then the card missed three times and right only two days ago (0.82), the one missed
    # yesterday (0.94), the one missed an hour ago (0.973), the card right three times (0.977), and the unseen one.
    assert _weakest_first(student, deck) == [
        cards["right long ago"], cards["missed often"], cards["missed yesterday"], cards["just missed"],
        cards["well known"], cards["unseen"],
    ]  # fmt: skip
    # A shorter quiz takes the weakest; a card set aside is left out.
    memory.card_set_aside(user=student, card_id=cards["missed often"].pk, aside=True)
    assert _weakest_first(student, deck, size=2) == [cards["right long ago"], cards["missed yesterday"]]


def test_between_cards_as_likely_to_be_recalled_the_least_stable_comes_first(student):
    deck, cards = _deck("right", "partly right", "wrong", "unseen")
    _answer(student, deck, days_ago=0, answers={cards["right"]: RIGHT, cards["wrong"]: WRONG})
    quiz = services.session_start(user=student, deck=deck, size=1, mode="recall", order="new", now=NOW)
    assert quiz.items.get().card == cards["partly right"]  # the first new card
    partly = services.Submission(response="The partly right answer or maybe a hammer")  # hedging: half credit, Hard
    answer, _ = services.answer_submit(user=student, session_id=quiz.pk, position=1, submission=partly, now=NOW)
    assert answer.final_verdict == "partial"
    # Asked at the moment they were answered, every card is sure to be recalled (R = 1): the card missed, whose
    # memory is the least stable (Again), then the one partly right (Hard), then the one right (Good).
    stabilities = dict(CardState.objects.filter(user=student).values_list("card__question", "stability"))
    assert stabilities["What is wrong?"] < stabilities["What is partly right?"] < stabilities["What is right?"]
    assert _weakest_first(student, deck) == [cards["wrong"], cards["partly right"], cards["right"], cards["unseen"]]


def test_the_retrievability_ranked_in_sql_is_the_one_fsrs_gives(student):
    deck, cards = _deck("a", "b", "c")
    _answer(student, deck, days_ago=9, answers={cards["a"]: RIGHT, cards["b"]: WRONG, cards["c"]: RIGHT})
    _answer(student, deck, days_ago=4.5, answers={cards["a"]: RIGHT, cards["b"]: RIGHT})
    states = CardState.objects.filter(user=student).annotate(recall=scheduling.retrievability_sql(now=NOW))
    for state in states:
        assert state.recall == pytest.approx(scheduling.retrievability(state, now=NOW), rel=1e-9)
        assert 0 < state.recall < 1


def test_ordering_the_weakest_first_takes_as_many_queries_for_a_long_history_as_for_none(student):
    counts = []
    for size, rounds in ((2, 0), (8, 4)):
        deck, cards = _deck(*(f"card {n}" for n in range(size)))
        for days in range(rounds):
            _answer(student, deck, days_ago=30 - days, answers=dict.fromkeys(cards.values(), days % 2 == 0))
        with CaptureQueriesContext(connection) as queries:
            _weakest_first(student, deck)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_start_page_says_in_plain_words_what_weakest_first_means(student_client, student):
    deck, _cards = _deck("a")
    page = student_client.get(reverse("quiz:start", args=[deck.slug])).content.decode()
    assert "Your weakest: the cards you are most likely to have forgotten by now first" in page
    assert "cards you have never answered come last" in page
