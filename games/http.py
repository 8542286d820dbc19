"""What the views answer alike in HTTP terms: a redirect that htmx follows as a page
load, house rules set back (in place over htmx, else the page), a database id posted
in a form, the first round a reader asked to see, what no shared cache may keep (and
a live poll's "nothing new"), a download, and a session's chart as an SVG image.

The status codes they answer with are named in games/statuses.py and ids are read by
games/ids.py: the access rules and the project's error pages need those too, without
what this module loads (the services, the charts).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.cache import patch_cache_control
from django.utils.http import content_disposition_header
from django.utils.translation import gettext
from django_htmx.http import HttpResponseClientRedirect

from games import charts
from games.ids import id_in
from games.models import GameSession
from games.services.scoreboard import load_scoreboard


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
        title=gettext("Running totals: {session}").format(session=session),
        id_prefix="totals",
        own_style=True,  # an image: the page's dark theme cannot reach into it
    )
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    # The totals change with every round saved: always ask again. And an SVG opened
    # on its own is a document: it may load and run nothing.
    private(response)
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response
