"""A cohort's name and a deck's title, written by people, sit isolated in <bdi> inside the messages and form errors
built around them: a name holding a right-to-left override (U+202E) cannot reverse the words after it, and a name
holding markup is shown as text."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.cohorts import deadlines, services
from tests.conftest import make_instructor, make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db

RLO = "\u202e"
NAME = f"{RLO}<script>x</script> Spring"
SHOWN = f"<bdi>{RLO}&lt;script&gt;x&lt;/script&gt; Spring</bdi>"
TITLE = f"{RLO}<i>Serving</i>"
TITLE_SHOWN = f"<bdi>{RLO}&lt;i&gt;Serving&lt;/i&gt;</bdi>"


def _html(response) -> str:
    html = response.content.decode()
    assert "<script>x</script>" not in html and "<i>Serving</i>" not in html
    return html


@pytest.fixture
def cohort(instructor):
    return services.cohort_create(name=NAME, instructor=instructor)


def test_a_name_taken_already_is_isolated_in_the_form_error(client, instructor, cohort):
    client.force_login(instructor)
    response = client.post(reverse("cohorts:create"), {"name": NAME, "instructors": ""}, follow=True)
    assert response.status_code == 422
    assert f"You already have a cohort named “{SHOWN}”. Choose another name." in _html(response)


def test_a_co_instructor_holding_the_name_is_refused_with_it_isolated(client, instructor):
    services.cohort_create(name=NAME, instructor=make_instructor("dave"))
    client.force_login(instructor)
    response = client.post(reverse("cohorts:create"), {"name": NAME, "instructors": "dave"})
    dave = "<bdi>dave</bdi>"
    said = f"{dave} already teaches a cohort named “{SHOWN}”: choose another name, or leave {dave} out."
    assert said in _html(response)


def test_names_of_no_instructor_are_isolated_in_the_form_error(client, instructor):
    """An instructor's typo, a name in another script, is told back as typed, without reordering the sentence."""
    make_user("alice")
    client.force_login(instructor)
    data = {"name": "Spring", "instructors": f"alice, {RLO}ghost"}
    response = client.post(reverse("cohorts:create"), data)
    assert response.status_code == 422
    html = _html(response)
    assert f"No active account is called <bdi>{RLO}ghost</bdi>." in html
    assert "<bdi>alice</bdi> cannot teach: only instructors can." in html


def test_handing_the_cohort_over_says_so_with_the_name_isolated(client, instructor):
    make_instructor("dave")
    cohort = services.cohort_create(name=NAME, instructor=instructor, instructor_usernames=["dave"])
    dave = cohort.instructors.get(username="dave")
    client.force_login(instructor)
    response = client.post(reverse("cohorts:owner", args=[cohort.pk]), {"owner": dave.pk}, follow=True)
    assert f"<bdi>dave</bdi> now owns {SHOWN}." in _html(response)
    # Only its owner may hand it over: carol is told who that is now.
    response = client.post(reverse("cohorts:owner", args=[cohort.pk]), {"owner": instructor.pk})
    assert f"Only <bdi>dave</bdi>, who owns {SHOWN}, can hand it over." in _html(response)


def test_a_student_made_an_instructor_is_refused_with_the_name_isolated(client, instructor, cohort):
    services.cohort_join(student=make_user("ann"), code=cohort.join_code)
    cohort.memberships.get().student.groups.add(*make_instructor("erin").groups.all())
    client.force_login(instructor)
    response = client.post(reverse("cohorts:manage", args=[cohort.pk]), {"name": "Other", "instructors": "ann"})
    assert response.status_code == 422
    assert f"<bdi>ann</bdi> is a student of {SHOWN}: remove them" in _html(response)


def test_joining_says_which_cohort_with_its_name_isolated(client, student, cohort):
    client.force_login(student)
    response = client.post(reverse("cohorts:join"), {"code": cohort.join_code}, follow=True)
    assert f"You joined {SHOWN}." in _html(response)
    response = client.post(reverse("cohorts:join"), {"code": cohort.join_code}, follow=True)
    assert f"You’re already in {SHOWN}." in _html(response)


def test_an_instructor_joining_their_own_cohort_is_refused_with_its_name_isolated(instructor, cohort):
    with pytest.raises(services.CohortError) as refused:
        services.cohort_join(student=instructor, code=cohort.join_code)
    assert str(refused.value) == f"You teach {SHOWN}; instructors do not join as students."


