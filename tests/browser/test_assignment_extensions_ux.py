"""In a real Chromium: a deck's extensions page reached from the dashboard, its forms swapped in by HTMX."""

from __future__ import annotations

from datetime import timedelta

from django.utils import formats, timezone
from playwright.sync_api import expect

from apps.cohorts import deadlines
from apps.cohorts import services as cohorts
from apps.cohorts.models import Extension
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck


def test_granting_and_removing_extensions_swaps_the_panel_and_says_so(live_server, page, sign_in, transactional_db):
    deck = make_deck(title="Serving")
    make_card(deck=deck)
    cohort = cohorts.cohort_create(name="Spring", instructor=make_instructor("carol"))
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=timezone.localdate() + timedelta(days=1))
    for name in ("ann", "ben", "cy"):
        cohorts.cohort_join(student=make_user(name), code=cohort.join_code)
    sign_in(page, "carol", f"/cohorts/{cohort.pk}/")
    # The link sits in the matrix's boosted header, yet loads the page whole (not into the dashboard's panel).
    page.get_by_role("link", name="extensions of Serving").click()
    url = f"{live_server.url}/cohorts/{cohort.pk}/assignments/{deck.pk}/extensions/"
    expect(page).to_have_url(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Extensions for Serving")
    page.evaluate("document.body.dataset.marker = 'not reloaded'")

    later = timezone.localdate() + timedelta(days=6)
    page.get_by_label("ann").check()
    page.get_by_label("cy").check()
    page.get_by_label("Extended to").fill(later.isoformat())
    page.get_by_role("button", name="Extend for the students chosen").click()
    note = page.locator("#extensions-panel .message-success")
    expect(note).to_have_text(f"ann and cy now have until {formats.date_format(later, 'j M Y')} for Serving.")
    expect(note).to_be_focused()  # read out, where the button pressed was swapped away
    assert page.evaluate("document.body.dataset.marker") == "not reloaded" and page.url == url
    expect(page.get_by_role("row")).to_have_count(3)  # the header, ann, cy
    expect(page.get_by_role("checkbox")).to_have_count(1)  # ben, the one left without one

    page.get_by_text("Change or remove…").first.click()
    page.get_by_role("button", name="Remove ann’s extension").click()
    expect(note).to_have_text("ann is back on the cohort's deadline for Serving.")
    assert page.evaluate("document.body.dataset.marker") == "not reloaded"
    assert list(Extension.objects.values_list("student__username", flat=True)) == ["cy"]
