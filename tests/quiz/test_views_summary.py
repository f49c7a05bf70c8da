"""The results and progress pages: the summary of each question and of quizzes and reviews ended early (by hand, or by
a newer one started on the deck), shown answers and typeset formulas on it, the progress page's decks, scores and due
cards, the review offered on the results, and the note saying why a correct answer scored under 100 %.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.quiz import services
from apps.quiz.models import CardState, QuizSession
from tests.factories import make_card, make_deck
from tests.quiz.views_support import _deck, _post_answer, _session

pytestmark = pytest.mark.django_db


def test_summary_lists_each_question_with_its_verdict_and_card_link(student_client, student):
    session = _session(student, size=2)
    _post_answer(student_client, session, 1, response="Tool number 0")
    _post_answer(student_client, session, 2, response="no idea")
    html = student_client.get(session.get_absolute_url()).content.decode()
    assert "Your results: 50\u00a0%" in html
    for item in session.items.all():
        assert f'href="{item.card.get_absolute_url()}?answers=shown"' in html  # the card, its answer open
    assert html.count('class="badge badge-correct"') == 1 and html.count('class="badge badge-incorrect"') == 1
    for position in (1, 2):  # each answer's feedback, with its "I was right" / "I was wrong", is a click away
        assert f'href="{reverse("quiz:item", args=[session.pk, position])}">See your answer' in html
    assert "ended the quiz" not in html


def test_the_summary_of_a_quiz_ended_early_says_what_its_score_covers(student_client, student):
    session = _session(student, size=4)
    _post_answer(student_client, session, 1, response="Tool number 0")
    student_client.post(reverse("quiz:finish", args=[session.pk]))
    html = student_client.get(session.get_absolute_url()).content.decode()
    assert "Your results: 100\u00a0%" in html
    assert "This quiz ended before its last question: the score is over the 1 question you answered, not all 4." in html
    assert html.count("Not answered") == 3
    assert "Ended early: 1 of 4 answered" in html and "Finished" not in html


def test_the_summary_of_a_review_ended_early_calls_it_a_review(student_client, student):
    deck = _deck(size=2)
    services.session_start(user=student, deck=deck, size=2, mode="recall", order="new")
    answered = QuizSession.objects.get(user=student)
    for position in (1, 2):
        _post_answer(student_client, answered, position, response="no idea")
    CardState.objects.filter(user=student).update(due=timezone.now() - timedelta(minutes=1))
    review = services.session_start(user=student, deck=None, size=2, mode="recall", order="due")
    student_client.post(reverse("quiz:finish", args=[review.pk]))
    html = student_client.get(review.get_absolute_url()).content.decode()
    assert "Ended early: 0 of 2 answered" in html
    assert "You ended the review before answering any of its 2 questions." in html


def test_summary_names_a_shown_answer_as_the_feedback_did_and_scores_it_zero(student_client, student):
    session = _session(student, size=2)
    _post_answer(student_client, session, 1, response="Tool number 0")
    _post_answer(student_client, session, 2, reveal="1")
    assert "Answer shown" in student_client.get(reverse("quiz:item", args=[session.pk, 2])).content.decode()
    summary = student_client.get(session.get_absolute_url()).content.decode().split('class="summary"', 1)[1]
    assert "Your results: 50\u00a0%" in summary
    verdicts = re.findall(r'<td data-label="Verdict"><span class="badge[^"]*">([^<]+)</span>', summary)
    scores = re.findall(r'<td data-label="Score">([^<]+)</td>', summary)
    assert list(zip(verdicts, scores, strict=True)) == [("Correct", "100\u00a0%"), ("Answer shown", "0\u00a0%")]


def test_summary_shows_questions_with_their_formulas_typeset(student_client, student):
    deck = make_deck()
    for i in range(2):
        make_card(deck=deck, question=f"What does the temperature $T_{i}$ do in the softmax?", answer=f"Sharpens {i}")
    session = _session(student, size=2, deck=deck)
    _post_answer(student_client, session, 1, response="Sharpens 0")
    _post_answer(student_client, session, 2, response="no idea")
    summary = student_client.get(session.get_absolute_url()).content.decode().split('class="summary"', 1)[1]
    assert "$T_" not in summary  # read out as "dollar T dollar"
    assert summary.count('class="card-title"') == 2 and summary.count("<math") == 2


def test_progress_page_shows_decks_and_recent_sessions(student_client, student):
    session = _session(student, size=2)
    _post_answer(student_client, session, 1, response="Tool number 0")
    html = student_client.get(reverse("quiz:progress")).content.decode()
    assert session.deck.title in html
    assert "1 of 6" in html  # cards seen
    assert "Resume" in html


def test_progress_page_says_a_score_covers_only_the_questions_answered_so_far(student_client, student):
    open_quiz = _session(student, size=3)
    _post_answer(student_client, open_quiz, 1, response="Tool number 0")
    ended = _session(student, size=3)
    _post_answer(student_client, ended, 1, response="Tool number 0")
    services.session_finish(user=student, session_id=ended.pk)
    done = _session(student, size=1)
    _post_answer(student_client, done, 1, response="Tool number 0")
    scores = re.findall(
        r'<td data-label="Score">(.*?)</td>', student_client.get(reverse("quiz:progress")).content.decode()
    )
    assert scores == [
        "100\u00a0%",
        '100\u00a0% <span class="meta">of the 1 answered</span>',
        '100\u00a0% <span class="meta">so far</span>',
    ]


def test_progress_page_counts_cards_due_later_apart_from_those_due_now_and_says_so(student_client, student):
    session = _session(student, size=2)
    _post_answer(student_client, session, 1, response="no idea")
    _post_answer(student_client, session, 2, response="no idea")
    CardState.objects.filter(card__position=1).update(due=timezone.now() - timedelta(minutes=1))
    CardState.objects.filter(card__position=2).update(due=timezone.now() + timedelta(days=2))
    html = student_client.get(reverse("quiz:progress")).content.decode()
    # "Due now 7, Due within a week 0" read as a contradiction: the second column leaves out the first's cards.
    assert (
        '<td data-label="Due now">1</td>' in html
        and '<td data-label="Due later, in the next 7&nbsp;days">1</td>' in html
    )
    assert "Due within a week" not in html
    # What "Mastered" means was only in a title attribute, which a phone never shows.
    assert "Mastered: past the learning steps, and recalled now with at least 90 % probability (FSRS)" in html
    assert "it ends when the card is due for review again, where it counts as due, not mastered." in html


def test_progress_page_says_when_the_next_card_comes_back(student_client, student):
    fresh = student_client.get(reverse("quiz:progress")).content.decode()
    assert "Nothing is due yet" in fresh and "comes back in" not in fresh
    session = _session(student, size=1)
    _post_answer(student_client, session, response="no idea")
    CardState.objects.update(due=timezone.now() + timedelta(hours=3, minutes=30))

    later = student_client.get(reverse("quiz:progress")).content.decode().replace("\xa0", " ")
    assert "Nothing is due right now. The next card comes back in 3 hours" in later  # as "Review due cards" says
    CardState.objects.update(due=timezone.now() - timedelta(minutes=1))
    due = student_client.get(reverse("quiz:progress")).content.decode()
    assert "1 card is due for review now." in due and "comes back in" not in due


def _results_actions(client, session) -> str:
    html = client.get(session.get_absolute_url()).content.decode().replace("\xa0", " ")
    return html.split('class="summary"', 1)[1].split("</section>", 1)[0]


def test_the_results_offer_a_review_only_when_cards_are_due_and_say_how_many(student_client, student, other_student):
    """The review takes due cards from every deck: after a deck's quiz, its button says so ("9 due" read as the
    deck's own, where the home page gave the deck 4)."""
    session = _session(student, size=2)
    _post_answer(student_client, session, 1, response="Tool number 0")
    _post_answer(student_client, session, 2, response="no idea")
    CardState.objects.filter(user=student).update(due=timezone.now() + timedelta(hours=3, minutes=30))
    nothing_due = _results_actions(student_client, session)
    assert reverse("quiz:review") not in nothing_due  # no button that leads to "Nothing is due right now"
    assert "Nothing is due right now. The next card comes back in 3 hours" in nothing_due

    _session(other_student, size=1)  # a classmate's due cards are not hers
    CardState.objects.filter(user=student).update(due=timezone.now() - timedelta(minutes=1))
    two_due = _results_actions(student_client, session)
    assert f'href="{reverse("quiz:review")}">Review the 2 due cards (all decks)</a>' in two_due
    CardState.objects.filter(user=student, card=session.items.get(position=2).card).update(
        due=timezone.now() + timedelta(days=1)
    )
    one_due = _results_actions(student_client, session)
    assert f'href="{reverse("quiz:review")}">Review the due card (all decks)</a>' in one_due


