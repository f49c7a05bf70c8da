"""An HTMX request that needs an account sends the browser to the sign-in page, not the page into a fragment."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.quiz import services
from apps.quiz.forms import question_token
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def _quiz(student):
    deck = make_deck()
    for i in range(2):
        make_card(deck=deck, question=f"Which tool number {i}?", answer=f"Tool {i}")
    return services.session_start(user=student, deck=deck, size=2, mode="recall", order="new")


def test_a_signed_out_htmx_answer_is_sent_to_sign_in_and_back_to_the_quiz(client, student, htmx):
    quiz = _quiz(student)
    item = quiz.items.get(position=1)
    response = client.post(
        reverse("quiz:item", args=[quiz.pk, 1]),
        {"token": question_token(item), "response": "Tool 0"},
        HTTP_HX_CURRENT_URL=f"http://testserver{quiz.get_absolute_url()}",
        **htmx,
    )
    # A whole-page redirect (HTMX follows HX-Redirect itself), not a 302 whose page HTMX would swap in.
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"{reverse('login')}?next={quiz.get_absolute_url()}"
    assert response.content == b""

    login = client.post(
        reverse("login"), {"username": "alice", "password": "correct-horse-battery", "next": quiz.get_absolute_url()}
    )
    assert login["Location"] == quiz.get_absolute_url()
    assert "Question 1 of 2" in client.get(login["Location"]).content.decode()  # resumes where it was


@pytest.mark.parametrize(
    "current",
    ["https://evil.example/quiz/1/", "//evil.example/quiz/1/", "not a url", "http://[", "http://[::1", None],
    ids=str,
)
def test_next_is_the_requested_path_when_the_current_page_is_not_this_site(client, student, htmx, current):
    quiz = _quiz(student)
    url = quiz.get_absolute_url()
    headers = {"HTTP_HX_CURRENT_URL": current} if current else {}
    response = client.get(url, **headers, **htmx)
    assert response["HX-Redirect"] == f"{reverse('login')}?next={url}"


def test_without_htmx_the_sign_in_redirect_is_unchanged(client, student):
    url = _quiz(student).get_absolute_url()
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


def test_other_htmx_redirects_are_left_alone(student_client, student, htmx):
    quiz = _quiz(student)
    response = student_client.post(reverse("quiz:finish", args=[quiz.pk]), **htmx)
    assert response.status_code == 302 and "HX-Redirect" not in response
