"""The dashboard benchmark's bulk SQL keeps up with the schema, so `make bench` measures real pages."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import make_password
from django.urls import reverse

from apps.cohorts.models import Cohort
from apps.quiz.models import Answer, QuizSession
from tests.bench import dashboard as bench


@pytest.mark.django_db(transaction=True)
def test_the_bench_seed_writes_what_the_app_writes_and_the_dashboard_shows_it(client, monkeypatch):
    students, sessions, items = 6, 3, 5
    monkeypatch.setattr(bench, "STUDENTS", students)
    monkeypatch.setattr(bench, "DECKS", 2)
    monkeypatch.setattr(bench, "CARDS_PER_DECK", 10)
    monkeypatch.setattr(bench, "SESSIONS_PER_STUDENT", sessions)
    monkeypatch.setattr(bench, "ITEMS_PER_SESSION", items)
    monkeypatch.setattr(bench, "ANSWERS", students * sessions * items)

    bench.seed(make_password(bench.INSTRUCTOR_PASSWORD))

    assert Answer.objects.count() == students * sessions * items
    quiz = QuizSession.objects.order_by("pk").first()
    assert (quiz.item_count, quiz.answered_count) == (items, items)
    assert quiz.score_sum == pytest.approx(sum(quiz.answers.values_list("final_score", flat=True)))
    client.post(reverse("login"), {"username": bench.INSTRUCTOR, "password": bench.INSTRUCTOR_PASSWORD})
    page = client.get(reverse("cohorts:dashboard", args=[Cohort.objects.get(join_code="BENCHDASH").pk]))
    assert page.status_code == 200
    assert page.content.decode().count("dash-00") == students
