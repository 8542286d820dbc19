"""The share link: a session's score table for anyone holding its token, live and
read-only. Nothing in this module writes; every view is a GET, and a token opens
exactly one session (an unknown or replaced token is a 404).

The URLs live here beside the views; games/urls.py includes them.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from games import live
from games.access import session_for_share_token
from games.http import chart_response, first_round
from games.models import GameSession
from games.services.money import money_of
from games.services.scoreboard import (
    Scoreboard,
    fold_rows,
    live_stamp,
    load_scoreboard,
    read_snapshot,
)

POLL_SECONDS = 3


def _shared_context(request: HttpRequest, session: GameSession, board: Scoreboard) -> dict:
    # The latest rounds only, so that the page and its poll cost the same whatever
    # the length of the session; the rows the reader asked to see stay in both.
    return {
        "session": session,
        "board": board,
        "fold": fold_rows(board, first=first_round(request)),
        "shared": True,
        "writer": False,
        "money": money_of(board),
        "stamp": live_stamp(session),
        "page_url": reverse("games:shared_session", args=[session.share_token]),
        "poll_url": reverse("games:shared_scoreboard", args=[session.share_token]),
        "poll_seconds": POLL_SECONDS,
    }


@require_safe
def shared_session(request: HttpRequest, token: str) -> TemplateResponse:
    with read_snapshot():  # the session row (stamp, stakes) agrees with its table
        session = session_for_share_token(token)
        board = load_scoreboard(session)
    context = _shared_context(request, session, board)
    response = TemplateResponse(request, "games/shared.html", context)
    # The token is the key: keep it out of Referer headers and shared caches.
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "private, no-cache"
    return response


@require_safe
def shared_scoreboard(request: HttpRequest, token: str) -> HttpResponse:
    """Polled every few seconds by the share page: 204 (nothing to swap) while the
    session is unchanged, else the score table, folded as the page is (``?from=``
    keeps the older rounds a reader opened). Without ``v`` it is also what the
    "earlier rounds" button swaps in."""
    if live.unchanged_for_token(token, request.GET.get("v")):
        response = HttpResponse(status=204)
        response["Cache-Control"] = "private, no-cache"
        return response
    with read_snapshot():  # the stamp and the table are of one moment
        session = session_for_share_token(token)
        if request.GET.get("v") == live_stamp(session):
            return HttpResponse(status=204)
        board = load_scoreboard(session)
    context = _shared_context(request, session, board)
    response = TemplateResponse(request, "partials/score_table.html", context)
    response["Cache-Control"] = "private, no-cache"
    return response


@require_safe
def shared_totals_chart(request: HttpRequest, token: str) -> HttpResponse:
    """The same chart for anyone holding the session's share link (read-only)."""
    session = GameSession.objects.filter(share_token=token).first()
    if session is None:
        raise Http404("No such session.")
    return chart_response(session)
