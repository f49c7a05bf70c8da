"""Deck and card lists in the admin: useful columns, search and filters, a constant number of queries."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.content.models import Card, Deck
from apps.content.services import card_mark
from apps.quiz import services
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _content(decks: int, cards: int, student) -> None:
    for _ in range(decks):
        deck = make_deck()
        for i in range(cards):
            make_card(deck=deck, question=f"Question {i} about GPUs?", answer=f"Answer {i}")
        session = services.session_start(user=student, deck=deck, size=cards, mode="recall", order="new")
        for item in session.items.all():
            services.answer_submit(
                user=student, session_id=session.pk, position=item.position,
                submission=services.Submission(response=item.card.answer if item.position % 2 else "no"),
            )  # fmt: skip


@pytest.mark.parametrize("size", [(1, 3), (4, 8)])
def test_card_list_query_count_is_constant(client, instructor, student, django_assert_num_queries, size):
    _content(*size, student)
    client.force_login(instructor)
    with django_assert_num_queries(8):
        response = client.get(reverse("admin:content_card_changelist"))
    html = response.content.decode()
    rows = response.context["cl"].result_list
    # Every card was answered once, right or wrong, and the columns show it.
    assert len(rows) == min(size[0] * size[1], 50)
    assert {card._answers for card in rows} == {1} and {card._accuracy for card in rows} == {0.0, 1.0}
    assert set(re.findall(r'<td class="field-answer_count">(\d+)</td>', html)) == {"1"}
    assert set(re.findall(r'<td class="field-accuracy">([^<]*)</td>', html)) == {"0\u00a0%", "100\u00a0%"}


@pytest.mark.parametrize("size", [(1, 3), (4, 8)])
def test_deck_list_query_count_is_constant(client, instructor, student, django_assert_num_queries, size):
    _content(*size, student)
    client.force_login(instructor)
    with django_assert_num_queries(7):
        client.get(reverse("admin:content_deck_changelist"))


def test_card_list_columns_search_and_filters(client, instructor, student):
    _content(1, 4, student)
    other = make_deck(title="Other deck")
    make_card(deck=other, question="Unique needle question?", kind="syllabus", answer="x")
    client.force_login(instructor)
    response = client.get(reverse("admin:content_card_changelist"), {"q": "needle"})
    rows = response.context["cl"].result_list
    assert [card.question for card in rows] == ["Unique needle question?"]
    response = client.get(reverse("admin:content_card_changelist"), {"kind__exact": "syllabus"})
    assert response.context["cl"].result_count == 1
    response = client.get(reverse("admin:content_card_changelist"), {"deck__id__exact": other.pk})
    assert response.context["cl"].result_count == 1
    response = client.get(reverse("admin:content_card_changelist"), {"archived__exact": "1"})
    assert response.context["cl"].result_count == 0
    answered = client.get(reverse("admin:content_card_changelist")).context["cl"].result_list
    counts = sorted(card._answers for card in answered)
    assert counts == [0, 1, 1, 1, 1]
    accuracies = {card._accuracy for card in answered}
    assert accuracies == {0.0, 1.0, None}  # right, wrong, and the other deck's card nobody answered


def test_deck_list_shows_a_cards_edit_as_the_decks_last_change(client, instructor):
    deck = make_deck(title="Edited through a card")
    card = make_card(deck=deck)
    Deck.objects.filter(pk=deck.pk).update(updated_at=timezone.now() - timedelta(days=30))
    Card.objects.filter(pk=card.pk).update(updated_at=timezone.now() - timedelta(days=2))
    empty = make_deck(title="No cards")
    client.force_login(instructor)
    rows = {d.pk: d for d in client.get(reverse("admin:content_deck_changelist")).context["cl"].result_list}
    assert rows[deck.pk]._last_change == Card.objects.get(pk=card.pk).updated_at
    assert rows[empty.pk]._last_change == Deck.objects.get(pk=empty.pk).updated_at


def test_a_deck_links_to_its_cards_and_to_adding_one(client, instructor):
    deck = make_deck(title="Linked")
    make_card(deck=deck)
    make_card(deck=deck)
    client.force_login(instructor)
    cards = f"{reverse('admin:content_card_changelist')}?deck__id__exact={deck.pk}"
    page = client.get(reverse("admin:content_deck_change", args=[deck.pk])).content.decode()
    assert f'<a href="{cards}">2 cards</a>' in page.replace("&amp;", "&")
    add = f"{reverse('admin:content_card_add')}?deck={deck.pk}"
    assert f'<a href="{add}">Add a card to this deck</a>' in page
    assert client.get(add).context["adminform"].form.initial["deck"] == str(deck.pk)
    listed = client.get(reverse("admin:content_deck_changelist")).content.decode()
    assert f'<a href="{cards}">2</a>' in listed.replace("&amp;", "&")
    new = client.get(reverse("admin:content_deck_add")).content.decode()
    assert "Save the deck, then add its cards here." in new


def test_adding_a_card_from_a_decks_card_list_chooses_that_deck_and_its_kind(client, instructor):
    deck = make_deck()
    client.force_login(instructor)
    response = client.get(reverse("admin:content_card_add"), {"_changelist_filters": f"deck__id__exact={deck.pk}"})
    assert response.context["adminform"].form.initial["deck"] == str(deck.pk)
    assert "kind" not in response.context["adminform"].form.initial  # no card yet to take it from
    make_card(deck=deck, kind="syllabus")
    response = client.get(reverse("admin:content_card_add"), {"deck": deck.pk})
    assert response.context["adminform"].form.initial["kind"] == "syllabus"


@pytest.mark.parametrize("start", ["add", "change"])
def test_save_and_add_another_keeps_the_deck_and_kind(client, instructor, start):
    """Cards are written a deck at a time: the next card's form is of the same deck and kind, not blank."""
    deck = make_deck()
    client.force_login(instructor)
    data = {
        "deck": deck.pk, "position": "", "kind": "syllabus", "question": "Why?", "answer": "Because.",
        "short_answer": "", "explanation": "", "_addanother": "Save and add another",
        **{f"{prefix}-{k}": v for prefix in ("aliases", "distractors", "key_terms")
           for k, v in {"TOTAL_FORMS": 0, "INITIAL_FORMS": 0, "MIN_NUM_FORMS": 0, "MAX_NUM_FORMS": 1000}.items()},
    }  # fmt: skip
    if start == "add":
        url = reverse("admin:content_card_add")
    else:
        card = make_card(deck=deck, kind="syllabus")
        url = reverse("admin:content_card_change", args=[card.pk])
        data["loaded_version"] = card_mark(card)
    response = client.post(url, data)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('admin:content_card_add')}?deck={deck.pk}&kind=syllabus"
    initial = client.get(response["Location"]).context["adminform"].form.initial
    assert (initial["deck"], initial["kind"]) == (str(deck.pk), "syllabus")


