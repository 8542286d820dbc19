"""Production settings, checked in a fresh process so the environment decides them."""

from __future__ import annotations

import json
import re
import secrets
import subprocess
import sys
from pathlib import Path

from tests.support.processes import run_fresh


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "manage.py", *args], **env)


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "-c", code], **env)


def _run(command: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """``command`` in a fresh process that sees only ``env`` of the Django settings."""
    return run_fresh(
        command, hide={"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"}, **env
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


# What a browser gets from the production app after collectstatic: the sign-in page
# and the stylesheet it links, asked for with gzip, over HTTPS.
_FETCH_STATIC = """
import json, re, django
django.setup()
from django.test import Client
client = Client(HTTP_HOST="scores.example.com")
page = client.get("/accounts/login/", secure=True).content.decode()
href = re.search(r'<link rel="stylesheet" href="([^"]+)"', page).group(1)
sheet = client.get(href, secure=True, HTTP_ACCEPT_ENCODING="gzip")
print(json.dumps({
    "href": href,
    "status": sheet.status_code,
    "cache_control": sheet.get("Cache-Control", ""),
    "encoding": sheet.get("Content-Encoding", ""),
}))
"""


def test_static_files_are_fingerprinted_compressed_and_cached_for_good(tmp_path: Path) -> None:
    # A phone keeps the stylesheet for a year, and still gets a new one the moment it
    # changes: its address carries a hash of its content.
    env = _production_env(DJANGO_STATIC_ROOT=str(tmp_path))
    result = _manage("collectstatic", "--noinput", **env)
    assert result.returncode == 0, result.stdout + result.stderr
    hashed_css = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]["css/base.css"]

    fetched = _python(_FETCH_STATIC, DJANGO_SETTINGS_MODULE="scorekeeper.settings", **env)

    assert fetched.returncode == 0, fetched.stdout + fetched.stderr
    served = json.loads(fetched.stdout.strip().splitlines()[-1])
    assert served["href"] == f"/static/{hashed_css}"  # the page links the fingerprinted file
    assert served["status"] == 200
    assert "immutable" in served["cache_control"]
    max_age = int(re.search(r"max-age=(\d+)", served["cache_control"]).group(1))
    assert max_age >= 365 * 24 * 3600
    assert served["encoding"] == "gzip"


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


# --- A club admin's switches -----------------------------------------------------------

_SHOW = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({name: getattr(settings, name, None) for name in (
    "TIME_ZONE", "SIGNUPS", "ADMINS", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD", "BENCHMARK_ROUTES", "SILENCED_SYSTEM_CHECKS",
)}))
"""


def _shown(**env: str) -> dict:
    result = _python(_SHOW, DJANGO_SETTINGS_MODULE="scorekeeper.settings", **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


# What the production app makes of each path: whether it is routed, and the status and
# HSTS header a browser gets (a path starting "http:" asked over plain HTTP), as JSON.
# The database is the test's own file.
_FETCH = """
import json, sys, django
django.setup()
from django.test import Client
from django.urls import Resolver404, resolve
client = Client(HTTP_HOST="scores.example.com")
answers = {}
for asked in sys.argv[1:]:
    path = asked.removeprefix("http:")
    try:
        routed = bool(resolve(path))
    except Resolver404:
        routed = False
    answers[asked] = {"routed": routed}
    if routed:  # Django's 404 page needs collectstatic's manifest in production
        response = client.get(path, secure=path == asked)
        answers[asked] |= {
            "status": response.status_code,
            "hsts": response.get("Strict-Transport-Security", ""),
        }
