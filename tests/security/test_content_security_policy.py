"""A Content-Security-Policy on every page: scripts only from the
app's own files, so text a player typed can never run as script even if it slipped
past escaping; no plugins, no framing, forms post only to the app."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import OperationalError
from django.test import Client, override_settings
from django.urls import path

from tests.support.access_matrix import MATRIX, path_of
from tests.support.world import ACTORS, World

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html")) + sorted(
    (ROOT / "games").rglob("templates/**/*.html")
)


def policy_of(response) -> dict[str, list[str]]:
    header = response.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.status_code} {response.request}"
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


def assert_strict(policy: dict[str, list[str]]) -> None:
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    # The service worker and the web app manifest: the app's own, from nowhere else.
    assert policy["worker-src"] == ["'self'"]
    assert policy["manifest-src"] == ["'self'"]


def _pages():
    """Every URL of the access matrix that answers a GET, as an actor who may see it."""
    for key, spec in MATRIX.items():
        for case in spec.methods.get("GET", ()):
            actor = next((actor for actor in ACTORS if case.expect[actor] == 200), None)
            if actor is not None:
                yield pytest.param(key, actor, id=key)


@pytest.mark.parametrize(("key", "actor"), list(_pages()))
def test_every_page_carries_the_policy(world: World, key: str, actor: str) -> None:
    response = world.client(actor).get(path_of(world, key, MATRIX[key].on))

    assert response.status_code == 200
    policy = policy_of(response)
    if not response["Content-Type"].startswith("text/html"):
        # A chart, a CSV, a league file: no script may run in it either, even when
        # it is opened on its own (the SVG charts carry a stricter policy of theirs).
        scripts = policy.get("script-src", policy.get("default-src"))
        assert set(scripts) <= {"'self'", "'none'"}, policy
        return
    assert_strict(policy)
    # The templates carry no style attribute or style element (htmx's own indicator
    # style is switched off in base.html): styles come from static/css too.
    assert policy["style-src"] == ["'self'"]


def test_refusals_and_missing_pages_carry_it_too(world: World, user) -> None:
    missing = world.client("owner").get("/sessions/999999/")
    assert missing.status_code == 404
    assert_strict(policy_of(missing))

    client = Client()
    for _ in range(6):
        locked = client.post(
            "/accounts/login/",
            {"username": user.username, "password": "wrong"},
            REMOTE_ADDR="10.7.7.7",
        )
    assert locked.status_code == 429
    assert_strict(policy_of(locked))


def broken(request):
    raise RuntimeError("a bug")


def database_away(request):
    raise OperationalError("connection refused")


urlpatterns = [path("broken/", broken), path("database/", database_away)]
handler500 = "scorekeeper.errors.server_error"


@override_settings(ROOT_URLCONF=__name__)
def test_the_error_pages_keep_scripts_out() -> None:
    # They style themselves with a <style> block of their own (they must not need a
    # static file when things are failing), so only their style rule is relaxed.
    client = Client(raise_request_exception=False)
    for url, status in (("/broken/", 500), ("/database/", 503)):
        response = client.get(url)

        assert response.status_code == status
        policy = policy_of(response)
        assert_strict(policy)
        assert "'unsafe-inline'" in policy["style-src"]


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[^>]*\sstyle\s*=", re.I)
ERROR_PAGES = {"500.html", "database.html"}


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_holds_inline_script_or_styles(template: Path) -> None:
    text = template.read_text()

    assert not INLINE_SCRIPT.findall(text), "inline <script>: move it to a module in static/js"
    assert not HANDLER.findall(text), "an on...= handler attribute: listen in a module of static/js"
    assert "javascript:" not in text.lower()
    if template.name not in ERROR_PAGES:
        assert not STYLE_ATTRIBUTE.findall(text), "a style attribute: use a class in static/css"
        assert "<style" not in text.lower()


def test_the_header_built_once_is_django_csps_own_and_follows_the_settings(scorer) -> None:
    # scorekeeper/csp.py keeps the header instead of building it per response: the
    # same text django-csp builds, and a new one when the settings change.
    from csp.utils import build_policy

    poll = scorer.get("/hello/")
    assert poll["Content-Security-Policy"] == build_policy()

    strict = {"DIRECTIVES": {"default-src": ["'none'"]}}
    report = {"DIRECTIVES": {"default-src": ["'self'"], "report-uri": "/csp/"}}
    with override_settings(CONTENT_SECURITY_POLICY=strict):
        assert scorer.get("/hello/")["Content-Security-Policy"] == "default-src 'none'"
    with override_settings(CONTENT_SECURITY_POLICY_REPORT_ONLY=report):
        only = scorer.get("/hello/")
        assert only["Content-Security-Policy-Report-Only"] == build_policy(report_only=True)
    assert scorer.get("/hello/")["Content-Security-Policy"] == build_policy()
    assert "Content-Security-Policy-Report-Only" not in scorer.get("/hello/")
