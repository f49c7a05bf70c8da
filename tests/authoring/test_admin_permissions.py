"""Who may do what in the admin: instructors edit, students and visitors are refused, only superusers delete decks."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

from apps.content.models import Card, Deck
from apps.content.services import card_mark, card_save
from apps.quiz import services
from apps.quiz.models import CardState, StudentCardStat, StudentDeckStat
from tests.conftest import make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def test_the_instructors_group_has_exactly_the_authoring_permissions():
    granted = set(Group.objects.get(name="Instructors").permissions.values_list("content_type__app_label", "codename"))
    every = ("view", "add", "change", "delete")
    expected = {
        # Decks are never deleted by instructors; versions are only read (they are made by saving).
        *(("content", f"{action}_deck") for action in ("view", "add", "change")),
        *(("content", f"{action}_{model}") for model in ("card", "alias", "distractor", "keyterm") for action in every),
        ("content", "view_cardversion"),
        # Creating cohorts on the site; each cohort's own instructors alone see and change it.
        ("cohorts", "add_cohort"),
        # Students' reports on cards: read and marked dealt with, never written or deleted.
        ("quiz", "view_cardreport"),
        ("quiz", "change_cardreport"),
    }
    assert granted == expected


def _card_form(card: Card, **fields) -> dict:
    return {
        "loaded_version": card_mark(Card.objects.get(pk=card.pk)),
        "deck": card.deck_id, "position": card.position, "kind": "flashcard", "question": card.question,
        "answer": card.answer, "short_answer": card.short_answer, "explanation": "", **fields,
        **{f"{prefix}-{k}": v for prefix in ("aliases", "distractors", "key_terms")
           for k, v in {"TOTAL_FORMS": 0, "INITIAL_FORMS": 0, "MIN_NUM_FORMS": 0, "MAX_NUM_FORMS": 1000}.items()},
    }  # fmt: skip


def test_instructor_can_open_and_edit_cards(client, instructor):
    card = make_card(question="Old question?")
    client.force_login(instructor)
    assert client.get(reverse("admin:content_card_changelist")).status_code == 200
    url = reverse("admin:content_card_change", args=[card.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, _card_form(card, question="New question?", answer="A", short_answer="A"))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Card.objects.get(pk=card.pk).question == "New question?"


def test_staff_who_may_only_view_cards_can_open_one(client):
    """Their form has no question, answer or explanation field to preview: the page failed with a KeyError (a 500)."""
    card = make_card(question="Which tool?")
    viewer = make_user("vera", is_staff=True)
    viewer.user_permissions.set(Permission.objects.filter(codename__in=["view_deck", "view_card"]))
    client.force_login(viewer)
    response = client.get(reverse("admin:content_card_change", args=[card.pk]))
    html = response.content.decode()
    assert response.status_code == 200 and "Which tool?" in html
    assert f'data-hx-post="{reverse("admin:content_card_preview")}"' not in html


def test_staff_who_may_only_view_cards_get_no_buttons_that_would_refuse_them(client, instructor):
    card = make_card(question="Which tool?", answer="A tool")
    card.answer = "A better tool"
    card_save(card=card, author=instructor)
    viewer = make_user("vera", is_staff=True)
    viewer.user_permissions.set(Permission.objects.filter(codename__in=["view_deck", "view_card", "view_cardversion"]))
    client.force_login(viewer)
    html = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    assert "A better tool" in html and "Version 1" in html  # the preview and the versions are still there
    assert 'name="_preview"' not in html and "Updates as you type" not in html
    assert "Revert to version" not in html
    client.force_login(instructor)
    html = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    assert 'name="_preview"' in html and "Revert to version 1" in html


@pytest.mark.parametrize("deck_permission", ["view_deck", "change_deck"])
def test_a_deck_offers_adding_a_card_only_to_staff_who_may_add_one(client, deck_permission):
    """The link led a user who may only view cards to a 403 page."""
    deck = make_deck(title="Viewed")
    make_card(deck=deck)
    viewer = make_user("vera", is_staff=True)
    viewer.user_permissions.set(Permission.objects.filter(codename__in=[deck_permission, "view_card"]))
    client.force_login(viewer)
    html = client.get(reverse("admin:content_deck_change", args=[deck.pk])).content.decode()
    assert "1 card</a>" in html
    assert "Add a card to this deck" not in html and reverse("admin:content_card_add") not in html
    viewer.user_permissions.add(Permission.objects.get(codename="add_card"))
    client.force_login(viewer)
    html = client.get(reverse("admin:content_deck_change", args=[deck.pk])).content.decode()
    assert f'<a href="{reverse("admin:content_card_add")}?deck={deck.pk}">Add a card to this deck</a>' in html


def test_moving_a_card_to_another_deck_moves_its_progress_with_it(client, instructor, student, other_student):
    old, new = make_deck(), make_deck()
    cards = [make_card(deck=old, question=f"Which tool {i}?", answer=f"Tool {i}") for i in range(2)]
    for user in (student, other_student):
        quiz = services.session_start(user=user, deck=old, size=2, mode="recall", order="new")
        for item in quiz.items.all():
            services.answer_submit(
                user=user, session_id=quiz.pk, position=item.position,
                submission=services.Submission(response=item.card.answer),
            )  # fmt: skip
    client.force_login(instructor)
    moved = cards[0]
    response = client.post(reverse("admin:content_card_change", args=[moved.pk]), _card_form(moved, deck=new.pk))
    assert response.status_code == 302, response.content.decode()[:2000]

    for user in (student, other_student):
        assert CardState.objects.get(user=user, card=moved).deck_id == new.pk
        decks = {s.deck_id: (s.cards_attempted, s.attempts) for s in StudentDeckStat.objects.filter(user=user)}
        assert decks == {old.pk: (1, 1), new.pk: (1, 1)}
        assert StudentCardStat.objects.get(user=user, card=moved).deck_id == new.pk


@pytest.mark.parametrize("who", ["student", "anonymous"])
def test_students_and_visitors_have_no_admin(client, student, who):
    card = make_card()
    if who == "student":
        client.force_login(student)
    for url in [
        reverse("admin:index"),
        reverse("admin:content_card_changelist"),
        reverse("admin:content_card_change", args=[card.pk]),
        reverse("admin:content_deck_import"),
    ]:
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert client.post(reverse("admin:content_card_preview"), {"question": "x"}).status_code == 302
    assert client.get(reverse("admin:content_card_preview_styles"), {"r": "height:1em"}).status_code == 302


def test_only_superusers_delete_decks(client, instructor, superuser):
    deck = make_deck()
    client.force_login(instructor)
    assert client.get(reverse("admin:content_deck_delete", args=[deck.pk])).status_code == 403
    assert Deck.objects.filter(pk=deck.pk).exists()
    client.force_login(superuser)
    assert client.post(reverse("admin:content_deck_delete", args=[deck.pk]), {"post": "yes"}).status_code == 302
    assert not Deck.objects.filter(pk=deck.pk).exists()


def test_a_card_with_answers_cannot_be_deleted_but_can_be_archived(client, instructor, student):
    deck = make_deck()
    cards = [make_card(deck=deck, answer=f"Answer {i}") for i in range(3)]
    session = services.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    services.answer_submit(
        user=student, session_id=session.pk, position=1, submission=services.Submission(response="x")
    )
    answered = session.items.get().card
    client.force_login(instructor)
    response = client.post(reverse("admin:content_card_delete", args=[answered.pk]), {"post": "yes"}, follow=True)
    assert "cannot be deleted" in response.content.decode() and "Archive it instead" in response.content.decode()
    assert Card.objects.filter(pk=answered.pk).exists()

    unanswered = next(card for card in cards if card.pk != answered.pk)
    client.post(reverse("admin:content_card_delete", args=[unanswered.pk]), {"post": "yes"})
    assert not Card.objects.filter(pk=unanswered.pk).exists()

    client.post(reverse("admin:content_card_changelist"), {"action": "archive", "_selected_action": [answered.pk]})
    answered.refresh_from_db()
    assert answered.archived
    assert answered.versions.order_by("-number").first().note == "Archived"
    again = services.session_start(user=student, deck=deck, size=10, mode="recall", order="new")
    assert answered.pk not in set(again.items.values_list("card", flat=True))


def test_a_card_in_a_quiz_not_yet_answered_cannot_be_deleted_either(client, instructor, student):
    """The database protects a card that quiz items refer to, answered or not; the page says why, once."""
    deck = make_deck()
    card = make_card(deck=deck)
    services.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    client.force_login(instructor)
    url = reverse("admin:content_card_delete", args=[card.pk])
    for response in (client.get(url), client.post(url, {"post": "yes"})):
        html = response.content.decode()
        assert response.status_code == 200 and "Cannot delete" in html
        assert "cannot be deleted" in html and "Archive it instead" in html
        assert "Session item" not in html and "protected related objects" not in html  # no list of rows
        assert reverse("admin:content_card_change", args=[card.pk]) in html
    assert Card.objects.filter(pk=card.pk).exists()
