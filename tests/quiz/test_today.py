"""The home page's "Today" panel and deck tiles: a signed-in student's due reviews, unfinished quiz and standing in each
deck (selectors.study_today)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.quiz import services
from apps.quiz.models import CardState
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _deck(title: str, cards: int):
    deck = make_deck(title=title)
    for n in range(cards):
        make_card(deck=deck, question=f"{title} question {n}?", answer=f"Answer {n}")
    return deck


def _answer(user, deck, *, size: int, answered: int | None = None):
    session = services.session_start(user=user, deck=deck, size=size, mode="recall", order="new")
    for item in session.items.all()[: size if answered is None else answered]:
        services.answer_submit(
            user=user, session_id=session.pk, position=item.position, submission=services.Submission(response="x")
        )
    return session


def _tile(client, title: str) -> str:
    html = client.get(reverse("content:home")).content.decode()
    start = html.rindex('<li class="deck-tile">', 0, html.index(f">{title}</a>"))
    return " ".join(html[start : html.index("</li>", start)].split())


def _order_checked(response) -> list[str]:
    radios = re.findall(r'<input type="radio" name="order"[^>]*>', response.content.decode())
    return [re.search(r'value="(\w+)"', radio)[1] for radio in radios if " checked" in radio]


def _today(client) -> str:
    html = client.get(reverse("content:home")).content.decode()
    start = html.find('<section class="today"')
    return "" if start < 0 else html[start : html.index("</section>", start)]


def test_strangers_and_students_with_nothing_waiting_see_no_panel(client, student_client):
    _deck("Serving", 2)
    assert _today(client) == ""
    assert _today(student_client) == ""


def test_due_cards_are_counted_per_deck_with_the_way_to_review_them(student_client, student, other_student):
    serving, training = _deck("Serving", 3), _deck("Training", 2)
    _answer(student, serving, size=3)
    _answer(student, training, size=2)
    _answer(other_student, training, size=2)
    CardState.objects.filter(user=student).update(due=timezone.now() - timedelta(hours=1))
    CardState.objects.filter(user=student, card__question="Serving question 0?").update(
        due=timezone.now() + timedelta(days=3)
    )
    panel = _today(student_client)
    assert "4 cards are due for review: 2 in Serving, 2 in Training." in panel
    assert f'<a class="button" href="{reverse("quiz:review")}">Review due cards</a>' in panel


def test_with_nothing_due_it_says_when_the_next_card_comes_back(student_client, student):
    _answer(student, _deck("Serving", 1), size=1)
    CardState.objects.filter(user=student).update(due=timezone.now() + timedelta(days=2, hours=1, minutes=5))
    panel = _today(student_client)
    assert "Nothing is due right now. The next card comes back in 2\xa0days, 1\xa0hour" in panel
    assert "Review due cards" not in panel


def test_the_latest_unfinished_quiz_is_offered_and_a_finished_one_is_not(student_client, student, other_student):
    serving = _deck("Serving", 3)
    _answer(other_student, serving, size=3, answered=1)  # someone else's is none of this student's business
    assert _today(student_client) == ""
    session = _answer(student, serving, size=3, answered=1)
    panel = _today(student_client)
    assert (
        "You have an unfinished quiz on <strong>Serving</strong>, started just now: 1 of 3 questions answered." in panel
    )
    assert f'<a href="{session.get_absolute_url()}">Resume it</a>' in panel
    student_client.post(reverse("quiz:finish", args=[session.pk]))
    assert "unfinished" not in _today(student_client)


def test_a_quiz_on_a_deck_made_a_draft_since_is_not_offered(student_client, student):
    serving = _deck("Serving", 2)
    _answer(student, serving, size=2, answered=1)
    serving.published = False
    serving.save()
    assert _today(student_client) == ""


def test_the_panel_costs_the_same_queries_however_long_the_history(student_client, student):
    counts = []
    for n in (1, 4):
        deck = _deck(f"Deck {n}", n)
        _answer(student, deck, size=n)
        _answer(student, deck, size=n, answered=0)
        with CaptureQueriesContext(connection) as queries:
            student_client.get(reverse("content:home"))
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_cohort_decks_overdue_or_due_within_three_days_are_named_with_the_cards_left(
    student_client, student, instructor
):
    from apps.cohorts import services as cohorts
    from apps.cohorts.models import Assignment

    today = timezone.localdate()
    spring = cohorts.cohort_create(name="Spring", instructor=instructor)
    cohorts.cohort_join(student=student, code=spring.join_code)
    serving, training, later, done = _deck("Serving", 2), _deck("Training", 3), _deck("Later", 1), _deck("Done", 1)
    single = _deck("Single", 1)
    for deck, days in ((serving, -1), (training, 2), (later, 4), (done, 0), (single, 1)):
        Assignment.objects.create(cohort=spring, deck=deck, due_date=today + timedelta(days=days))
    _answer(student, training, size=3, answered=1)
    _answer(student, done, size=1)
    CardState.objects.update(due=timezone.now() + timedelta(days=5))  # nothing due for review: only the deadlines
    panel = _today(student_client)
    # Before, these were only on My progress: a student landing on the home page was not told.
    start = reverse("quiz:start", args=[serving.slug])
    overdue = f'Overdue</span> <a href="{start}">Serving</a> for <bdi>Spring</bdi>, due'
    assert overdue in panel and "</time>: 0 of 2 cards attempted.</li>" in panel
    assert 'Due in 2 days</span> <a href="' in panel and "</time>: 1 of 3 cards attempted.</li>" in panel
    assert "</time>: 0 of 1 card attempted.</li>" in panel  # not "1 cards"
    assert panel.index("Serving") < panel.index("Training")  # soonest first
    assert "Later" not in panel and "Done" not in panel  # not due within three days; every card attempted
    cohorts.cohort_remove_student(cohort=spring, student_id=student.pk)
    assert "Serving" not in _today(student_client)


def test_each_deck_tile_shows_the_students_own_cards_seen_mastered_and_due(student_client, student, other_student):
    serving, training = _deck("Serving", 4), _deck("Training", 2)
    _deck("Unseen", 3)
    _answer(student, serving, size=3)
    _answer(other_student, training, size=2)  # another student's answers are not this one's
    states = CardState.objects.filter(user=student).order_by("pk")
    CardState.objects.filter(pk=states[0].pk).update(due=timezone.now() - timedelta(hours=1))
    CardState.objects.filter(pk=states[1].pk).update(
        due=timezone.now() + timedelta(days=9),
        state=CardState.State.REVIEW,
        mastered_until=timezone.now() + timedelta(days=8),
    )
    CardState.objects.filter(pk=states[2].pk).update(due=timezone.now() + timedelta(days=1))
    tile = _tile(student_client, "Serving")
    assert '<progress class="thin-bar" max="4" value="3" aria-hidden="true"></progress>' in tile
    assert "3 of 4 seen · 1 mastered · <strong>1 due now</strong>" in tile
    review = f'<a href="{reverse("quiz:start", args=[serving.slug])}?order=due">Review the due card'
    assert review in tile
    assert '<progress class="thin-bar" max="2" value="0"' in _tile(student_client, "Training")
    assert "Not started yet" in _tile(student_client, "Unseen")
    assert "Review the" not in _tile(student_client, "Training")


def test_strangers_see_tiles_without_anyones_standing(client, student):
    serving = _deck("Serving", 2)
    _answer(student, serving, size=2)
    tile = _tile(client, "Serving")
    assert "<progress" not in tile and "seen" not in tile and "Not started" not in tile
    assert f'<a href="{reverse("quiz:start", args=[serving.slug])}">Start a quiz' in tile


def test_review_the_due_opens_the_deck_quiz_with_due_cards_first(student_client, student):
    serving = _deck("Serving", 2)
    session = _answer(student, serving, size=2)
    student_client.post(reverse("quiz:finish", args=[session.pk]))  # the last quiz was new cards first
    url = reverse("quiz:start", args=[serving.slug])
    assert _order_checked(student_client.get(url)) == ["new"]
    assert _order_checked(student_client.get(url + "?order=due")) == ["due"]
    assert student_client.get(url + "?order=%00").status_code == 200  # a made-up order is ignored


def test_review_the_n_due_offers_a_quiz_of_those_n(student_client, student):
    """ "Review the 3 due" opened the form at the last quiz's length: 2 questions, leaving one due card out, or 10,
    adding new cards to a review the student had been promised was of the 3."""
    serving = _deck("Serving", 12)
    _answer(student, serving, size=3)
    CardState.objects.update(due=timezone.now())
    _answer(student, serving, size=2)  # the last quiz, two new cards, not due yet
    url = reverse("quiz:start", args=[serving.slug])
    size = r'<input type="number" name="size" value="(\d+)"'
    assert re.search(size, student_client.get(url).content.decode())[1] == "2"  # a plain start: the last length
    page = student_client.get(url + "?order=due").content.decode()
    assert "3 due for review" in page and re.search(size, page)[1] == "3"
    CardState.objects.update(due=timezone.now() + timedelta(days=1))
    assert re.search(size, student_client.get(url + "?order=due").content.decode())[1] == "2"  # none due now
