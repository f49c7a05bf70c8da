"""Operations: JSON logs with a request id, /healthz's static check, a friendly 503 when the database is gone, HEAD
without a body, and a request for an unknown host logged as one line."""

from __future__ import annotations

import json
import logging
import re
import threading
from contextlib import contextmanager
from datetime import datetime, timedelta

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from django.db import OperationalError, connection, transaction
from django.http import FileResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from apps.common.db import name_lock
from apps.common.logs import RequestIdFilter
from apps.common.middleware import DatabaseUnavailableMiddleware, HeadWithoutBodyMiddleware
from apps.quiz import services
from apps.quiz.forms import question_token
from apps.quiz.models import Answer
from tests.conftest import PASSWORD
from tests.factories import make_card, make_deck
from tests.locks import holding, lock_waiters, wait_until


@pytest.mark.django_db
def test_every_response_carries_a_request_id_and_reuses_a_sane_incoming_one(client):
    generated = client.get("/")["X-Request-ID"]
    assert len(generated) == 32
    assert client.get("/", HTTP_X_REQUEST_ID="lb-1234.abc")["X-Request-ID"] == "lb-1234.abc"
    assert client.get("/", HTTP_X_REQUEST_ID="bad id\nwith newline")["X-Request-ID"] != "bad id\nwith newline"


def test_log_lines_are_json_with_the_request_id():
    from django.conf import settings
    from django.utils.log import configure_logging

    configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)
    handler = logging.getLogger().handlers[0]
    record = logging.LogRecord("mlcourse.test", logging.WARNING, __file__, 1, "hello %s", ("world",), None)
    RequestIdFilter().filter(record)
    line = json.loads(handler.formatter.format(record))
    assert line["message"] == "hello world" and line["level"] == "WARNING"
    assert line["logger"] == "mlcourse.test" and line["request_id"] == "-"
    # ISO 8601 with its zone, as log shippers read it (it was "2026-12-04 16:17:41,535", zone unsaid)
    assert datetime.fromisoformat(line["time"]).utcoffset() == timedelta(0)


@pytest.mark.django_db
def test_healthz_reports_a_missing_static_manifest(client, settings, tmp_path, caplog):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    with caplog.at_level(logging.INFO):
        response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["static"] == "missing manifest"
    # The operator's one line says what to run, not only that something is missing.
    (line,) = [r.getMessage() for r in caplog.records if r.name == "mlcourse.requests"]
    assert line.startswith("healthz: the static files manifest names no css/app.css (") and "\n" not in line
    assert line.endswith(f" in {tmp_path}; run manage.py collectstatic")
    caplog.clear()
    call_command("collectstatic", "--noinput", verbosity=0)
    assert client.get("/healthz").json() == {
        "status": "ok",
        "database": "ok",
        "migrations": "ok",
        "cache": "ok",
        "static": "ok",
    }


@pytest.mark.django_db(transaction=True)
def test_losing_the_database_gives_try_again_and_keeps_the_typed_answer(client, student, htmx, caplog):
    deck = make_deck()
    for i in range(3):
        make_card(deck=deck, answer=f"Answer {i}")
    session = services.session_start(user=student, deck=deck, size=3, mode="recall", order="new")
    client.force_login(student)
    item = session.items.get(position=1)
    url = reverse("quiz:item", args=[session.pk, 1])
    data = {"token": question_token(item), "response": "My carefully typed answer"}

    original = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT="1", OPTIONS={"connect_timeout": 2})
    try:
        page = client.post(url, data)
        partial = client.post(url, data, **htmx)
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(original)

    html = page.content.decode()
    assert page.status_code == 503 and page["Retry-After"] == "5"
    assert "Please try again in a moment" in html
    assert "My carefully typed answer</textarea>" in html
    assert f'action="{url}"' in html and 'name="token"' in html
    assert partial.status_code == 503 and partial["HX-Retarget"] == "body"
    assert Answer.objects.count() == 0
    # The operator's line names the service, not the page's words ("its database unavailable").
    assert "database unavailable: connection failed" in caplog.text and "its database" not in caplog.text

    # The database is back: the kept form goes through as it is.
    assert client.post(url, data).status_code == 303
    assert Answer.objects.get().response == "My carefully typed answer"


