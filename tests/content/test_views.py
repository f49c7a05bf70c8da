"""The public content pages and /healthz, with their query counts."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from tests.factories import make_card, make_deck

AFFINE_QUESTION = "Give the standard affine quantization formula mapping a real value to an integer."


@pytest.mark.django_db
def test_home_lists_every_deck_with_its_card_count_in_one_query(client, seeded, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Deep Learning Frameworks and Production Syllabus" in html
    assert "Technology &amp; Digital Tools Flashcards" in html
    assert "30 cards" in html and "7 cards" in html


@pytest.mark.django_db
def test_home_query_count_does_not_grow_with_decks(client, django_assert_num_queries):
    for _ in range(5):
        make_card(deck=make_deck())
    with django_assert_num_queries(1):
        client.get("/")


@pytest.mark.django_db
def test_deck_page_shows_typeset_math_in_two_queries(client, seeded, django_assert_num_queries):
    url = reverse("content:deck", args=["deep-learning-frameworks-production-syllabus"])
    with django_assert_num_queries(2):
        response = client.get(url)
    html = response.content.decode()
    assert AFFINE_QUESTION in html
    assert '<span class="katex">' in html and "<mfrac><mi>r</mi><mi>s</mi></mfrac>" in html
    assert "$q =" not in html
    assert html.count('<details class="card-answer">') == 30


@pytest.mark.django_db
def test_deck_page_can_show_every_answer_without_javascript(client, seeded):
    url = reverse("content:deck", args=["deep-learning-frameworks-production-syllabus"])
    html = client.get(url, {"answers": "shown"}).content.decode()
    assert html.count('<details class="card-answer" open>') == 30
    assert "Hide answers" in html


@pytest.mark.django_db
def test_card_page_shows_one_card_with_neighbours_in_one_query(client, seeded, django_assert_num_queries):
    from apps.content.models import Card

    card = Card.objects.select_related("deck").get(question=AFFINE_QUESTION)
    with django_assert_num_queries(1):
        response = client.get(card.get_absolute_url())
    html = response.content.decode()
    assert response.status_code == 200
    assert AFFINE_QUESTION in html and "zero-point" in html
    previous, following = (
        Card.objects.get(deck=card.deck, position=card.position - 1),
        Card.objects.get(deck=card.deck, position=card.position + 1),
    )
    assert f'rel="prev" href="{previous.get_absolute_url()}"' in html
    assert f'rel="next" href="{following.get_absolute_url()}"' in html


@pytest.mark.django_db
def test_unknown_deck_or_card_is_a_404(client):
    card = make_card()
    other = make_deck()
    assert client.get(reverse("content:deck", args=["no-such-deck"])).status_code == 404
    assert client.get(reverse("content:card", args=[other.slug, card.pk])).status_code == 404
    assert client.get(reverse("content:card", args=[card.deck.slug, card.pk + 1000])).status_code == 404


@pytest.mark.django_db
def test_pages_refuse_post(client):
    card = make_card()
    assert client.post("/").status_code in {403, 405}
    assert client.post(card.get_absolute_url()).status_code in {403, 405}


@pytest.mark.django_db
def test_healthz_answers_ok_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "static": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db(transaction=True)
def test_healthz_answers_503_when_the_database_is_unreachable(client):
    original = dict(connection.settings_dict)
    connection.close()
    # A real connection attempt to a port nothing listens on: no mock involved.
    connection.settings_dict.update(HOST="127.0.0.1", PORT="1", OPTIONS={"connect_timeout": 2})
    try:
        response = client.get("/healthz")
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(original)
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"
