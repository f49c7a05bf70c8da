"""Multiple-choice options in a real Chromium: the whole option is its radio's target, typeset maths included."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.content.services import card_save
from apps.quiz import services
from tests.conftest import make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("width", [1280, 375])
def test_clicking_the_formula_of_an_option_picks_that_option(browser, live_server, sign_in, width):
    """KaTeX's positioned spans were painted over the option's transparent radio: a click on the maths (most of an
    option that is a formula) picked nothing; only the option's padding or a plain word did."""
    alice = make_user("alice")
    deck = make_deck()
    card = make_card(
        deck=deck, question="Which is the L1 norm?", answer="$\\sum_i |x_i|$", short_answer="$\\sum_i |x_i|$"
    )
    card_save(card=card, distractors=["$\\max_i |x_i|$", "$\\sqrt{\\sum_i x_i^2}$", "$\\frac{1}{n}\\sum_i x_i$"])
    session = services.session_start(user=alice, deck=deck, size=1, mode="choice", order="new")
    page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
    sign_in(page, "alice", f"/quiz/{session.pk}/")
    options = page.locator(".option")
    expect(options).to_have_count(4)
    for index in (2, 0):
        formula = options.nth(index).locator(".katex-html").first
        box = formula.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(options.nth(index).locator("input")).to_be_checked()
    page.context.close()
