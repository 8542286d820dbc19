"""Static files are served by the app itself (WhiteNoise), htmx among them: every
script a page loads comes from this server, none from a CDN."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_whitenoise_serves_the_stylesheet_without_a_separate_static_server(
    client: Client,
) -> None:
    # Django's test client goes through the middleware only: a 200 here comes from
    # WhiteNoiseMiddleware, not from runserver's static view.
    response = client.get("/static/css/base.css")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert type(response).__module__.startswith("whitenoise")
    assert b".site-header" in b"".join(response.streaming_content)


def test_every_script_of_a_page_comes_from_this_server(client: Client) -> None:
    html = client.get(reverse("login")).content.decode()

    sources = re.findall(r'<script[^>]*\bsrc="([^"]+)"', html)

    assert any("django_htmx/htmx" in src for src in sources)
    for src in sources:
        assert src.startswith("/static/"), src  # no CDN, no other host
        response = client.get(src)
        assert response.status_code == 200, src
    htmx = next(src for src in sources if "django_htmx/htmx" in src)
    assert b"htmx" in b"".join(client.get(htmx).streaming_content)


def test_in_production_the_modules_import_each_other_by_their_fingerprinted_names(
    settings, tmp_path: Path
) -> None:
    # A module loaded by its fingerprinted name that imported its neighbours by their
    # plain names would load a second copy of each (its listeners twice), cached apart
    # from the files it came with.
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "scorekeeper.storage.StaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)

    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    fingerprinted = {Path(hashed).name for name, hashed in paths.items() if name.startswith("js/")}
    imported = {
        name: re.findall(r'^import .* from "\./([^"]+)";$', (tmp_path / hashed).read_text(), re.M)
        for name, hashed in paths.items()
        if name.startswith("js/")
    }
    assert imported["js/drafts.js"]  # the drafts build on the store, the forms and the queue
    for name, targets in imported.items():
        assert set(targets) <= fingerprinted, (
            f"{name} imports {sorted(set(targets) - fingerprinted)} by their plain names: "
            "scorekeeper/storage.py's entry of HashedFilesMixin.patterns no longer "
            "rewrites them (read how Django's own JavaScript module patterns are written now)"
        )


def test_every_script_stays_short_enough_to_hold_in_mind() -> None:
    # One feature a module (static/js/events.js orders those that share an event).
    scripts = Path(__file__).resolve().parents[2] / "static" / "js"
    long = {
        path.name: n
        for path in scripts.glob("*.js")
        if (n := len(path.read_text().splitlines())) > 400
    }
    assert long == {}
