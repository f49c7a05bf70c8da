"""The deck's change form in the admin: its description is Markdown with maths, checked as a card's texts are."""

from __future__ import annotations

from django.urls import reverse

from apps.content.models import Deck
from tests.factories import make_deck


def _post(client, deck: Deck, description: str):
    data = {"title": deck.title, "slug": deck.slug, "description": description}
    return client.post(reverse("admin:content_deck_change", args=[deck.pk]), data)


def test_a_description_katex_rejects_is_refused_naming_the_formula(client, instructor):
    deck = make_deck(description="Fine")
    client.force_login(instructor)
    response = _post(client, deck, "Ratio $\\frac{1}{$ here")
    html = response.content.decode()
    assert response.status_code == 200
    assert "KaTeX cannot typeset $\\frac{1}{$" in html and "KaTeX parse error" in html
    deck.refresh_from_db()
    assert deck.description == "Fine"


def test_a_description_with_good_maths_is_saved_rendered(client, instructor):
    deck = make_deck(description="Fine")
    client.force_login(instructor)
    response = _post(client, deck, "Ratio $\\frac{1}{2}$ here,\r\n\r\nand a paragraph")
    assert response.status_code == 302
    deck.refresh_from_db()
    # The textarea's CR LF stored as line feeds, as every other text is
    assert deck.description == "Ratio $\\frac{1}{2}$ here,\n\nand a paragraph"
    assert 'class="katex"' in deck.description_html
