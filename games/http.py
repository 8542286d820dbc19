"""What the views answer alike in HTTP terms: the status codes they answer with, a
redirect that htmx follows as a page load, house rules set back (in place over htmx,
else the page), a database id read from a form, the first round a reader asked to
see, what no shared cache may keep (and a live poll's "nothing new"), a download,
and a session's chart as an SVG image.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.cache import patch_cache_control
from django.utils.http import content_disposition_header
from django_htmx.http import HttpResponseClientRedirect

from games import charts
from games.models import GameSession
from games.services.scoreboard import load_scoreboard

# The status codes the app answers with besides 200, 302 and Django's own 404s, by
# what they mean here.
FORM_ERRORS = 422  # a form sent back with what is wrong in it
# Someone else's write came first (or the round moved on): the page shows what is
# there now.
CONFLICT = 409
# A link that expired, was revoked or was replaced: the page says which.
GONE = 410
PAYLOAD_TOO_LARGE = 413  # an upload over the server's limit: nothing was read
TOO_MANY_REQUESTS = 429
# Sign-ups are by invitation (settings.SIGNUPS) and no working invite link came along.
BY_INVITATION = 403
SERVER_ERROR = 500  # a bug: the page says so, and nothing half-done was saved
# Something the request needs is away for a moment (the sign-up limit's cache, the
# database).
SERVICE_UNAVAILABLE = 503


def redirect_for(request: HttpRequest, url: str) -> HttpResponse:
    # htmx follows a 302 inside its own request; a client redirect loads the page.
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def rules_reset(request: HttpRequest, page: str, context: dict) -> TemplateResponse:
    """A form whose house rules were set back (``context["form"]``, unbound): over
    htmx only its rules, swapped in place, else ``page`` whole; the rules open either
    way, saying so. The new-session form and a league's rules page answer alike."""
    context = context | {"open_rules": True, "reset_done": True}
    template = "partials/ruleset_fields.html#preset_rules" if request.htmx else page
    return TemplateResponse(request, template, context)


def id_in(data: QueryDict, name: str) -> int | None:
    """A database id in a form field (``data`` is request.GET or request.POST), or None
    for anything else."""
    return an_id(data.get(name, ""))


def an_id(value: str) -> int | None:
    """``value`` as a database id, or None for anything else: ASCII digits only, since
    int() also reads "٣" and str.isdigit() passes "²", which int() refuses."""
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 18 else None


def posted_id(request: HttpRequest, name: str) -> int | None:
    """A database id posted in a form field, or None for anything else."""
    return id_in(request.POST, name)


def first_round(request: HttpRequest) -> int | None:
    """The first round a reader of a folded score table asked to see (``?from=``, or
    posted by the round form from the live element, so that a save answered in place
    keeps the rounds the reader opened), if it is a round number."""
    value = request.GET.get("from", "") or request.POST.get("from", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None


def private(response: HttpResponse, *, token: bool = False) -> HttpResponse:
    """Keep ``response`` out of shared caches and have the browser ask again before it
    uses a copy: a score table changes with every round. ``token``: the address holds
    the key to what it shows (a share or table link), so no cache stores it at all."""
    extra = {"no_store": True} if token else {}
    patch_cache_control(response, private=True, no_cache=True, **extra)
    return response


def nothing_new(*, token: bool = False) -> HttpResponse:
    """A live poll's answer while nothing changed (htmx swaps nothing on a 204). Never
    kept by a proxy or the browser: a kept "unchanged" would hide the next change."""
    return private(HttpResponse(status=204), token=token)


def download(content: bytes | str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename)
    # An export is a snapshot of private scores: neither shared caches nor stale.
    return private(response)


def chart_response(session: GameSession) -> HttpResponse:
    board = load_scoreboard(session)
    svg = charts.running_totals_svg(
        board.state,
        title=f"Running totals: {session}",
        id_prefix="totals",
        own_style=True,  # an image: the page's dark theme cannot reach into it
    )
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    # The totals change with every round saved: always ask again. And an SVG opened
    # on its own is a document: it may load and run nothing.
    private(response)
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response