def test_assigning_and_unassigning_a_deck_isolate_its_title(client, instructor, cohort):
    deck = make_deck(title=TITLE, published=True)
    client.force_login(instructor)
    response = client.post(reverse("cohorts:assignment_add", args=[cohort.pk]), {"deck": deck.pk}, follow=True)
    assert f"{TITLE_SHOWN} is assigned, with no due date." in _html(response)
    url = reverse("cohorts:assignment_remove", args=[cohort.pk, deck.pk])
    response = client.post(url, follow=True)
    assert f"{TITLE_SHOWN} is no longer assigned to {SHOWN}" in _html(response)
    response = client.post(url, follow=True)
    assert f"{TITLE_SHOWN} was not assigned to {SHOWN}; nothing changed." in _html(response)


def test_a_draft_is_named_isolated_in_the_decks_help(client, instructor, cohort):
    make_deck(title=TITLE, published=False)
    client.force_login(instructor)
    assert f"Drafts ({TITLE_SHOWN}) are not listed" in _html(client.get(reverse("cohorts:manage", args=[cohort.pk])))


@pytest.fixture
def extended(instructor, student, cohort):
    deck = make_deck(title=TITLE, published=True)
    make_card(deck=deck)
    deadlines.assignment_set(cohort=cohort, deck=deck, due_date=timezone.localdate())
    services.cohort_join(student=student, code=cohort.join_code)
    return deck


def test_extension_messages_isolate_the_title_and_the_cohorts_name(client, instructor, student, cohort, extended):
    later = (timezone.localdate() + timedelta(days=3)).isoformat()
    client.force_login(instructor)
    one = reverse("cohorts:extension", args=[cohort.pk, student.pk, extended.pk])
    assert f"for {TITLE_SHOWN}." in _html(client.post(one, {"due_date": later}, follow=True))
    page = reverse("cohorts:assignment_extensions", args=[cohort.pk, extended.pk])
    remove = reverse("cohorts:assignment_extension_remove", args=[cohort.pk, extended.pk, student.pk])
    assert f"alice is back on the cohort's deadline for {TITLE_SHOWN}." in _html(client.post(remove, follow=True))
    services.cohort_remove_student(cohort=cohort, student_id=student.pk)
    gone = _html(client.post(remove, follow=True))
    assert f"alice is no longer a student of {SHOWN}; nothing changed." in gone
    # Offered on a stale page: the grant form refuses her, naming the cohort.
    refused = _html(client.post(page, {"students": [student.pk], "due_date": later}))
    assert f"not (or no longer) a student of {SHOWN}." in refused


def test_a_refusal_from_the_service_keeps_the_name_isolated(client, instructor, student, cohort, extended):
    client.force_login(instructor)
    deadlines.assignment_set(cohort=cohort, deck=extended, due_date=None)
    with pytest.raises(services.CohortError) as refused:
        deadlines.extension_grant(
            cohort=cohort, deck_id=extended.pk, student_id=student.pk,
            due_date=timezone.localdate() + timedelta(days=3), granted_by=instructor,
        )  # fmt: skip
    assert str(refused.value) == f"{TITLE_SHOWN} has no due date in {SHOWN}: there is no deadline to extend."


def test_a_refusal_said_above_the_list_keeps_the_name_isolated(client, instructor, student, cohort, extended):
    later = timezone.localdate() + timedelta(days=3)
    deadlines.extension_grant(
        cohort=cohort, deck_id=extended.pk, student_id=student.pk, due_date=later, granted_by=instructor
    )
    services.cohort_remove_student(cohort=cohort, student_id=student.pk)
    client.force_login(instructor)
    change = reverse("cohorts:assignment_extension_change", args=[cohort.pk, extended.pk, student.pk])
    response = client.post(change, {"due_date": (later + timedelta(days=1)).isoformat()})
    assert response.status_code == 422
    assert f"alice: Only students of {SHOWN} can have an extension." in _html(response)


