"""What several views render alike: status codes, redirects and the session page's
context (the score table, the round form, money and sharing), built in one place so
that the session page, its partials and the round views show the same thing.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import content_disposition_header
from django_htmx.http import HttpResponseClientRedirect

from games import charts
from games.access import can_manage, can_write
from games.forms.rounds import RoundForm
from games.forms.sessions import StakesForm
from games.models import GameSession
from games.rules.rulesets import is_net
from games.services.money import money_of
from games.services.rounds import (
    new_round_entry,
)
from games.services.scoreboard import Scoreboard, live_stamp, load_scoreboard
from games.services.sessions import (
    can_close,
)
from games.sharing import share_links

FORM_ERRORS = 422


TOO_MANY_REQUESTS = 429


def redirect_for(request: HttpRequest, url: str) -> HttpResponse:
    # htmx follows a 302 inside its own request; a client redirect loads the page.
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def scoreboard_context(request: HttpRequest, session: GameSession, board) -> dict:
    """What the scoreboard partial needs, on the session page and in its live poll."""
    return {
        "session": session,
        "board": board,
        "writer": can_write(request.user, session),
        "money": money_of(board),
        "can_close": can_close(board),
        "stamp": live_stamp(session),
        "poll_url": reverse("games:session_scoreboard", args=[session.pk]),
    }


def session_page_context(
    request: HttpRequest,
    session: GameSession,
    board: Scoreboard,
    form: RoundForm | None = None,
) -> dict:
    context = scoreboard_context(request, session, board)
    writer = context["writer"]
    entry = new_round_entry(session, board) if writer else None
    if writer and form is None:
        form = RoundForm(entry=entry)
    manager = can_manage(request.user, session)
    return context | {
        "manager": manager,
        "share": share_links(request, session) if manager else None,
        "stakes_form": stakes_form(session, board) if manager else None,
        "rejoins": session.rejoins.select_related("seat__player") if writer else (),
        "entry": form.entry if form else entry,
        "form": form,
        "preview_url": reverse("games:round_preview", args=[session.pk]),
        "arrange_url": reverse("games:round_arrange", args=[session.pk]),
    }


def posted_id(request: HttpRequest, name: str) -> int | None:
    """A database id posted in a form field, or None for anything else."""
    value = request.POST.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 18 else None


def download(content: bytes | str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename)
    # An export is a snapshot of private scores: neither shared caches nor stale.
    response["Cache-Control"] = "private, no-cache"
    return response


def chart_response(session: GameSession) -> HttpResponse:
    board = load_scoreboard(session)
    svg = charts.running_totals_svg(
        board.state, board.ceiling, title=f"Running totals: {session}", id_prefix="totals"
    )
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    # The totals change with every round saved: always ask again. And an SVG opened
    # on its own is a document: it may load and run nothing.
    response["Cache-Control"] = "private, no-cache"
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


def stakes_form(session: GameSession, board: Scoreboard, data: object = None) -> StakesForm:
    return StakesForm(
        data,
        initial={"money_per_point": session.money_per_point, "buy_in": session.buy_in},
        net=is_net(board.ruleset),
        pool=board.pool,
    )
