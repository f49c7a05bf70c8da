"""Saving the card form in the admin: invalid or over-long TeX blocks the save and is quoted, each formula is
typeset once, the preview button saves nothing, a save records a version, the grader box uses the real grader,
positions are checked and filled in, KaTeX being down keeps what was typed, and line breaks are stored as line feeds.
"""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from tests.authoring.card_form import _distractors, _form_data
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def test_invalid_tex_blocks_the_save_and_names_the_formula(client, instructor):
    card = make_card(answer="Fine")
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_card_change", args=[card.pk]), _form_data(card, answer="Broken $\\frac{1}{$ here")
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "KaTeX cannot typeset $\\frac{1}{$" in html and "KaTeX parse error" in html
    card.refresh_from_db()
    assert card.answer == "Fine"


def test_a_refused_formula_is_quoted_with_the_delimiters_the_author_wrote(client, instructor):
    card = make_card(answer="Fine")
    client.force_login(instructor)
    data = _form_data(card, answer="Broken:\n\n\\[\\sqrt[{\\]\n\nand \\(\\frac{1}{\\)")
    html = unescape(client.post(reverse("admin:content_card_change", args=[card.pk]), data).content.decode())
    assert "KaTeX cannot typeset \\[\\sqrt[{\\]:" in html and "KaTeX cannot typeset \\(\\frac{1}{\\):" in html
    assert "$\\sqrt" not in html


def test_a_formula_over_the_limit_is_refused_with_its_start_quoted_not_all_of_it(client, instructor):
    card = make_card(answer="Fine")
    client.force_login(instructor)
    data = _form_data(card, answer="$" + "x+" * 2_600 + "x$")
    html = client.post(reverse("admin:content_card_change", args=[card.pk]), data).content.decode()
    error = html.split('<ul class="errorlist', 1)[1].split("</ul>", 1)[0]
    assert "the formula is 5,201 characters long; at most 5,000" in error
    # Quoted as written, from its opening "$".
    assert "$" + "x+" * 39 + "x… (5,123 more characters)" in error and "x+" * 41 not in error


def test_saving_in_the_admin_typesets_each_formula_once(client, instructor, typeset):
    """The form checks the TeX by rendering, and the card stores that render: nothing is typeset twice."""
    card = make_card(answer="Fine")
    client.force_login(instructor)
    typeset.clear()
    data = _form_data(card, answer="Ratio $\\frac{1}{2}$ of $x^2$", explanation="So $x^2$ again.")
    assert client.post(reverse("admin:content_card_change", args=[card.pk]), data).status_code == 302
    assert sorted(typeset) == sorted(["\\frac{1}{2}", "x^2", "x^2"])
    card.refresh_from_db()
    assert card.answer_html.count('class="katex"') == 2


def test_the_preview_button_saves_nothing(client, instructor):
    card = make_card(answer="Old")
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_card_change", args=[card.pk]), {**_form_data(card, answer="New $x^2$"), "_preview": "1"}
    )
    html = response.content.decode()
    assert "Preview only: nothing was saved" in html
    assert "<msup><mi>x</mi><mn>2</mn></msup>" in html  # the preview panel shows the unsaved text
    card.refresh_from_db()
    assert card.answer == "Old" and card.versions.count() == 1


def test_saving_records_a_version_with_author_and_inlines(client, instructor):
    card = make_card(answer="Old")
    client.force_login(instructor)
    data = _form_data(card, answer="New", **{"aliases-TOTAL_FORMS": 1, "aliases-0-text": "Newer"})
    assert client.post(reverse("admin:content_card_change", args=[card.pk]), data).status_code == 302
    version = card.versions.order_by("-number").first()
    assert (version.number, version.author, version.note) == (2, instructor, "Edited in the admin")
    assert version.data["answer"] == "New" and version.data["aliases"] == ["Newer"]
    card.refresh_from_db()
    assert card.current_version == version


def test_try_the_grader_uses_the_real_grader(client, instructor, htmx):
    card = make_card(
        question="Which strategy replicates the whole model on every GPU?",
        answer="Data parallelism",
        short_answer="Data parallelism",
    )
    client.force_login(instructor)
    url = reverse("admin:content_card_try_grader", args=[card.pk])
    html = client.post(url, {"response": "data paralelism"}, **htmx).content.decode()
    assert "Correct" in html and "Typo tolerated" in html
    html = client.post(url, {"response": "model parallelism"}, **htmx).content.decode()
    assert "Incorrect" in html
    html = client.post(url, {"response": "data parallelism or model parallelism"}, **htmx).content.decode()
    assert "<strong>Partly correct</strong>" in html  # as the student's pages name it
    page = client.post(url, {"response": "Data parallelism"})
    assert page.status_code == 200 and "Back to the card" in page.content.decode()
    refused = client.post(url, {"response": ""}, **htmx)
    assert refused.status_code == 422
    assert '<ul class="errorlist" id="grader-response-error"><li>This field is required.' in refused.content.decode()
    card_page = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    assert 'aria-describedby="grader-response-error"' in card_page  # the box is described by that error


