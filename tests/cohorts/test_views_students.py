"""The student's side of cohorts: joining through an invite link or with a code, My progress with its decks, due dates,
completion and deadline flags, an invite link opened by a member, and a removed student joining again.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.cohorts import services
from apps.cohorts.models import Assignment, Membership
from apps.quiz import services as quiz
from apps.quiz.models import Answer
from tests.cohorts.views_support import _cohort
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_join_through_an_invite_link_as_a_new_user(client, instructor):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    invite = reverse("cohorts:invite", args=[cohort.join_code])
    page = client.get(invite).content.decode()
    assert "Join <bdi>Spring</bdi>" in page and f"/accounts/signup/?next={invite}" in page
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "email": "n@example.com", "password1": PASSWORD + "!", "password2": PASSWORD + "!",
         "next": invite},
    )  # fmt: skip
    assert response["Location"] == invite
    response = client.post(invite, {"code": cohort.join_code})
    assert response.status_code == 303 and response["Location"] == reverse("quiz:progress")
    assert Membership.objects.get().student.username == "newbie"
    assert "Spring" in client.get(reverse("quiz:progress")).content.decode()


def test_join_with_a_wrong_code_is_a_form_error(client, student):
    client.force_login(student)
    response = client.post(reverse("cohorts:join"), {"code": "WRONG234"})
    assert response.status_code == 422
    assert "does not match any cohort" in response.content.decode()
    assert client.get(reverse("cohorts:invite", args=["GONE2345"])).status_code == 404


def test_my_progress_lists_cohorts_decks_due_dates_and_completion(client, instructor):
    cohort = _cohort(instructor, students=2, cards=4)
    student = Membership.objects.filter(cohort=cohort).order_by("student__username").last().student
    client.force_login(student)
    html = client.get(reverse("quiz:progress")).content.decode()
    assert "My cohorts" in html and "Spring" in html
    assert "Deck 0" in html and "Deck 1" in html
    assert "(2 of 4 cards)" in html
    assert timezone.localdate().strftime("%-d %b %Y") in html

    answered = Answer.objects.filter(user=student, card__deck__title="Deck 0").first().card
    answered.archived = True
    answered.save()
    html = client.get(reverse("quiz:progress")).content.decode()
    assert "(1 of 3 cards)" in html  # an archived card is no longer asked, so it counts on neither side


def test_my_progress_flags_a_deadline_passed_or_near_until_every_card_is_attempted(client, instructor):
    cohort = _cohort(instructor, students=2, cards=4, decks=1)  # the student002... of two: 2 of 4 attempted
    student = Membership.objects.filter(cohort=cohort).order_by("student__username").last().student
    client.force_login(student)
    today = timezone.localdate()

    def deadline_cell(due) -> str:
        Assignment.objects.filter(cohort=cohort).update(due_date=due)
        html = client.get(reverse("quiz:progress")).content.decode()
        return re.search(r'<td data-label="Deadline">(.*?)</td>', html, re.S).group(1)

    assert 'class="badge badge-incorrect">Overdue<' in deadline_cell(today - timedelta(days=2))
    assert ">Due today<" in deadline_cell(today)
    assert ">Due in 3 days<" in deadline_cell(today + timedelta(days=3))
    assert "badge" not in deadline_cell(today + timedelta(days=4))
    deck = Assignment.objects.get(cohort=cohort).deck
    session = quiz.session_start(user=student, deck=deck, size=4, mode="recall", order="new")
    for item in session.items.all():
        quiz.answer_submit(user=student, session_id=session.pk, position=item.position,
                           submission=quiz.Submission(response="no idea"))  # fmt: skip
    assert "badge" not in deadline_cell(today - timedelta(days=2))  # every card attempted: nothing to chase
    html = client.get(reverse("quiz:progress")).content.decode()
    assert "Every card attempted" in html and ">Done<" not in html


def test_an_invite_link_opened_by_someone_already_in_the_cohort_says_so_instead_of_offering_to_join(
    client, instructor, student
):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    services.cohort_join(student=student, code=cohort.join_code)
    invite = reverse("cohorts:invite", args=[cohort.join_code])
    for user, onward, link in (
        (student, reverse("quiz:progress"), "See your progress"),
        (instructor, reverse("cohorts:dashboard", args=[cohort.pk]), "Open the <bdi>Spring</bdi> dashboard"),
    ):
        client.force_login(user)
        response = client.get(invite)
        html = response.content.decode()
        assert response.status_code == 200
        assert re.search(r"<h1>You’re already in <bdi>Spring</bdi></h1>", html)
        assert f'<a class="button" href="{onward}">{link}</a>' in html
        assert "<form" not in re.search(r"<main\b.*</main>", html, re.S).group(0)  # no Join button
        # The join code typed in (or an old invite page's button) does not say "You joined" again, nor fail.
        response = client.post(reverse("cohorts:join"), {"code": cohort.join_code}, follow=True)
        assert response.redirect_chain == [(onward, 303)]
        assert (
            "You’re already in <bdi>Spring</bdi>." in response.content.decode()
            and "You joined" not in response.content.decode()
        )
    assert Membership.objects.filter(cohort=cohort).count() == 1


def test_a_removed_student_can_join_again_through_the_invite_link(client, instructor, student):
    cohort = services.cohort_create(name="Spring", instructor=instructor)
    services.cohort_join(student=student, code=cohort.join_code)
    services.cohort_remove_student(cohort=cohort, student_id=student.pk)
    client.force_login(student)
    invite = reverse("cohorts:invite", args=[cohort.join_code])
    button = '<button type="submit" aria-describedby="join-notice">Join <bdi>Spring</bdi></button>'
    assert button in client.get(invite).text
    response = client.post(invite, {"code": cohort.join_code}, follow=True)
    assert "You joined <bdi>Spring</bdi>." in response.content.decode()