@pytest.mark.django_db(transaction=True)
def test_a_save_that_meets_another_at_the_same_moment_says_so_not_that_the_database_is_away(caplog):
    """A deadlock or a lock waited for too long is another save in the way: it was "cannot reach its database",
    whose "Send it again" then added an admin's card a second time."""
    with holding(lambda: name_lock("busy")), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '50ms'")
        with pytest.raises(OperationalError) as raised:
            name_lock("busy")
    request = RequestFactory().post("/admin/content/card/add/", {"question": "What is KV caching?"})
    page = DatabaseUnavailableMiddleware(lambda request: None).process_exception(request, raised.value)
    html = page.content.decode()
    assert page.status_code == 409 and not page.has_header("Retry-After")
    assert "Another change was being saved at the same moment as yours, and yours was not saved" in html
    assert "cannot reach" not in html
    assert 'value="What is KV caching?"' in html  # still offered to send again, once checked
    assert "database conflict: canceling statement due to lock timeout" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_real_deadlock_is_said_to_be_another_save_in_the_way():
    """psycopg's DeadlockDetected is no TransactionRollback: a deadlock was still "cannot reach its database"."""
    errors, ready, go = [], threading.Event(), threading.Event()

    def other():
        try:
            with transaction.atomic():
                name_lock("b")
                ready.set()
                go.wait(5)
                name_lock("a")
        except OperationalError as exc:
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=other)
    thread.start()
    try:
        with transaction.atomic():
            name_lock("a")
            ready.wait(5)
            go.set()
            wait_until(lambda: lock_waiters() >= 1, what="the other connection waiting")
            name_lock("b")
    except OperationalError as exc:
        errors.append(exc)
    thread.join(10)
    (deadlock,) = errors  # PostgreSQL ends one of the two
    request = RequestFactory().post("/admin/content/card/add/", {"question": "What is KV caching?"})
    page = DatabaseUnavailableMiddleware(lambda request: None).process_exception(request, deadlock)
    assert page.status_code == 409 and "Another change was being saved" in page.content.decode()


@contextmanager
def _database_down():
    """Points the connection at a closed port, as the outage test above does, and back afterwards."""
    original = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT="1", OPTIONS={"connect_timeout": 2})
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(original)


def _hidden_fields(html: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)">', html))


@pytest.mark.django_db(transaction=True)
def test_the_try_again_page_never_writes_a_password_into_the_page(student):
    """A sign-in sent during an outage comes back without its password; resent, it asks for the password again."""
    client = Client(enforce_csrf_checks=True)
    login = client.get(reverse("login"))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login.content.decode()).group(1)
    with _database_down():
        page = client.post(reverse("login"), {"csrfmiddlewaretoken": token, "username": "alice", "password": PASSWORD})
    html = page.content.decode()
    assert page.status_code == 503
    assert PASSWORD not in html and 'name="password"' not in html
    assert "your password is not kept" in html
    kept = _hidden_fields(html)
    assert kept == {"csrfmiddlewaretoken": token, "username": "alice"}

    # The database is back: the kept form passes the CSRF check and shows the sign-in form again.
    again = client.post(reverse("login"), kept)
    assert again.status_code == 422 and "This field is required" in again.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db(transaction=True)
def test_the_try_again_page_leaves_out_every_password_field_and_keeps_the_rest(client):
    data = {
        "username": "dana",
        "email": "dana@example.com",
        "password1": "first-secret-phrase",
        "password2": "second-secret-phrase",
        "new_PASSWORD": "third-secret-phrase",
    }
    with _database_down():
        page = client.post(reverse("signup"), data)
    html = page.content.decode()
    assert page.status_code == 503 and "secret-phrase" not in html
    assert _hidden_fields(html) == {"username": "dana", "email": "dana@example.com"}