def test_the_invite_and_leave_pages_isolate_the_name_in_their_sentences(client, student, cohort):
    client.force_login(student)
    invite = _html(client.get(reverse("cohorts:invite", args=[cohort.join_code])))
    assert f"<h1>Join {SHOWN}</h1>" in invite and f"You were invited to join <strong>{SHOWN}</strong>." in invite
    services.cohort_join(student=student, code=cohort.join_code)
    assert f"<h1>You’re already in {SHOWN}</h1>" in _html(
        client.get(reverse("cohorts:invite", args=[cohort.join_code]))
    )
    assert f"<h1>Leave {SHOWN}?</h1>" in _html(client.get(reverse("cohorts:leave", args=[cohort.pk])))


def test_the_manage_page_and_removing_a_student_isolate_the_names(client, instructor, cohort):
    student = make_user("דנה")  # a Hebrew user name, right to left
    services.cohort_join(student=student, code=cohort.join_code)
    client.force_login(instructor)
    manage = _html(client.get(reverse("cohorts:manage", args=[cohort.pk])))
    assert f"<h1>Manage {SHOWN}</h1>" in manage
    assert f"<p><bdi>דנה</bdi> leaves {SHOWN}: they are taken off its dashboard" in manage
    assert "Remove <bdi>דנה</bdi></button>" in manage
    response = client.post(reverse("cohorts:student_remove", args=[cohort.pk, student.pk]), follow=True)
    assert "<bdi>דנה</bdi> was removed. Their answers are kept." in _html(response)


def test_the_extension_pages_isolate_the_decks_title(client, instructor, student, cohort, extended):
    client.force_login(instructor)
    one = _html(client.get(reverse("cohorts:extension", args=[cohort.pk, student.pk, extended.pk])))
    assert f'<p class="lede">{TITLE_SHOWN} in {SHOWN}: due' in one
    page = _html(client.get(reverse("cohorts:assignment_extensions", args=[cohort.pk, extended.pk])))
    assert f"No student has an extension on {TITLE_SHOWN}: everyone is due" in page
    assert f"<p>{TITLE_SHOWN} leaves the dashboard" in _html(client.get(reverse("cohorts:manage", args=[cohort.pk])))


def test_user_names_are_isolated_where_a_sentence_goes_on_around_them(client, instructor, cohort, extended):
    """A right-to-left user name reorders the words after it: "Extension for דנה", "owned by רות"."""
    dana = make_user("דנה")
    services.cohort_join(student=dana, code=cohort.join_code)
    ruth = make_instructor("רות")
    theirs = services.cohort_create(name="Autumn", instructor=ruth, instructor_usernames=[instructor.username])
    client.force_login(instructor)
    extension = _html(client.get(reverse("cohorts:extension", args=[cohort.pk, dana.pk, extended.pk])))
    assert "<h1>Extension for <bdi>דנה</bdi></h1>" in extension
    assert "<p><bdi>דנה</bdi> sees the later date" in extension
    manage = _html(client.get(reverse("cohorts:manage", args=[theirs.pk])))
    assert "Owner: <strong><bdi>רות</bdi></strong>, who stays one of its instructors." in manage
    assert "owned by <bdi>רות</bdi>" in _html(client.get(reverse("cohorts:list")))


@pytest.mark.parametrize("page", ["cohorts:dashboard", "cohorts:manage"])
def test_the_name_is_isolated_in_the_breadcrumb_and_headings(client, instructor, cohort, page):
    """In the breadcrumb an override pushed the separators after the name out of place ("Cohorts / / …gnirpS")."""
    client.force_login(instructor)
    html = _html(client.get(reverse(page, args=[cohort.pk])))
    assert f'<a href="{reverse("cohorts:dashboard", args=[cohort.pk])}">{SHOWN}</a>' in html or (
        f'<li aria-current="page">{SHOWN}</li>' in html and f"<h1>{SHOWN}</h1>" in html
    )
    assert f"{RLO}&lt;script" not in _body(html).replace(SHOWN, "")


def _body(html: str) -> str:
    """The page's text, less its <title> and attribute values (a field's), where no markup can isolate a name."""
    return re.sub(r'="[^"]*"', "", re.sub(r"<title>.*?</title>", "", html, flags=re.DOTALL))


def test_the_list_of_cohorts_isolates_each_name(client, instructor, cohort):
    client.force_login(instructor)
    html = _html(client.get(reverse("cohorts:list")))
    assert f'">{SHOWN}</a></h3>' in html and f"{RLO}&lt;script" not in _body(html).replace(SHOWN, "")
