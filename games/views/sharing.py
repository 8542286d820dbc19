"""The share link: a session's score table for anyone holding its token, live and
read-only. Nothing in this module writes; every view is a GET, and a token opens
exactly one session (an unknown or replaced token is a 404, as
games.access.session_for_share_token decides).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from games import live
from games.access import session_for_share_token
from games.figures import points
from games.http import chart_response, first_round, nothing_new, private
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


def _big_context(session: GameSession, board: Scoreboard) -> dict:
    # The totals only: no rows are built, whatever the length of the session.
    return {
        "session": session,
        "board": board,
        # The longest total as written ("−1228": 5): the page sizes every total by it,
        # so that they are all of one size and the widest still fits its card.
        "widest": max((len(points(column.total)) for column in board.columns), default=1),
        "stamp": live_stamp(session),
        "shared_url": reverse("games:shared_session", args=[session.share_token]),
        "poll_url": reverse("games:shared_scoreboard", args=[session.share_token]),
        "poll_seconds": POLL_SECONDS,
    }


def _keep_private(response: HttpResponse) -> HttpResponse:
    # The token is the key: keep it out of Referer headers and shared caches.
    response["Referrer-Policy"] = "no-referrer"
    return private(response)


@require_safe
def shared_session(request: HttpRequest, token: str) -> HttpResponse:
    with read_snapshot():  # the session row (stamp, stakes) agrees with its table
        session = session_for_share_token(token)
        board = load_scoreboard(session)
    context = _shared_context(request, session, board)
    return _keep_private(TemplateResponse(request, "games/shared.html", context))


@require_safe
def shared_big(request: HttpRequest, token: str) -> HttpResponse:
    """The table view: each player's total large enough to read across the table, for
    a tablet or a TV; live through the share page's own poll (``view=big``)."""
    with read_snapshot():
        session = session_for_share_token(token)
        board = load_scoreboard(session)
    return _keep_private(
        TemplateResponse(request, "games/shared_big.html", _big_context(session, board))
    )


@require_safe
def shared_scoreboard(request: HttpRequest, token: str) -> HttpResponse:
    """Polled every few seconds by the share page and the table view: 204 (nothing to
    swap) while the session is unchanged, else the score table, folded as the page is
    (``?from=`` keeps the older rounds a reader opened), or with ``view=big`` the
    table view's totals. Without ``v`` it is also what the "earlier rounds" button
    swaps in."""
    if live.unchanged_for_token(token, request.GET.get("v")):
        return nothing_new(token=True)
    before = live.before_read()  # what heal is given: read before the database
    with read_snapshot():  # the stamp and the table are of one moment
        session = session_for_share_token(token)
        if request.GET.get("v") == live_stamp(session):
            live.heal(session, before)
            return nothing_new(token=True)
        board = load_scoreboard(session)
    if request.GET.get("view") == "big":
        context = _big_context(session, board)
        response = TemplateResponse(request, "games/shared_big.html#big_board", context)
    else:
        context = _shared_context(request, session, board)
        response = TemplateResponse(request, "partials/score_table.html", context)
    return private(response)


@require_safe
def shared_totals_chart(request: HttpRequest, token: str) -> HttpResponse:
    """The same chart for anyone holding the session's share link (read-only)."""
    return chart_response(session_for_share_token(token))