@pytest.mark.django_db
def test_pages_answer_head_as_uptime_monitors_ask(student_client):
    deck = make_deck()
    for url in ("/healthz", "/", deck.get_absolute_url(), reverse("login"), reverse("signup")):
        response = Client().head(url)
        assert response.status_code == 200, (url, response.status_code)
    assert student_client.head(reverse("quiz:progress")).status_code == 200


def _wsgi(method: str, path: str) -> tuple[str, dict[str, str], bytes]:
    """The response as a WSGI server gets it: the test client drops a HEAD response's body itself."""
    started = {}

    def start_response(status, headers, exc_info=None):
        started.update(status=status, headers=dict(headers))

    result = WSGIHandler()(RequestFactory().generic(method, path).environ, start_response)
    try:
        body = b"".join(result)
    finally:
        result.close()
    return started["status"], started["headers"], body


@pytest.mark.django_db
def test_head_gets_the_status_and_headers_of_get_and_no_body():
    # gunicorn dropped the body Django sent for HEAD, and logged a warning for every uptime probe.
    deck = make_deck()
    make_card(deck=deck)
    urls = ["/healthz", "/", deck.get_absolute_url(), reverse("login"), "/static/favicon.svg", "/no-such-page/"]
    for url in urls:
        get_status, get_headers, get_body = _wsgi("GET", url)
        head_status, head_headers, head_body = _wsgi("HEAD", url)
        assert head_body == b"", url
        assert head_status == get_status, url
        assert head_headers.keys() == get_headers.keys(), url
        assert head_headers["Content-Type"] == get_headers["Content-Type"], url
        assert head_headers["Content-Length"] == get_headers["Content-Length"] == str(len(get_body)), url


@pytest.mark.django_db  # closing a response sends request_finished, which looks at the connection
def test_head_does_not_stream_a_file_and_still_closes_it(tmp_path):
    path = tmp_path / "export.csv"
    path.write_bytes(b"a,b\n" * 1000)
    handle = path.open("rb")
    response = HeadWithoutBodyMiddleware(lambda request: FileResponse(handle))(RequestFactory().head("/"))
    assert response["Content-Length"] == "4000"
    assert response.file_to_stream is None and b"".join(response.streaming_content) == b""
    response.close()
    assert handle.closed


@pytest.mark.django_db
def test_a_request_for_an_unknown_host_is_one_warning_line(client, caplog):
    # Scanners send these all day; Django logged each at ERROR with a traceback.
    with caplog.at_level(logging.INFO):
        response = client.get("/", HTTP_HOST="scanner.example")
    assert response.status_code == 400
    (record,) = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "scanner.example" in record.getMessage()


def test_a_refused_page_is_one_log_line_without_a_traceback(client, student, caplog):
    client.force_login(student)
    with caplog.at_level(logging.INFO):
        response = client.get(reverse("cohorts:create"))
    assert response.status_code == 403
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "/cohorts/new/" in record.getMessage()
    # Django's default config gave "django" a console handler of its own: each line came out twice under DEBUG.
    assert logging.getLogger("django").handlers == []


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "head"])
def test_healthz_answers_a_probe_that_names_the_server_by_its_address(client, method, caplog):
    # Load balancers probe each server at its own address, not a host name in ALLOWED_HOSTS: that was a 400,
    # and every server looked down.
    with caplog.at_level(logging.INFO):
        response = getattr(client, method)("/healthz", HTTP_HOST="10.0.3.17:8000")
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"]
    if method == "get":
        assert response.json() == {"status": "ok", "database": "ok", "migrations": "ok", "cache": "ok", "static": "ok"}
    assert not [r for r in caplog.records if r.name.startswith("django.security")]


def test_any_other_page_still_refuses_an_unknown_host(client):
    assert client.get("/healthz/", HTTP_HOST="10.0.3.17:8000").status_code == 400
    assert client.post("/healthz", HTTP_HOST="10.0.3.17:8000").status_code == 400
