"""Django settings for scorekeeper, driven by environment variables.

Development needs no configuration at all (SQLite, DEBUG on). Production is
selected with DJANGO_ENV=production, which turns DEBUG off, requires a real
SECRET_KEY and switches on the HTTPS hardening that `manage.py check --deploy`
looks for. Every variable is read through scorekeeper/environment.py, so a value
that is not one its variable takes stops the start naming it;
docs/hosting/configuration.md lists them all.
"""

from __future__ import annotations

import ipaddress
import re
import zoneinfo
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.core.exceptions import ValidationError as InvalidEmail
from django.core.validators import validate_email
from environs import ValidationError

from scorekeeper import environment

BASE_DIR = Path(__file__).resolve().parent.parent

# Blank is refused too: the image sets production, and an empty line in the club's
# .env must not quietly turn that into development (DEBUG on, the published key).
DJANGO_ENV = environment.choice(
    "DJANGO_ENV",
    "development",
    {"development": "on a developer's machine", "production": "on a club's server"},
    blank_is_default=False,
)
PRODUCTION = DJANGO_ENV == "production"

DEBUG = environment.switch("DJANGO_DEBUG", default=not PRODUCTION)

DEVELOPMENT_KEY = "django-insecure-dev-only-key-do-not-use-in-production"
SECRET_KEY = environment.text("DJANGO_SECRET_KEY", "")


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

