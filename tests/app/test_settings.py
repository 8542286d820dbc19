"""Production settings, checked in a fresh process so the environment decides them."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    plain = {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"}
    environ = {
        k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k not in plain
    }
    environ.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _production_env(**extra: str) -> dict[str, str]:
    return {
        "DJANGO_ENV": "production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "scores.example.com",
        **extra,
    }


def test_production_settings_pass_the_deployment_checklist() -> None:
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **_production_env())

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = _production_env()
    del env["DJANGO_SECRET_KEY"]

    result = _manage("check", **env)

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_refuses_to_start_without_a_secret_key_even_with_debug_on() -> None:
    # DEBUG=1 must not let production fall back to the published development key.
    env = _production_env(DJANGO_DEBUG="1")
    del env["DJANGO_SECRET_KEY"]

    result = _manage("check", **env)

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_refuses_a_key_that_is_not_a_real_one() -> None:
    published = "django-insecure-dev-only-key-do-not-use-in-production"
    for key in (published, "changeme", "a" * 60):
        result = _manage("check", **_production_env(DJANGO_SECRET_KEY=key, DJANGO_DEBUG="1"))

        assert result.returncode != 0, key
        assert "DJANGO_SECRET_KEY" in result.stderr


def test_collectstatic_builds_hashed_compressed_files(tmp_path: Path) -> None:
    env = _production_env(DJANGO_STATIC_ROOT=str(tmp_path))

    result = _manage("collectstatic", "--noinput", **env)

    assert result.returncode == 0, result.stdout + result.stderr
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())
    hashed_css = manifest["paths"]["css/app.css"]
    assert hashed_css != "css/app.css"
    assert (tmp_path / f"{hashed_css}.gz").exists()


def test_the_plain_variable_names_work_too() -> None:
    # SECRET_KEY, DEBUG and ALLOWED_HOSTS as most hosting guides name them.
    env = {
        "DJANGO_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "scores.example.com",
        "DEBUG": "0",
    }
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **env)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
