"""/healthz (scorekeeper/health.py): 200 while the database and the cache both answer,
503 naming the one that does not, in JSON with the app's version; no sign-in, no
redirect to HTTPS, never kept by a cache."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from scorekeeper import __version__

pytestmark = pytest.mark.django_db

# Redis at a port nobody listens on: every command is refused at once.
NO_REDIS = {
    "default": {
        "BACKEND": "scorekeeper.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


def test_a_healthy_site_answers_200_with_its_version(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "status": "ok",
        "version": __version__,
        "database": "ok",
        "cache": "ok",
    }
    assert "no-store" in response["Cache-Control"]


def test_it_asks_the_database_a_real_query(client: Client) -> None:
    with CaptureQueriesContext(connection) as queries:
        client.get("/healthz")

    assert [query["sql"] for query in queries] == ["SELECT 1"]


def test_a_database_that_fails_answers_503_naming_it(client: Client) -> None:
    lost = OperationalError('connection to server at "db.internal" (10.0.0.7) failed')

    with mock.patch.object(connection, "cursor", side_effect=lost):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "version": __version__,
        "database": "error: OperationalError",
        "cache": "ok",
    }
    # Where the database lives is for the server's log, not for whoever asked.
    assert b"db.internal" not in response.content


def test_a_cache_that_fails_answers_503_naming_it(client: Client) -> None:
    with override_settings(CACHES=NO_REDIS):
        response = client.get("/healthz")

    assert response.status_code == 503
    shown = response.json()
    assert (shown["status"], shown["database"]) == ("error", "ok")
    assert shown["cache"].startswith("error: ")
    assert shown["version"] == __version__


def test_a_cache_that_loses_what_it_was_given_answers_503(client: Client) -> None:
    with mock.patch("scorekeeper.health.cache.get", return_value=None):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["cache"] == "error: RuntimeError"


def test_no_redirect_to_https_for_it_and_only_for_it() -> None:
    with override_settings(SECURE_SSL_REDIRECT=True):
        client = Client()  # its middleware reads the setting when it first answers
        health = client.get("/healthz")
        page = client.get("/accounts/login/")

    assert health.status_code == 200
    assert page.status_code == 301


def test_it_answers_head_and_refuses_writes(client: Client) -> None:
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405
