"""In a real Chromium: an instructor sets up a cohort, a student joins and answers, the dashboard shows it."""

from __future__ import annotations

import csv
import io
import re

from django.core.management import call_command
from playwright.sync_api import expect

from apps.quiz.models import Answer
from tests.conftest import make_instructor, make_user

DECK = "Technology & Digital Tools Flashcards"


def test_cohort_from_creation_to_dashboard_and_csv(live_server, browser, sign_in, transactional_db):
    call_command("load_content", verbosity=0)
    make_instructor("carol")
    make_user("alice")

    instructor = browser.new_context(accept_downloads=True).new_page()
    sign_in(instructor, "carol", "/cohorts/")
    instructor.get_by_role("link", name="Create a cohort").click()
    instructor.get_by_label("Name").fill("Autumn 2026")
    instructor.get_by_role("button", name="Create").click()
    expect(instructor.locator("h1")).to_have_text("Manage Autumn 2026")
    instructor.get_by_label("Deck", exact=True).select_option(label=DECK)
    instructor.get_by_role("button", name="Assign or change due date").click()
    expect(instructor.get_by_role("row", name=DECK)).to_be_visible()
    code = instructor.locator(".join-code code").inner_text()

    student = browser.new_context().new_page()
    sign_in(student, "alice", "/cohorts/")
    student.get_by_label("Join code").fill(code.lower())
    student.get_by_role("button", name="Join a cohort").click()
    expect(student.locator(".messages")).to_contain_text("You joined Autumn 2026")
    expect(student.get_by_role("heading", name="Autumn 2026")).to_be_visible()
    student.get_by_role("link", name=DECK).first.click()
    student.get_by_label("Number of questions").fill("2")
    student.get_by_label("Free recall").check()
    student.get_by_role("button", name="Start").click()
    for answer in ("PyTorch DDP", "Jobs"):
        student.locator("#answer-box").fill(answer)
        student.get_by_role("button", name="Check answer").click()
        expect(student.locator(".verdict")).to_be_visible()
        student.locator("[data-next]").click()
    expect(student.locator(".summary")).to_be_visible()

    instructor.get_by_role("link", name="Autumn 2026").first.click()
    row = instructor.get_by_role("row", name="alice")
    expect(row).to_contain_text("29 %")  # 2 of the 7 cards attempted
    instructor.evaluate("window.stillTheSamePage = true")
    instructor.get_by_role("link", name="Item statistics").click()
    expect(instructor).to_have_url(re.compile(r"/cohorts/\d+/\?tab=items$"))
    items = instructor.locator("#panel table.items tbody tr")
    expect(items).to_have_count(7)
    assert instructor.evaluate("window.stillTheSamePage") is True  # HTMX swapped the panel in, no page load
    # Exactly the two cards alice answered have an attempt, on the page and in the CSV.
    answered = set(Answer.objects.filter(user__username="alice").values_list("card__question", flat=True))
    assert len(answered) == 2
    on_page = items.filter(has=instructor.locator("td", has_text=re.compile(r"^1 \(1 student\)$")))
    expect(on_page).to_have_count(2)
    shown = sorted(row.locator("th a").inner_text()[:80] for row in on_page.all())
    assert shown == sorted(question[:80] for question in answered)
    with instructor.expect_download() as download:
        instructor.get_by_role("link", name="Download CSV").click()
    text = download.value.path().read_text(encoding="utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    attempted = [r for r in rows if int(r["attempts"])]
    assert len(rows) == 7 and {r["question"] for r in attempted} == answered
