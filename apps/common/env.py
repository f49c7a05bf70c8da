"""Typed readers for environment variables that fail loudly on a bad value.

Settings call these at import time, so a typo in the environment stops the
process at start instead of surfacing later as odd behaviour.
"""

from __future__ import annotations

import importlib
import os
import re
import zoneinfo
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured
from psycopg import ProgrammingError
from psycopg.conninfo import make_conninfo


class ConfigurationError(ImproperlyConfigured):
    """A bad or missing environment value. Its message names the variable and is the whole story, so manage.py,
    the WSGI entry and gunicorn.conf.py print it as one line instead of a traceback; any other
    ImproperlyConfigured (a bug in a settings module, a misused library) keeps its traceback."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_str(name: str, default: str = "") -> str:
    """Reads NAME, or the contents of the file named by NAME_FILE (for secrets)."""
    file_name = os.environ.get(f"{name}_FILE")
    if file_name:
        try:
            return Path(file_name).read_text().strip()
        except OSError as exc:
            raise ConfigurationError(f"{name}_FILE={file_name!r} cannot be read: {exc}") from exc
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    """NAME as a boolean; set but empty (`FOO=` in an env file) counts as unset, as for the other readers."""
    raw = os.environ.get(name)
    value = (raw or "").strip().lower()
    if not value:
        return default
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigurationError(f"{name}={raw!r} is not a boolean; use one of 1/0, true/false, yes/no, on/off")


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigurationError(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise ConfigurationError(f"{name}={value} must be at least {minimum}")
    if maximum is not None and value > maximum:
        raise ConfigurationError(f"{name}={value} must be at most {maximum}")
    return value


_RATE = re.compile(r"^(?P<count>\d+)/(?P<multiple>\d*)[smhd]$")


def env_rate(name: str, default: str) -> str:
    """A django-ratelimit rate such as 5/h or 100/15m: checked here, since the library only fails on use.

    A zero period (5/0m) made every limited request a 500, and a zero count refuses every request while its
    page blames the visitor ("too many tries"): both are refused here.
    """
    value = env_str(name, default).strip() or default
    match = _RATE.match(value)
    if not match:
        raise ConfigurationError(f"{name}={value!r} is not a rate; write a count per period, such as 5/h or 20/15m")
    if int(match["count"]) == 0 or (match["multiple"] and int(match["multiple"]) == 0):
        raise ConfigurationError(f"{name}={value!r} must allow at least 1 request in a period of at least 1 unit")
    return value


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """NAME as one of `choices`, compared case-insensitively and returned as written in `choices`."""
    raw = env_str(name).strip()
    if not raw:
        return default
    for choice in choices:
        if raw.casefold() == choice.casefold():
            return choice
    raise ConfigurationError(f"{name}={raw!r} must be one of {', '.join(choices)}")


def env_import_path(name: str, default: str) -> str:
    """NAME as the dotted path of a class, such as an email backend. Django imports it only when first used: a
    typo in EMAIL_BACKEND surfaced as a logged error on each password reset, the mail never sent."""
    value = env_str(name).strip() or default
    module, _, attribute = value.rpartition(".")
    try:
        found = bool(module) and hasattr(importlib.import_module(module), attribute)
    except ImportError:
        found = False
    if not found:
        raise ConfigurationError(
            f"{name}={value!r} cannot be imported; give a class's dotted path, "
            f"such as django.core.mail.backends.smtp.EmailBackend"
        )
    return value


def env_time_zone(name: str, default: str) -> str:
    """An IANA zone name such as Europe/Paris; Django would stop on a bad one with a traceback."""
    value = env_str(name).strip() or default
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ConfigurationError(
            f"{name}={value!r} is not a time zone; use an IANA name such as Europe/Paris or UTC"
        ) from None
    return value


def env_url(name: str, schemes: tuple[str, ...]) -> str:
    """NAME as a URL with one of `schemes`, or "" when unset: a client library would refuse it on first use instead."""
    value = env_str(name).strip()
    scheme = urlsplit(value).scheme
    if value and scheme not in schemes:
        # Not the value itself: it may hold a password, and this line goes to the logs.
        raise ConfigurationError(
            f"{name} must start with {' or '.join(f'{s}://' for s in schemes)}, got {scheme or 'no'} scheme"
        )
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_hosts(name: str, default: list[str]) -> list[str]:
    """ALLOWED_HOSTS-style names. One written as a URL or with a port never matches a request (Django compares
    the bare host), so every page would answer 400: refused here, naming the entry."""
    hosts = env_list(name, default)
    for host in hosts:
        port = host.rpartition("]")[2] if host.startswith("[") else host
        if "/" in host or ":" in port:
            raise ConfigurationError(
                f"{name} lists {host!r}: give host names only, without a scheme, path or port "
                "(quiz.example.edu, .example.edu for it and its subdomains)"
            )
    return hosts


_SSLMODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")


def _check_options(options: dict[str, str]) -> None:
    """An option libpq does not know, or an sslmode it does not, passed every check and made every page a 503."""
    try:
        make_conninfo("", **options)
    except ProgrammingError as exc:
        raise ConfigurationError(f"DATABASE_URL: {exc}") from None
    if "sslmode" in options and options["sslmode"] not in _SSLMODES:
        raise ConfigurationError(f"DATABASE_URL: sslmode={options['sslmode']!r} must be one of {', '.join(_SSLMODES)}")


def parse_database_url(url: str) -> dict:
    """Turns postgres://user:pass@host:port/name?opt=val into a Django DATABASES entry.

    A socket directory may be given as ?host=/path, the libpq convention.
    """
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ConfigurationError(
            f"DATABASE_URL must start with postgres:// or postgresql://, got {parts.scheme or 'no'} scheme"
        )
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ConfigurationError("DATABASE_URL has no database name (postgres://host/NAME)")
    options = dict(parse_qsl(parts.query))
    _check_options(options)
    host = options.pop("host", None) or unquote(parts.hostname or "")
    try:
        port = parts.port
    except ValueError:
        raise ConfigurationError("DATABASE_URL has an invalid port") from None
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": host,
        "PORT": str(port or ""),
        "OPTIONS": options,
    }