def test_card_page_shows_preview_grader_and_versions(client, instructor):
    card = make_card(answer="$x^2$")
    client.force_login(instructor)
    html = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    assert 'id="card-preview"' in html and "<msup>" in html
    assert "Try the grader" in html and "Version 1" in html
    assert 'data-hx-trigger="input changed delay:400ms"' in html


@pytest.mark.parametrize("position", [0, -1])
def test_position_zero_is_a_form_error_in_words(client, instructor, position):
    card = make_card()
    client.force_login(instructor)
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), _form_data(card, position=position))
    html = unescape(response.content.decode())
    assert "Positions start at 1." in html and "is violated" not in html
    assert "greater than or equal to 0" not in html  # -1 used to be told 0 would do


def test_an_empty_position_puts_the_card_at_the_end_of_its_deck(client, instructor):
    deck = make_deck()
    for _ in range(3):
        make_card(deck=deck)
    moving = make_card()  # in another deck, at its position 1
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_card_change", args=[moving.pk]), _form_data(moving, deck=deck.pk, position="")
    )
    assert response.status_code == 302
    moving.refresh_from_db()
    assert (moving.deck_id, moving.position) == (deck.pk, 4)


def test_a_taken_position_names_the_card_holding_it_and_the_next_free_one(client, instructor):
    deck = make_deck(title="Serving")
    make_card(deck=deck, question="What is dynamic batching?")
    make_card(deck=deck)
    moving = make_card()
    client.force_login(instructor)
    data = _form_data(moving, deck=deck.pk, position=1)
    html = unescape(client.post(reverse("admin:content_card_change", args=[moving.pk]), data).content.decode())
    assert "Position 1 of Serving is taken by “What is dynamic batching?”. The next free one is 3" in html
    assert "already exists" not in html  # not Django's "Card with this Deck and Position already exists."
    make_card(deck=deck, position=7)  # positions 1, 2 and 7: 3 is free before the end
    html = unescape(client.post(reverse("admin:content_card_change", args=[moving.pk]), data).content.decode())
    assert "The next free one is 3, or leave it empty to add the card at the end." in html
    data = _form_data(moving, deck=deck.pk, position=7)
    html = unescape(client.post(reverse("admin:content_card_change", args=[moving.pk]), data).content.decode())
    assert "The next free one is 8," in html


def test_a_save_while_katex_is_down_says_try_again_and_keeps_what_was_typed(client, instructor, katex_down):
    long_explanation = "Because of the scale. " * 500  # 11,000 characters: the retry form keeps it whole
    card = make_card(answer="Fine", explanation=long_explanation)
    client.force_login(instructor)
    data = _form_data(card, answer="Ratio $\\frac{1}{2}$, typed with care")
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), data)
    html = response.content.decode()
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "cannot reach its maths renderer (KaTeX) right now" in html
    assert 'value="Ratio $\\frac{1}{2}$, typed with care"' in html  # one click sends it again
    assert f'name="explanation" value="{long_explanation}"' in html  # a retry without it would save it blank
    card.refresh_from_db()
    assert card.answer == "Fine"


def test_line_breaks_typed_in_the_admin_are_stored_as_line_feeds(client, instructor):
    """A browser sends a textarea's line breaks as CR LF. Stored as sent, the card's export read back from a
    spreadsheet (which writes LF) was "changed", and made a version whose diff showed nothing."""
    card = make_card(answer="Old")
    client.force_login(instructor)
    typed = {"answer": "Use DDP:\r\n\r\n```python\r\nDDP(model)\r\n```", "explanation": "One\r\ntwo"}
    data = _form_data(card, **typed, **_distractors("Use DP:\r\nit is faster"))
    url = reverse("admin:content_card_change", args=[card.pk])
    assert client.post(url, data).status_code == 302
    card.refresh_from_db()
    assert card.answer == "Use DDP:\n\n```python\nDDP(model)\n```" and card.explanation == "One\ntwo"
    assert list(card.distractors.values_list("text", flat=True)) == ["Use DP:\nit is faster"]
    # The same text sent again, as the browser sends it, is no new version.
    versions = card.versions.count()
    assert client.post(url, _form_data(card, **typed)).status_code == 302
    assert card.versions.count() == versions
