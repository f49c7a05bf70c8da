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
    # Each version is named by its heading; the list's own numbers, counting the lists inside a change, read
    # "5. Version 3".
    teacher.goto(f"{live_server.url}/admin/content/card/{card.pk}/change/")
    expect(teacher.get_by_role("heading", name="Version 2")).to_be_visible()
    assert teacher.locator("ol.versions").evaluate("(ol) => getComputedStyle(ol).listStyleType") == "none"

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


# Computed styles a reader sees: the question's weight, a table header's case and size, a code block's box.
_LOOKS = """(root) => {
  const style = (selector) => getComputedStyle(root.querySelector(selector));
  const th = style("th"), pre = style("pre"), li = style("li"), question = style(".card-question");
  return {
    question: question.fontWeight, header: [th.textTransform, th.fontWeight, th.fontSize],
    pre: pre.backgroundColor !== "rgba(0, 0, 0, 0)", code: style("pre code").fontSize, item: li.fontSize,
  };
}"""


def test_the_preview_looks_like_the_card_page_not_the_admin(live_server, browser, sign_in, transactional_db):
    """The admin's own rules (small upper-case table headers, small grey code, square bullets) used to reach the
    preview, so a table or a code block there did not look as students would see it."""
    from tests.factories import make_card

    make_instructor("carol")
    card = make_card(
        question="Which `wrapper`?",
        answer="Text.\n\n```python\nDDP(model)\n```\n\n| mode | memory |\n|---|---|\n| DP | $O(n)$ |\n\n- one\n- two",
    )
    teacher = browser.new_context().new_page()
    sign_in(teacher, "carol", f"/admin/content/card/{card.pk}/change/", login="/admin/login/")
    preview = teacher.locator("#card-preview").evaluate(_LOOKS)
    teacher.goto(f"{live_server.url}{card.get_absolute_url()}?answers=shown")
    page = teacher.locator(".card-page").evaluate(_LOOKS)
    assert preview == page
    # Bold question, headers as written, code in a shaded box at the site's size (0.92 em of 0.92 em), list items
    # at the text's size.
    expected = {"question": "600", "header": ["none", "700", "16px"], "pre": True, "code": "13.5424px", "item": "16px"}
    assert preview == expected


def test_at_1280_px_the_card_list_shows_every_column(live_server, browser, sign_in, transactional_db):
    """Beside the admin's menu and the filters, a seed deck's title on one line pushed the kind, answers, accuracy and
    archived columns out of the window."""
    call_command("load_content", verbosity=0)
    make_instructor("carol")
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sign_in(page, "carol", "/admin/content/card/", login="/admin/login/")
    results = page.locator(".results")
    assert results.evaluate("(box) => box.scrollWidth <= box.clientWidth"), "the card list scrolls sideways"
    expect(page.get_by_role("columnheader", name="Archived")).to_be_in_viewport()
    page.context.close()


def test_a_long_deck_title_keeps_the_deck_choice_beside_the_preview_not_under_it(
    live_server, browser, sign_in, transactional_db
):
    from tests.factories import make_card, make_deck

    make_instructor("carol")
    card = make_card(deck=make_deck(title="Deep Learning Frameworks and Production Syllabus, Second Edition"))
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sign_in(page, "carol", f"/admin/content/card/{card.pk}/change/", login="/admin/login/")
    choice, preview = page.locator("#id_deck").bounding_box(), page.locator(".authoring-preview").bounding_box()
    assert choice["x"] + choice["width"] <= preview["x"], f"the deck's select runs under the preview: {choice}"
    page.context.close()


PHONE = {"width": 360, "height": 800}
LONG_DISTRACTOR = "Saving weights also stores the optimizer state, so training resumes exactly where it stopped. " * 2


def test_on_a_phone_the_card_form_s_distractors_stack_within_the_screen_each_field_labelled(
    live_server, browser, sign_in, transactional_db
):
    """The tabular inlines were tables wider than a 360 px screen: text boxes ran past its edge, and a distractor's
    position and its delete box were out of sight, with nothing saying which column they were."""
    from apps.content.services import card_save
    from tests.factories import make_card

    make_instructor("carol")
    answer = "A checkpoint.\n\n" + "It holds more. " * 30
    card = make_card(question="Which file resumes training?", answer=answer, short_answer="checkpoint")
    card_save(card=card, distractors=[LONG_DISTRACTOR, "A weights file"], aliases=["checkpoint"])
    page = browser.new_context(viewport=PHONE).new_page()
    sign_in(page, "carol", f"/admin/content/card/{card.pk}/change/", login="/admin/login/")
    assert not page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")
    row = page.locator("#distractors-0")
    for control in (row.locator("textarea"), row.get_by_label("Position"), row.get_by_role("checkbox")):
        expect(control).to_be_visible()
        box = control.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], f"{control} is off the screen: {box}"
    for label in ("Text", "Position", "Delete?"):
        expect(row.locator("label", has_text=label)).to_be_visible()
    # A field's accessible name still says which inline it belongs to, as on a wide screen.
    expect(page.get_by_role("textbox", name="Text (distractor)")).to_have_count(3)  # two rows and the extra one
    # The long texts are read whole, not through a box of two or six lines.
    for box in (row.locator("textarea"), page.locator("#id_answer")):
        assert box.evaluate("(t) => t.scrollHeight <= t.clientHeight + 1"), f"{box} hides part of its text"
    page.context.close()


def test_on_a_phone_the_regrade_page_scrolls_its_table_not_the_page(live_server, browser, sign_in, transactional_db):
    from apps.content.services import card_save
    from tests.factories import make_card, make_deck

    carol = make_instructor("carol")
    card = make_card(deck=make_deck(title="Kubernetes"), question="Which object runs Jobs on a schedule?",
                     answer="Deployment", short_answer="Deployment")  # fmt: skip
    student = make_user("alice")
    session = services.session_start(user=student, deck=card.deck, size=1, mode="recall", order="new")
    services.answer_submit(user=student, session_id=session.pk, position=1, submission=services.Submission("CronJob"))
    card.answer = card.short_answer = "CronJob"
    card_save(card=card, author=carol, note="The answer was wrong")
    page = browser.new_context(viewport=PHONE).new_page()
    sign_in(page, "carol", f"/admin/content/card/{card.pk}/regrade/", login="/admin/login/")
    expect(page.get_by_role("button", name="Regrade 1 answer")).to_be_visible()
    assert not page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")
    box = page.get_by_role("group", name="Answers graded otherwise")
    after = box.get_by_role("cell", name="Correct, 100 %")
    after.scroll_into_view_if_needed()
    expect(after).to_be_in_viewport()
    page.context.close()