def _answer_seed_card(client, user, question: str, response: str) -> str:
    """The feedback page for `response` to the seed card asking `question`, answered in a free-recall quiz."""
    from apps.content.models import Card

    card = Card.objects.get(question=question)
    quiz = services.session_start(user=user, deck=card.deck, size=50, mode="recall", order="new")
    position = quiz.items.get(card=card).position
    _post_answer(client, quiz, position, response=response)
    html = client.get(reverse("quiz:item", args=[quiz.pk, position])).content.decode().replace("\xa0", " ")
    section = html.split('<section class="feedback', 1)[1].split('<div class="prose question-text">', 1)[0]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", section.split(">", 1)[1])).split())


@pytest.mark.parametrize(
    ("question", "response", "score", "why"),
    [
        (  # the grader names what is missing only when more is missing than covered
            "Which technique does TensorFlow's tf.data API primarily optimize?",
            "data loading speed",
            "95 %",
            "Not 100 %: the score follows how much of the model answer’s key points your answer covers, and 75 %"
            " or more counts as correct.",
        ),
        (
            "What does the all-reduce operation do in distributed data-parallel training?",
            "all reduce sums gradient tensors over every worker and broadcasts the reduced result back to each one",
            "84 %",
            "Not 100 %: the score follows how much of the model answer’s key points your answer covers, and 75 %"
            " or more counts as correct.",
        ),
        (
            "When using Kubernetes for ML workload orchestration, what resource type is typically used to run a"
            " one-time batch training job?",
            "a Jobb resource",
            "90 %",
            "Not 100 %: a misspelt term is accepted, at 90 %.",
        ),
    ],
)
def test_a_correct_answer_scored_under_100_says_why(seeded, student_client, student, question, response, score, why):
    """ "Correct · Score 86 %" with only "You covered …" under it left the missing 14 % unexplained."""
    feedback = _answer_seed_card(student_client, student, question, response)
    assert feedback.startswith(f"Correct Score {score}")
    assert why in feedback


