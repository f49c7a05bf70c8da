"""The card form's inline rows in the admin: aliases the database would count as one, distractors that are right
or repeated, key terms that are empty or only repeat the question, all as form errors; and the positions of new
distractor rows.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from apps.content.models import Card
from apps.content.services import card_save
from tests.authoring.card_form import _aliases, _distractors, _form_data
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Job", "job"),
        ("job", "job"),
        # str.lower() makes "İ" an "i" and a combining dot; PostgreSQL's lower(), which the constraint
        # uses, a plain "i". Checked with the first, this reached the database and failed there (a 500).
        ("İstanbul", "istanbul"),
        ("istanbul", "İSTANBUL"),
    ],
)
def test_aliases_the_database_counts_as_one_are_a_form_error(client, instructor, first, second):
    card = make_card(answer="Old")
    client.force_login(instructor)
    response = client.post(
        reverse("admin:content_card_change", args=[card.pk]), _form_data(card, answer="New", **_aliases(first, second))
    )
    html = unescape(response.content.decode())
    assert response.status_code in (200, 422)
    assert f"“{first}” and “{second}” are the same answer: letter case does not count." in html
    card.refresh_from_db()
    assert card.answer == "Old" and not card.aliases.exists() and card.versions.count() == 1


def test_an_alias_clashing_with_one_the_form_did_not_show_is_a_form_error(client, instructor):
    card = card_save(card=make_card(), aliases=["İstanbul"])
    client.force_login(instructor)
    # The stored alias is not among the forms posted, so it stays; the new one would clash with it.
    data = _form_data(card, **_aliases("istanbul"))
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), data)
    assert response.status_code in (200, 422)
    assert "“istanbul” and “İstanbul” are the same answer" in unescape(response.content.decode())
    assert list(card.aliases.values_list("text", flat=True)) == ["İstanbul"]


def test_aliases_only_python_would_count_as_one_are_saved(client, instructor):
    # "İ" and "i" + combining dot are one text to str.lower(), two to PostgreSQL's lower(): the database decides.
    card = make_card()
    client.force_login(instructor)
    data = _form_data(card, **_aliases("İzmir", "i\u0307zmir"))
    assert client.post(reverse("admin:content_card_change", args=[card.pk]), data).status_code == 302
    assert sorted(card.aliases.values_list("text", flat=True)) == sorted(["İzmir", "i\u0307zmir"])


@pytest.mark.parametrize(
    ("renamed", "expected"), [(("Task", "Job"), ["Task", "Job"]), (("task", "Other"), ["task", "Other"])]
)
def test_stored_aliases_can_swap_or_take_each_others_text(client, instructor, renamed, expected):
    client.force_login(instructor)
    # Saved row by row, the first rename used to clash with the second row's old text (a 500).
    card = card_save(card=make_card(), aliases=["Job", "Task"])
    stored = list(card.aliases.order_by("pk"))
    data = _form_data(card, **{"aliases-TOTAL_FORMS": 2, "aliases-INITIAL_FORMS": 2})
    for index, (alias, text) in enumerate(zip(stored, renamed, strict=True)):
        data.update({f"aliases-{index}-id": alias.pk, f"aliases-{index}-card": card.pk, f"aliases-{index}-text": text})
    assert client.post(reverse("admin:content_card_change", args=[card.pk]), data).status_code == 302
    assert list(card.aliases.order_by("pk").values_list("text", flat=True)) == expected


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (_distractors("a pod", "A Pod"), "“a pod” and “A Pod” are the same distractor"),
        (_distractors("a  JOB"), "“a  JOB” is a right answer of this card"),
        ({**_distractors("Batch job"), **_aliases("batch job")}, "“Batch job” is a right answer of this card"),
    ],
)
def test_a_distractor_that_is_right_or_twice_is_a_form_error(client, instructor, extra, message):
    card = make_card(question="Which resource runs once?", answer="A Job", short_answer="A Job")
    client.force_login(instructor)
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), _form_data(card, **extra))
    assert message in unescape(response.content.decode())
    assert not card.distractors.exists() and not card.aliases.exists()


def test_a_distractor_that_is_a_saved_accepted_answer_is_a_form_error(client, instructor):
    card = card_save(card=make_card(answer="A Job", short_answer="A Job"), aliases=["Batch job"])
    client.force_login(instructor)
    data = _form_data(card, **_distractors("batch JOB"))  # the saved alias is not among the forms sent
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), data)
    assert "“batch JOB” is a right answer of this card" in unescape(response.content.decode())
    assert not card.distractors.exists()


def test_key_terms_lose_empty_synonyms_and_need_one(client, instructor):
    card = make_card()
    client.force_login(instructor)
    url = reverse("admin:content_card_change", args=[card.pk])
    terms = {"key_terms-TOTAL_FORMS": 1, "key_terms-0-term": "|||"}
    response = client.post(url, _form_data(card, **terms))
    assert "Give the term, and any synonyms after it, separated by |." in unescape(response.content.decode())
    assert not card.key_terms.exists()
    terms["key_terms-0-term"] = " all-reduce | | allreduce |"
    assert client.post(url, _form_data(card, **terms)).status_code == 302
    assert list(card.key_terms.values_list("term", flat=True)) == ["all-reduce|allreduce"]


def test_a_key_term_that_only_repeats_the_question_is_refused_with_a_reason(client, instructor):
    card = make_card(question="Which resource runs a one-time batch training job?", answer="A Job")
    client.force_login(instructor)
    url = reverse("admin:content_card_change", args=[card.pk])
    terms = {"key_terms-TOTAL_FORMS": 1, "key_terms-0-term": "one-off|Batch training"}
    html = unescape(client.post(url, _form_data(card, **terms)).content.decode())
    assert (
        "“Batch training” only repeats words of the question: a student who copies the question would earn it." in html
    )
    assert not card.key_terms.exists()
    # Checked against the question as sent: a reworded question frees the term.
    reworded = _form_data(card, question="Which resource runs a one-time job?", **terms)
    assert client.post(url, reworded).status_code == 302
    assert list(card.key_terms.values_list("term", flat=True)) == ["one-off|Batch training"]


def test_a_new_distractor_row_comes_after_the_cards_last_distractor(client, instructor):
    card = make_card(question="Which object runs a batch job?", answer="Job")
    card_save(card=card, distractors=["Deployment", "DaemonSet", "StatefulSet"])
    client.force_login(instructor)
    html = client.get(reverse("admin:content_card_change", args=[card.pk])).content.decode()
    extra = re.search(r'<input[^>]*name="distractors-3-position"[^>]*>', html).group(0)
    assert 'value="3"' in extra  # not 0, which sorted it before the card's second and third


def test_distractor_rows_added_in_one_save_get_distinct_positions_in_the_order_typed(client, instructor):
    card = make_card(question="Which object runs a batch job?", answer="Job")
    card_save(card=card, distractors=["Deployment", "DaemonSet", "StatefulSet"])
    client.force_login(instructor)
    # Three rows added at once (the admin's "Add another"), each with the position the form offered: 3.
    rows = {
        "distractors-TOTAL_FORMS": 3,
        **{f"distractors-{i}-text": text for i, text in enumerate(["CronJob", "ReplicaSet", "Pod"])},
        **{f"distractors-{i}-position": 3 for i in range(3)},
    }
    assert (
        client.post(reverse("admin:content_card_change", args=[card.pk]), _form_data(card, **rows)).status_code == 302
    )
    stored = list(card.distractors.order_by("position").values_list("text", "position"))
    assert stored == [
        ("Deployment", 0),
        ("DaemonSet", 1),
        ("StatefulSet", 2),
        ("CronJob", 3),
        ("ReplicaSet", 4),
        ("Pod", 5),
    ]


def test_positions_an_author_typed_apart_are_kept(client, instructor):
    card = make_card(question="Which object runs a batch job?", answer="Job")
    client.force_login(instructor)
    rows = {**_distractors("CronJob", "Pod"), "distractors-0-position": 7, "distractors-1-position": 2}
    assert (
        client.post(reverse("admin:content_card_change", args=[card.pk]), _form_data(card, **rows)).status_code == 302
    )
    assert list(card.distractors.values_list("text", "position")) == [("Pod", 2), ("CronJob", 7)]


def test_distractors_of_a_new_card_are_numbered_from_zero(client, instructor):
    deck = make_deck()
    client.force_login(instructor)
    data = {
        "deck": deck.pk, "position": "", "kind": "flashcard", "question": "Which object runs a batch job?",
        "answer": "Job", "short_answer": "Job", "explanation": "",
        **{f"{prefix}-{k}": v for prefix in ("aliases", "key_terms")
           for k, v in {"TOTAL_FORMS": 0, "INITIAL_FORMS": 0, "MIN_NUM_FORMS": 0, "MAX_NUM_FORMS": 1000}.items()},
        "distractors-INITIAL_FORMS": 0, "distractors-MIN_NUM_FORMS": 0, "distractors-MAX_NUM_FORMS": 1000,
        "distractors-TOTAL_FORMS": 3,
        **{f"distractors-{i}-text": text for i, text in enumerate(["CronJob", "Pod", "Service"])},
        **{f"distractors-{i}-position": 0 for i in range(3)},
    }  # fmt: skip
    response = client.post(reverse("admin:content_card_add"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    card = Card.objects.get(question="Which object runs a batch job?")
    assert list(card.distractors.values_list("text", "position")) == [("CronJob", 0), ("Pod", 1), ("Service", 2)]


@pytest.mark.parametrize(
    "rows",
    [
        {"aliases-TOTAL_FORMS": 2, "aliases-0-text": "Kubernetes Job", "aliases-1-text": "   "},
        {"distractors-TOTAL_FORMS": 1, "distractors-0-text": "  \t ", "distractors-0-position": ""},
        {"key_terms-TOTAL_FORMS": 1, "key_terms-0-term": "   "},
    ],
)
def test_a_new_row_of_only_spaces_is_left_out_like_an_empty_one(client, instructor, rows):
    card = make_card(answer="Job")
    client.force_login(instructor)
    response = client.post(reverse("admin:content_card_change", args=[card.pk]), _form_data(card, **rows))
    assert response.status_code == 302, unescape(response.content.decode())[:2000]
    assert list(card.aliases.values_list("text", flat=True)) == (["Kubernetes Job"] if "aliases-0-text" in rows else [])
    assert not card.distractors.exists() and not card.key_terms.exists()
