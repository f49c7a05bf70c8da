"""Starting quizzes against PostgreSQL: the questions, modes and options a session fixes, rendered and typeset options,
authored and shipped distractors and the fall-back to free recall, new cards before due reviews, random order,
review sessions across decks, and nothing due as a clear error.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from apps.content.models import Deck, Distractor
from apps.content.services import card_save
from apps.quiz import services
from apps.quiz.models import CardState
from tests.factories import make_card, make_deck
from tests.quiz.services_support import _deck, _start

pytestmark = pytest.mark.django_db


def _state(user, card, due) -> CardState:
    return CardState.objects.create(user=user, card=card, deck=card.deck, due=due, reps=1)


def test_start_fixes_questions_modes_and_options(student):
    deck = _deck(6)
    session = _start(student, deck, size=4, mode="mixed")
    items = list(session.items.order_by("position"))
    assert [item.position for item in items] == [1, 2, 3, 4]
    assert {item.mode for item in items} == {"choice", "recall"}
    assert [item.mode for item in items][::2] == [items[0].mode] * 2  # modes alternate
    for item in items:
        if item.mode == "choice":
            assert len(item.options) == 4
            assert item.options[item.correct_option]["text"] == item.card.short_answer


def test_syllabus_cards_offer_rendered_answers_as_options(student):
    deck = make_deck()
    for i in range(5):
        make_card(deck=deck, kind="syllabus", question=f"Why step {i}?", answer=f"Because **reason {i}** and $x_{i}$")
    for item in _start(student, deck, mode="choice", size=5).items.all():
        assert item.mode == "choice" and len(item.options) == 4
        right = item.options[item.correct_option]
        assert (
            right["html"] == item.card.answer_html
            and "<strong>reason" in right["html"]
            and 'class="katex"' in right["html"]
        )
        assert all("<strong>reason" in option["html"] for option in item.options)  # distractors: other cards' answers


def test_a_flashcards_right_option_is_typeset_like_its_distractors(student):
    """Shown as TeX source beside three typeset distractors, the right option stood out."""
    deck = make_deck()
    for i, complexity in enumerate(["O(n^2)", "O(n)", "O(1)", "O(\\log n)"]):
        card = make_card(deck=deck, question=f"Cost of step {i}?", answer=f"${complexity}$")
        card_save(card=card, distractors=["$O(n^3)$", "$O(2^n)$", "*Constant*"])
    for item in _start(student, deck, mode="choice", size=4).items.all():
        htmls = [option["html"] for option in item.options]
        assert "$" not in "".join(htmls), htmls
        assert all(html.startswith("<p>") for html in htmls)
        assert 'class="katex"' in item.options[item.correct_option]["html"]


def test_the_seed_flashcards_ask_with_their_shipped_distractors(student):
    call_command("load_content", verbosity=0)
    deck = Deck.objects.get(slug="technology-digital-tools-flashcards")
    job = next(item for item in _start(student, deck, mode="choice").items.all() if item.card.short_answer == "Job")
    assert sorted(option["text"] for option in job.options) == ["CronJob", "Deployment", "Job", "StatefulSet"]


def test_multiple_choice_only_and_recall_only(student):
    deck = _deck(5)
    assert set(_start(student, deck, mode="choice").items.values_list("mode", flat=True)) == {"choice"}
    assert set(_start(student, deck, mode="recall").items.values_list("mode", flat=True)) == {"recall"}


def test_authored_distractors_are_offered(student):
    deck = _deck(5)
    card = deck.cards.first()
    Distractor.objects.create(card=card, text="A *very* plausible tool")
    session = _start(student, deck, mode="choice")
    item = session.items.get(card=card)
    assert any("A <em>very</em> plausible tool" in option["html"] for option in item.options)


def test_a_card_without_enough_distractors_falls_back_to_free_recall(student):
    deck = _deck(2)
    session = _start(student, deck, mode="choice")
    assert set(session.items.values_list("mode", flat=True)) == {"recall"}


def test_new_cards_first_then_due_reviews(student):
    deck = _deck(4)
    cards = list(deck.cards.order_by("position"))
    now = timezone.now()
    _state(student, cards[0], now - timedelta(hours=1))
    _state(student, cards[1], now + timedelta(days=3))
    new_first = _start(student, deck, order="new")
    assert list(new_first.items.order_by("position").values_list("card", flat=True)) == [
        cards[2].pk, cards[3].pk, cards[0].pk, cards[1].pk,
    ]  # fmt: skip
    due_first = _start(student, deck, order="due")
    assert list(due_first.items.order_by("position").values_list("card", flat=True)) == [
        cards[0].pk, cards[2].pk, cards[3].pk, cards[1].pk,
    ]  # fmt: skip


def test_random_order_takes_the_requested_number(student):
    deck = _deck(8)
    session = _start(student, deck, order="random", size=5)
    assert session.items.count() == 5


def test_review_session_takes_only_due_cards_across_decks(student, other_student):
    first, second = _deck(3), _deck(3)
    now = timezone.now()
    due_a = first.cards.first()
    due_b = second.cards.last()
    _state(student, due_a, now - timedelta(minutes=5))
    _state(student, due_b, now - timedelta(days=1))
    _state(student, first.cards.last(), now + timedelta(days=1))
    _state(other_student, second.cards.first(), now - timedelta(days=1))
    session = services.session_start(user=student, deck=None, size=10, mode="recall", order="due")
    assert list(session.items.order_by("position").values_list("card", flat=True)) == [due_b.pk, due_a.pk]
    assert session.title == "Review due cards"


def test_nothing_due_is_a_clear_error(student):
    _deck(3)
    with pytest.raises(services.NothingToStudyError, match="No cards are due"):
        services.session_start(user=student, deck=None, size=10, mode="mixed", order="due")
    with pytest.raises(services.NothingToStudyError, match="no cards"):
        _start(student, make_deck())
