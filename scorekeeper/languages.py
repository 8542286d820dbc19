"""The language of each answer, after Django's LocaleMiddleware.

LocaleMiddleware has already taken the footer's choice (Django's language cookie),
else the browser's Accept-Language, else English. This adds the two choices the
database keeps, in this order (docs/inside/languages.md):

1. the language saved on the signed-in account;
2. the footer's choice (the cookie: LocaleMiddleware's, kept);
3. the league's language, on that league's pages (games/services/languages.py);
4. the browser's, else English (LocaleMiddleware's, kept).

**A request htmx makes for a page** (a live poll, a form answered in place) is
answered in that page's language, which base.html sends with each of them
(``X-Page-Language``): a fragment in another language than the page around it would
read as a fault. The database is not asked: a poll with nothing new is answered from
the cache alone (games/live.py), and stays so. A request without the header keeps
LocaleMiddleware's language.

Every answer varies with the cookies (the language cookie, the sign-in) and, for
htmx, with the page's language, so a cache in between never hands a page in one
language to a browser that asked for another (LocaleMiddleware adds
Accept-Language).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from games.services.languages import account_language, league_language_for, supported

# The header base.html's hx-headers sends with every htmx request: the page's language.
PAGE_LANGUAGE_HEADER = "X-Page-Language"


def _from_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _asked(look_up: Callable[[], str]) -> str:
    """A language the database keeps, or none while it cannot answer: the page (the
    health check, the error page) says what failed, not this middleware."""
    try:
        return look_up()
    except DatabaseError:
        return ""


def _activate(request: HttpRequest, language: str) -> None:
    translation.activate(language)
    request.LANGUAGE_CODE = language


class LanguageMiddleware:
    """After AuthenticationMiddleware (the account) and LocaleMiddleware. The account's
    language is taken before the view is found, so that a page that is not found
    speaks it too; the league's once the view is known (``process_view``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        htmx = _from_htmx(request)
        if htmx:
            language = supported(request.headers.get(PAGE_LANGUAGE_HEADER))
        else:
            language = _asked(lambda: account_language(request.user))
        if language:
            _activate(request, language)
        # The league's language is for a page whose language nothing else set.
        request.league_may_choose_language = not (
            htmx or language or supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        )
        response = self.get_response(request)
        patch_vary_headers(response, ("Cookie", PAGE_LANGUAGE_HEADER) if htmx else ("Cookie",))
        return response

    def process_view(self, request: HttpRequest, view, args, kwargs) -> None:
        match = request.resolver_match
        if request.league_may_choose_language and match is not None:
            language = _asked(lambda: league_language_for(match.view_name, kwargs, request.user))
            if language:
                _activate(request, language)
