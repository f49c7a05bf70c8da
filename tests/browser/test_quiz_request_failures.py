"""In a real Chromium: an answer or a "Next question" that cannot reach the server, or that the server answers with
an error, says so under the buttons instead of doing nothing, and what was typed stays to be sent again."""

from __future__ import annotations

from playwright.sync_api import expect

from apps.quiz import services
from apps.quiz.models import Answer
from tests.conftest import make_user
from tests.factories import make_card, make_deck


def _quiz():
    student = make_user("alice")
    deck = make_deck()
    for i in range(3):
        make_card(deck=deck, question=f"Which tool does job {i}?", answer=f"Tool number {i}")
    return services.session_start(user=student, deck=deck, size=2, mode="recall", order="new")


def test_an_answer_sent_while_offline_says_so_and_goes_through_once_back_online(
    live_server, page, sign_in, transactional_db
):
    quiz = _quiz()
    sign_in(page, "alice", quiz.get_absolute_url())
    box = page.get_by_role("textbox", name="Your answer")
    box.fill("Tool number 0")

    page.context.set_offline(True)
    page.get_by_role("button", name="Check answer").click()
    expect(page.get_by_role("alert")).to_have_text(
        "The server could not be reached. Check your connection and try again."
    )
    expect(box).to_have_value("Tool number 0")  # nothing typed is lost
    assert not Answer.objects.exists()

    page.context.set_offline(False)
    page.get_by_role("button", name="Check answer").click()
    expect(page.get_by_role("heading", name="Correct")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)  # gone with the question it was about

    page.context.set_offline(True)
    page.get_by_role("link", name="Next question").click()
    expect(page.get_by_role("alert")).to_contain_text("could not be reached")
    page.context.set_offline(False)
    page.get_by_role("link", name="Next question").click()
    expect(page.get_by_role("heading", name="Question 2 of 2")).to_be_visible()


def test_an_answer_the_server_fails_on_says_so(live_server, page, sign_in, transactional_db):
    quiz = _quiz()
    sign_in(page, "alice", quiz.get_absolute_url())
    page.route("**/q/1/", lambda route: route.fulfill(status=500, body="Server Error"))
    page.get_by_role("textbox", name="Your answer").fill("Tool number 0")
    page.get_by_role("button", name="Check answer").click()
    expect(page.get_by_role("alert")).to_have_text(
        "The server could not answer (error 500). Please try again in a moment."
    )
    expect(page.get_by_role("heading", name="Question 1 of 2")).to_be_visible()  # the question stays

    page.unroute("**/q/1/")
    page.get_by_role("button", name="Check answer").click()
    expect(page.get_by_role("heading", name="Correct")).to_be_visible()


def test_an_answer_to_a_quiz_gone_from_under_the_page_says_so(live_server, page, sign_in, transactional_db):
    quiz = _quiz()
    sign_in(page, "alice", quiz.get_absolute_url())
    quiz.deck.published = False  # an instructor makes the deck a draft while the student is on a question
    quiz.deck.save()
    page.get_by_role("textbox", name="Your answer").fill("Tool number 0")
    page.get_by_role("button", name="Check answer").click()
    expect(page.get_by_role("alert")).to_have_text("This quiz is no longer available. Reload the page to see why.")
    assert not Answer.objects.exists()
