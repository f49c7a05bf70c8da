"""The headers a browser gets: a strict CSP without unsafe-inline, clickjacking and sniffing protection."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import make_card

pytestmark = pytest.mark.django_db


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.parametrize("name", ["home", "deck", "login", "admin"])
def test_pages_carry_a_strict_content_security_policy(client, name):
    card = make_card(answer="$x^2$")
    url = {
        "home": "/",
        "deck": card.deck.get_absolute_url(),
        "login": reverse("login"),
        "admin": reverse("admin:login"),
    }[name]
    response = client.get(url)
    policy = _policy(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
    header = response["Content-Security-Policy"]
    assert "unsafe-inline" not in header and "unsafe-eval" not in header
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_pages_have_no_inline_styles_or_scripts_that_the_policy_would_block(client, student):
    card = make_card(answer="$q = \\text{round}\\left(\\frac{r}{s}\\right) + z$")
    client.force_login(student)
    for url in [
        "/",
        card.deck.get_absolute_url() + "?answers=shown",
        card.get_absolute_url(),
        reverse("quiz:progress"),
    ]:
        html = client.get(url).content.decode()
        assert not re.search(r"<[^>]+\sstyle=", html), url
        for script in re.findall(r"<script\b[^>]*>", html):
            assert " src=" in script, script  # no inline script bodies


def test_the_content_stylesheet_holds_the_rules_the_math_uses(client):
    card = make_card(answer="$\\frac{a}{b}$")
    names = set(re.findall(r'class="[^"]*\b(s[0-9a-f]{10})\b', card.answer_html))
    assert names
    response = client.get(reverse("content:styles"))
    assert response["Content-Type"].startswith("text/css")
    css = response.content.decode()
    for name in names:
        assert re.search(rf"\.{name}\{{[^}}]*!important", css)
    again = client.get(reverse("content:styles"), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