def test_a_full_score_or_a_corrected_verdict_needs_no_such_note(seeded, student_client, student, htmx):
    kubernetes = (
        "When using Kubernetes for ML workload orchestration, what resource type is typically used to run a one-time"
        " batch training job?"
    )
    full = _answer_seed_card(student_client, student, kubernetes, "a Job")
    assert full.startswith("Correct Score 100 %") and "Not 100 %" not in full
    question = "What does the all-reduce operation do in distributed data-parallel training?"
    graded = _answer_seed_card(student_client, student, question, "aggregates gradients across workers")
    assert graded.startswith("Correct Score 76 %") and "Not 100 %" in graded
    quiz = QuizSession.objects.filter(user=student).latest("pk")
    position = quiz.answers.get().item.position
    student_client.post(reverse("quiz:override", args=[quiz.pk, position]), {"verdict": "incorrect"}, **htmx)
    overridden = student_client.get(reverse("quiz:item", args=[quiz.pk, position])).content.decode()
    assert "You marked this as incorrect" in overridden and "Not 100" not in overridden


def _start_another(client, deck) -> QuizSession:
    """A quiz started from the deck's page, as another tab does: it ends the deck's open quiz."""
    response = client.post(reverse("quiz:start", args=[deck.slug]), {"size": 2, "mode": "recall", "order": "new"})
    return QuizSession.objects.get(pk=response.url.split("/")[2])


