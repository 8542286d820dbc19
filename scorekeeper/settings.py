"""Django settings for scorekeeper, driven by environment variables.

Development needs no configuration at all (SQLite, DEBUG on). Production is
selected with DJANGO_ENV=production, which turns DEBUG off, requires a real
SECRET_KEY and switches on the HTTPS hardening that `manage.py check --deploy`
looks for. Every variable is listed in README.md.
"""

from __future__ import annotations

import ipaddress
import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_value(name: str) -> str | None:
    """``DJANGO_X`` or, failing that, plain ``X`` for the four names the issue and
    most hosting guides use unprefixed (SECRET_KEY, DEBUG, ALLOWED_HOSTS, ...)."""
    value = os.environ.get(name)
    if value is None and name.removeprefix("DJANGO_") in UNPREFIXED:
        value = os.environ.get(name.removeprefix("DJANGO_"))
    return value


UNPREFIXED = {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"}


def env_bool(name: str, default: bool) -> bool:
    value = env_value(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def env_list(name: str, default: list[str]) -> list[str]:
    value = env_value(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DJANGO_ENV = os.environ.get("DJANGO_ENV", "development").strip().lower()
if DJANGO_ENV not in {"development", "production"}:
    raise ImproperlyConfigured("DJANGO_ENV must be 'development' or 'production'.")
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env_bool("DJANGO_DEBUG", default=not PRODUCTION)

DEVELOPMENT_KEY = "django-insecure-dev-only-key-do-not-use-in-production"
SECRET_KEY = env_value("DJANGO_SECRET_KEY") or ""


def is_real_key(key: str) -> bool:
    """Long and varied enough, and not a published one: what `check --deploy` asks
    of a key (security.W009), made a condition of starting."""
    return len(key) >= 50 and len(set(key)) >= 5 and not key.startswith("django-insecure")


if PRODUCTION and not is_real_key(SECRET_KEY):
    # A guessable key lets anyone forge sessions and password-reset links; whatever
    # DEBUG says, production never falls back to the development key.
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set in production: 50+ random characters, e.g. "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = DEVELOPMENT_KEY

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", [] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]"]
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    # Counts failed sign-ins in the database (shared by every worker) and locks out.
    "axes",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles so runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    # The default app config wraps the template loaders so "page.html#partial" works.
    "template_partials",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below): django-csp
    # building the header once (scorekeeper/csp.py).
    "scorekeeper.csp.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Refuses a body over the upload limit from its Content-Length, before the CSRF
    # check reads it (games/uploads.py).
    "games.uploads.UploadLimitMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# An upload too large for memory goes to a temporary file with no name, which
# cannot outlive its request (games/uploads.py).
FILE_UPLOAD_HANDLERS = [
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "games.uploads.UnnamedTemporaryFileUploadHandler",
]

# django-axes checks for a lockout before Django's own password check; ModelBackend
# stays listed so that a login() naming it (sign-up) keeps the user signed in.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "scorekeeper.urls"

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
            # {% partialdef %} without {% load partials %}, as in Django 6 where the
            # tags are built in: moving to the next LTS then only drops the package.
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
]

WSGI_APPLICATION = "scorekeeper.wsgi.application"

# SQLite file by default (zero setup); PostgreSQL (psycopg 3) via DATABASE_URL,
# e.g. postgres://user:password@host:5432/scorekeeper.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60 if PRODUCTION else 0),
        conn_health_checks=True,
    )
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # BEGIN IMMEDIATE: a transaction takes SQLite's write lock when it starts, so two
    # phones saving at once queue (for up to 20 s) instead of one failing with
    # "database is locked" halfway through (PostgreSQL locks the session row).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:home"
LOGOUT_REDIRECT_URL = "games:home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need `collectstatic` first, so only production uses
    # them; development and the test suite read files straight from the finders.
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Outside production WhiteNoise serves straight from the finders and rescans on each
# request, so neither runserver nor the live test server needs `collectstatic`.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = not PRODUCTION

# HTTPS hardening. On in production by default (so `check --deploy` is clean); each
# switch can be turned off, e.g. when a proxy already redirects to HTTPS.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", PRODUCTION)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", PRODUCTION)
# Sign-ins are read from the cache and written to both: a live poll answered from
# the cache (games/live.py) then needs no database at all. Django's cached_db, save
# that a cache that is down is passed over instead of failing every page.
SESSION_ENGINE = "scorekeeper.sessions"
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000 if PRODUCTION else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", PRODUCTION)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", PRODUCTION)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if env_bool("DJANGO_BEHIND_PROXY", False):
    # Only behind a proxy that sets this header itself; otherwise clients could
    # spoof it and bypass the HTTPS redirect.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Scripts, styles and images only from the app's own files: text a player typed can
