"""The 400 and 405 answers are the site's pages saying what happened, not Django's bare or blank ones."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse, reverse_lazy


def test_opening_the_sign_out_address_as_a_link_explains_itself(student_client, caplog):
    # Signing out takes a POST: a typed or bookmarked /accounts/logout/ was a blank white page.
    with caplog.at_level(logging.INFO):
        response = student_client.get(reverse("logout"))
    assert response.status_code == 405
    assert "POST" in response["Allow"]
    page = response.content.decode()
    assert "This address takes a form, not a visit" in page
    assert "Nothing was changed" in page
    assert 'use "Sign out" at the top of any page' in page
    assert "Sign out</button>" in page  # the site's header, with its sign-out form
    assert response.wsgi_request.user.is_authenticated
    assert len([r for r in caplog.records if r.name == "django.request"]) == 1


def test_a_form_sent_to_a_page_that_takes_none_is_refused_with_a_page(student_client, caplog):
    with caplog.at_level(logging.INFO):
        response = student_client.post(reverse("quiz:progress"))
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert "This page does not take that request" in response.content.decode()
    assert len([r for r in caplog.records if r.name == "django.request"]) == 1


def test_head_on_a_form_only_address_has_no_body(student_client):
    response = student_client.head(reverse("logout"))
    assert response.status_code == 405 and response.content == b""


def test_a_request_for_an_unknown_host_gets_the_sites_400_page(client):
    response = client.get("/", HTTP_HOST="scanner.example")
    assert response.status_code == 400
    page = response.content.decode()
    assert page.startswith("<!doctype html>")
    assert "This request could not be understood" in page
    assert 'href="/static/css/app.css"' in page


def test_a_form_with_too_many_fields_gets_the_sites_400_page(student_client):
    fields = "&".join(f"f{number}=1" for number in range(2000))
    response = student_client.post(reverse("quiz:review"), fields, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert "nothing was saved" in response.content.decode()


def test_a_server_error_is_the_sites_page_and_one_log_line(client, monkeypatch, caplog):
    from apps.content import selectors

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(selectors, "deck_list", broken)
    client.raise_request_exception = False
    with caplog.at_level(logging.INFO):
        response = client.get(reverse("content:home"))
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
    (record,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert record.name == "django.request" and record.exc_info is not None


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
@pytest.mark.parametrize(
    "url",
    [
        reverse_lazy("login"),
        reverse_lazy("password_reset"),
        reverse_lazy("password_change"),
        reverse_lazy("password_reset_confirm", args=["MQ", "set-password"]),
        reverse_lazy("password_reset_confirm", args=["MQ", "not-a-token"]),
    ],
)
def test_the_account_forms_refuse_other_methods_as_every_form_does(student_client, method, url):
    # Django's form views took a PUT as a POST (a 422 with the form) and its reset link answered anything with its
    # page (200); the site's own forms answer 405 to what is neither a page, a HEAD nor a form.
    response = getattr(student_client, method)(str(url))
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD, POST"
