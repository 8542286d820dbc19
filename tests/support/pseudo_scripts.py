"""The scripts' catalogue in the pseudo-locale (tests/support/pseudo_locale.py), served
to a browser test in place of the real one.

Every message of the scripts' catalogue (``locale/<code>/LC_MESSAGES/djangojs.po``,
which ``make messages-check`` keeps listing every string the scripts mark) says its
msgid widened, ``%(name)s`` placeholders kept, in the form compilejsi18n writes
(Django's JavaScript catalogue, its own gettext, ngettext and interpolate). A word
the scripts then write in plain English did not pass through gettext.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import polib
from django.conf import settings
from django.views.i18n import JavaScriptCatalog, get_formats
from playwright.sync_api import Page, Route

from scorekeeper import catalogues
from tests.support.pseudo_locale import widened

# Where base.html and offline.html load the page language's catalogue from
# ({% statici18n LANGUAGE_CODE %}: /static/jsi18n/<code>/djangojs.js).
SCRIPTS_CATALOGUE = re.compile(r".*/jsi18n/[^/]+/djangojs\.js$")


def _messages() -> polib.POFile:
    """The first translated language's catalogue: each lists every message (English
    as written in India, "en-in", has none: the source's words)."""
    code = catalogues.translated_languages(settings.LANGUAGES, settings.LANGUAGE_CODE)[0]
    return polib.pofile(str(Path(settings.LOCALE_PATHS[0]) / code / "LC_MESSAGES" / "djangojs.po"))


@cache
def pseudo_catalogue() -> str:
    """The scripts' catalogue as compilejsi18n would write it, every message widened."""
    catalog: dict[str, str | list[str]] = {}
    for entry in _messages():
        key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
        if entry.msgid_plural:
            catalog[key] = [widened(entry.msgid), widened(entry.msgid_plural)]
        else:
            catalog[key] = widened(entry.msgid)
    context = {"catalog": catalog, "formats": get_formats(), "plural": "(n != 1)"}
    return JavaScriptCatalog().render_to_response(context).content.decode()


def serve_pseudo_catalogue(page: Page) -> None:
    """The page's scripts speak the pseudo-locale, whatever the page's language."""

    def fulfil(route: Route) -> None:
        route.fulfill(body=pseudo_catalogue(), content_type="text/javascript; charset=utf-8")

    page.route(SCRIPTS_CATALOGUE, fulfil)
