"""The Nu Html Checker (vnu) finds no error in the HTML the server sends for any main page or form error state."""

from __future__ import annotations

import json
import re
import subprocess

from django.test import Client
from django.utils.text import slugify

from tests.a11y.conftest import FLASHCARDS, limits_used_up
from tests.conftest import PASSWORD


def _client(site, user: str | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(site.users[user])
    return client


def _quiz_start_with_errors(client: Client) -> bytes:
    """The quiz start form sent back with an error on each field: every error is tied to its field."""
    response = client.post(f"/decks/{FLASHCARDS}/quiz/", {"size": "0", "mode": "bogus", "order": "bogus"})
    assert response.status_code == 422
    html = response.content.decode()
    for field in ("size", "mode", "order"):
        error = re.search(rf'<ul class="errorlist" id="(id_{field}_error)">', html)
        assert error, f"no error shown for {field}"
        # The input (for radios, each one) is invalid, and its description (the fieldset's) names the error.
        inputs = re.findall(rf'<input[^>]* name="{field}"[^>]*>', html)
        assert inputs and all('aria-invalid="true"' in tag for tag in inputs), field
        described = re.findall(r'aria-describedby="([^"]*)"', html)
        assert any(error.group(1) in ids.split() for ids in described), field
    assert re.search(r'<fieldset class="choices field-invalid" aria-describedby="id_mode_error">\s*<legend>', html)
    return response.content


def test_every_page_is_valid_html(vnu, site, tmp_path, settings):
    clients: dict[str | None, Client] = {}
    documents: dict[str, bytes] = {}
    for spec in site.pages:
        client = clients.setdefault(spec.user, _client(site, spec.user))
        if spec.before:
            spec.before()
        response = client.get(spec.path)
        assert response.status_code == spec.status, f"{spec.name}: {spec.path} answered {response.status_code}"
        # The raw bytes as served, not the DOM a browser rebuilds from them: vnu must see our mistakes.
        documents[spec.name] = response.content

    visitor, alice = clients[None], clients["alice"]
    documents["sign up with errors"] = visitor.post(
        "/accounts/signup/",
        {"username": "dora", "email": "dora@example.com", "password1": "short", "password2": "different"},
    ).content
    documents["sign in with errors"] = visitor.post(
        "/accounts/login/", {"username": "alice", "password": PASSWORD + "-wrong", "next": "/progress/"}
    ).content
    for name in ("sign up with errors", "sign in with errors"):
        assert b"form-errors" in documents[name], f"{name}: the form shows no error"
    page = alice.get(site.choice_quiz).content.decode()
    token = re.search(r'name="token" value="([^"]+)"', page).group(1)
    refused = alice.post(f"{site.choice_quiz}q/1/", {"token": token})
    assert refused.status_code == 303, "a question sent without an option should come back through a redirect"
    response = alice.get(refused["Location"])
    assert b'id="option-error"' in response.content, "a question sent back without an option should be an error"
    documents["quiz question with an error"] = response.content
    asked = alice.get(alice.post(f"{site.choice_quiz}q/1/", {"token": token, "option": "1", "reveal": "1"})["Location"])
    assert b'id="reveal-ask"' in asked.content, "Show answer with an option chosen should ask first"
    documents["quiz question asking before showing the answer"] = asked.content
    documents["quiz start with errors"] = _quiz_start_with_errors(alice)
    forbidden = alice.get("/cohorts/new/")
    assert forbidden.status_code == 403
    documents["forbidden"] = forbidden.content
    stale = Client(enforce_csrf_checks=True)
    stale.force_login(site.users["alice"])
    expired = stale.post(f"{site.choice_quiz}q/1/", {"token": token, "csrfmiddlewaretoken": "x" * 32})
    assert expired.status_code == 403 and b"This page had expired" in expired.content
    documents["expired form"] = expired.content
    sign_out_link = alice.get("/accounts/logout/")
    assert sign_out_link.status_code == 405
    documents["form-only address opened as a link"] = sign_out_link.content
    for _ in range(settings.AXES_FAILURE_LIMIT):
        locked = visitor.post("/accounts/login/", {"username": "bob", "password": PASSWORD + "-wrong"})
    assert locked.status_code == 429 and b"Too many sign-in attempts" in locked.content
    documents["sign-in lockout"] = locked.content
    limits_used_up(settings)
    paused = visitor.post("/accounts/signup/", {"username": "dora", "email": "dora@example.com"})
    assert paused.status_code == 429 and b"Too many sign-ups" in paused.content
    documents["sign-ups paused"] = paused.content
    paused = visitor.post("/accounts/password_reset/", {"email": "alice@example.com"})
    assert paused.status_code == 429 and b"Too many reset requests" in paused.content
    documents["reset links paused"] = paused.content
    bad_host = visitor.get("/", HTTP_HOST="scanner.example")
    assert bad_host.status_code == 400
    documents["bad request"] = bad_host.content

    files = {}
    for name, content in documents.items():
        path = tmp_path / f"{slugify(name)}.html"
        path.write_bytes(content)
        files[path.name] = name

    # One JVM for every document: starting Java is most of vnu's time.
    result = subprocess.run(  # noqa: S603 - a fixed command on files this test wrote
        [*vnu, "--format", "json", "--exit-zero-always", "--stdout", *map(str, tmp_path.glob("*"))],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    messages = json.loads(result.stdout)["messages"]
    errors = [m for m in messages if m.get("type") in {"error", "non-document-error"}]
    lines = []
    for m in errors:
        document = files.get(m.get("url", "").rsplit("/", 1)[-1], m.get("url"))
        extract = (m.get("extract") or "").strip().replace("\n", "\n    ")
        lines.append(f"[{document}] line {m.get('lastLine', '?')}: {m.get('message')}\n    {extract}")
    assert not errors, f"vnu found {len(errors)} error(s) in {len(files)} documents:\n" + "\n".join(lines)
