"""The installable app: the web app manifest, the service worker and the
offline page it keeps, and what every page says about them."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client

from games.models import GameSession
from tests.support.builders import play
from tests.support.catalogues import write_catalogue
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def static_file(url: str) -> str:
    found = finders.find(url.removeprefix("/static/"))
    assert isinstance(found, str), f"{url} is not a static file"
    return found


def test_the_manifest_names_the_app_and_its_icons(client: Client) -> None:
    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Scorekeeper"
    assert manifest["short_name"]
    assert manifest["start_url"] == manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    # The bar colour is the header's felt green of base.css.
    css = Path(static_file("/static/css/base.css")).read_text()
    felt = re.search(r"--felt:\s*(#[0-9a-f]{6})", css).group(1)  # the light theme's
    assert manifest["theme_color"] == felt
    assert manifest["background_color"].startswith("#")
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        width, height = png_size(static_file(icon["src"]))
        assert f"{width}x{height}" == icon["sizes"]


def test_the_service_worker_is_served_from_the_root_and_never_from_a_cache(
    client: Client,
) -> None:
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", script).group(1))
    # The offline page in every language, shown in the last page's.
    offline = json.loads(re.search(r"const OFFLINE_PAGES = (\{.*?\});", script).group(1))
    assert offline == {code: f"/offline/?language={code}" for code, _ in django_settings.LANGUAGES}
    assert set(offline.values()) <= set(precache)
    # Every script and stylesheet of the app's own, whichever page loads it.
    own = Path(finders.find("js/events.js")).parent.parent
    for path in [*own.glob("js/*.js"), *own.glob("css/*.css")]:
        if not path.name.startswith("admin."):
            assert f"/static/{path.parent.name}/{path.name}" in precache, path
    for url in precache:
        assert client.get(url).status_code == 200, url
    # POSTs (a round being saved) are left alone: never answered from a cache.
    assert 'if (request.method !== "GET") return;' in script


def test_the_service_worker_changes_when_a_precached_file_does(client: Client, settings) -> None:
    before = client.get("/sw.js").content
    settings.STATIC_URL = "/assets/"  # every precached URL changes

    after = client.get("/sw.js").content

    version = re.compile(rb'const VERSION = "([0-9a-f]+)"')
    assert version.search(before).group(1) != version.search(after).group(1)


def test_the_offline_page_is_the_same_for_everyone_and_says_what_happens(
    client: Client, user
) -> None:
    anonymous = client.get("/offline/")
    client.force_login(user)
    signed_in = client.get("/offline/")

    assert anonymous.status_code == signed_in.status_code == 200
    # One copy is kept on the phone for every page: nothing of the user, no token.
    assert anonymous.content == signed_in.content
    assert b"csrf" not in anonymous.content.lower()
    text = anonymous.content.decode()
    assert (
        "You are offline — rounds typed here are kept on this phone and sent when the "
        "connection returns" in text
    )


def test_every_page_links_the_manifest_and_registers_the_service_worker(scorer: Client) -> None:
    page = scorer.get("/").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest?language=en">' in page
    # The bars take each theme's --felt.
    css = Path(static_file("/static/css/base.css")).read_text()
    light, dark = re.findall(r"--felt:\s*(#[0-9a-f]{6})", css)
    assert (
        f'<meta name="theme-color" content="{light}" media="(prefers-color-scheme: light)">' in page
    )
    assert (
        f'<meta name="theme-color" content="{dark}" media="(prefers-color-scheme: dark)">' in page
    )
    assert '<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">' in page
    assert (
        '<script type="module" src="/static/js/service_worker.js" data-service-worker="/sw.js">'
        in page
    )
    width, height = png_size(static_file("/static/icons/apple-touch-icon.png"))
    assert (width, height) == (180, 180)


def test_round_forms_name_their_session_and_round_for_the_drafts(
    scorer: Client, table: GameSession
) -> None:
    played = play(table, "8S", ROUND_1)

    session_page = scorer.get(f"/sessions/{table.pk}/").content.decode()
    edit_page = scorer.get(f"/sessions/{table.pk}/rounds/{played.pk}/edit/").content.decode()

    assert f'data-draft="session-{table.pk}-round"' in session_page
    assert '<input type="hidden" name="number" value="2">' in session_page
    assert f'data-draft="session-{table.pk}-edit-{played.pk}" data-draft-number="1"' in edit_page


def test_in_production_the_worker_keeps_the_hashed_static_files(
    client: Client, settings, tmp_path
) -> None:
    # Production's storage names each file by its contents (whitenoise's manifest
    # storage, after collectstatic): the worker precaches those names.
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)

    script = client.get("/sw.js").content.decode()
    manifest = json.loads(client.get("/manifest.webmanifest").content)

    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", script).group(1))
    assert any(re.fullmatch(r"/static/js/drafts\.[0-9a-f]{12}\.js", url) for url in precache)
    assert any(re.fullmatch(r"/static/css/base\.[0-9a-f]{12}\.css", url) for url in precache)
    assert all(re.search(r"\.[0-9a-f]{12}\.png$", icon["src"]) for icon in manifest["icons"])


HINDI = {
    "Keeps the score of card games at the table, on every phone.": (
        "हर फ़ोन पर, टेबल पर ताश के खेलों का स्कोर रखता है।"
    ),
    "You are offline": "आप ऑफ़लाइन हैं",
}


def test_the_manifest_speaks_the_language_its_page_names(
    client: Client, tmp_path: Path, settings
) -> None:
    # The browser asks for the manifest without cookies: the page names its language.
    write_catalogue(tmp_path, "hi", HINDI)
    settings.LOCALE_PATHS = [tmp_path]

    hindi = json.loads(client.get("/manifest.webmanifest?language=hi").content)
    english = json.loads(client.get("/manifest.webmanifest?language=en").content)
    unnamed = json.loads(
        client.get("/manifest.webmanifest", headers={"accept-language": "hi"}).content
    )

    assert (hindi["lang"], hindi["dir"]) == ("hi", "ltr")
    assert hindi["description"] == "हर फ़ोन पर, टेबल पर ताश के खेलों का स्कोर रखता है।"
    assert english["lang"] == "en"
    assert english["description"].startswith("Keeps the score")
    # Without one, the browser's language, as any page; the app's name is a name.
    assert unnamed["lang"] == "hi"
    assert hindi["name"] == english["name"] == "Scorekeeper"


def test_the_offline_page_speaks_the_language_its_address_names(
    client: Client, tmp_path: Path, settings
) -> None:
    write_catalogue(tmp_path, "hi", HINDI)
    settings.LOCALE_PATHS = [tmp_path]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the footer's choice: named wins

    response = client.get("/offline/?language=hi")

    text = response.content.decode()
    assert response["Content-Language"] == "hi"
    assert '<html lang="hi"' in text and "आप ऑफ़लाइन हैं" in text
    # Its scripts' words and its manifest in Hindi too.
    assert "/static/jsi18n/hi/djangojs.js" in text
    assert 'href="/manifest.webmanifest?language=hi"' in text
    assert '<html lang="en"' in client.get("/offline/?language=xx").content.decode()