ALLOWED_HOSTS = environment.names(
    "DJANGO_ALLOWED_HOSTS", [] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]"]
)
CSRF_TRUSTED_ORIGINS = environment.names("DJANGO_CSRF_TRUSTED_ORIGINS", [])

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
    # Writes each language's catalogue of the scripts' strings as a static file
    # (compilejsi18n; static/jsi18n/<language>/djangojs.js, made by every build).
    "statici18n",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The footer's choice (its cookie), else the browser's Accept-Language, else
    # English; LanguageMiddleware below adds the account's and the league's.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "scorekeeper.languages.LanguageMiddleware",
    "scorekeeper.private_pages.PrivatePagesMiddleware",
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
# /hello/, the framework's floor that benchmarks/load.py and polls.py measure against:
# routed outside production, and in production only when a benchmark asks for it.
BENCHMARK_ROUTES = environment.switch("DJANGO_BENCHMARK_ROUTES", not PRODUCTION)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGE_CODE (<html lang>) and LANGUAGES (the footer's choice).
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scorekeeper.context_processors.site",
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
    "default": environment.database(
        "DATABASE_URL",
        f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=environment.number("DATABASE_CONN_MAX_AGE", 60 if PRODUCTION else 0),
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
    # Two indexes carry extra columns (include=) so that PostgreSQL answers a
    # session's visibility and a player's rating history from the index alone. SQLite
    # keeps only their key columns: each index still serves the queries it was made
    # for, reading the table for the rest, and nothing is lost. Django warns of that
    # (models.W040) on every migrate, which reads as an error to an admin; it is no
    # fault of the setup. On PostgreSQL the check stays on.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]
else:
    SILENCED_SYSTEM_CHECKS = []

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

# English unless the browser, the footer's choice, the account or the league says
# otherwise (docs/hosting/languages.md). A language is a catalogue under locale/.
LANGUAGE_CODE = "en"
# English as written in India ("en-in") takes the source's words, with India's digit
# groups (1,00,000) and dates: no catalogue of its own.
LANGUAGES = [("en", "English"), ("en-in", "English (India)"), ("hi", "हिन्दी")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Days as each language writes them where the app's differ from Django's; numbers and
# money are written by games/figures.py, never by Django's thousand separator (it
# would also group ids, years and form values).
FORMAT_MODULE_PATH = ["scorekeeper.formats"]
# The footer's choice is kept a year, as a choice made once (Django's default lasts
# only until the browser closes); the pages read it, scripts never do.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
# The scripts' catalogues go beside the scripts, where the static files are found
# (git-ignored: built from locale/ by make and the image, docs/inside/languages.md).
STATICI18N_ROOT = BASE_DIR / "static"


def time_zone(name: str) -> None:
    try:
        zoneinfo.ZoneInfo(name.strip())
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValidationError(
            f"{name!r} is not a time zone name. Use one of the tz database, e.g. "
            "Asia/Kolkata, Europe/London or America/New_York."
        ) from None


# The club's time zone: a session is dated by the club's calendar (a game started at
# half past midnight in India belongs to that Indian day, not to UTC's day before),
# and every time shown or exported is the club's clock. Django's own check of the
# name happens later and does not say which variable holds it.
TIME_ZONE = environment.text("DJANGO_TIME_ZONE", "UTC", check=time_zone, strip=True)
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = environment.path("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles")

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need `collectstatic` first, so only production uses
    # them; development and the test suite read files straight from the finders.
    "staticfiles": {
        "BACKEND": (
            "scorekeeper.storage.StaticFilesStorage"
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
SECURE_SSL_REDIRECT = environment.switch("DJANGO_SECURE_SSL_REDIRECT", PRODUCTION)
SESSION_COOKIE_SECURE = environment.switch("DJANGO_SECURE_COOKIES", PRODUCTION)
# Sign-ins live in the database alone (Django's default store): a sign-out is then
# final on every worker at once, whatever the cache does.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = environment.number("DJANGO_HSTS_SECONDS", 31_536_000 if PRODUCTION else 0)
# Off unless the admin asks: includeSubDomains binds every subdomain of the site's
# domain to HTTPS (a club served at scores.club.example would bind the whole of
# club.example), and preload lets the domain into the browsers' built-in lists, which
# take months to leave. Each is a choice about the whole domain, which only its owner
# can make.
SECURE_HSTS_INCLUDE_SUBDOMAINS = environment.switch("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = environment.switch("DJANGO_HSTS_PRELOAD", False)
# `check --deploy` asks for both whenever HSTS is on (security.W005, W021): advice to
# consider them, not a fault. Left off as above, the setup is the one intended, so the
# checklist stays quiet about them; switched on, Django has nothing to say anyway.
if not SECURE_HSTS_INCLUDE_SUBDOMAINS:
    SILENCED_SYSTEM_CHECKS.append("security.W005")
if not SECURE_HSTS_PRELOAD:
    SILENCED_SYSTEM_CHECKS.append("security.W021")
# The health route answers over plain HTTP too: the container's health check and a
# proxy's probe ask the app directly, not through HTTPS (its pattern is a path without
# the leading slash, as SecurityMiddleware matches it).
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
BEHIND_PROXY = environment.switch("DJANGO_BEHIND_PROXY", False)
if BEHIND_PROXY:
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
AXES_FAILURE_LIMIT = environment.number("DJANGO_LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=environment.number("DJANGO_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "axes/lockout.html"
AXES_CLIENT_IP_CALLABLE = "scorekeeper.security.client_ip"
AXES_USERNAME_CALLABLE = "scorekeeper.security.attempted_username"


def network(value: str) -> None:
    try:
        ipaddress.ip_network(value)  # strict, as gunicorn checks the same list
    except ValueError as error:
        raise ValidationError(str(error)) from None


# Where the reverse proxy connects from (addresses or networks): only these may name
# the client in X-Forwarded-For. gunicorn.conf.py reads the same variable.
PROXY_IPS = environment.names("DJANGO_PROXY_IPS", ["127.0.0.1", "::1"], check=network)

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
        raise ValidationError("must start smtp://, smtp+tls:// or smtps://.")
    try:
        port = parts.port
    except ValueError:  # its message would show the URL, password and all
        raise ValidationError("the port after the server's name is not a number.") from None
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": port or {"smtps": 465, "smtp+tls": 587}.get(parts.scheme, 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": parts.scheme == "smtp+tls",
        "EMAIL_USE_SSL": parts.scheme == "smtps",
    }


email_url = environment.parsed("DJANGO_EMAIL_URL", email_settings, {})
email_host = environment.text("DJANGO_EMAIL_HOST", "")
if email_url:
    globals().update(email_url)
elif email_host:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = email_host
    EMAIL_PORT = environment.number("DJANGO_EMAIL_PORT", 587, minimum=1)
    EMAIL_HOST_USER = environment.text("DJANGO_EMAIL_USER", "")
    EMAIL_HOST_PASSWORD = environment.text("DJANGO_EMAIL_PASSWORD", "")
    EMAIL_USE_TLS = environment.switch("DJANGO_EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = environment.text("DJANGO_DEFAULT_FROM_EMAIL", "scorekeeper@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# A mail server that does not answer must not hold a worker past gunicorn's timeout.
EMAIL_TIMEOUT = 10

# Sign-ups per client address (scorekeeper.security.client_ip) in a window that
# starts at the first: enough for a family sharing a connection, too few for a script.
SIGNUP_LIMIT = environment.number("DJANGO_SIGNUP_LIMIT", 5)
SIGNUP_WINDOW_MINUTES = environment.number("DJANGO_SIGNUP_WINDOW_MINUTES", 60, minimum=1)
# Who may create an account: anyone ("open"), or only someone who came by a league's
# invite link ("invite"), for a club that keeps its site to its members.
SIGNUPS = environment.choice(
    "DJANGO_SIGNUPS",
    "open",
    {
        "open": "anyone may create an account",
        "invite": "only someone holding a league's invite link",
    },
)

# Who is mailed a server error (Django's mail_admins log handler, DEBUG off):
# "Asha <asha@example.org>, ravi@example.org". A name may not hold a comma.
admin_address = re.compile(r"(?:(?P<name>[^<>]*?)\s*<(?P<email>[^<>\s]+)>|(?P<bare>[^<>\s]+))")


def admins(value: str) -> list[tuple[str, str]]:
    """DJANGO_ADMINS as Django's ADMINS, (name, address) pairs; a list that is not
    one refuses to start rather than mail nobody."""
    found = []
    for item in (part.strip() for part in value.split(",")):
        if not item:
            continue
        match = admin_address.fullmatch(item)
        address = match and (match["email"] or match["bare"])
        try:
            validate_email(address or "")
        except InvalidEmail:
            raise ValidationError(
                f"{item!r} is not an e-mail address. Give addresses "
                "separated by commas, each plain or as Name <address>, e.g. "
                "'Asha <asha@example.org>, ravi@example.org'."
            ) from None
        found.append(((match["name"] or "").strip(), address))
    return found


ADMINS = environment.parsed("DJANGO_ADMINS", admins, [])

# Django's cache holds counts every worker must share (the sign-up limit): Redis in
# production (REDIS_URL, e.g. redis://127.0.0.1:6379/0), otherwise this process's
# memory, which needs no setup but is one count per worker. Redis through our own
# backend on Django's cache API (scorekeeper/cache.py): one client per server, not one
# per call, and a server that stops answering is passed over for a moment.
CACHE_URL = environment.parsed("DJANGO_CACHE_URL", environment.redis_url, "") or (
    environment.parsed("REDIS_URL", environment.redis_url, "")
)
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "scorekeeper.cache.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": environment.text("DJANGO_CACHE_PREFIX", "scorekeeper"),
            # A Redis that hangs rather than refuses costs a request half a second at
            # most, then the database answers (scorekeeper/cache.py), and it does not
            # hold every worker.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# How many processes serve the app: gunicorn.conf.py says (its worker count); 0 when
# unknown. A live poll is answered from the cache (games/live.py) only where every
# process sees the same one: Redis, or a cache in memory with one process serving
# (runserver, the tests). Elsewhere each process would answer from its own memory
# what another has since changed, so every poll reads the database.
SERVER_PROCESSES = environment.number("DJANGO_SERVER_PROCESSES", 0)
LIVE_CACHE = bool(CACHE_URL) or SERVER_PROCESSES == 1 or (SERVER_PROCESSES == 0 and not PRODUCTION)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": environment.log_level("DJANGO_LOG_LEVEL", "INFO")},
}

# `manage.py backup`: where it writes (a folder of its own, made when missing) and
# how many of its files it keeps there, the oldest deleted first (docs/hosting/backups.md).
BACKUP_DIR = environment.path("BACKUP_DIR", BASE_DIR / "backups")
BACKUP_KEEP = environment.number("BACKUP_KEEP", 14, minimum=1)

# A points session without a ceiling ends only when the table says so; one that had no
# round for this many hours counts as ended at its last round (the table went home and
# nobody tapped "End the session now"): its standings and ratings then count it. Ended
# when the league's standings are next read (games/services/night_end.py).
SESSION_IDLE_HOURS = environment.number("DJANGO_SESSION_IDLE_HOURS", 6, minimum=1)
