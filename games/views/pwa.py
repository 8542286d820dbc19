"""The installable app: the web app manifest, the service worker and the page it shows
when the network is gone. All three are public and hold nothing of the user, so the
service worker may keep the offline page and the static files, and nothing else.

The manifest and the offline page speak the language of the page that links them,
which names it in their address (``?language=hi``): the browser fetches a manifest
without cookies, and the service worker keeps one offline page per language and
shows the one of the last page it saw (templates/pwa/sw.js). Without the parameter
(an old link, a person typing the address) they follow the request's language as any
page does. The app's name is not translated: it is a name, as the pages' titles say
it ("· Scorekeeper")."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import translation
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.services.languages import supported

# The app's name and colours: the light theme's --felt of static/css/base.css for the
# browser's bars (base.html gives the dark theme's too), --paper for the splash screen.
APP_NAME = "Scorekeeper"
THEME_COLOR = "#14532d"
BACKGROUND_COLOR = "#fbfaf7"

ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)

# The app's own scripts and stylesheets, all of them (each page loads those it uses;
# tests/views/test_pwa.py checks that none is missed), kept by the service worker at
# install so a page opened without a network still has its styles and scripts. The
# icons come along for the offline page and the home screen. The admin's own files
# stay out: the admin is not used offline.
PRECACHED_STATIC = (
    "css/base.css",
    "css/forms.css",
    "css/outages.css",
    "css/score_table.css",
    "css/round_form.css",
    "css/picker.css",
    "css/session.css",
    "css/history.css",
    "css/table_mode.css",
    "css/table_view.css",
    "css/leagues.css",
    "css/links.css",
    "css/standings.css",
    "css/charts-dark.css",
    "django_htmx/htmx-2.min.js",
    "js/cards.js",
    "js/check.js",
    "js/counts.js",
    "js/draft_forms.js",
    "js/draft_queue.js",
    "js/draft_store.js",
    "js/drafts.js",
    "js/events.js",
    "js/fields.js",
    "js/house_rules.js",
    "js/league_import.js",
    "js/live.js",
    "js/night.js",
    "js/offline_page.js",
    "js/outages.js",
    "js/picker.js",
    "js/picker_keyboard.js",
    "js/picker_place.js",
    "js/picker_problems.js",
    "js/problems.js",
    "js/seats.js",
    "js/service_worker.js",
    "js/share.js",
    "js/sign_out.js",
    "js/table_seat.js",
    "js/i18n.js",
    # The scripts' words, in every language: the offline page loads its own.
    *(f"jsi18n/{code}/djangojs.js" for code, _ in settings.LANGUAGES),
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/icon-maskable-512.png",
    "icons/apple-touch-icon.png",
)


def in_language(name: str, language: str) -> str:
    """The address of the manifest or the offline page in ``language``."""
    return f"{reverse(name)}?{urlencode({'language': language})}"


def _asked_language(request: HttpRequest) -> str:
    """The language the address names (``?language=``), made the request's; else the
    request's own (LocaleMiddleware's and scorekeeper.languages')."""
    language = supported(request.GET.get("language"))
    if language:
        translation.activate(language)
        request.LANGUAGE_CODE = language
    return translation.get_language()


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: what a phone needs to install the app on its home screen,
    its words in the language of the page that links it."""
    language = _asked_language(request)
    data = {
        "name": APP_NAME,
        "short_name": APP_NAME,
        "description": _("Keeps the score of card games at the table, on every phone."),
        "lang": language,
        "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {
                "src": staticfiles_storage.url(name),
                "sizes": size,
                "type": "image/png",
                "purpose": why,
            }
            for name, size, why in ICONS
        ],
    }
    response = JsonResponse(data, json_dumps_params={"indent": 2})
    response["Content-Type"] = "application/manifest+json"
    return response


def _version(urls: list[str], offline_pages: list[str]) -> str:
    """Changes whenever a precached file does: production's hashed names change with
    their contents, and outside production (plain names) the files' bytes are read, so
    a new service worker (and a fresh cache) follows any change either way."""
    digest = hashlib.sha256("\n".join(urls).encode())
    for page in offline_pages:
        digest.update(page.encode())
    for name in PRECACHED_STATIC:
        found = finders.find(name)
        if isinstance(found, str):
            with open(found, "rb") as file:
                digest.update(file.read())
    return digest.hexdigest()[:16]


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site's root so its scope is the whole app.
    It keeps the offline page in every language."""
    languages = [code for code, _name in settings.LANGUAGES]
    offline_pages = {code: in_language("games:offline", code) for code in languages}
    rendered = []
    for code in languages:
        with translation.override(code):
            rendered.append(render_to_string("offline.html"))
    urls = [staticfiles_storage.url(name) for name in PRECACHED_STATIC]
    context = {
        "version": _version(urls, rendered),
        "offline_pages": json.dumps(offline_pages),
        "default_language": json.dumps(settings.LANGUAGE_CODE),
        "precache": json.dumps([*urls, *offline_pages.values()]),
        "static_prefix": json.dumps(staticfiles_storage.base_url),
    }
    response = HttpResponse(
        render_to_string("pwa/sw.js", context), content_type="text/javascript; charset=utf-8"
    )
    # Browsers check for a new worker on navigation; always from the server.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request: HttpRequest) -> TemplateResponse:
    """What the service worker shows for a page asked for without a network. The same
    bytes for everyone (no CSRF token, no user), since one copy of each language is
    kept on the phone."""
    _asked_language(request)
    return TemplateResponse(request, "offline.html")