# never run as script, even if it slipped past the templates' escaping. The pages
# have no inline script or style (a test scans the templates); htmx's injected
# indicator <style> is switched off in base.html. data: images: the empty favicon
# of base.html. The two self-contained error pages add their own <style> block
# (scorekeeper/errors.py). The service worker (/sw.js) and the web app manifest come
# from the app itself too.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "worker-src": [SELF],
        "manifest-src": [SELF],
    },
}

# Sign-in attempts are rate-limited: after this many failures for one username from
# one address, that pair is locked out for the cool-off (a guesser cannot lock a
# member out from elsewhere, and a success resets the count).
AXES_FAILURE_LIMIT = env_int("DJANGO_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("DJANGO_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "axes/lockout.html"
AXES_CLIENT_IP_CALLABLE = "scorekeeper.security.client_ip"
AXES_USERNAME_CALLABLE = "scorekeeper.security.attempted_username"
BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", False)
# Where the reverse proxy connects from (addresses or networks): only these may name
# the client in X-Forwarded-For. gunicorn.conf.py reads the same variable.
PROXY_IPS = env_list("DJANGO_PROXY_IPS", ["127.0.0.1", "::1"])
try:
    for network in PROXY_IPS:
        ipaddress.ip_network(network)  # strict, as gunicorn checks the same list
except ValueError as error:
    raise ImproperlyConfigured(f"DJANGO_PROXY_IPS: {error}") from error

# E-mail, for password-reset links. Development prints messages on the console;
# production sends them through an SMTP server, given as one URL
# (DJANGO_EMAIL_URL=smtp+tls://user:password@smtp.example.com:587; smtps:// for
# TLS from the start, smtp:// for none) or as DJANGO_EMAIL_HOST and its friends.
# Without either, production prints them on the console too (the server's log).


def email_settings(url: str) -> dict[str, object]:
    parts = urlsplit(url)
    if parts.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parts.scheme not in {"smtp", "smtp+tls", "smtps"}:
        raise ImproperlyConfigured("DJANGO_EMAIL_URL must start smtp://, smtp+tls://, smtps://.")
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": parts.port or {"smtps": 465, "smtp+tls": 587}.get(parts.scheme, 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": parts.scheme == "smtp+tls",
        "EMAIL_USE_SSL": parts.scheme == "smtps",
    }


if os.environ.get("DJANGO_EMAIL_URL"):
    globals().update(email_settings(os.environ["DJANGO_EMAIL_URL"]))
elif os.environ.get("DJANGO_EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["DJANGO_EMAIL_HOST"]
    EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "scorekeeper@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# A mail server that does not answer must not hold a worker past gunicorn's timeout.
EMAIL_TIMEOUT = 10

# Sign-ups per client address (scorekeeper.security.client_ip) in a window that
# starts at the first: enough for a family sharing a connection, too few for a script.
SIGNUP_LIMIT = env_int("DJANGO_SIGNUP_LIMIT", 5)
SIGNUP_WINDOW_MINUTES = env_int("DJANGO_SIGNUP_WINDOW_MINUTES", 60)

# Django's cache holds counts every worker must share (the sign-up limit): Redis in
# production (REDIS_URL, e.g. redis://127.0.0.1:6379/0), otherwise this process's
# memory, which needs no setup but is one count per worker. Django's Redis backend,
# keeping one client per server (scorekeeper/cache.py: not one per call).
CACHE_URL = os.environ.get("DJANGO_CACHE_URL") or os.environ.get("REDIS_URL") or ""
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "scorekeeper.cache.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": os.environ.get("DJANGO_CACHE_PREFIX", "scorekeeper"),
            # Every sign-in is read from the cache first: a Redis that hangs rather than
            # refuses must cost a request half a second, then the database answers
            # (scorekeeper/sessions.py), not hold every worker.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}

# `manage.py backup`: where it writes (a folder of its own, made when missing) and
# how many of its files it keeps there, the oldest deleted first (docs/hosting/backups.md).
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR") or BASE_DIR / "backups")
BACKUP_KEEP = env_int("BACKUP_KEEP", 14)
