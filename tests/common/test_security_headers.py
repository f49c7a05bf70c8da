"""The headers a browser gets: a strict CSP without unsafe-inline, clickjacking and sniffing protection."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from tests.factories import make_card
from tests.manage import PRODUCTION, database_url, manage

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
    policy = dict(part.split("=") for part in response["Permissions-Policy"].split(", "))
    assert policy["camera"] == policy["microphone"] == policy["geolocation"] == "()"


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


SERVED = """
import json
from django.test import Client
client = Client(HTTP_HOST="quiz.example.edu")
plain = client.get("/accounts/login/")
tls = client.get("/accounts/login/", headers={"X-Forwarded-Proto": "https", "X-Request-ID": "req-abc"})
client.get("/no-such-page/", headers={"X-Forwarded-Proto": "https", "X-Request-ID": "req-404"})
from django.contrib.auth import get_user_model
get_user_model().objects.create_user("hsts", password="served-over-tls-2026")
signed_in = client.post(
    "/accounts/login/", {"username": "hsts", "password": "served-over-tls-2026"}, headers={"X-Forwarded-Proto": "https"}
)
print(json.dumps({
    "plain": [plain.status_code, plain.get("Location")],
    "tls": [tls.status_code, tls.get("Strict-Transport-Security")],
    "cookies": {
        name: [bool(c["secure"]), bool(c["httponly"])] for name, c in [*tls.cookies.items(), *signed_in.cookies.items()]
    },
}))
"""


@pytest.mark.django_db(transaction=True)
def test_production_behind_the_tls_proxy_sends_hsts_secure_cookies_and_json_logs(tmp_path):
    environment = {**PRODUCTION, "DATABASE_URL": database_url(), "STATIC_ROOT": str(tmp_path)}
    collected = manage("collectstatic", "--noinput", "--verbosity=0", **environment)
    assert collected.returncode == 0, collected.stderr
    result = manage("shell", "-c", SERVED, **environment)
    assert result.returncode == 0, result.stderr
    served = json.loads(result.stdout.strip().splitlines()[-1])
    assert served["plain"] == [301, "https://quiz.example.edu/accounts/login/"]
    assert served["tls"] == [200, "max-age=31536000; includeSubDomains; preload"]
    assert served["cookies"]["csrftoken"][0] is True  # secure (JavaScript reads it for HTMX: not HttpOnly)
    assert served["cookies"]["sessionid"] == [True, True]  # secure and HttpOnly
    logged = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    not_found = [line for line in logged if line.get("status_code") == 404]
    assert [line["request_id"] for line in not_found] == ["req-404"]


@pytest.mark.parametrize("name", ["home", "deck", "progress"])
def test_a_signed_in_page_is_kept_by_no_cache_and_an_anonymous_one_may_be(client, student, name):
    """Back showed the home page from the browser's cache: an unfinished quiz "0 of 7 questions answered", though
    answered and ended since. A signed-in page is fetched again instead, and no shared cache keeps it."""
    card = make_card()
    url = {"home": "/", "deck": card.deck.get_absolute_url(), "progress": reverse("quiz:progress")}[name]
    client.force_login(student)
    control = {part.strip() for part in client.get(url)["Cache-Control"].split(",")}
    assert {"no-store", "private"} <= control
    client.logout()
    if name != "progress":  # a sign-in redirect for a stranger
        assert "no-store" not in client.get(url).get("Cache-Control", "")


def test_the_stylesheet_revalidated_by_a_signed_in_reader_is_not_made_private(client, student):
    """The 304 carries no Cache-Control of its own: it was marked no-store (browsers then drop their copy), and the
    reader was looked up in the database for it."""
    make_card(answer="$\\frac{a}{b}$")
    client.force_login(student)
    first = client.get(reverse("content:styles"))
    assert first["Cache-Control"] == "public, max-age=0, must-revalidate"
    again = client.get(reverse("content:styles"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert "no-store" not in again.get("Cache-Control", "")
