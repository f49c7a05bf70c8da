"""403s a person can read: a page in the site's layout, a stale form explained, and under HTMX a message."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from apps.quiz import services
from apps.quiz.forms import question_token
from apps.quiz.models import Answer
from tests.conftest import make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db


def test_a_student_opening_an_instructor_page_gets_the_sites_403_page(student_client):
    response = student_client.get(reverse("cohorts:create"), HTTP_REFERER="http://testserver/cohorts/")
    html = response.content.decode()
    assert response.status_code == 403
    assert html.count('class="site-header"') == 1 and "You cannot open this page" in html
    assert "Your account (alice) does not have access to it" in html
    assert '<a class="button" href="http://testserver/cohorts/">Go back</a>' in html
    assert f'href="{reverse("content:home")}">Back to the decks</a>' in html


def test_an_instructor_refused_an_admin_page_is_not_told_to_ask_their_instructor(client, instructor):
    """Instructors are staff, and some admin pages (the accounts) are not theirs: whoever is refused, the page sends
    them to the site's administrator, and names no one and no permission."""
    client.force_login(instructor)
    response = client.get(reverse("admin:auth_user_changelist"))
    html = response.content.decode()
    assert response.status_code == 403 and "You cannot open this page" in html
    assert "ask your instructor" not in html
    assert "If you think you should have access, ask the administrator of this site." in html
    assert "auth" not in html.split("<main", 1)[1].split("</main>", 1)[0].lower()  # nothing about what was asked


@pytest.mark.parametrize("referer", ["https://evil.example/", "http://testserver/cohorts/new/", None], ids=str)
def test_the_403_page_links_back_only_to_another_page_of_this_site(student_client, referer):
    headers = {"HTTP_REFERER": referer} if referer else {}
    html = student_client.get(reverse("cohorts:create"), **headers).content.decode()
    assert "Go back" not in html and "evil.example" not in html
    assert '<a class="button" href="/">Back to the decks</a>' in html


def test_under_htmx_a_403_is_a_message_for_the_pages_message_area(student_client, htmx):
    response = student_client.get(reverse("cohorts:create"), **htmx)
    html = response.content.decode()
    assert response.status_code == 403
    assert "<html" not in html and 'role="alert"' in html and "You do not have access to that" in html
    assert '<p class="message message-error">' in html and "messagelist" not in html  # the site's styles
    assert response["HX-Retarget"] == "#messages"
    assert response["HX-Reswap"].startswith("innerHTML")


@pytest.mark.parametrize("current", ["http://[", "http://[::1"])
def test_a_malformed_current_url_header_still_gets_the_403_message(student_client, htmx, current):
    response = student_client.get(reverse("cohorts:create"), HTTP_HX_CURRENT_URL=current, **htmx)
    html = response.content.decode()
    assert response.status_code == 403
    assert "You do not have access to that" in html and "Go back" not in html


def test_every_page_has_the_message_area_a_403_is_swapped_into(student_client):
    assert student_client.get("/").content.decode().count('<div id="messages">') == 1


@pytest.fixture
def quiz(student):
    deck = make_deck()
    make_card(deck=deck, question="Which tool?", answer="Tool number 0")
    return services.session_start(user=student, deck=deck, size=1, mode="recall", order="new")


