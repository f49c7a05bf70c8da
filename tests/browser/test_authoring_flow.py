"""In a real Chromium: an instructor edits a card with the live preview; students see the change, history does not."""

from __future__ import annotations

from datetime import timedelta

from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from apps.content.models import Card
from apps.quiz import services
from tests.conftest import make_instructor, make_user

AFFINE = "Give the standard affine quantization formula mapping a real value to an integer."


def test_instructor_edits_with_live_preview_and_history_keeps_the_old_version(
    live_server, browser, sign_in, transactional_db
):
    call_command("load_content", verbosity=0)
    make_instructor("carol")
    student = make_user("alice")
    card = Card.objects.get(question=AFFINE)
    old_answer = card.answer

    # The student answered this card an hour ago, so it is due for review now.
    earlier = timezone.now() - timedelta(hours=1)
    past = services.session_start(user=student, deck=card.deck, size=30, mode="recall", order="new", now=earlier)
    services.answer_submit(
        user=student, session_id=past.pk, position=past.items.get(card=card).position,
        submission=services.Submission(response="q = round(r/s) + z"), now=earlier,
    )  # fmt: skip

    teacher = browser.new_context().new_page()
    sign_in(teacher, "carol", f"/admin/content/card/{card.pk}/change/", login="/admin/login/")
    answer_box = teacher.locator("#id_answer")
    answer_box.fill("")
    answer_box.press_sequentially("The ratio $\\frac{a}{b}$ scaled.")
    preview = teacher.locator("#card-preview")
    # The answer's section: the card's distractors are previewed too, and the seed's hold fractions of their own.
    expect(preview.locator("section", has_text="The ratio").locator(".katex mfrac")).to_have_count(1)
    expect(preview).to_contain_text("The ratio")
    assert Card.objects.get(pk=card.pk).answer == old_answer  # previewing saved nothing
    teacher.get_by_role("button", name="Save", exact=True).first.click()
    expect(teacher.locator(".messagelist")).to_contain_text("was changed successfully")
    assert Card.objects.get(pk=card.pk).answer == "The ratio $\\frac{a}{b}$ scaled."

    learner = browser.new_context().new_page()
    sign_in(learner, "alice", "/quiz/review/")
    learner.get_by_label("Free recall").check()
    learner.get_by_role("button", name="Start").click()
    expect(learner.locator(".question-text")).to_contain_text("affine quantization")
    learner.locator("#answer-box").fill("a ratio")
    learner.get_by_role("button", name="Check answer").click()
    model = learner.locator(".compare section", has_text="Model answer")
    expect(model).to_contain_text("The ratio")
    expect(model.locator(".katex mfrac")).to_have_count(1)

    learner.goto(f"{live_server.url}/quiz/{past.pk}/q/{past.items.get(card=card).position}/")
    old = learner.locator(".compare section", has_text="Model answer")
    expect(old).to_contain_text("zero-point")
    expect(old).not_to_contain_text("The ratio")
    expect(learner.locator(".feedback")).to_contain_text("This card was edited after you answered")
