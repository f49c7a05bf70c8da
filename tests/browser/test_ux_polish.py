"""In a real Chromium: layout and wording details a student or instructor would notice."""

from __future__ import annotations

from django.core.management import call_command
from playwright.sync_api import expect

from apps.content.models import Deck
from tests.conftest import make_instructor, make_user

FLASHCARDS = "technology-digital-tools-flashcards"
SYLLABUS = "deep-learning-frameworks-production-syllabus"
PAGE_SCROLLS_SIDEWAYS = "() => document.documentElement.scrollWidth > window.innerWidth"


def _seed(live_server):
    from apps.cohorts import services as cohorts
    from apps.quiz import services as quiz

    call_command("load_content", verbosity=0)
    carol, alice = make_instructor("carol"), make_user("alice")
    cohort = cohorts.cohort_create(name="Autumn 2026", instructor=carol)
    for slug in (FLASHCARDS, SYLLABUS):
        cohorts.assignment_set(cohort=cohort, deck=Deck.objects.get(slug=slug), due_date=None)
    cohorts.cohort_join(student=alice, code=cohort.join_code)
    session = quiz.session_start(user=alice, deck=Deck.objects.get(slug=SYLLABUS), size=2, mode="recall", order="new")
    for item in session.items.order_by("position"):
        quiz.answer_submit(
            user=alice, session_id=session.pk, position=item.position, submission=quiz.Submission(response="no idea")
        )
    return cohort, session


def test_tables_on_a_phone_scroll_in_their_box_not_the_whole_page(live_server, browser, sign_in, transactional_db):
    cohort, session = _seed(live_server)
    for username, paths in (
        ("alice", ["/progress/", session.get_absolute_url()]),
        ("carol", [f"/cohorts/{cohort.pk}/?tab=matrix", f"/cohorts/{cohort.pk}/?tab=charts"]),
    ):
        page = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
        sign_in(page, username)  # fails here if it cannot, else every check below is moot
        for path in paths:
            page.goto(f"{live_server.url}{path}")
            assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS), f"{path} is wider than a 375 px screen"
        page.context.close()


def test_an_override_does_not_leave_the_graders_contradicting_feedback_as_the_verdict(
    live_server, page, sign_in, transactional_db
):
    _, session = _seed(live_server)
    sign_in(page, "alice", f"/quiz/{session.pk}/q/1/")
    feedback = page.locator(".feedback-text")
    expect(page.locator(".verdict")).to_contain_text("Not quite")
    note = feedback.inner_text().strip()
    assert note  # what the grader missed
    page.get_by_role("button", name="I was right").click()
    expect(page.locator(".verdict")).to_contain_text("Correct")
    expect(page.locator(".override-note")).to_contain_text("the grader said incorrect")
    expect(page.locator(".override-note .grader-note")).to_contain_text(note)
    expect(feedback).to_have_count(0)


def test_showing_the_answer_is_named_as_such_once(live_server, page, sign_in, transactional_db):
    call_command("load_content", verbosity=0)
    make_user("alice")
    sign_in(page, "alice", f"/decks/{FLASHCARDS}/quiz/")
    page.get_by_label("Number of questions").fill("1")
    page.get_by_label("Multiple choice").check()
    page.get_by_role("button", name="Start").click()
    page.get_by_role("button", name="Show answer").click()
    expect(page.locator(".verdict")).to_contain_text("Answer shown")
    expect(page.get_by_text("You asked to see the answer.")).to_have_count(1)


def test_review_with_nothing_due_offers_a_way_on_instead_of_a_disabled_button(
    live_server, page, sign_in, transactional_db
):
    call_command("load_content", verbosity=0)
    make_user("alice")
    sign_in(page, "alice", "/quiz/review/")
    expect(page.get_by_text("Nothing is due yet", exact=False)).to_be_visible()
    expect(page.locator("button[disabled]")).to_have_count(0)
    page.get_by_role("link", name="Quiz a deck instead").click()
    expect(page.get_by_role("heading", name="Decks", exact=True)).to_be_visible()
    page.get_by_role("link", name="Start a quiz on Technology & Digital Tools Flashcards").click()
    expect(page.get_by_role("button", name="Start")).to_be_visible()


def test_main_content_keeps_its_distance_from_header_and_footer(live_server, page, transactional_db):
    call_command("load_content", verbosity=0)
    page.goto(f"{live_server.url}/decks/{FLASHCARDS}/")
    gap = page.evaluate(
        """() => document.querySelector('.breadcrumbs').getBoundingClientRect().top
                 - document.querySelector('.site-header').getBoundingClientRect().bottom"""
    )
    assert gap >= 12, f"the breadcrumbs sit {gap}px under the header"
