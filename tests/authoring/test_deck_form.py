"""The deck's change form in the admin: its description is Markdown with maths, checked as a card's texts are, and its
slug follows the import's rule, so that the deck exports to a file that imports."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from apps.common.db import name_lock
from apps.content.models import Deck
from apps.content.services import DECK_WRITES_LOCK
from tests.conftest import make_user
from tests.factories import make_deck
from tests.locks import after_waiting


def _post(client, deck: Deck, description: str):
    data = {"title": deck.title, "slug": deck.slug, "description": description}
    return client.post(reverse("admin:content_deck_change", args=[deck.pk]), data)


def test_a_description_katex_rejects_is_refused_naming_the_formula(client, instructor):
    deck = make_deck(description="Fine")
    client.force_login(instructor)
    response = _post(client, deck, "Ratio $\\frac{1}{$ here")
    html = response.content.decode()
    assert response.status_code == 200
    assert "KaTeX cannot typeset $\\frac{1}{$" in html and "KaTeX parse error" in html
    deck.refresh_from_db()
    assert deck.description == "Fine"


def test_a_description_with_good_maths_is_saved_rendered(client, instructor):
    deck = make_deck(description="Fine")
    client.force_login(instructor)
    response = _post(client, deck, "Ratio $\\frac{1}{2}$ here,\r\n\r\nand a paragraph")
    assert response.status_code == 302
    deck.refresh_from_db()
    # The textarea's CR LF stored as line feeds, as every other text is
    assert deck.description == "Ratio $\\frac{1}{2}$ here,\n\nand a paragraph"
    assert 'class="katex"' in deck.description_html


def test_a_deck_added_in_the_admin_starts_as_a_draft_students_do_not_see(client, instructor, student):
    """It started published: students met an empty deck, then each card as it was written."""
    client.force_login(instructor)
    form = client.get(reverse("admin:content_deck_add")).content.decode()
    assert re.search(r'<input type="checkbox" name="published"(?![^>]*checked)[^>]*>', form)
    response = client.post(reverse("admin:content_deck_add"), {"title": "RL basics", "slug": "rl-basics"})
    assert response.status_code == 302
    deck = Deck.objects.get(slug="rl-basics")
    assert not deck.published
    client.force_login(student)
    assert client.get(reverse("content:deck", args=[deck.slug])).status_code == 404
    # Ticked, it is published at once.
    client.force_login(instructor)
    data = {"title": "RL basics", "slug": "rl-basics", "published": "on", "description": ""}
    assert client.post(reverse("admin:content_deck_change", args=[deck.pk]), data).status_code == 302
    client.force_login(student)
    assert client.get(reverse("content:deck", args=[deck.slug])).status_code == 200


def test_making_an_assigned_deck_a_draft_warns_which_cohorts_lose_it(client, instructor, student, other_student):
    """Their students lost the deck and its deadline without a word to the author."""
    from apps.cohorts import deadlines
    from apps.cohorts import services as cohorts

    deck, other = make_deck(title="CNNs"), make_deck(title="GANs")
    spring = cohorts.cohort_create(name="Spring", instructor=instructor)
    autumn = cohorts.cohort_create(name="Autumn", instructor=instructor)
    cohorts.cohort_join(student=student, code=spring.join_code)
    cohorts.cohort_join(student=other_student, code=spring.join_code)
    gone = make_user("gone")  # removed: no longer a student the deck is taken from
    cohorts.cohort_join(student=gone, code=spring.join_code)
    cohorts.cohort_remove_student(cohort=spring, student_id=gone.pk)
    for cohort in (spring, autumn):
        deadlines.assignment_set(cohort=cohort, deck=deck, due_date=None)
    client.force_login(instructor)
    url = reverse("admin:content_deck_change", args=[deck.pk])
    data = {"title": "CNNs", "slug": deck.slug, "description": ""}
    said = [str(m) for m in client.post(url, data, follow=True).context["messages"]]
    assert (
        "<bdi>CNNs</bdi> is assigned to <bdi>Autumn</bdi> (0 students), <bdi>Spring</bdi> (2 students): while it is "
        "a draft their students neither "
        "see it nor its deadline. Publish it again to give it back." in said
    )
    # Saved again as a draft, or a deck no cohort has: nothing to warn of.
    said = [str(m) for m in client.post(url, data, follow=True).context["messages"]]
    assert not any("assigned" in message for message in said)
    data = {"title": "GANs", "slug": other.slug, "description": ""}
    url = reverse("admin:content_deck_change", args=[other.pk])
    assert not any("assigned" in str(m) for m in client.post(url, data, follow=True).context["messages"])
    # The list's action warns as well.
    deck.published = True
    deck.save()
    changelist = reverse("admin:content_deck_changelist")
    response = client.post(changelist, {"action": "make_draft", "_selected_action": [deck.pk]}, follow=True)
    assert [str(m) for m in response.context["messages"]][1].startswith(
        "<bdi>CNNs</bdi> is assigned to <bdi>Autumn</bdi> (0 students)"
    )


def test_the_draft_warning_isolates_each_cohorts_name(client, instructor):
    """Cohort names other instructors wrote: one with a right-to-left override reversed the rest of the warning."""
    from apps.cohorts import deadlines
    from apps.cohorts import services as cohorts

    deck = make_deck(title="CNNs")
    for name in ("\u202e<i>Spring</i>", "Autumn"):
        deadlines.assignment_set(
            cohort=cohorts.cohort_create(name=name, instructor=instructor), deck=deck, due_date=None
        )
    client.force_login(instructor)
    url = reverse("admin:content_deck_change", args=[deck.pk])
    page = client.post(url, {"title": "CNNs", "slug": deck.slug, "description": ""}, follow=True).content.decode()
    assert "<i>Spring</i>" not in page
    assert (
        "<bdi>CNNs</bdi> is assigned to <bdi>Autumn</bdi> (0 students), <bdi>\u202e&lt;i&gt;Spring&lt;/i&gt;</bdi> "
        "(0 students): while it is a draft" in page
    )


def test_a_slug_taken_by_another_deck_is_refused_in_plain_words(client, instructor):
    taken = make_deck(slug="serving")
    deck = make_deck()
    client.force_login(instructor)
    data = {"title": deck.title, "slug": taken.slug, "description": ""}
    html = client.post(reverse("admin:content_deck_change", args=[deck.pk]), data).content.decode()
    assert "A deck with this slug already exists: choose another." in html  # not "Deck with this Slug ..."


def test_a_title_another_deck_has_is_refused_whatever_its_case_or_spacing(client, instructor):
    """Two decks of one title could not be told apart in the deck list, a student's history or an assignment."""
    make_deck(title="Model Serving", slug="serving")
    client.force_login(instructor)
    add = reverse("admin:content_deck_add")
    response = client.post(add, {"title": "model  serving ", "slug": "serving-2"})
    html = response.content.decode()
    assert response.status_code == 200 and not Deck.objects.filter(slug="serving-2").exists()
    assert "A deck is titled “Model Serving” already (its slug: serving)" in html
    assert client.post(add, {"title": "Model serving, part 2", "slug": "serving-2"}).status_code == 302
    # A deck keeps its own title when saved again, and spaces typed twice are one.
    deck = Deck.objects.get(slug="serving-2")
    data = {"title": "Model  serving,  part 2", "slug": deck.slug, "description": ""}
    assert client.post(reverse("admin:content_deck_change", args=[deck.pk]), data).status_code == 302
    deck.refresh_from_db()
    assert deck.title == "Model serving, part 2"