def _primary_button(actions: str) -> tuple[str, str]:
    """The results' one button not styled secondary: its text, and where it leads ("" for the retry's form)."""
    button = re.search(r'<a class="button" href="([^"]+)">([^<]+)</a>|<button type="submit">([^<]+)</button>', actions)
    return (button[2], button[1]) if button[1] else (button[3], "")


def test_a_quiz_ended_by_a_newer_one_says_so_and_offers_the_newer_one_first(student_client, student):
    """Started again in another tab, then answered in the old one: its results said "You ended the quiz before
    answering any of its 3 questions", and put "Quiz this deck again", which would end the newer quiz, first."""
    deck = _deck()
    old = _session(student, deck=deck, size=3)
    newer = _start_another(student_client, deck)
    _post_answer(student_client, old, 1, response="Typed in the old tab")  # refused: the quiz has ended
    actions = _results_actions(student_client, old)
    assert (
        "This quiz ended when you started a newer quiz on this deck, before you had answered any of its 3 questions."
        in actions
    )
    assert "You ended the quiz" not in actions
    assert _primary_button(actions) == ("Carry on with the newer quiz", newer.get_absolute_url())
    assert f'<a class="button button-secondary" href="{reverse("quiz:start", args=[deck.slug])}">Quiz this' in actions

    # The newer one done, the reason stands, and with no quiz left open a new one comes first again.
    for position in (1, 2):
        _post_answer(student_client, newer, position, response="Tool number 0")
    done = _results_actions(student_client, old)
    assert "This quiz ended when you started a newer quiz on this deck" in done and "Carry on" not in done
    assert _primary_button(done) == ("Quiz this deck again", reverse("quiz:start", args=[deck.slug]))


def test_a_quiz_partly_answered_when_a_newer_one_ended_it_says_what_its_score_covers(student_client, student):
    deck = _deck()
    old = _session(student, deck=deck, size=3)
    _post_answer(student_client, old, 1, response="no idea")
    _start_another(student_client, deck)
    actions = _results_actions(student_client, old)
    assert (
        "This quiz ended when you started a newer quiz on this deck, before its last question: the score is over the 1"
        " question you answered, not all 3." in actions
    )
    # Quizzing the one missed would end the newer quiz: it is offered after it.
    assert _primary_button(actions)[0] == "Carry on with the newer quiz"
    assert '<button type="submit" class="button-secondary">Quiz the question you missed</button>' in actions


def test_a_quiz_ended_by_hand_before_another_started_still_says_the_student_ended_it(student_client, student):
    deck = _deck()
    old = _session(student, deck=deck, size=3)
    student_client.post(reverse("quiz:finish", args=[old.pk]))
    newer = _start_another(student_client, deck)
    actions = _results_actions(student_client, old)
    assert "You ended the quiz before answering any of its 3 questions." in actions
    assert "when you started a newer quiz" not in actions
    # Its newer quiz is still open, and still comes first.
    assert _primary_button(actions) == ("Carry on with the newer quiz", newer.get_absolute_url())


def test_a_review_ended_by_a_newer_review_says_so_and_a_deck_quiz_started_meanwhile_did_not(student_client, student):
    deck = _deck(size=2)
    answered = _session(student, deck=deck, size=2)
    for position in (1, 2):
        _post_answer(student_client, answered, position, response="no idea")
    CardState.objects.filter(user=student).update(due=timezone.now() - timedelta(minutes=1))
    old = services.session_start(user=student, deck=None, size=2, mode="recall", order="due")
    _start_another(student_client, deck)  # a quiz of one deck leaves the review open
    assert not QuizSession.objects.get(pk=old.pk).finished_at
    response = student_client.post(reverse("quiz:review"), {"size": 2, "mode": "recall", "order": "due"})
    newer = QuizSession.objects.get(pk=response.url.split("/")[2])
    actions = _results_actions(student_client, old)
    assert (
        "This review ended when you started a newer review, before you had answered any of its 2 questions" in actions
    )
    assert _primary_button(actions) == ("Carry on with the newer review", newer.get_absolute_url())
