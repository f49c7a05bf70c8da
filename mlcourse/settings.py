"""The one settings module: every knob comes from the environment.

DEBUG defaults to off, so a forgotten variable leaves the safe setting; `make run`
and `make test` turn it on. A bad value stops the process at start.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF

from apps.common.env import (
    ConfigurationError,
    env_bool,
    env_choice,
    env_hosts,
    env_import_path,
    env_int,
    env_rate,
    env_str,
    env_time_zone,
    env_url,
    parse_database_url,
)
from apps.common.logs import LOG_FORMATS, LOG_LEVELS, logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)

_DEV_SECRET_KEY = "dev-only-insecure-key-never-used-when-debug-is-off"  # noqa: S105 - refused with DEBUG off
SECRET_KEY = env_str("SECRET_KEY") or (_DEV_SECRET_KEY if DEBUG else "")
if not DEBUG and (len(SECRET_KEY) < 50 or SECRET_KEY == _DEV_SECRET_KEY or len(set(SECRET_KEY)) < 5):
    raise ConfigurationError(
        "SECRET_KEY must be set to a random value of at least 50 characters when DEBUG is off "
        "(for example: python -c 'import secrets; print(secrets.token_urlsafe(50))')"
    )

ALLOWED_HOSTS = env_hosts("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ConfigurationError("ALLOWED_HOSTS must list the site's host names when DEBUG is off")
if not DEBUG and "*" in ALLOWED_HOSTS:
    # Any Host accepted: a password reset asked for with "Host: evil.example" mails a link to that site.
    raise ConfigurationError("ALLOWED_HOSTS may not be '*' when DEBUG is off: list the site's host names")

_database_url = env_str("DATABASE_URL")
if not _database_url:
    raise ConfigurationError(
        "DATABASE_URL is not set. Use `make run` / `make test` (they start an embedded PostgreSQL), "
        "`python -m apps.common.devdb exec python manage.py ...`, or set DATABASE_URL=postgres://..."
    )
DATABASES = {"default": parse_database_url(_database_url)}
DATABASES["default"]["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 0, minimum=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Server-side binding lets psycopg prepare each statement a connection runs repeatedly, so PostgreSQL
# stops re-parsing and re-planning the quiz's joins: measured 40 % less database CPU per answer. Off
# behind a pooler in transaction mode that cannot carry prepared statements (PgBouncer before 1.21).
if env_bool("DB_PREPARED_STATEMENTS", True):
    DATABASES["default"]["OPTIONS"].update(server_side_binding=True, prepare_threshold=2)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "axes",
    "django_ratelimit",
    "apps.common",
    "apps.accounts",
    "apps.content",
    "apps.quiz",
    "apps.cohorts",
    "apps.authoring",
]

MIDDLEWARE = [
    # First: it empties the body of a HEAD response once every other middleware is done with it.
    "apps.common.middleware.HeadWithoutBodyMiddleware",
    "apps.common.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "apps.common.middleware.PermissionsPolicyMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Above CommonMiddleware, which refuses a Host not in ALLOWED_HOSTS: load balancers probe by address.
    "apps.common.middleware.HealthzMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "apps.common.middleware.PrivatePagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "apps.common.timezones.UserTimezoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Below HtmxMiddleware, whose request.htmx it reads on the way out.
    "apps.common.middleware.HtmxLoginRedirectMiddleware",
    "apps.common.middleware.DatabaseUnavailableMiddleware",
    # Below the authentication and messages middleware: its page has the site's header.
    "apps.common.middleware.MethodNotAllowedPageMiddleware",
    # Last, as django-axes asks: it turns a lockout into its response.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "apps.accounts.backends.CaseInsensitiveModelBackend",
]

ROOT_URLCONF = "mlcourse.urls"
WSGI_APPLICATION = "mlcourse.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Development prints password-reset mail to the console; production sends it over SMTP.
EMAIL_BACKEND = env_import_path(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1, maximum=65535)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
# Reset mail is sent by one background thread per process (apps/accounts/services.py): without a timeout, an SMTP
# server that stops answering would hold every later reset mail, and a recycled worker's exit, until gunicorn kills it.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "mlcourse <noreply@localhost>")

LANGUAGE_CODE = "en"
FORMAT_MODULE_PATH = ["mlcourse.formats"]
TIME_ZONE = env_time_zone("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
# KaTeX's stylesheet and fonts come straight from the pinned npm package, so the
# CSS always matches the version that rendered the stored HTML.
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("vendor/katex", BASE_DIR / "node_modules" / "katex" / "dist"),
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# In development whitenoise serves straight from the finders; production serves collectstatic's output.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# The Node.js that runs KaTeX (apps/content/katex.py): a name looked up on PATH, or a full path where the service's
# PATH lacks it (systemd units start with a short one).
NODE_BINARY = env_str("NODE_BINARY") or "node"

# pg_dump and pg_restore for backup_db and restore_db: unset, the installed one of the server's major version
# (apps/common/pgtools.py); a name on PATH or a full path to use that one instead.
PG_DUMP_BINARY = env_str("PG_DUMP_BINARY")
PG_RESTORE_BINARY = env_str("PG_RESTORE_BINARY")

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
# Both are hard to take back (browsers keep them for SECURE_HSTS_SECONDS, preload lists for months): on by default,
# as check --deploy asks, and off where the site's subdomains are not all served over HTTPS.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
# A page saying what happened (a stale form, most often after signing in or out in another tab), under HTMX too.
CSRF_FAILURE_VIEW = "apps.common.views.csrf_failure"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# No inline scripts or styles anywhere: scripts are files, and the inline styles KaTeX
# writes are turned into classes served by /styles/content.css.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

# Sessions and the cache (which holds the sign-up and password-reset rate limits) live in PostgreSQL
# unless REDIS_URL names a Redis server to share between app servers.
REDIS_URL = env_url("REDIS_URL", ("redis", "rediss", "unix"))
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    if REDIS_URL
    else {"BACKEND": "apps.common.cache.AtomicDatabaseCache", "LOCATION": "mlcourse_cache"}
}
# With Redis, sessions are read from it and written through to PostgreSQL: one query less per
# request, and a sign-out still ends the session on every app server.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db" if REDIS_URL else "apps.common.sessions"
# django-ratelimit knows backends by name and knows neither Django's own Redis backend nor the database
# cache in apps.common.cache; both count atomically (Redis's INCR, a row lock), so W001, "not officially
# supported", is all it reports. Its E003 names Django's stock database cache, whose counts a burst overran.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
PASSWORD_RESET_RATE = env_rate("PASSWORD_RESET_RATE", "5/h")
# Sign-up POSTs per client address. The form tells whether an email has an account, so it must not answer
# thousands of probes an hour; but a class of 30 signs up from one school address, each student perhaps
# needing a second or third try (a name taken, a password too common): 100 an hour lets that class through
# and holds one address to 2,400 probes a day.
SIGNUP_RATE = env_rate("SIGNUP_RATE", "100/h")
# Join codes that match no cohort (typed, or in an invite link), per client address and per signed-in account;
# over either, no code is looked up until the period ends. 31^8 codes make guessing hopeless at any rate, but an
# unlimited form is a free oracle. A class of 30 behind one school address mistyping three times each makes 90;
# right codes count for nothing, so 100 an hour lets that class join and holds an address to 2,400 guesses a day.
# One student needs a few tries; 20 an hour caps what one of them can spend of the class's allowance.
JOIN_RATE = env_rate("JOIN_RATE", "100/h")
JOIN_ACCOUNT_RATE = env_rate("JOIN_ACCOUNT_RATE", "20/h")

# Sign-in: five failures with one user name from one address lock that name at that address for 15 minutes.
# Not the name everywhere, nor the address for everyone: a class shares its school's one address, and one
# student's typos locked out every other student and the instructor.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "apps.accounts.backends.lockout_username"
# A success forgets the failures of that name at that address (the lock's own key), no one else's guesses.
AXES_RESET_ON_SUCCESS = True
# Off, so a try while locked out is refused without being counted: the page says how long the pause lasts,
# and a retry at minute 14 must not start it over.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Adds the address's own limit below (apps.accounts.lockout), and a page that says which lock holds.
AXES_HANDLER = "apps.accounts.lockout.SignInLockoutHandler"
AXES_LOCKOUT_CALLABLE = "apps.accounts.views.locked_out"
# Axes keeps and logs each failure's form fields, masking these (and "password"): the account pages' passwords count
# as sign-ins too (apps.accounts.services.password_confirm), the new ones of a password change among them, and a
# user name is sometimes a password typed in the wrong box. The client's address is logged, for the operator (and
# fail2ban) to see where a lockout came from.
AXES_SENSITIVE_PARAMETERS = ["username", "current_password", "old_password", "new_password1", "new_password2"]
# Failed sign-ins per client address, whatever the names: password spraying tries one or two common passwords
# on each of many names, under every name's limit. A class of 30 behind one school address, each student
# mistyping two or three times at the start of a lesson, makes up to 90 failures in a few minutes: 100 per 15
# minutes lets that class in, and holds one address to 9,600 guesses a day, where the lock on a name at an
# address alone would let a sprayer who rotates names guess without end.
SIGN_IN_ADDRESS_RATE = env_rate("SIGN_IN_ADDRESS_RATE", "100/15m")

# The proxies in front of the app that append to X-Forwarded-For (the TLS proxy: 1). Lockouts and
# reset limits key on the entry this many from the right; with 0, on the connecting address.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)
AXES_CLIENT_IP_CALLABLE = "apps.common.clientip.client_ip"
RATELIMIT_IP_META_KEY = "apps.common.clientip.client_ip"

# JSON lines with the request id, for log shippers; LOG_FORMAT=text for reading in a terminal. gunicorn.conf.py
# gives gunicorn's own lines the same format.
LOG_FORMAT = env_choice("LOG_FORMAT", "json", LOG_FORMATS)
LOGGING_CONFIG = "apps.common.logs.configure"
LOGGING = logging_config(
    LOG_FORMAT,
    env_choice("LOG_LEVEL", "INFO", LOG_LEVELS),
    {"axes": {"level": env_choice("LOG_LEVEL_AXES", "WARNING", LOG_LEVELS)}},
)