@pytest.mark.django_db(transaction=True)
def test_a_title_saved_at_the_same_moment_by_another_instructor_is_refused_not_a_500(client, instructor):
    """The other save passed its checks and has not committed: this one waits for it, then says the title is taken."""

    def other_save():
        name_lock(DECK_WRITES_LOCK)
        Deck.objects.create(title="RL basics", slug="rl-basics")

    client.force_login(instructor)
    add = reverse("admin:content_deck_add")
    response = after_waiting(other_save, lambda: client.post(add, {"title": "RL Basics", "slug": "rl"}))
    assert response.status_code == 200
    assert "A deck is titled “RL basics” already (its slug: rl-basics)" in response.content.decode()
    assert list(Deck.objects.values_list("slug", flat=True)) == ["rl-basics"]


def test_a_deck_may_change_the_letter_case_of_its_own_title(client, instructor):
    deck = make_deck(title="intro to rl", slug="intro")
    client.force_login(instructor)
    data = {"title": "Intro to RL", "slug": deck.slug, "published": "on", "description": ""}
    assert client.post(reverse("admin:content_deck_change", args=[deck.pk]), data).status_code == 302
    deck.refresh_from_db()
    assert deck.title == "Intro to RL"


SLUG_RULE = (
    "may contain only lowercase letters, digits, hyphens and underscores, beginning and ending with a letter or digit"
)


@pytest.mark.parametrize(
    ("typed", "would_do"),
    [("QA_Upper_Slug", "qa_upper_slug"), ("rl basics", "rl-basics"), ("-rl-", "rl"), ("rl--basics", "rl-basics")],
)
def test_a_slug_the_import_would_refuse_is_a_form_error_naming_one_that_would_do(client, instructor, typed, would_do):
    """The admin took "QA_Upper_Slug", and the deck's export then did not import: "field slug: may contain only…"."""
    deck = make_deck(title="Intro", slug="intro")
    client.force_login(instructor)
    add = client.post(reverse("admin:content_deck_add"), {"title": "RL basics", "slug": typed})
    change = client.post(
        reverse("admin:content_deck_change", args=[deck.pk]), {"title": "Intro", "slug": typed, "description": ""}
    )
    for response in (add, change):
        assert response.status_code == 200
        assert f"A slug {SLUG_RULE}: “{would_do}” would do." in unescape(response.content.decode())
    assert list(Deck.objects.values_list("slug", flat=True)) == ["intro"]
