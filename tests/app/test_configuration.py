"""Settings come from the environment: the database (SQLite by default, PostgreSQL
through psycopg 3 from DATABASE_URL), DEBUG and the allowed hosts. Each case runs in
a fresh process, so only the environment given decides."""

from __future__ import annotations

import copy
import functools
import http.client
import json
import os
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

from tests.support.processes import run_fresh
from tests.support.servers import gunicorn, production_environment

BASE_DIR = Path(__file__).resolve().parents[2]

SHOW_SETTINGS = """
import json
import django
from django.conf import settings
from django.db import connection

from tests.support.processes import run_fresh
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"],
    "name": str(db["NAME"]),
    "host": db.get("HOST", ""),
    "debug": settings.DEBUG,
    "allowed_hosts": settings.ALLOWED_HOSTS,
    "cache": settings.CACHES["default"]["BACKEND"],
    "cache_location": settings.CACHES["default"].get("LOCATION", ""),
    "cache_options": settings.CACHES["default"].get("OPTIONS", {}),
    "email": {
        name: getattr(settings, name)
        for name in ("EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER",
                     "EMAIL_HOST_PASSWORD", "EMAIL_USE_TLS", "EMAIL_USE_SSL", "DEFAULT_FROM_EMAIL")
    },
    "driver": connection.Database.__name__,
    "driver_version": getattr(connection.Database, "__version__", ""),
}))
"""


def _settings(**env: str) -> dict:
    """The settings a fresh process makes of ``env`` (and nothing else of Django's
    environment). Asked once per environment: four tests look at the empty one."""
    return copy.deepcopy(_settings_of(tuple(sorted(env.items()))))


@functools.cache
def _settings_of(items: tuple[tuple[str, str], ...]) -> dict:
    result = run_fresh(
        [sys.executable, "-c", SHOW_SETTINGS],
        hide={"DATABASE_URL", "REDIS_URL"},
        **dict(items),
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_without_database_url_the_app_uses_the_sqlite_file_in_the_project() -> None:
    shown = _settings()

    assert shown["engine"] == "django.db.backends.sqlite3"
    assert Path(shown["name"]) == BASE_DIR / "db.sqlite3"


def test_a_postgres_database_url_selects_postgresql_through_psycopg_3() -> None:
    shown = _settings(DATABASE_URL="postgres://scorer:secret@db.internal:5433/scores")

    assert shown["engine"] == "django.db.backends.postgresql"
    assert (shown["name"], shown["host"]) == ("scores", "db.internal")
    assert shown["driver"] == "psycopg"
    assert shown["driver_version"].startswith("3.")


def test_debug_and_allowed_hosts_follow_the_environment() -> None:
    shown = _settings(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="scores.example.com, www.scores.example.com",
    )

    assert shown["debug"] is False
    assert shown["allowed_hosts"] == ["scores.example.com", "www.scores.example.com"]


def test_development_needs_no_configuration() -> None:
    shown = _settings()

    assert shown["debug"] is True
    assert "127.0.0.1" in shown["allowed_hosts"]


def test_redis_url_gives_every_worker_one_shared_cache() -> None:
    assert _settings()["cache"] == "django.core.cache.backends.locmem.LocMemCache"

    shown = _settings(REDIS_URL="redis://cache.internal:6379/1")

    assert shown["cache"] == "scorekeeper.cache.RedisCache"
    assert shown["cache_location"] == "redis://cache.internal:6379/1"
    # A Redis that hangs costs a request half a second, not a worker.
    assert shown["cache_options"] == {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}


def test_development_prints_mail_on_the_console() -> None:
    assert _settings()["email"]["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"


def test_an_email_url_selects_an_smtp_server() -> None:
    shown = _settings(
        DJANGO_EMAIL_URL="smtp+tls://scores%40example.com:p%40ss%2Fword@smtp.example.com:587",
        DJANGO_DEFAULT_FROM_EMAIL="Scorekeeper <scores@example.com>",
    )["email"]

    assert shown == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "smtp.example.com",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "scores@example.com",
        "EMAIL_HOST_PASSWORD": "p@ss/word",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
        "DEFAULT_FROM_EMAIL": "Scorekeeper <scores@example.com>",
    }


def test_email_settings_one_by_one() -> None:
    shown = _settings(
        DJANGO_EMAIL_HOST="smtp.example.com",
        DJANGO_EMAIL_USER="scores",
        DJANGO_EMAIL_PASSWORD="secret",
    )["email"]

    assert shown["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (shown["EMAIL_HOST"], shown["EMAIL_PORT"], shown["EMAIL_USE_TLS"]) == (
        "smtp.example.com",
        587,
        True,
    )
    assert (shown["EMAIL_HOST_USER"], shown["EMAIL_HOST_PASSWORD"]) == ("scores", "secret")


@pytest.mark.django_db
def test_the_suite_runs_on_the_database_database_url_names() -> None:
    # `DATABASE_URL=postgres://... pytest` must really exercise PostgreSQL, not
    # quietly fall back to SQLite.
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"

    assert connection.vendor == expected


# --- gunicorn and forwarded headers ----------------------------------------------------


@contextmanager
def _gunicorn(tmp_path: Path, **env: str) -> Iterator[int]:
    """The app under gunicorn with the repository's configuration file and production
    settings (the redirect to HTTPS on), on a free port of 127.0.0.1: the address a
    client on the same host (or a proxy) connects from, which gunicorn trusts by
    default. /hello/ is a page that needs neither the database nor collectstatic's
    manifest."""
    environ = production_environment(
        tmp_path, DJANGO_SECURE_SSL_REDIRECT="1", DJANGO_BENCHMARK_ROUTES="1", **env
    )
    with gunicorn(environ, tmp_path, workers=1) as server:
        yield server.port


def _get(port: int, path: str, **headers: str) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def test_a_forwarded_https_header_from_a_client_does_not_skip_the_https_redirect(
    tmp_path: Path,
) -> None:
    with _gunicorn(tmp_path) as port:
        forged = _get(port, "/hello/", **{"X-Forwarded-Proto": "https"})

    assert forged.status == 301
    assert forged.getheader("Location") == f"https://127.0.0.1:{port}/hello/"


def test_behind_a_proxy_its_forwarded_https_header_is_trusted(tmp_path: Path) -> None:
    with _gunicorn(tmp_path, DJANGO_BEHIND_PROXY="1") as port:
        via_proxy = _get(port, "/hello/", **{"X-Forwarded-Proto": "https"})
        plain = _get(port, "/hello/")

    assert via_proxy.status == 200
    assert plain.status == 301  # the proxy said nothing about HTTPS: redirect