print(json.dumps(answers))
"""


def _fetch(tmp_path: Path, *paths: str, **env: str) -> dict:
    command = [sys.executable, "-c", _FETCH, *paths]
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    result = _run(
        command, DJANGO_SETTINGS_MODULE="scorekeeper.settings", DATABASE_URL=database, **env
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_clubs_time_zone_is_the_sites() -> None:
    assert _shown(**_production_env(DJANGO_TIME_ZONE="Asia/Kolkata"))["TIME_ZONE"] == (
        "Asia/Kolkata"
    )
    assert _shown(**_production_env())["TIME_ZONE"] == "UTC"


def test_a_time_zone_that_is_not_one_stops_the_start_naming_the_variable() -> None:
    for name in ("India/Kolkata", "UTC+5:30", "../../etc/passwd"):
        result = _manage("check", **_production_env(DJANGO_TIME_ZONE=name))

        assert result.returncode != 0, name
        assert "DJANGO_TIME_ZONE" in result.stderr, name
        assert name in result.stderr, name


def test_sign_ups_are_open_unless_the_admin_says_by_invite() -> None:
    assert _shown(**_production_env())["SIGNUPS"] == "open"
    assert _shown(**_production_env(DJANGO_SIGNUPS="invite"))["SIGNUPS"] == "invite"
    assert _shown(**_production_env(DJANGO_SIGNUPS=" Invite "))["SIGNUPS"] == "invite"


def test_a_sign_up_mode_that_is_not_one_stops_the_start_naming_the_variable() -> None:
    for mode in ("closed", "invite-only", "0"):
        result = _manage("check", **_production_env(DJANGO_SIGNUPS=mode))

        assert result.returncode != 0, mode
        assert "DJANGO_SIGNUPS" in result.stderr, mode


def test_admins_are_read_with_or_without_names() -> None:
    env = _production_env(DJANGO_ADMINS="Asha Rao <asha@example.org>, ravi@example.org, ")

    assert _shown(**env)["ADMINS"] == [["Asha Rao", "asha@example.org"], ["", "ravi@example.org"]]
    assert _shown(**_production_env())["ADMINS"] == []


def test_an_admin_list_that_is_not_one_stops_the_start_naming_the_variable() -> None:
    for admins in ("Asha asha@example.org", "asha@", "Asha <asha@example.org", "Asha <>"):
        result = _manage("check", **_production_env(DJANGO_ADMINS=admins))

        assert result.returncode != 0, admins
        assert "DJANGO_ADMINS" in result.stderr, admins


_BREAK_A_PAGE = """
import json, sys, types, django
django.setup()
from django.core import mail
from django.test import Client, override_settings
from django.test.utils import setup_test_environment
from django.urls import path

setup_test_environment()  # mail kept in mail.outbox, as Django's tests keep it

def broken(request):
    raise RuntimeError("a bug in a view")

urls = types.ModuleType("broken_urls")
urls.urlpatterns = [path("broken/", broken)]
urls.handler500 = "scorekeeper.errors.server_error"
sys.modules["broken_urls"] = urls
with override_settings(ROOT_URLCONF="broken_urls"):
    response = Client(raise_request_exception=False).get("/broken/", secure=True)
