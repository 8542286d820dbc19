"""docker/entrypoint.sh, run on this machine as the image runs it (with SQLite and a
stand-in gunicorn): the host settings derived from DOMAIN, the migration and first
admin before serving only, and the command run at the end."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.support.processes import run_fresh

ENTRYPOINT = "docker/entrypoint.sh"
VENV_BIN = str(Path(sys.executable).parent)


@pytest.fixture
def image_like(tmp_path: Path) -> dict[str, str]:
    """The environment of the image, here: `python` the project's, a gunicorn that
    only says it was started, and a database of the test's own."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    gunicorn = bin_dir / "gunicorn"
    gunicorn.write_text('#!/bin/sh\necho "gunicorn started with: $*"\n')
    gunicorn.chmod(0o755)
    return {
        "PATH": os.pathsep.join([str(bin_dir), VENV_BIN, "/usr/bin", "/bin"]),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }


def environment_after(env: dict[str, str]) -> dict[str, str]:
    """The environment the entrypoint hands its command."""
    answer = run_fresh(["sh", ENTRYPOINT, "env"], hide=["DOMAIN"], **env)
    assert answer.returncode == 0, answer.stderr
    return dict(line.split("=", 1) for line in answer.stdout.splitlines() if "=" in line)


def test_a_domain_gives_its_host_and_https_origin(image_like: dict[str, str]) -> None:
    env = environment_after(image_like | {"DOMAIN": "scores.example.org"})

    assert env["DJANGO_ALLOWED_HOSTS"] == "scores.example.org"
    assert env["DJANGO_CSRF_TRUSTED_ORIGINS"] == "https://scores.example.org"
    # HTTPS redirect, HTTPS-only cookies and HSTS stay production's defaults: on.
    assert "DJANGO_SECURE_SSL_REDIRECT" not in env
    assert "DJANGO_SECURE_COOKIES" not in env
    assert "DJANGO_HSTS_SECONDS" not in env


def test_no_domain_is_plain_http_on_localhost(image_like: dict[str, str]) -> None:
    env = environment_after(image_like | {"DOMAIN": ""})

    assert env["DJANGO_ALLOWED_HOSTS"] == "localhost,127.0.0.1,[::1]"
    assert env["DJANGO_CSRF_TRUSTED_ORIGINS"] == "http://localhost"
    # Over plain HTTP a redirect to HTTPS, or cookies sent only over HTTPS, would let
    # nobody in.
    assert env["DJANGO_SECURE_SSL_REDIRECT"] == "0"
    assert env["DJANGO_SECURE_COOKIES"] == "0"
    assert env["DJANGO_HSTS_SECONDS"] == "0"


def test_settings_made_explicitly_are_kept(image_like: dict[str, str]) -> None:
    env = environment_after(
        image_like
        | {
            "DOMAIN": "scores.example.org",
            "DJANGO_ALLOWED_HOSTS": "scores.example.org,www.scores.example.org",
            "DJANGO_CSRF_TRUSTED_ORIGINS": "https://www.scores.example.org",
        }
    )

    assert env["DJANGO_ALLOWED_HOSTS"] == "scores.example.org,www.scores.example.org"
    assert env["DJANGO_CSRF_TRUSTED_ORIGINS"] == "https://www.scores.example.org"


def test_another_command_neither_migrates_nor_makes_an_admin(
    image_like: dict[str, str], tmp_path: Path
) -> None:
    answer = run_fresh(
        ["sh", ENTRYPOINT, "python", "-c", "print('the backup ran')"],
        **image_like,
        DJANGO_SUPERUSER_USERNAME="admin",
        DJANGO_SUPERUSER_PASSWORD="a-long-admin-password",
    )

    assert answer.returncode == 0, answer.stderr
    assert "the backup ran" in answer.stdout
    tables = sqlite3.connect(tmp_path / "db.sqlite3").execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'"
    )
    assert tables.fetchall() == []


def test_the_server_migrates_and_makes_the_first_admin_once(
    image_like: dict[str, str], tmp_path: Path
) -> None:
    admin = {
        "DJANGO_SUPERUSER_USERNAME": "asha",
        "DJANGO_SUPERUSER_EMAIL": "asha@example.org",
        "DJANGO_SUPERUSER_PASSWORD": "a-long-admin-password",
    }
    command = ["sh", ENTRYPOINT, "gunicorn", "-c", "gunicorn.conf.py"]

    first = run_fresh(command, **image_like, **admin)
    again = run_fresh(command, **image_like, **admin)

    assert first.returncode == 0, first.stderr
    assert "Superuser created successfully." in first.stdout
    assert "gunicorn started with: -c gunicorn.conf.py" in first.stdout
    assert again.returncode == 0, again.stderr
    assert "The admin account asha exists; left as it is." in again.stdout
    assert "gunicorn started with" in again.stdout
    database = sqlite3.connect(tmp_path / "db.sqlite3")
    admins = database.execute("SELECT username, email, is_superuser FROM auth_user").fetchall()
    assert admins == [("asha", "asha@example.org", 1)]


def test_a_database_that_never_answers_stops_the_start(image_like: dict[str, str]) -> None:
    answer = run_fresh(
        ["sh", ENTRYPOINT, "gunicorn"],
        **image_like | {"DATABASE_URL": "postgres://club@127.0.0.1:9/scores"},
        DATABASE_WAIT_SECONDS="1",
    )

    assert answer.returncode != 0
    assert "did not answer within 1 s" in answer.stderr
    assert "gunicorn started" not in answer.stdout
