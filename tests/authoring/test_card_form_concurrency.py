"""Two instructors editing one card: the card form carries the card as it was loaded, and a form made before another
save of the card is refused, saying who saved it and when, instead of silently undoing that save."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from apps.content.models import Card
from apps.content.services import card_save
from tests.authoring.card_form import _aliases, _form_data
from tests.conftest import make_instructor
from tests.factories import make_card, make_deck
from tests.locks import after_waiting

WHEN = r"\d+ \w+ \d{4}, \d\d:\d\d UTC"
NOTHING_SAVED = (
    "Nothing was saved, so as not to undo that change. Open the card again to start from it (its versions, below, show "
    "what changed) and make your edit there; what you typed is still here to copy."
)


def _opened(client: Client, card: Card) -> dict:
    """The card's form as `client` opens it, as it would post it back unchanged."""
    page = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    (loaded,) = re.findall(r'<input type="hidden" name="loaded_version" value="([^"]+)"', page)
    return {**_form_data(Card.objects.get(pk=card.pk)), "loaded_version": loaded}


def _text(response) -> str:
    return " ".join(unescape(response.content.decode()).split())


@pytest.fixture
def two(db, instructor):
    """A card carol saved last, open in her form; and dana, another instructor, signed in elsewhere."""
    card = make_card(deck=make_deck(title="Kubernetes"), question="Which object runs Jobs on a schedule?",
                     answer="Deployment", short_answer="Deployment", explanation="It keeps pods running.")  # fmt: skip
    card.answer = card.short_answer = "CronJob"
    card_save(card=card, author=instructor, note="Edited in the admin")
    carol, dana = Client(), Client()
    carol.force_login(instructor)
    dana.force_login(make_instructor("dana"))
    return card, carol, dana


def _dana_edits(dana: Client, card: Card) -> str:
    url = reverse("admin:content_card_change", args=[card.pk])
    response = dana.post(url, {**_opened(dana, card), "explanation": "A CronJob creates a Job on each tick."})
    assert response.status_code == 302
    return f"dana saved version 3 at {WHEN}"


def _dana_reverts(dana: Client, card: Card) -> str:
    assert dana.post(reverse("admin:content_card_revert", args=[card.pk, 1])).status_code == 302
    return f"dana saved version 3 at {WHEN}"


def _dana_moves(dana: Client, card: Card) -> str:
    """A new place in the deck is a save, though no new version of the card's content."""
    url = reverse("admin:content_card_change", args=[card.pk])
    assert dana.post(url, {**_opened(dana, card), "position": 7}).status_code == 302
    return f"it was saved at {WHEN}"


@pytest.mark.parametrize("other_save", [_dana_edits, _dana_reverts, _dana_moves], ids=["edit", "revert", "move"])
def test_a_form_opened_before_another_save_of_the_card_is_refused_and_writes_nothing(two, other_save):
    """B fixed the explanation, A saved the form opened before (editing only the answer): B's fix was gone."""
    card, carol, dana = two
    form = _opened(carol, card)
    said = other_save(dana, card)
    stored = Card.objects.get(pk=card.pk)
    versions = stored.versions.count()

    response = carol.post(
        reverse("admin:content_card_change", args=[card.pk]),
        {**form, "answer": "CronJob (a Job on a schedule)", **_aliases("cron job")},
    )

    assert response.status_code == 200
    assert re.search(
        f"This card was saved since you opened this form: {said}. {re.escape(NOTHING_SAVED)}", _text(response)
    )
    # What carol typed comes back to copy; nothing of it is stored, the accepted answer of her form neither.
    assert "CronJob (a Job on a schedule)" in _text(response)
    after = Card.objects.get(pk=card.pk)
    assert (after.answer, after.explanation, after.position) == (stored.answer, stored.explanation, stored.position)
    assert not after.aliases.exists() and after.versions.count() == versions


def test_the_form_opened_again_saves_over_the_other_instructors_change_without_undoing_it(two):
    card, carol, dana = two
    stale = _opened(carol, card)
    _dana_edits(dana, card)
    url = reverse("admin:content_card_change", args=[card.pk])
    assert carol.post(url, {**stale, "answer": "CronJob (a Job on a schedule)"}).status_code == 200

    assert carol.post(url, {**_opened(carol, card), "answer": "CronJob (a Job on a schedule)"}).status_code == 302

    after = Card.objects.get(pk=card.pk)
    assert (after.answer, after.explanation) == (
        "CronJob (a Job on a schedule)",
        "A CronJob creates a Job on each tick.",
    )


def test_a_second_click_on_save_is_refused_naming_the_editor_as_you_and_saves_once(two):
    card, carol, _dana = two
    url = reverse("admin:content_card_change", args=[card.pk])
    form = {**_opened(carol, card), "answer": "CronJob (a Job on a schedule)"}
    versions = card.versions.count()
    assert carol.post(url, form).status_code == 302
    second = carol.post(url, form)
    assert second.status_code == 200
    said = f"you saved version {versions + 1} at {WHEN}, in another tab or by a second click on Save. "
    assert re.search(f"This card was saved since you opened this form: {said}", _text(second))
    assert Card.objects.get(pk=card.pk).answer == "CronJob (a Job on a schedule)"
    assert card.versions.count() == versions + 1


def test_a_form_sent_without_the_card_it_was_opened_at_is_refused(two):
    card, carol, _dana = two
    url = reverse("admin:content_card_change", args=[card.pk])
    for loaded in ("", "12-not-a-time", "0-0"):
        response = carol.post(url, {**_opened(carol, card), "loaded_version": loaded, "answer": "Changed"})
        assert response.status_code == 200 and "This card was saved since you opened this form" in _text(response)
    assert Card.objects.get(pk=card.pk).answer == "CronJob"


@pytest.mark.django_db(transaction=True)
def test_a_save_sent_while_another_is_being_saved_waits_for_it_then_is_refused(instructor):
    """The check and the save are one transaction, under the card's lock: no save comes between them."""
    card = make_card(deck=make_deck(title="Kubernetes"), question="Which object runs Jobs on a schedule?",
                     answer="CronJob", short_answer="CronJob")  # fmt: skip
    carol = Client()
    carol.force_login(instructor)
    form = _opened(carol, card)
    dana = make_instructor("dana")

    def dana_saves():
        card_save(card=Card.objects.get(pk=card.pk), author=dana, note="Edited in the admin", aliases=["cron job"])

    url = reverse("admin:content_card_change", args=[card.pk])
    response = after_waiting(dana_saves, lambda: carol.post(url, {**form, "answer": "A CronJob"}))
    assert response.status_code == 200
    assert re.search(f"This card was saved since you opened this form: dana saved version 2 at {WHEN}", _text(response))
    assert Card.objects.get(pk=card.pk).answer == "CronJob"