print(json.dumps({
    "status": response.status_code,
    "mails": [{"to": m.to, "subject": m.subject, "body": m.body} for m in mail.outbox],
}))
"""


def test_a_server_error_is_mailed_to_the_admins() -> None:
    env = _production_env(DJANGO_ADMINS="Asha <asha@example.org>, ravi@example.org")

    result = _python(_BREAK_A_PAGE, DJANGO_SETTINGS_MODULE="scorekeeper.settings", **env)

    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout.strip().splitlines()[-1])
    assert shown["status"] == 500
    [sent] = shown["mails"]
    assert sent["to"] == ["asha@example.org", "ravi@example.org"]
    assert "/broken/" in sent["subject"]
    assert "a bug in a view" in sent["body"]


def test_hsts_covers_only_the_sites_own_domain_unless_asked() -> None:
    shown = _shown(**_production_env())

    assert shown["SECURE_HSTS_SECONDS"] == 31_536_000
    assert shown["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    assert shown["SECURE_HSTS_PRELOAD"] is False


def test_the_hsts_header_names_subdomains_and_preload_only_when_asked(tmp_path: Path) -> None:
    plain = _fetch(tmp_path, "/healthz", **_production_env())
    both = _fetch(
        tmp_path,
        "/healthz",
        **_production_env(DJANGO_HSTS_INCLUDE_SUBDOMAINS="1", DJANGO_HSTS_PRELOAD="1"),
    )

    assert plain["/healthz"]["hsts"] == "max-age=31536000"
    assert both["/healthz"]["hsts"] == "max-age=31536000; includeSubDomains; preload"


def test_the_deployment_checklist_is_clean_with_subdomains_and_preload_on_too() -> None:
    env = _production_env(DJANGO_HSTS_INCLUDE_SUBDOMAINS="1", DJANGO_HSTS_PRELOAD="1")

    result = _manage("check", "--deploy", "--fail-level", "WARNING", **env)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_benchmarks_floor_is_routed_in_production_only_when_asked(tmp_path: Path) -> None:
    production = _fetch(tmp_path, "/hello/", **_production_env())
    benchmark = _fetch(tmp_path, "/hello/", **_production_env(DJANGO_BENCHMARK_ROUTES="1"))
    development = _shown()

    assert production["/hello/"] == {"routed": False}
    assert benchmark["/hello/"] == {"routed": True, "status": 200, "hsts": "max-age=31536000"}
    assert development["BENCHMARK_ROUTES"] is True
    assert _shown(**_production_env())["BENCHMARK_ROUTES"] is False


def test_the_health_route_answers_over_plain_http_in_production(tmp_path: Path) -> None:
    # A container's health check asks the app itself, not through the HTTPS proxy.
    answers = _fetch(tmp_path, "http:/healthz", "http:/accounts/login/", **_production_env())

    assert answers["http:/healthz"]["status"] == 200
    assert answers["http:/accounts/login/"]["status"] == 301  # anything else: to HTTPS


def test_migrate_on_sqlite_warns_of_nothing(tmp_path: Path) -> None:
    # Two indexes with include= are kept without their extra columns on SQLite: Django's
    # models.W040 says so on every migrate, which an admin reads as an error.
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"

    migrated = _manage("migrate", "--noinput", DATABASE_URL=database)
    checked = _manage("check", "--database", "default", DATABASE_URL=database)

    assert migrated.returncode == 0, migrated.stderr
    assert "W040" not in migrated.stdout + migrated.stderr
    assert "WARNINGS" not in migrated.stdout + migrated.stderr
    assert checked.returncode == 0, checked.stderr
    assert "W040" not in checked.stdout + checked.stderr
    assert "no issues" in checked.stdout


def test_on_postgresql_the_covering_index_check_stays_on() -> None:
    shown = _shown(DATABASE_URL="postgres://scorer:secret@db.internal:5432/scores")

    assert "models.W040" not in shown["SILENCED_SYSTEM_CHECKS"]
    # The SQLite file of the project, whatever database this test run itself uses.
    on_sqlite = _shown(DATABASE_URL="sqlite:///db.sqlite3")
    assert "models.W040" in on_sqlite["SILENCED_SYSTEM_CHECKS"]


# --- A value its variable cannot take stops the start, naming the variable ------------


def _refused(**env: str) -> str:
    """What `manage.py check` says, refusing to start in production with ``env``."""
    result = _manage("check", **_production_env(**env))
    assert result.returncode != 0, result.stdout
    return result.stderr


def test_a_switch_that_is_neither_on_nor_off_stops_the_start() -> None:
    # A typo used to turn the redirect to HTTPS quietly off.
    said = _refused(DJANGO_SECURE_SSL_REDIRECT="ture")

    assert "DJANGO_SECURE_SSL_REDIRECT: 'ture' is neither on nor off" in said


def test_a_number_that_is_not_one_stops_the_start() -> None:
    # It used to be a bare ValueError from int() that named no variable.
    said = _refused(DJANGO_HSTS_SECONDS="1y")

    assert "DJANGO_HSTS_SECONDS: '1y' is not a whole number" in said


def test_a_database_url_that_is_not_one_stops_the_start_keeping_its_password() -> None:
    said = _refused(DATABASE_URL="postgres://scorer:s3cret@db.internal:54x2/scores")

    assert "DATABASE_URL" in said
    assert "s3cret" not in said


def test_a_redis_url_that_is_not_one_stops_the_start_keeping_its_password() -> None:
    said = _refused(REDIS_URL="http://:s3cret@cache.internal:6379/0")

    assert "REDIS_URL: not a Redis URL" in said
    assert "s3cret" not in said


def test_an_email_url_that_is_not_one_stops_the_start_keeping_its_password() -> None:
    for url in (
        "smpt://scores:s3cret@smtp.example.org",
        "smtps://scores:s3cret@smtp.example.org:46S",
    ):
        said = _refused(DJANGO_EMAIL_URL=url)

        assert "DJANGO_EMAIL_URL" in said, url
        assert "s3cret" not in said, url


def test_a_blank_environment_name_is_refused_not_taken_for_development() -> None:
    # The image says production; an empty DJANGO_ENV= line in .env must not undo it.
    said = _refused(DJANGO_ENV="")

    assert "DJANGO_ENV" in said


def test_switches_take_any_case_and_spaces_and_blank_is_the_default() -> None:
    assert _shown(**_production_env(DJANGO_HSTS_PRELOAD=" TRUE "))["SECURE_HSTS_PRELOAD"] is True
    assert _shown(**_production_env(DJANGO_BENCHMARK_ROUTES="Yes"))["BENCHMARK_ROUTES"] is True
    assert _shown(**_production_env(DJANGO_BENCHMARK_ROUTES="off"))["BENCHMARK_ROUTES"] is False
    shown = _shown(**_production_env(DJANGO_HSTS_SECONDS="", DJANGO_HSTS_PRELOAD=""))
    assert (shown["SECURE_HSTS_SECONDS"], shown["SECURE_HSTS_PRELOAD"]) == (31_536_000, False)