@pytest.fixture
def csrf_client(student):
    """A browser whose CSRF cookie changed since its page was loaded, as after signing in again in another tab."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(student)
    return client


def _stale_post(client, quiz, **headers):
    item = quiz.items.get()
    data = {"token": question_token(item), "response": "Tool number 0", "csrfmiddlewaretoken": "x" * 32}
    return client.post(reverse("quiz:item", args=[quiz.pk, 1]), data, **headers)


def test_a_stale_form_says_what_happened_and_links_back_to_its_page(csrf_client, quiz):
    page = f"http://testserver{quiz.get_absolute_url()}"
    response = _stale_post(csrf_client, quiz, HTTP_REFERER=page)
    html = response.content.decode()
    assert response.status_code == 403
    assert html.count('class="site-header"') == 1  # the site's layout, not Django's bare page
    assert "This page had expired" in html and "signed in or out in another tab" in html
    assert "Nothing was saved" in html and "CSRF verification failed" not in html
    assert f'<a class="button" href="{page}">Reload the page</a>' in html
    assert Answer.objects.count() == 0


def test_a_stale_form_from_another_site_gets_no_link_back_there(csrf_client, quiz):
    html = _stale_post(csrf_client, quiz, HTTP_REFERER="https://evil.example/quiz/1/").content.decode()
    assert "This page had expired" in html and "evil.example" not in html


def test_a_stale_form_shows_what_was_typed_to_copy_before_reloading(csrf_client, quiz):
    """Without JavaScript the words were lost: the reloaded page has an empty box."""
    html = _stale_post(csrf_client, quiz, HTTP_REFERER=f"http://testserver{quiz.get_absolute_url()}").content.decode()
    assert "What you typed is below" in html
    assert re.search(
        r'<label for="typed-1">Response</label>\s*<textarea id="typed-1" rows="4" readonly>Tool number 0<', html
    )


def test_a_stale_form_shows_no_password_nor_words_another_site_sent(csrf_client, quiz):
    url = reverse("quiz:item", args=[quiz.pk, 1])
    data = {"response": "Call 555 now", "new_password1": "my secret words", "csrfmiddlewaretoken": "x" * 32}
    own = csrf_client.post(url, data, HTTP_REFERER=f"http://testserver{url}").content.decode()
    assert "Call 555 now" in own and "my secret words" not in own
    other = csrf_client.post(url, data, HTTP_REFERER="https://evil.example/").content.decode()
    assert "Call 555 now" not in other and "What you typed" not in other


def test_a_stale_htmx_answer_is_a_message_with_a_reload_link(csrf_client, quiz, htmx):
    response = _stale_post(csrf_client, quiz, HTTP_HX_CURRENT_URL=f"http://testserver{quiz.get_absolute_url()}", **htmx)
    html = response.content.decode()
    assert response.status_code == 403
    assert response["HX-Retarget"] == "#messages"
    assert "<html" not in html and 'role="alert"' in html and "This page had expired" in html
    assert f'<a href="{quiz.get_absolute_url()}">Reload the page</a>' in html
    assert Answer.objects.count() == 0


def test_a_stale_htmx_answer_with_a_malformed_current_url_is_still_the_message(csrf_client, quiz, htmx):
    response = _stale_post(csrf_client, quiz, HTTP_HX_CURRENT_URL="http://[", **htmx)
    assert response.status_code == 403
    assert "This page had expired" in response.content.decode()
    assert Answer.objects.count() == 0


def test_a_valid_token_still_passes(csrf_client, quiz):
    """The failure page does not loosen the check: with the page's own token the answer is saved."""
    page = csrf_client.get(quiz.get_absolute_url())
    token = page.cookies["csrftoken"].value if "csrftoken" in page.cookies else csrf_client.cookies["csrftoken"].value
    item = quiz.items.get()
    response = csrf_client.post(
        reverse("quiz:item", args=[quiz.pk, 1]),
        {"token": question_token(item), "response": "Tool number 0", "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 303
    assert Answer.objects.count() == 1


# Admin pages load the admin's stylesheet, not the site's: a 403 swapped into their message area comes in the
# markup the admin gives its own error messages (ul.messagelist li.error), or it shows as unstyled text.
ADMIN_ERROR = '<div role="alert"><ul class="messagelist"><li class="error">{}</li></ul></div>'


def _admin_card_page(card) -> dict:
    return {"HTTP_HX_CURRENT_URL": f"http://testserver{reverse('admin:content_card_change', args=[card.pk])}"}


def test_under_htmx_an_admin_page_gets_the_403_in_the_admins_error_message_markup(client, htmx):
    """A staff member whose right to edit cards went while the card form was open: the live preview is refused."""
    card = make_card()
    viewer = make_user("vera", is_staff=True)
    viewer.user_permissions.set(Permission.objects.filter(codename="view_card"))
    client.force_login(viewer)
    page = client.get(reverse("admin:content_card_change", args=[card.pk]))
    assert page.status_code == 200 and page.content.decode().count('<div id="messages">') == 1
    response = client.post(reverse("admin:content_card_preview"), {"question": "x"}, **_admin_card_page(card), **htmx)
    assert response.status_code == 403
    assert response["HX-Retarget"] == "#messages" and response["HX-Reswap"].startswith("innerHTML")
    html = response.content.decode()
    assert html.strip() == ADMIN_ERROR.format("You do not have access to that. Nothing was changed.")
    assert "style" not in html  # the CSP (style-src 'self') would block an inline style


def test_a_stale_htmx_form_on_an_admin_page_gets_the_admins_error_message_markup(instructor, htmx):
    """The card form's grader box sent after signing in again in another tab."""
    card = make_card()
    client = Client(enforce_csrf_checks=True)
    client.force_login(instructor)
    url = reverse("admin:content_card_try_grader", args=[card.pk])
    response = client.post(url, {"response": "x", "csrfmiddlewaretoken": "x" * 32}, **_admin_card_page(card), **htmx)
    change = reverse("admin:content_card_change", args=[card.pk])
    assert response.status_code == 403 and response["HX-Retarget"] == "#messages"
    assert response.content.decode().strip() == ADMIN_ERROR.format(
        "This page had expired (you signed in or out in another tab). Nothing was saved. "
        f'<a href="{change}">Reload the page</a> and try again.'
    )


def test_a_form_sent_over_plain_http_to_a_site_with_secure_cookies_says_it_needs_https(settings, quiz, htmx):
    # The browser keeps no Secure cookie over HTTP, so every form failed, each time with "signed in or out in
    # another tab", which no reload could mend.
    settings.CSRF_COOKIE_SECURE = True
    settings.ALLOWED_HOSTS = ["quiz.example.edu", "testserver"]
    client = Client(enforce_csrf_checks=True)
    client.force_login(quiz.user)
    response = _stale_post(client, quiz, HTTP_HOST="quiz.example.edu")
    html = response.content.decode()
    assert response.status_code == 403
    assert "This site needs a secure connection" in html and "another tab" not in html
    assert f'href="https://quiz.example.edu{reverse("quiz:item", args=[quiz.pk, 1])}"' in html
    client.cookies.pop("csrftoken", None)  # as the browser did: it keeps no Secure cookie sent over HTTP
    partial = _stale_post(client, quiz, HTTP_HOST="quiz.example.edu", **htmx).content.decode()
    assert "can be sent only over HTTPS" in partial and "<html" not in partial
    assert "This page had expired" in _stale_post(client, quiz, secure=True).content.decode()
    assert Answer.objects.count() == 0