def test_decks_are_published_or_made_drafts_from_the_list_several_at_once(client, instructor, student):
    """Each deck had to be opened, its box ticked and saved: no way to hide a week's decks or show them at once."""
    from django.contrib.admin.models import LogEntry

    drafts = [make_deck(title="RL basics", published=False), make_deck(title="GANs", published=False)]
    live = make_deck(title="CNNs")
    changelist = reverse("admin:content_deck_changelist")
    client.force_login(instructor)
    pks = [deck.pk for deck in (*drafts, live)]
    response = client.post(changelist, {"action": "publish", "_selected_action": pks}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == ["Published, students see them: GANs, RL basics.", "Already published: CNNs."]
    client.force_login(student)
    assert all(client.get(reverse("content:deck", args=[d.slug])).status_code == 200 for d in (*drafts, live))
    # Each change is in the deck's History, by whom.
    entry = LogEntry.objects.get(object_id=str(drafts[0].pk))
    assert (entry.user, entry.get_change_message()) == (instructor, "Published")

    client.force_login(instructor)
    response = client.post(changelist, {"action": "make_draft", "_selected_action": [live.pk]}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Made a draft, hidden from students: CNNs."]
    client.force_login(student)
    assert client.get(reverse("content:deck", args=[live.slug])).status_code == 404
