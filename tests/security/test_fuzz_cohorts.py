"""Property-based fuzzing, as every persona, of cohort management, of joining a cohort by code or invite link, and of
the dashboards and other pages with arbitrary query strings.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests.security.fuzzing import (
    AUTHORS,
    MISSING,
    NASTY,
    PERSONAS,
    QUERY,
    RAW_QUERY,
    example,
    expect_refused,
    form,
    fuzz,
    send,
)

pytestmark = pytest.mark.django_db


COHORT_FORM = form(
    name=st.sampled_from(["Summer", "  Winter  ", "x" * 120, "x" * 121]),
    instructors=st.sampled_from(["", "carol", "dave", "alice", "root", "carol, dave", "nobody", ",,,"]),
)


ENDPOINTS = (
    "create", "manage", "owner", "assignment_add", "assignment_remove", "code", "student_remove", "extension",
    "extension_remove", "assignment_extensions", "assignment_extension_change", "assignment_extension_remove",
)  # fmt: skip


@fuzz(max_examples=70)
@given(data=st.data())
def test_cohort_management(world, data):
    persona = data.draw(st.sampled_from(PERSONAS))
    endpoint = data.draw(st.sampled_from(ENDPOINTS))
    cohort = data.draw(st.sampled_from([world.cohort.pk, world.other_cohort.pk, MISSING]))
    decks = [str(world.deck.pk), str(world.other_deck.pk), "0", str(MISSING)]
    student_ids = [world.users["student"].pk, world.users["other_student"].pk, MISSING]
    if endpoint == "create":
        path, fields = reverse("cohorts:create"), data.draw(COHORT_FORM)
    elif endpoint == "manage":
        path, fields = reverse("cohorts:manage", args=[cohort]), data.draw(COHORT_FORM)
    elif endpoint == "owner":
        owners = [str(user.pk) for user in world.users.values() if user] + ["", "0", "x", str(MISSING)]
        path, fields = reverse("cohorts:owner", args=[cohort]), data.draw(form(owner=st.sampled_from(owners)))
    elif endpoint == "assignment_add":
        due = st.one_of(st.dates().map(str), NASTY)
        path, fields = (
            reverse("cohorts:assignment_add", args=[cohort]),
            data.draw(form(deck=st.sampled_from(decks), due_date=due)),
        )
    elif endpoint == "assignment_remove":
        deck_id = data.draw(st.sampled_from([world.deck.pk, world.other_deck.pk, MISSING]))
        path, fields = reverse("cohorts:assignment_remove", args=[cohort, deck_id]), data.draw(form())
    elif endpoint == "code":
        path, fields = reverse("cohorts:code", args=[cohort]), data.draw(form())
    elif endpoint.startswith("assignment_extension"):
        deck_id = data.draw(st.sampled_from([world.deck.pk, world.other_deck.pk, MISSING]))
        args = [cohort, deck_id] + (
            [] if endpoint == "assignment_extensions" else [data.draw(st.sampled_from(student_ids))]
        )
        chosen = st.lists(st.one_of(st.sampled_from([str(pk) for pk in student_ids]), NASTY), max_size=4)
        due = st.one_of(st.dates().map(str), NASTY)
        path, fields = reverse(f"cohorts:{endpoint}", args=args), data.draw(form(students=chosen, due_date=due))
    elif endpoint.startswith("extension"):
        deck_id = data.draw(st.sampled_from([world.deck.pk, world.other_deck.pk, MISSING]))
        args = [cohort, data.draw(st.sampled_from(student_ids)), deck_id]
        due = st.one_of(st.dates().map(str), NASTY)
        path, fields = reverse(f"cohorts:{endpoint}", args=args), data.draw(form(due_date=due))
    else:
        student_id = data.draw(st.sampled_from(student_ids))
        path, fields = reverse("cohorts:student_remove", args=[cohort, student_id]), data.draw(form())
    teaches = persona == "superuser" or (persona, cohort) in {
        ("instructor", world.cohort.pk),
        ("other_instructor", world.other_cohort.pk),
    }
    with example(world, persona):
        method = data.draw(st.sampled_from(["POST", "POST", "GET"]))
        response = send(world.clients[persona], method, path, fields, htmx=data.draw(st.booleans()))
        if persona == "anonymous":
            expect_refused(response, persona)
        elif endpoint == "create" and persona not in AUTHORS:
            assert response.status_code == 403
        elif endpoint != "create" and not teaches and cohort != MISSING:
            assert response.status_code in (404, 405)


CODE_TEXT = st.text(st.characters(codec="utf-8", exclude_characters="/"), min_size=1, max_size=40)


@fuzz(max_examples=50)
@given(data=st.data())
def test_join(world, data):
    """Join codes typed into the form and carried by invite links, whatever they hold."""
    persona = data.draw(st.sampled_from(PERSONAS))
    code = world.cohort.join_code
    codes = [code, world.other_cohort.join_code, code.lower(), f" {code[:4]}-{code[4:]} ", "ZZZZZZZZ", ""]
    with example(world, persona):
        client = world.clients[persona]
        fields = data.draw(form(code=st.sampled_from(codes)))
        in_link = data.draw(st.one_of(st.sampled_from(codes[:4]), CODE_TEXT))
        path = data.draw(st.sampled_from([reverse("cohorts:join"), f"/join/{quote(in_link, safe='')}/"]))
        response = send(
            client, data.draw(st.sampled_from(["GET", "POST"])), path, fields, htmx=data.draw(st.booleans())
        )
        if persona == "anonymous" and response.request["REQUEST_METHOD"] == "POST":
            # 400: a junk field name can make the multipart body unparseable. 200: HTMX's HX-Redirect to sign in.
            assert response.status_code in (302, 400) or "login" in response.get("HX-Redirect", "")


@fuzz(max_examples=70)
@given(data=st.data())
def test_dashboards_and_pages_with_any_query(world, data):
    """The dashboards' ?tab=&sort=&flag=&page=, the drill-down, the exports, and every page's query string."""
    persona = data.draw(st.sampled_from(PERSONAS))
    cohort = data.draw(st.sampled_from([world.cohort, world.other_cohort]))
    card = world.deck.cards.first()
    student = data.draw(st.sampled_from([world.users["student"].pk, world.users["other_student"].pk, MISSING]))
    paths = [
        reverse("cohorts:dashboard", args=[cohort.pk]),
        reverse("cohorts:student", args=[cohort.pk, student]),
        reverse("cohorts:export_matrix", args=[cohort.pk]),
        reverse("cohorts:export_items", args=[cohort.pk]),
        reverse("cohorts:list"),
        reverse("content:home"),
        reverse("content:deck", args=[world.deck.slug]),
        reverse("content:card", args=[world.deck.slug, card.pk]),
        reverse("content:styles"),
        reverse("quiz:progress"),
        reverse("quiz:history"),
        reverse("quiz:session", args=[world.session.pk]),
    ]
    path = data.draw(st.sampled_from(paths))
    with example(world, persona):
        client = world.clients[persona]
        if data.draw(st.booleans()):
            response = send(client, "GET", path, data.draw(QUERY), htmx=data.draw(st.booleans()))
        else:
            response = send(client, "GET", path + "?" + data.draw(RAW_QUERY), htmx=data.draw(st.booleans()))
        teaches = persona == "superuser" or (persona, cohort.pk) in {
            ("instructor", world.cohort.pk),
            ("other_instructor", world.other_cohort.pk),
        }
        if path.startswith(f"/cohorts/{cohort.pk}/") and not teaches:
            expect_refused(response, persona)
