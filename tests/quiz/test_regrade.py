"""Grading past answers again after a card is corrected (regrade.answers_regrade), and its admin page."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.admin.models import LogEntry
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.cohorts import services as cohorts
from apps.cohorts.aggregates import cohort_stats_rebuild
from apps.cohorts.models import CohortCardStat, CohortResponseStat
from apps.content.models import Card
from apps.content.services import card_save
from apps.quiz import services
from apps.quiz.aggregates import stats_rebuild
from apps.quiz.models import Answer, CardState, QuizSession, StudentCardStat
from apps.quiz.regrade import answers_regrade
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck
from tests.locks import after_waiting

pytestmark = pytest.mark.django_db


def _answer(user, card, response: str, *, override: str = "") -> Answer:
    session = services.session_start(user=user, deck=card.deck, size=1, mode="recall", order="new")
    services.answer_submit(user=user, session_id=session.pk, position=1, submission=services.Submission(response))
    if override:
        services.answer_override(user=user, session_id=session.pk, position=1, verdict=override)
    return Answer.objects.get(session=session)


def _totals():
    return (
        sorted(StudentCardStat.objects.values_list("user_id", "attempts", "score_sum", "overrides")),
        sorted(CohortCardStat.objects.values_list("cohort_id", "attempts", "score_sum", "overrides")),
        sorted(QuizSession.objects.values_list("pk", "score_sum")),
    )


@pytest.fixture
def mistake(instructor):
    """A card whose author typed the wrong answer, and three students who answered it."""
    card = make_card(deck=make_deck(title="Kubernetes"), question="Which object runs Jobs on a schedule?",
                     answer="Deployment", short_answer="Deployment")  # fmt: skip
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    spring = cohorts.cohort_create(name="Spring", instructor=instructor)
    for user in (ann, ben, cat):
        cohorts.cohort_join(student=user, code=spring.join_code)
    answers = {
        "ann": _answer(ann, card, "CronJob"),
        "ben": _answer(ben, card, "Deployment"),
        "cat": _answer(cat, card, "CronJob", override="correct"),  # she knew she was right
    }
    card.answer = card.short_answer = "CronJob"
    card_save(card=card, author=instructor, note="The answer was wrong")
    return card, answers


def test_the_corrected_card_grades_past_answers_again_keeping_what_students_said_themselves(mistake):
    card, answers = mistake
    assert [answers[name].final_verdict for name in ("ann", "ben", "cat")] == ["incorrect", "correct", "correct"]
    before = _totals()
    preview = answers_regrade(card=card, apply=False)
    assert (preview.checked, len(preview.changed), preview.students) == (3, 3, 3)
    assert _totals() == before and Answer.objects.get(pk=answers["ann"].pk).final_verdict == "incorrect"

    report = answers_regrade(card=card, apply=True)
    assert len(report.changed) == 3
    ann, ben, cat = (Answer.objects.get(pk=answers[name].pk) for name in ("ann", "ben", "cat"))
    assert (ann.auto_verdict, ann.final_verdict, ann.final_score) == ("correct", "correct", 1.0)
    assert (ben.final_verdict, ben.final_score) == ("incorrect", 0.0)
    # The grader now says what cat said: hers is no longer a correction, and her score stays.
    assert (cat.auto_verdict, cat.override_verdict, cat.final_verdict) == ("correct", "", "correct")
    assert ann.card_version_id == card.current_version_id  # her feedback shows the corrected answer
    assert ann.session.score_sum == 1.0 and ben.session.score_sum == 0.0
    # The running totals moved exactly as a rebuild from the answers would have them.
    after = _totals()
    assert after != before
    stats_rebuild()
    cohort_stats_rebuild()
    assert _totals() == after
    # Done: graded again, nothing changes.
    assert answers_regrade(card=card, apply=True).changed == []


def test_the_admin_page_shows_what_would_change_then_regrades_on_confirmation(client, mistake, instructor, student):
    card, answers = mistake
    change = reverse("admin:content_card_change", args=[card.pk])
    url = reverse("admin:content_card_regrade", args=[card.pk])
    client.force_login(instructor)
    form = client.get(change).content.decode()
    assert "3 typed answers were graded against an earlier version of this card." in form
    assert f'<a href="{url}">regrade past answers…</a>' in form
    page = " ".join(client.get(url).content.decode().split())
    assert "<strong>3 of 3 answers</strong>, from 3 students, would be graded otherwise." in page
    assert "<td>ann</td>" in page and "<td>Incorrect, 0 %</td> <td>Correct, 100 %</td>" in page
    assert Answer.objects.get(pk=answers["ann"].pk).final_verdict == "incorrect"  # looking changes nothing
    assert f'<input type="hidden" name="version" value="{card.current_version_id}">' in page
    response = client.post(url, {"version": card.current_version_id}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == ["Graded 3 answers again: 3 changed, from 3 students; their scores and reviews follow."]
    assert Answer.objects.get(pk=answers["ann"].pk).final_verdict == "correct"
    assert "graded against an earlier version" not in client.get(change).content.decode()
    assert "would be graded as they are: nothing to change" in client.get(url).content.decode()
    client.force_login(student)
    assert client.post(url).status_code in (302, 403)  # not staff: the admin's sign-in, not a regrade
    assert client.put(url).status_code in (302, 405)


def test_answers_whose_verdict_stands_are_then_the_corrected_cards_and_the_form_stops_offering_a_regrade(
    client, instructor
):
    card = make_card(deck=make_deck(title="Kubernetes"), question="Which object runs Jobs on a schedule?",
                     answer="Deployment", short_answer="Deployment")  # fmt: skip
    wrong = _answer(make_user("ann"), card, "CronJob")  # right, marked wrong: the regrade changes it
    stays = _answer(make_user("dan"), card, "StatefulSet")  # wrong against either version
    assert "Deployment" in stays.feedback
    card.answer = card.short_answer = "CronJob"
    card_save(card=card, author=instructor, note="The answer was wrong")
    client.force_login(instructor)
    change = reverse("admin:content_card_change", args=[card.pk])
    assert "2 typed answers were graded against an earlier version" in client.get(change).content.decode()
    dans = StudentCardStat.objects.filter(user=stays.user).values_list("attempts", "score_sum", "overrides")
    before = dans.get()
    report = answers_regrade(card=card, apply=True)
    assert [row.answer.pk for row in report.changed] == [wrong.pk]
    stays.refresh_from_db()
    assert (stays.final_verdict, stays.final_score) == ("incorrect", 0.0)
    # Its feedback names the corrected answer, beside which its feedback page now shows it.
    assert stays.card_version_id == card.current_version_id
    assert "CronJob" in stays.feedback and "Deployment" not in stays.feedback
    assert dans.get() == before  # his figures stay as they were
    assert "graded against an earlier version" not in client.get(change).content.decode()


def test_the_message_counts_answers_and_students_apart(client, instructor):
    """One student who answered the mis-keyed card in two quizzes: two answers changed, from one student."""
    card = make_card(deck=make_deck(title="Kubernetes"), question="Which object runs Jobs on a schedule?",
                     answer="Deployment", short_answer="Deployment")  # fmt: skip
    ann = make_user("ann")
    _answer(ann, card, "CronJob")
    _answer(ann, card, "cronjob")
    card.answer = card.short_answer = "CronJob"
    card_save(card=card, author=instructor, note="The answer was wrong")
    client.force_login(instructor)
    url = reverse("admin:content_card_regrade", args=[card.pk])
    response = client.post(url, {"version": card.current_version_id}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert said == ["Graded 2 answers again: 2 changed, from 1 student; their scores and reviews follow."]


def _mis_keyed(instructor, students: int):
    """A card keyed "Deployment" that `students` students of one cohort answered "CronJob", then corrected."""
    card = make_card(deck=make_deck(title=f"Kubernetes {students}"), question="Which object runs Jobs on a schedule?",
                     answer="Deployment", short_answer="Deployment")  # fmt: skip
    cohort = cohorts.cohort_create(name=f"Cohort {students}", instructor=instructor)
    for n in range(students):
        user = make_user(f"s{students}-{n}")
        cohorts.cohort_join(student=user, code=cohort.join_code)
        _answer(user, card, "CronJob" if n % 3 else "cron job", override="correct" if n == 1 else "")
    card.answer = card.short_answer = "CronJob"
    card_save(card=card, author=instructor, note="The answer was wrong")
    return card


def _response_counts():
    return sorted(CohortResponseStat.objects.filter(count__gt=0).values_list("cohort_id", "response_key", "count"))


def test_applying_a_regrade_costs_the_same_queries_for_three_answers_or_thirty(instructor, django_assert_num_queries):
    """An admin action on a card thousands answered must not run a few queries per answer (it took seconds)."""
    small, large = _mis_keyed(instructor, 3), _mis_keyed(instructor, 30)
    with CaptureQueriesContext(connection) as three:
        assert len(answers_regrade(card=small, apply=True).changed) == 3
    with django_assert_num_queries(len(three.captured_queries)):
        report = answers_regrade(card=large, apply=True)
    assert len(report.changed) == 30 and report.students == 30
    fixed = Answer.objects.filter(card=large)
    assert set(fixed.values_list("final_verdict", "final_score", "override_verdict")) == {("correct", 1.0, "")}
    assert {state.reps for state in CardState.objects.filter(card=large)} == {1}
    assert set(QuizSession.objects.filter(answers__card=large).values_list("score_sum", flat=True)) == {1.0}
    # The totals moved exactly as a rebuild from the answers would have them, wrong-answer counts included.
    after = _totals(), _response_counts()
    assert not [row for row in _response_counts() if row[1] in ("cronjob", "cron job")]
    stats_rebuild()
    cohort_stats_rebuild()
    assert (_totals(), _response_counts()) == after


def _page(response) -> str:
    return " ".join(unescape(response.content.decode()).split())


SAVED_SINCE = r"The card was saved since this preview: dana saved version 3 at \d+ \w+ \d{4}, \d\d:\d\d UTC\. "


def test_a_confirmation_from_a_preview_the_card_has_changed_since_regrades_nothing_and_shows_the_new_one(
    client, mistake, instructor
):
    """Tab A previewed "3 of 3 answers"; tab B saved the card; A's "Regrade 3 answers" applied B's card unseen."""
    card, answers = mistake
    url = reverse("admin:content_card_regrade", args=[card.pk])
    client.force_login(instructor)
    preview = client.get(url)
    assert "<strong>3 of 3 answers</strong>" in _page(preview)
    # Another instructor accepts ben's "Deployment" too: his answer would no longer change.
    dana = make_instructor("dana")
    card_save(card=Card.objects.get(pk=card.pk), author=dana, note="Edited in the admin", aliases=["Deployment"])
    before = sorted(Answer.objects.values_list("pk", "final_verdict", "final_score", "card_version_id"))

    refused = client.post(url, {"version": preview.context["report"].version_id})

    assert refused.status_code == 409
    page = _page(refused)
    assert re.search(SAVED_SINCE + "Nothing was regraded.", page)
    assert "Below is what regrading would change now, against the card as it is saved" in page
    assert "<strong>2 of 3 answers</strong>, from 2 students, would be graded otherwise." in page
    assert sorted(Answer.objects.values_list("pk", "final_verdict", "final_score", "card_version_id")) == before
    assert not LogEntry.objects.filter(change_message__startswith="Graded").exists()
    # Confirmed from the preview made afresh, the regrade is done against dana's version.
    card.refresh_from_db()
    assert f'<input type="hidden" name="version" value="{card.current_version_id}">' in page
    done = client.post(url, {"version": card.current_version_id}, follow=True)
    assert [str(m) for m in done.context["messages"]] == [
        "Graded 3 answers again: 2 changed, from 2 students; their scores and reviews follow."
    ]
    assert Answer.objects.get(pk=answers["ben"].pk).final_verdict == "correct"


@pytest.mark.parametrize("version", ["latest", "", "9" * 30])
def test_a_confirmation_that_names_no_version_regrades_nothing(client, mistake, instructor, version):
    card, answers = mistake
    client.force_login(instructor)
    refused = client.post(reverse("admin:content_card_regrade", args=[card.pk]), {"version": version})
    assert refused.status_code == 409
    assert "does not say which version of the card its preview graded: nothing was regraded." in _page(refused)
    assert Answer.objects.get(pk=answers["ann"].pk).final_verdict == "incorrect"


@pytest.mark.django_db(transaction=True)
def test_a_confirmation_racing_a_save_of_the_card_waits_for_it_then_regrades_nothing(instructor):
    """The version is compared under the card's lock: a save in flight when the button is pressed is seen."""
    card = make_card(deck=make_deck(title="Kubernetes"), question="Which object runs Jobs on a schedule?",
                     answer="CronJob", short_answer="CronJob")  # fmt: skip
    ann = make_user("ann")
    _answer(ann, card, "Deployment")
    card.answer = card.short_answer = "Deployment"  # a mistake: ann's wrong answer would be marked right
    card_save(card=card, author=instructor)
    seen = Card.objects.get(pk=card.pk).current_version_id
    dana = make_instructor("dana")

    def dana_fixes_it():
        card_save(card=Card.objects.get(pk=card.pk), author=dana, aliases=["CronJob"])

    admin = Client()
    admin.force_login(instructor)
    url = reverse("admin:content_card_regrade", args=[card.pk])
    refused = after_waiting(dana_fixes_it, lambda: admin.post(url, {"version": seen}))
    assert refused.status_code == 409 and re.search(SAVED_SINCE, _page(refused))
    assert Answer.objects.get(user=ann).final_verdict == "incorrect"
