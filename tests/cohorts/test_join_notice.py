"""Before a student joins, the page says what the cohort's instructors will see: their answers from before too."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.cohorts import deadlines, services
from apps.quiz import services as quiz
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db

NOTICE = (
    "Your instructors will see your progress and your answers on {} cohort’s decks, including those from before you"
    " joined."
)


def _before_the_button(html: str, sentence: str, button: str) -> bool:
    """The sentence is on the page, ahead of the button that joins, which names it as its description."""
    return sentence in html and html.index(sentence) < html.index(button) and 'aria-describedby="join-notice"' in html


def test_an_invite_link_says_so_before_the_join_button_signed_in_or_not(client, instructor, student):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    invite = reverse("cohorts:invite", args=[cohort.join_code])
    anonymous = Client().get(invite).content.decode()
    assert NOTICE.format("this") in anonymous
    assert anonymous.index(NOTICE.format("this")) < anonymous.index("Create an account")
    client.force_login(student)
    signed_in = client.get(invite).content.decode()
    assert _before_the_button(signed_in, NOTICE.format("this"), "Join <bdi>Spring</bdi></button>")


@pytest.mark.parametrize(
    ("url", "button"), [("cohorts:join", ">Join</button>"), ("cohorts:list", ">Join a cohort</button>")]
)
def test_joining_with_a_typed_code_says_so_before_the_join_button(client, student, url, button):
    client.force_login(student)
    html = client.get(reverse(url)).content.decode()
    assert _before_the_button(html, NOTICE.format("the"), button)


def test_what_the_page_says_is_so_the_instructor_sees_an_answer_from_before_joining(client, instructor, student):
    deck = make_deck(title="Ops")
    make_card(deck=deck, question="Which runs once?", answer="Job")
    session = quiz.session_start(user=student, deck=deck, size=1, mode="recall", order="new")
    quiz.answer_submit(
        user=student, session_id=session.pk, position=1, submission=quiz.Submission(response="A CronJob, I think")
    )
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    services.cohort_join(student=student, code=cohort.join_code)
    client.force_login(instructor)
    html = client.get(reverse("cohorts:student", args=[cohort.pk, student.pk])).content.decode()
    assert "A CronJob, I think" in html and "Answers (1)" in html


def test_a_code_that_matches_no_cohort_opens_the_join_page_on_the_code_box(client, student):
    client.force_login(student)
    response = client.post(reverse("cohorts:join"), {"code": "ZZZZ"})
    autofocused = re.findall(r"<input[^>]*\bautofocus\b[^>]*>", response.content.decode())
    assert response.status_code == 422
    assert len(autofocused) == 1 and 'name="code"' in autofocused[0]  # typed again at once, not searched for
