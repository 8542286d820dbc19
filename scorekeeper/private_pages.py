"""A phone passed round the table must not show the last account's pages: after a
sign-out, Back (or a page reopened from history) could bring a signed-in page out of
the browser's cache, its league's scores, its members, its share links.

So every HTML answer to a signed-in request carries ``Cache-Control: no-store``: the
browser keeps no copy on disk, and Chrome and Safari drop such a page from the
back/forward cache once the sign-in cookie changes. The sign-out's own answer carries
``Clear-Site-Data: "cache"``, for what an earlier version of the app let the browser
keep. Chrome's clearing of its cache can take a second or more on a phone whose cache
is large; the sign-out waits for it, once.

Anonymous pages keep whatever caching their views chose (a share link's page is
never stored either: games/http.py). The service worker (templates/pwa/sw.js) keeps no
page of anyone's, only the static files and the offline page, and the "cache" type
leaves its Cache Storage alone (that is the "storage" type), so offline pages still
work after a sign-out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

# Set on a request whose view signed its user out (Django's logout() sends the signal).
SIGNED_OUT = "signed_out_here"


def _note_sign_out(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None and user is not None:
        setattr(request, SIGNED_OUT, True)


user_logged_out.connect(_note_sign_out, dispatch_uid="scorekeeper.private_pages")


# Answers without a body: a live poll's "unchanged" (204), which Django types as HTML.
_NO_BODY = frozenset({204, 304})


def _html(response: HttpResponse) -> bool:
    kind = response.get("Content-Type", "")
    return response.status_code not in _NO_BODY and kind.startswith("text/html")


def _signed_in(request: HttpRequest) -> bool:
    """Whether the request was answered for a signed-in user. Asked only of HTML
    answers with a body, whose pages have read the user already (a live poll's
    "unchanged" reads nothing but the cache, and is left so)."""
    user = getattr(request, "user", None)
    try:
        return user is not None and user.is_authenticated
    except DatabaseError:
        return True  # cannot tell: kept out of every cache, as a signed-in page is


class PrivatePagesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(request, SIGNED_OUT, False):
            response["Clear-Site-Data"] = '"cache"'
            patch_cache_control(response, no_store=True)
        elif _html(response) and (response.status_code >= 500 or _signed_in(request)):
            patch_cache_control(response, no_store=True)
        return response
