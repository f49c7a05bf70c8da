"""Corrections under the feedback: overriding the verdict through the page and the corrections offered, "I was wrong",
Show answer with what was typed or chosen (and asking first without JavaScript), and overrides bringing the quiz
total exactly to its bounds.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.quiz.models import Answer, QuizSession
from tests.quiz.views_support import _deck, _post_answer, _session

pytestmark = pytest.mark.django_db


def test_override_through_the_page(student_client, student, htmx):
    session = _session(student)
    _post_answer(student_client, session, response="no idea")
    response = student_client.post(reverse("quiz:override", args=[session.pk, 1]), {"verdict": "correct"}, **htmx)
    html = response.content.decode()
    assert "You marked this as correct; the grader said incorrect" in html
    assert "Undo my correction" in html
    assert Answer.objects.get().final_score == 1.0


def _override_buttons(html: str) -> dict[str, str]:
    return dict(re.findall(r'<button type="submit" name="verdict" value="(\w*)"[^>]*>([^<]+)</button>', html))


def test_the_feedback_offers_the_corrections_that_change_the_verdict(student_client, student):
    session = _session(student, size=3)
    answers = {1: "no idea", 2: "{} or maybe a hammer", 3: "{}"}  # wrong, hedged, right
    for position, response in answers.items():
        card = session.items.get(position=position).card
        assert _post_answer(student_client, session, position, response=response.format(card.answer)).status_code == 303
    offered = {}
    for answer in Answer.objects.select_related("item"):
        page = student_client.get(reverse("quiz:item", args=[session.pk, answer.item.position]))
        offered[answer.auto_verdict] = _override_buttons(page.content.decode())
    assert offered == {
        "incorrect": {"correct": "I was right"},
        "partial": {"correct": "I was right", "incorrect": "I was wrong"},
        "correct": {"incorrect": "I was wrong"},
    }


def test_i_was_wrong_on_a_partly_right_answer_makes_it_again(student_client, student, htmx):
    session = _session(student)
    card = session.items.get(position=1).card
    _post_answer(student_client, session, response=f"{card.answer} or maybe a hammer")
    assert Answer.objects.get().auto_verdict == "partial"
    response = student_client.post(reverse("quiz:override", args=[session.pk, 1]), {"verdict": "incorrect"}, **htmx)
    html = response.content.decode()
    assert "You marked this as incorrect; the grader said partly correct (50\u00a0%)." in html
    assert _override_buttons(html) == {"": "Undo my correction"}
    answer = Answer.objects.get()
    assert (answer.final_verdict, answer.final_score, answer.rating) == ("incorrect", 0.0, 1)  # Again
    assert QuizSession.objects.get().score_sum == 0.0


def test_what_was_typed_before_show_answer_is_kept_beside_the_model_answer_not_graded(student_client, student):
    # The Anki habit: type an answer, then show the answer to compare. The words stay; the score is a shown one.
    session = _session(student)
    response = _post_answer(student_client, session, reveal="1", response="  Tool number 0, I think  ")
    html = student_client.get(response["Location"]).content.decode()
    yours = '<p class="response"><bdi>Tool number 0, I think</bdi></p><p class="meta" id="not-checked">Not checked:'
    assert yours in html
    assert "None given" not in html and "Answer shown" in html
    answer = Answer.objects.get()
    assert answer.revealed and answer.final_score == 0.0 and answer.response == "Tool number 0, I think"
    assert answer.response_key == ""  # not counted among the cohort's common wrong answers
    _post_answer(student_client, session, 2, reveal="1", response="   ")
    assert (
        "None given: you showed the answer."
        in student_client.get(reverse("quiz:item", args=[session.pk, 2])).content.decode()
    )


def test_show_answer_tapped_for_check_answer_is_undone_by_check_what_i_typed(student_client, student, htmx):
    session = _session(student)
    card = session.items.get(position=1).card
    response = _post_answer(student_client, session, reveal="1", response=card.answer)
    html = student_client.get(response["Location"]).content.decode()
    assert "Answer shown" in html and "Check what I typed" in html and "I was right" not in html

    response = student_client.post(reverse("quiz:check_typed", args=[session.pk, 1]), **htmx)
    if not htmx:
        assert response.status_code == 303 and response["Location"] == reverse("quiz:item", args=[session.pk, 1])
        response = student_client.get(response["Location"])
    html = response.content.decode()
    assert "Answer shown" not in html and "Check what I typed" not in html and "Not checked" not in html
    assert "Score 100\u00a0%" in html and _override_buttons(html) == {"incorrect": "I was wrong"}
    assert QuizSession.objects.get().score_sum == 1.0


def test_a_shown_answer_with_nothing_typed_offers_nothing_to_check(student_client, student):
    session = _session(student)
    response = _post_answer(student_client, session, reveal="1", response="  ")
    assert "Check what I typed" not in student_client.get(response["Location"]).content.decode()
    response = student_client.post(reverse("quiz:check_typed", args=[session.pk, 1]))
    assert response.status_code == 409 and "There is nothing to check" in response.content.decode()
    unanswered = student_client.post(reverse("quiz:check_typed", args=[session.pk, 2]))
    assert unanswered.status_code == 409 and "Answer the question first" in unanswered.content.decode()
    assert Answer.objects.get().revealed


def test_a_shown_answer_cannot_be_marked_right_and_the_page_says_why(student_client, student):
    session = _session(student)
    _post_answer(student_client, session, reveal="1")
    response = student_client.post(reverse("quiz:override", args=[session.pk, 1]), {"verdict": "correct"})
    html = response.content.decode()
    assert response.status_code == 409
    assert "This answer cannot be marked by hand" in html and "could not be used" not in html
    assert Answer.objects.get().final_score == 0.0


@pytest.mark.parametrize(
    ("scores", "verdict", "total"),
    [
        ([0.7, 0.471], "incorrect", 0.0),  # moved by differences, the total ended a hair below 0
        ([0.1] * 10, "correct", 10.0),  # ... or a hair above the number answered
    ],
)
def test_overrides_on_partial_answers_bring_the_quiz_total_exactly_to_its_bounds(
    student_client, student, htmx, scores, verdict, total
):
    session = _session(student, size=len(scores), deck=_deck(len(scores)))
    for position in range(1, len(scores) + 1):
        assert _post_answer(student_client, session, position, response="no idea").status_code == 303
    # The grader's partial scores, stored as the answer path would have summed them; set on the rows so the
    # test does not hang on how the grader is tuned.
    running = 0.0
    for answer, score in zip(Answer.objects.order_by("item__position"), scores, strict=True):
        Answer.objects.filter(pk=answer.pk).update(
            auto_verdict="partial", final_verdict="partial", auto_score=score, final_score=score
        )
        running += score
    QuizSession.objects.filter(pk=session.pk).update(score_sum=running)
    for position in range(1, len(scores) + 1):
        url = reverse("quiz:override", args=[session.pk, position])
        assert student_client.post(url, {"verdict": verdict}, **htmx).status_code == 200
    session.refresh_from_db()
    assert (session.answered_count, session.score_sum) == (len(scores), total)


def test_show_answer_with_an_option_chosen_asks_first_without_javascript_and_keeps_the_choice(student_client, student):
    """Without JavaScript quiz.js cannot ask: the question comes back with the choice still checked, asking."""
    session = _session(student, mode="choice")
    response = _post_answer(student_client, session, option="2", reveal="1")
    assert response.status_code == 303 and Answer.objects.count() == 0
    html = student_client.get(response["Location"]).content.decode()
    assert "You chose option 3." in html and "Show the answer without checking your choice?" in html
    assert re.search(r'<input type="radio" name="option" value="2"[^>]* checked', html)
    assert 'name="reveal_confirmed" value="1"' in html and "Show the answer anyway" in html
    assert 'id="reveal-ask" tabindex="-1" data-focus autofocus' in html
    assert "autofocus" not in html.split("reveal-ask")[0]  # not the options: the question by the buttons

    # "Check my choice" grades the option that was kept; the confirmation's field does not get in the way.
    _post_answer(student_client, session, option="2", reveal_confirmed="1")
    assert Answer.objects.get().chosen_option == 2 and not Answer.objects.get().revealed
    # Confirmed, the answer is shown, and the choice is dropped as a shown answer's is.
    _post_answer(student_client, session, 2, option="1", reveal="1", reveal_confirmed="1")
    shown = Answer.objects.get(item__position=2)
    assert shown.revealed and shown.chosen_option is None


def test_a_reload_of_the_question_asking_first_keeps_the_choice_and_the_question(student_client, student):
    """Without JavaScript the ask is a page of its own: a reload (or coming back to it) cleared the choice and
    the question, and the student had to choose again not knowing why."""
    session = _session(student, mode="choice")
    question = _post_answer(student_client, session, option="2", reveal="1")["Location"]
    student_client.get(question)
    for _reload in range(2):
        html = student_client.get(question).content.decode()
        assert "You chose option 3." in html and 'name="reveal_confirmed" value="1"' in html
        assert re.search(r'<input type="radio" name="option" value="2"[^>]* checked', html)
    # Answered, the question is gone; the next question does not ask.
    _post_answer(student_client, session, option="2", reveal_confirmed="1")
    assert 'id="verdict-heading"' in student_client.get(question).content.decode()
    assert "You chose option" not in student_client.get(session.get_absolute_url()).content.decode()


def test_a_refused_answer_is_said_once_and_the_ask_is_forgotten_once_answered(student_client, student, htmx):
    """A refusal (nothing chosen) is said once; and the ask kept for a reload is not brought back after the
    question got an answer some other way (with JavaScript in another tab)."""
    session = _session(student, mode="choice")
    question = _post_answer(student_client, session, option="2", reveal="1")["Location"]
    _post_answer(student_client, session, option="1", headers=htmx)
    assert "You chose option" not in student_client.get(question).content.decode()
    second = _post_answer(student_client, session, 2)["Location"]
    assert "Choose one of the options" in student_client.get(second).content.decode()
    assert "Choose one of the options" not in student_client.get(second).content.decode()


def test_show_answer_with_an_option_chosen_asks_in_the_htmx_partial_too(student_client, student, htmx):
    session = _session(student, mode="choice")
    response = _post_answer(student_client, session, option="0", reveal="1", headers=htmx)
    html = response.content.decode()
    assert response.status_code == 422 and "<html" not in html
    assert "You chose option 1." in html and "data-focus autofocus" not in html
    assert Answer.objects.count() == 0


def test_show_answer_with_nothing_chosen_does_not_ask(student_client, student):
    session = _session(student, mode="choice")
    _post_answer(student_client, session, reveal="1")
    assert Answer.objects.get().revealed
