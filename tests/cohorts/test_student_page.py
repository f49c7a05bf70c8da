"""The instructor's page of one student: their answers on the cohort's decks, as the student saw them."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.cohorts import deadlines, services
from apps.content.models import Distractor
from apps.content.services import card_save
from apps.quiz.models import SessionItem
from tests.cohorts.choices import choose
from tests.conftest import make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db

SOFTMAX = r"$p_i = \frac{\exp(z_i/T)}{\sum_j \exp(z_j/T)}$"


def _softmax_deck(cards: int = 1):
    """A deck whose first `cards` cards each have the softmax formula as a wrong option; 5 cards at least."""
    deck = make_deck(title="Distillation")
    made = [make_card(deck=deck, question=f"Which formula, {i}?", answer=f"Formula {i}") for i in range(max(cards, 5))]
    for card in made[:cards]:
        card_save(card=card, distractors=[SOFTMAX])
    return deck, made[:cards]


def _response_cells(html: str) -> list[str]:
    """The Response cell (the third) of each row of the answers table, as HTML."""
    table = re.search(r'<table class="data answers[^"]*"[^>]*>.*?<tbody[^>]*>(.*?)</tbody>', html, re.S).group(1)
    rows = re.findall(r"<tr\b[^>]*>(.*?)</tr>", table, re.S)
    return [re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", row, re.S)[2] for row in rows]


def _spring(instructor, student, deck):
    """`instructor`'s cohort with `deck` assigned and `student` in it."""
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    services.cohort_join(student=student, code=cohort.join_code)
    return cohort


def test_a_chosen_option_shows_typeset_as_the_student_saw_it_not_as_its_tex_source(client, instructor, student):
    deck, (card,) = _softmax_deck()
    shown = Distractor.objects.get(card=card).text_html
    cohort = _spring(instructor, student, deck)
    answer = choose(student, deck=deck, card=card, text=SOFTMAX)
    # The instructor edits the option since: the page still shows the one the student picked, as it was shown.
    card_save(card=card, distractors=[r"$p_i = \mathrm{softmax}(z)_i$"])
    client.force_login(instructor)
    html = client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode()
    (cell,) = _response_cells(html)
    assert shown in cell and 'class="katex"' in cell
    assert "$" not in cell and "\\frac" not in re.sub(r"<annotation\b.*?</annotation>", "", cell, flags=re.S)
    assert "softmax" not in cell
    assert SessionItem.objects.get(pk=answer.item_id).options[answer.chosen_option]["html"] == shown


def test_the_stored_html_is_shown_as_stored_never_rendered_again(client, instructor, student):
    """What the quiz stored is what the page shows: the renderer is not asked again at request time."""
    deck, (card,) = _softmax_deck()
    cohort = _spring(instructor, student, deck)
    answer = choose(student, deck=deck, card=card, text=SOFTMAX)
    item = SessionItem.objects.get(pk=answer.item_id)
    item.options[answer.chosen_option]["html"] = "<p>as <em>stored</em></p>"
    item.save(update_fields=["options"])
    client.force_login(instructor)
    html = client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode()
    assert "<p>as <em>stored</em></p>" in _response_cells(html)[0]


def test_typed_and_revealed_answers_still_read_as_before(client, instructor, student):
    from apps.quiz import services as quiz

    deck, _ = _softmax_deck()
    cohort = _spring(instructor, student, deck)
    session = quiz.session_start(user=student, deck=deck, size=2, mode="recall", order="new")
    quiz.answer_submit(user=student, session_id=session.pk, position=1, submission=quiz.Submission(response="<b>$x$"))
    quiz.answer_submit(user=student, session_id=session.pk, position=2, submission=quiz.Submission(reveal=True))
    client.force_login(instructor)
    html = client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode()
    revealed = '<span class="meta">asked to see the answer</span>'
    assert sorted(_response_cells(html)) == ["<bdi>&lt;b&gt;$x$</bdi>", revealed]
    # The verdict of a shown answer reads as the student's results say it, not "Incorrect".
    verdicts = re.findall(r'<td data-label="Verdict"><span class="badge[^"]*">([^<]+)</span>', html)
    assert sorted(verdicts) == ["Answer shown", "Incorrect"]


@pytest.mark.parametrize("choices", [1, 6])
def test_the_page_runs_the_same_number_of_queries_however_many_options_were_chosen(
    client, instructor, django_assert_num_queries, choices
):
    deck, cards = _softmax_deck(cards=choices)
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    student = make_user("dana")
    services.cohort_join(student=student, code=cohort.join_code)
    for card in cards:
        choose(student, deck=deck, card=card, text=SOFTMAX)
    client.force_login(instructor)
    with django_assert_num_queries(11):  # as test_views.test_pages_and_exports_use_a_constant_number_of_queries
        html = client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode()
    assert sum('class="katex"' in cell for cell in _response_cells(html)) == choices


def test_what_was_typed_before_showing_the_answer_is_shown_beside_it(client, instructor, student):
    from apps.quiz import services as quiz

    deck, _ = _softmax_deck()
    cohort = _spring(instructor, student, deck)
    session = quiz.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    submission = quiz.Submission(response="it <sharpens>", reveal=True)
    quiz.answer_submit(user=student, session_id=session.pk, position=1, submission=submission)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode()
    assert _response_cells(html) == [
        '<span class="meta">asked to see the answer, having typed:</span> <bdi>it &lt;sharpens&gt;</bdi>'
    ]
