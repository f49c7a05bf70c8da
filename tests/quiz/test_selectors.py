"""What a student's progress page and deck page count: seen, accuracy, due and new cards."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.quiz import scheduling, selectors, services
from apps.quiz.models import Answer, CardState
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _play(user, deck, responses: list[str], at):
    session = services.session_start(user=user, deck=deck, size=len(responses), mode="recall", order="new", now=at)
    for item, response in zip(session.items.order_by("position"), responses, strict=True):
        services.answer_submit(
            user=user, session_id=session.pk, position=item.position,
            submission=services.Submission(response=response or item.card.answer), now=at,
        )  # fmt: skip


def test_progress_counts_seen_accuracy_and_due_cards_and_leaves_archived_cards_out(student, other_student):
    deck, untouched = make_deck(title="A deck"), make_deck(title="B deck")
    cards = [make_card(deck=deck, question=f"Which tool {i}?", answer=f"Tool number {i}") for i in range(4)]
    make_card(deck=untouched)
    started = timezone.now() - timedelta(hours=1)
    _play(student, deck, ["", "", "no idea"], started)  # right, right, wrong; the fourth card is new
    _play(other_student, deck, ["no idea"] * 4, started)
    scores = list(Answer.objects.filter(user=student).values_list("final_score", flat=True))

    mine, other = selectors.progress_by_deck(user=student)
    assert (mine.deck, mine.cards, mine.seen, mine.new) == (deck, 4, 3, 1)
    assert mine.accuracy == pytest.approx(sum(scores) / 3) and 0.6 < mine.accuracy < 0.7
    assert (mine.due_now, mine.due_week, mine.mastered) == (3, 0, 0)  # learning steps are minutes long
    assert (other.deck, other.cards, other.seen, other.accuracy, other.due_now) == (untouched, 1, 0, None, 0)

    cards[0].archived = True
    cards[0].save()
    mine = selectors.progress_by_deck(user=student)[0]
    assert (mine.cards, mine.seen, mine.new, mine.due_now) == (3, 2, 1, 2)
    assert mine.accuracy == pytest.approx(sum(scores) / 3)  # its answers still stand
    assert selectors.review_outlook(user=student)["due"] == 2
    assert selectors.deck_study_counts(user=student, deck=deck) == {"total": 3, "new": 1, "due": 2, "aside": 0}


def test_a_card_recalled_twice_is_mastered_and_due_within_the_week_not_now(student):
    deck = make_deck()
    make_card(deck=deck)
    _play(student, deck, [""], timezone.now() - timedelta(days=1))
    _play(student, deck, [""], timezone.now() - timedelta(minutes=30))  # second Good: out of learning, days away
    progress = selectors.progress_by_deck(user=student)[0]
    assert (progress.seen, progress.due_now, progress.due_week, progress.mastered) == (1, 0, 1, 1)
    outlook = selectors.review_outlook(user=student)
    assert outlook["due"] == 0 and outlook["next"] > timezone.now()


def test_a_card_once_mastered_is_no_longer_mastered_when_its_recall_probability_drops(student):
    deck = make_deck()
    make_card(deck=deck)
    long_ago = timezone.now() - timedelta(days=200)
    _play(student, deck, [""], long_ago)
    _play(student, deck, [""], long_ago + timedelta(days=1))
    progress = selectors.progress_by_deck(user=student)[0]
    assert (progress.mastered, progress.due_now) == (0, 1)


@pytest.mark.parametrize(
    ("due_in", "due", "mastered"),
    [(timedelta(minutes=-1), True, False), (timedelta(0), True, False), (timedelta(seconds=1), False, True)],
)
def test_a_card_due_now_is_due_not_mastered_on_every_page(student, due_in, due, mastered):
    """FSRS rounds due dates to whole days, so one can fall hours before mastered_until ends: a card due now is
    counted due, and not also mastered, on the deck tile, the deck page, the card's history and My progress."""
    deck = make_deck()
    card = make_card(deck=deck)
    _play(student, deck, [""], timezone.now() - timedelta(days=3))
    now = timezone.now()
    state = CardState.objects.get(user=student)
    state.state, state.due, state.mastered_until = CardState.State.REVIEW, now + due_in, now + timedelta(hours=11)
    state.save()

    progress = selectors.progress_by_deck(user=student, now=now)[0]
    assert (progress.due_now, progress.mastered) == (int(due), int(mastered))
    tile = selectors.study_today(user=student, now=now).decks[deck.pk]
    assert (tile.due, tile.mastered) == (int(due), int(mastered))
    standing = selectors.deck_standing(user=student, cards=[card], now=now).rows[0][1]
    assert standing.status == ("due" if due else "mastered") and standing.mastered is mastered
    history = selectors.CardHistory(answers=[], total=1, state=state, now=now)
    assert (history.due, history.mastered) == (due, mastered)
    assert CardState.objects.filter(scheduling.mastered_q(now=now)).exists() is mastered
