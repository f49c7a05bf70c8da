"""The settings module fails loudly on bad environment values, and production settings pass `check --deploy`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings

from apps.common.env import parse_database_url
from tests.manage import GOOD_KEY, PRODUCTION
from tests.manage import manage as _manage


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "0"}, "SECRET_KEY must be set"),
        ({"DEBUG": "0", "SECRET_KEY": "short"}, "SECRET_KEY must be set"),
        ({"DEBUG": "0", "SECRET_KEY": GOOD_KEY}, "ALLOWED_HOSTS must list"),
        ({"DEBUG": "perhaps"}, "DEBUG='perhaps' is not a boolean"),
        # Never matched a request (Django compares the bare host): every page answered 400.
        (
            {"DEBUG": "0", "SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "https://quiz.example.edu"},
            "ALLOWED_HOSTS lists 'https://quiz.example.edu': give host names only",
        ),
        ({"DEBUG": "1", "ALLOWED_HOSTS": "quiz.example.edu:443"}, "ALLOWED_HOSTS lists 'quiz.example.edu:443'"),
        # Any Host accepted: a reset asked for with "Host: evil.example" mailed a link to that site.
        ({"DEBUG": "0", "SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "*"}, "ALLOWED_HOSTS may not be '*'"),
        ({"DEBUG": "1", "EMAIL_PORT": "99999"}, "EMAIL_PORT=99999 must be at most 65535"),
        ({"DEBUG": "1", "DATABASE_URL": "mysql://db/x"}, "DATABASE_URL must start with postgres://"),
        ({"DEBUG": "1", "DATABASE_URL": ""}, "DATABASE_URL is not set"),
        # Once accepted by every check: each page then answered 503, the cause only in the log.
        ({"DEBUG": "1", "DATABASE_URL": "postgres://db/x?sslmode=requir"}, "sslmode='requir' must be one of disable"),
        ({"DEBUG": "1", "DATABASE_URL": "postgres://db/x?foo=bar"}, 'DATABASE_URL: invalid connection option "foo"'),
        ({"DEBUG": "1", "DB_CONN_MAX_AGE": "forever"}, "DB_CONN_MAX_AGE='forever' is not an integer"),
        ({"DEBUG": "1", "PASSWORD_RESET_RATE": "5 per hour"}, "PASSWORD_RESET_RATE='5 per hour' is not a rate"),
        ({"DEBUG": "1", "PASSWORD_RESET_RATE": "5/w"}, "PASSWORD_RESET_RATE='5/w' is not a rate"),
        ({"DEBUG": "1", "SIGNUP_RATE": "lots"}, "SIGNUP_RATE='lots' is not a rate"),
        ({"DEBUG": "1", "SIGN_IN_ADDRESS_RATE": "100"}, "SIGN_IN_ADDRESS_RATE='100' is not a rate"),
        ({"DEBUG": "1", "JOIN_RATE": "100 an hour"}, "JOIN_RATE='100 an hour' is not a rate"),
        ({"DEBUG": "1", "JOIN_ACCOUNT_RATE": "0/h"}, "JOIN_ACCOUNT_RATE='0/h' must allow at least 1 request"),
        # A zero period was a 500 on every sign-up; a zero count refused everyone as "too many tries".
        ({"DEBUG": "1", "SIGNUP_RATE": "10/0m"}, "SIGNUP_RATE='10/0m' must allow at least 1 request"),
        ({"DEBUG": "1", "PASSWORD_RESET_RATE": "0/h"}, "PASSWORD_RESET_RATE='0/h' must allow at least 1 request"),
        # Once a 500 on every request, from the first cache or session read.
        ({"DEBUG": "1", "REDIS_URL": "cache.internal:6379"}, "REDIS_URL must start with redis://"),
        # Once Django's "ValueError: Incorrect timezone setting" at the end of a traceback.
        ({"DEBUG": "1", "TIME_ZONE": "Mars/Olympus"}, "TIME_ZONE='Mars/Olympus' is not a time zone"),
        (
            {"DEBUG": "1", "SECRET_KEY_FILE": "/nonexistent/secret"},
            "SECRET_KEY_FILE='/nonexistent/secret' cannot be read",
        ),
        # Once "ValueError: Unable to configure root logger", naming no variable.
        ({"DEBUG": "1", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL='LOUD' must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ({"DEBUG": "1", "LOG_LEVEL_AXES": "quiet"}, "LOG_LEVEL_AXES='quiet' must be one of"),
        ({"DEBUG": "1", "LOG_FORMAT": "xml"}, "LOG_FORMAT='xml' must be one of json, text"),
        # Once accepted: each password reset then logged an import error and sent no mail.
        ({"DEBUG": "1", "EMAIL_BACKEND": "django.core.mail.backends.smtp.SMTPBackend"}, "EMAIL_BACKEND='django.core"),
        ({"DEBUG": "1", "EMAIL_BACKEND": "anymail.backends.mailgun"}, "cannot be imported; give a class's dotted path"),
    ],
)
def test_bad_environment_stops_the_process_with_a_clear_message(env, message):
    result = _manage("check", **env)
    assert result.returncode != 0
    assert message in result.stderr


@pytest.mark.parametrize(
    "env",
    [{"DEBUG": "maybe"}, {"DEBUG": "0"}, {"DEBUG": "1", "LOG_LEVEL": "LOUD"}, {"DEBUG": "1", "TIME_ZONE": "Nowhere"}],
)
def test_a_bad_environment_value_is_one_line_not_a_traceback(env):
    # The message naming the variable used to end a 55-line traceback through Django's settings loading.
    result = _manage("check", **env)
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith("manage.py: ")


def test_a_bad_redis_url_is_refused_without_its_password():
    result = _manage("check", DEBUG="1", REDIS_URL="reddis://:hunter2@cache.internal:6379/0")
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        == "manage.py: REDIS_URL must start with redis:// or rediss:// or unix://, got reddis scheme"
    )


def test_an_empty_log_setting_keeps_its_default():
    result = _manage("check", DEBUG="1", LOG_LEVEL="", LOG_FORMAT="", LOG_LEVEL_AXES="")
    assert result.returncode == 0, result.stderr


def test_production_settings_pass_check_deploy():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_warns_when_the_proxy_in_front_is_not_counted():
    """Behind the TLS proxy every client had the proxy's address: one person's wrong passwords locked a name out for
    everyone, and check --deploy said nothing."""
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **{**PRODUCTION, "TRUSTED_PROXY_COUNT": "0"})
    assert result.returncode != 0 and "mlcourse.W001" in result.stderr + result.stdout
    clients_direct = {**PRODUCTION, "TRUSTED_PROXY_COUNT": "0", "SECURE_SSL_REDIRECT": "0"}
    assert "mlcourse.W001" not in _manage("check", "--deploy", **clients_direct).stdout


def test_allowed_hosts_takes_subdomain_patterns_and_bracketed_ipv6():
    result = _manage("check", **{**PRODUCTION, "ALLOWED_HOSTS": ".example.edu,[::1],10.0.3.17"})
    assert result.returncode == 0, result.stderr


def test_secret_key_can_come_from_a_file(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text(GOOD_KEY + "\n")
    env = {**PRODUCTION, "SECRET_KEY_FILE": str(secret)}
    del env["SECRET_KEY"]
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **env)
    assert result.returncode == 0, result.stderr


def test_database_url_forms():
    assert parse_database_url("postgres://u:p%40ss@db.internal:6543/app?sslmode=require") == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "app",
        "USER": "u",
        "PASSWORD": "p@ss",
        "HOST": "db.internal",
        "PORT": "6543",
        "OPTIONS": {"sslmode": "require"},
    }
    socket = parse_database_url("postgresql://postgres:@/mlcourse?host=/srv/var/pgdata")
    assert (socket["HOST"], socket["NAME"], socket["OPTIONS"]) == ("/srv/var/pgdata", "mlcourse", {})


def test_redis_moves_the_cache_and_session_reads(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import django, os\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'mlcourse.settings')\n"
        "django.setup()\n"
        "from django.conf import settings\n"
        "print(settings.CACHES['default']['BACKEND'], settings.SESSION_ENGINE)\n"
    )
    environment = {
        **os.environ,
        "DEBUG": "1",
        "REDIS_URL": "redis://127.0.0.1:6379/3",
        "PYTHONPATH": str(settings.BASE_DIR),
    }
    result = subprocess.run(  # noqa: S603
        [sys.executable, str(probe)], cwd=settings.BASE_DIR, env=environment, capture_output=True, text=True, timeout=60
    )
    assert result.stdout.split() == [
        "django.core.cache.backends.redis.RedisCache",
        "django.contrib.sessions.backends.cached_db",
    ], result.stderr


def test_an_empty_variable_keeps_the_secure_default():
    # `SECURE_SSL_REDIRECT=` in an env file once meant "off", silently serving production over plain HTTP.
    result = _manage("check", "--deploy", "--fail-level", "WARNING", SECURE_SSL_REDIRECT="", **PRODUCTION)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("command", ["load_content", "migrate", "check_grading fixtures/grading-sample.csv"])
def test_a_database_that_cannot_be_reached_is_one_line_not_a_traceback(command):
    # Once a 60-line traceback ending in "OperationalError: connection failed".
    result = _manage(*command.split(), DEBUG="1", DATABASE_URL="postgres://root@127.0.0.1:1/mlcourse_absent")
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith("manage.py: cannot connect to the database (mlcourse_absent): ")
    assert "port 1 failed" in result.stderr


def test_hsts_subdomains_and_preload_can_be_turned_off():
    """Both were always on in production: a site whose subdomains are not all on HTTPS could not turn them off."""
    script = (
        "from django.conf import settings; print(settings.SECURE_HSTS_INCLUDE_SUBDOMAINS, settings.SECURE_HSTS_PRELOAD)"
    )
    assert _manage("shell", "-c", script, **PRODUCTION).stdout.splitlines()[-1].split() == ["True", "True"]
    off = {**PRODUCTION, "SECURE_HSTS_INCLUDE_SUBDOMAINS": "0", "SECURE_HSTS_PRELOAD": "0"}
    assert _manage("shell", "-c", script, **off).stdout.splitlines()[-1].split() == ["False", "False"]
