"""Card versions: diffs, revert, and answers pinned to the version they were given against."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.authoring.diffs import text_diff, version_changes
from apps.common.db import name_lock
from apps.content.models import Card
from apps.content.services import DECK_WRITES_LOCK, QuestionTakenError, card_revert, card_save
from apps.quiz import services
from apps.quiz.models import Answer
from tests.factories import make_card, make_deck
from tests.locks import after_waiting

pytestmark = pytest.mark.django_db


def test_text_diff_marks_removed_and_added_words_and_escapes():
    assert str(text_diff("the <b>old</b> answer", "the new answer")) == (
        "the <del>&lt;b&gt;old&lt;/b&gt;</del><ins>new</ins> answer"
    )


def test_version_changes_lists_only_changed_fields():
    old = {"question": "Q?", "answer": "A", "aliases": ["x"], "archived": False}
    new = {"question": "Q?", "answer": "B", "aliases": ["x", "y"], "archived": True}
    changes = version_changes(old, new)
    assert [c.label for c in changes] == ["Answer", "Archived", "Accepted answers"]
    assert "<ins>y</ins>" in changes[2].html


def test_unchanged_save_records_no_new_version(instructor):
    card = make_card()
    card_save(card=card, author=instructor)
    assert card.versions.count() == 1


def test_revert_puts_back_content_as_a_new_version(instructor):
    card = make_card(answer="First", short_answer="First")
    card_save(card=card, author=instructor, aliases=["Premier"])
    card.answer = "Second"
    card_save(card=card, author=instructor, aliases=[])
    assert card.versions.count() == 3
    new = card_revert(card=Card.objects.get(pk=card.pk), version=card.versions.get(number=2), author=instructor)
    card.refresh_from_db()
    assert (new.number, new.note) == (4, "Reverted to version 2")
    assert card.answer == "First" and list(card.aliases.values_list("text", flat=True)) == ["Premier"]
    assert card.current_version == new
    # The versions it went through are left as they were.
    assert [(v.number, v.data["answer"], v.data["aliases"]) for v in card.versions.order_by("number")] == [
        (1, "First", []), (2, "First", ["Premier"]), (3, "Second", []), (4, "First", ["Premier"]),
    ]  # fmt: skip


def test_revert_through_the_admin(client, instructor):
    card = make_card(answer="First")
    card.answer = "Second"
    card_save(card=card, author=instructor)
    client.force_login(instructor)
    response = client.post(reverse("admin:content_card_revert", args=[card.pk, 1]), follow=True)
    assert "Reverted to version 1; saved as version 3" in response.content.decode()
    card.refresh_from_db()
    assert card.answer == "First"
    assert client.get(reverse("admin:content_card_revert", args=[card.pk, 1])).status_code == 405
    history = client.get(reverse("admin:content_card_history", args=[card.pk])).content.decode()
    assert "Reverted to version 1; saved as version 3." in history  # in the admin's History, by whom and when


def _reworded_and_taken(instructor):
    """A card of "Serving" reworded from "What is KV caching?", whose old question another card then took."""
    deck = make_deck(title="Serving")
    card = make_card(deck=deck, question="What is KV caching?", answer="Reuse")
    card.question = "Why cache keys and values?"
    card_save(card=card, author=instructor)
    taker = make_card(deck=deck, question="what is KV  caching?", answer="Keeping keys")
    return card, taker


def test_a_revert_to_a_question_another_card_asks_now_is_refused_and_changes_nothing(instructor):
    card, taker = _reworded_and_taken(instructor)
    with pytest.raises(QuestionTakenError) as caught:
        card_revert(card=Card.objects.get(pk=card.pk), version=card.versions.get(number=1), author=instructor)
    assert caught.value.card == taker
    assert str(caught.value) == "Serving asks this question already, at position 2"
    card.refresh_from_db()
    assert card.question == "Why cache keys and values?" and card.versions.count() == 2


def test_the_admin_says_why_a_revert_was_refused_and_links_the_card_asking_the_question(client, instructor):
    card, taker = _reworded_and_taken(instructor)
    client.force_login(instructor)
    response = client.post(reverse("admin:content_card_revert", args=[card.pk, 1]), follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Version 1 was not put back; this card is unchanged." in html
    assert "Serving asks it already, at position 2" in html
    assert f'href="{reverse("admin:content_card_change", args=[taker.pk])}"' in html
    card.refresh_from_db()
    assert card.question == "Why cache keys and values?" and card.versions.count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_revert_waits_for_a_card_save_taking_the_old_question_and_then_refuses(instructor):
    """The other save has given a new card the old question and not yet committed: the revert, checking before it
    commits, would have put back a second card asking it."""
    deck = make_deck(title="Serving")
    card = make_card(deck=deck, question="What is KV caching?", answer="Reuse")
    card.question = "Why cache keys and values?"
    card_save(card=card, author=instructor)

    def other_save():
        name_lock(DECK_WRITES_LOCK)
        make_card(deck=deck, question="What is KV caching?", answer="Keeping keys")

    def revert():
        try:
            card_revert(card=Card.objects.get(pk=card.pk), version=card.versions.get(number=1), author=instructor)
        except QuestionTakenError as exc:
            return str(exc)

    assert after_waiting(other_save, revert) == "Serving asks this question already, at position 2"
    assert deck.cards.filter(question="What is KV caching?").count() == 1


def test_answers_keep_the_version_they_were_given_against(client, student, instructor):
    deck = make_deck()
    for i in range(3):
        make_card(deck=deck, question=f"Q{i}?", answer=f"Old answer {i}")
    first = services.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    old_answer, _ = services.answer_submit(
        user=student, session_id=first.pk, position=1, submission=services.Submission(response="Old answer 0")
    )
    card = old_answer.card
    card.answer = "A brand new answer"
    card_save(card=card, author=instructor)
    second = services.session_start(user=student, deck=deck, size=3, mode="recall", order="random")
    position = second.items.get(card=card).position
    new_answer, _ = services.answer_submit(
        user=student, session_id=second.pk, position=position, submission=services.Submission(response="whatever")
    )
    stored = {a.pk: a for a in Answer.objects.select_related("card_version").filter(card=card)}
    old_answer, new_answer = stored[old_answer.pk], stored[new_answer.pk]  # as stored, after the edit
    assert (old_answer.card_version.number, new_answer.card_version.number) == (1, 2)
    assert old_answer.card_version.data["answer"] == "Old answer 0"
    assert old_answer.final_verdict == "correct"  # its verdict stands after the edit

    client.force_login(student)
    html = client.get(reverse("quiz:item", args=[first.pk, 1])).content.decode()
    assert "Old answer 0" in html and "A brand new answer" not in html
    assert "This card was edited after you answered" in html

    client.force_login(instructor)
    html = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    assert "1 answer, accuracy 100\u00a0%" in html and "1 answer, accuracy 0\u00a0%" in html


def test_the_card_page_shows_a_readable_diff_between_versions(client, instructor):
    card = make_card(question="Which unit is <fastest>?", answer="The CPU is fastest", short_answer="CPU")
    card.answer = "The GPU is fastest"
    card_save(card=card, author=instructor, aliases=["graphics card"])
    client.force_login(instructor)
    html = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    versions = html[html.index('id="versions-heading"') :]
    newest, oldest = versions.index("<h3>Version 2"), versions.index("<h3>Version 1")
    assert newest < oldest  # newest first
    second = versions[newest:oldest]
    assert "carol" in second and "current" in second
    # Only what changed, word by word: the old word struck out, the new one inserted.
    assert "<dt>Answer</dt><dd>The <del>CPU</del><ins>GPU</ins> is fastest</dd>" in second
    assert "<dt>Accepted answers</dt><dd><ul><li><ins>graphics card</ins></li></ul></dd>" in second
    assert "<dt>Question</dt>" not in second
    first = versions[oldest:]
    # The first version lists its content, escaped: a question's "<fastest>" is text, not a tag.
    assert "<dt>Question</dt><dd><ins>Which unit is &lt;fastest&gt;?</ins></dd>" in first
    assert "Revert to version 1" in first and "Revert to version 2" not in html
    # Reverting takes a second step, which says what it does to unsaved edits.
    step = re.search(r'<details class="revert">\s*<summary>Revert to version 1…</summary>(.*?)</details>', first, re.S)
    assert step and "Unsaved changes in the form above are lost." in step.group(1)
    assert '<button type="submit" class="button">Revert to version 1</button>' in step.group(1)


@pytest.mark.django_db(transaction=True)
def test_recording_a_version_does_not_hold_up_students_answering_that_card(instructor, student):
    from apps.content.services import card_version_record
    from apps.quiz.services import Submission
    from tests.locks import waited_for

    card = make_card(short_answer="Job", answer="Job")
    session = services.session_start(user=student, deck=card.deck, size=1, mode="recall", order="random")

    def edit():  # an instructor's save, still open, while the student answers
        card.explanation = "Edited"
        card_version_record(card=card, author=instructor)

    def answer():
        services.answer_submit(user=student, session_id=session.pk, position=1, submission=Submission(response="Job"))

    assert not waited_for(edit, answer)
    assert Answer.objects.filter(user=student, card=card, final_verdict="correct").exists()


def test_a_version_in_the_admin_reads_as_its_texts_newest_first_with_nothing_that_refuses_an_instructor(
    client, instructor
):
    """Its page was the stored JSON (rendered KaTeX HTML and all) and its author a link to a 403."""
    card = make_card(question="What is $T$?", answer="The temperature")
    card.answer = "The softmax temperature"
    card_save(card=card, author=instructor)
    client.force_login(instructor)
    listing = client.get(reverse("admin:content_cardversion_changelist"))
    assert [v.number for v in listing.context["cl"].result_list][:2] == [2, 1]  # the latest edit first
    newest = listing.context["cl"].result_list[0]
    html = client.get(reverse("admin:content_cardversion_change", args=[newest.pk])).content.decode()
    assert "<dt>Question</dt><dd>What is $T$?</dd><dt>Answer</dt><dd>The softmax temperature</dd>" in html
    assert "answer_html" not in html and "katex" not in html.split("Content:")[1]
    assert reverse("admin:auth_user_change", args=[instructor.pk]) not in html
    assert f'<a href="{reverse("admin:content_card_change", args=[card.pk])}#versions-heading">' in html
