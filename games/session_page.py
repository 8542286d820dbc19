"""The session page's context: the score table, the round form, money, stakes and
sharing, built in one place so that the session page, its live score table and the
round views that answer on it show the same thing.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from games.access import can_manage, can_write
from games.forms.rounds import RoundForm
from games.forms.sessions import StakesForm
from games.http import first_round
from games.models import GameSession
from games.rules.rulesets import is_net
from games.services.money import money_of
from games.services.rounds import new_round_entry
from games.services.scoreboard import Scoreboard, fold_rows, live_stamp
from games.services.sessions import can_close
from games.services.table import table_view
from games.sharing import share_links, table_links


def scoreboard_context(request: HttpRequest, session: GameSession, board) -> dict:
    """What the scoreboard partial needs, on the session page and in its live poll.
    The table shows the latest rounds, the older ones a tap away, so that the page
    and its poll cost the same at round 500 as at round 10."""
    return {
        "session": session,
        "board": board,
        "fold": fold_rows(board, first=first_round(request)),
        "page_url": reverse("games:session_detail", args=[session.pk]),
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
    # Table mode: the seats filling up and the table link, for those who score.
    table = table_view(session, board) if writer and session.table_token else None
    return context | {
        "table": table,
        "table_links": table_links(request, session) if table else None,
        "table_poll_url": reverse("games:table_panel", args=[session.pk]),
        "manager": manager,
        "share": share_links(request, session) if manager else None,
        "stakes_form": stakes_form(session, board) if manager else None,
        "rejoins": session.rejoins.select_related("seat__player") if writer else (),
        "entry": form.entry if form else entry,
        "form": form,
        "preview_url": reverse("games:round_preview", args=[session.pk]),
        "arrange_url": reverse("games:round_arrange", args=[session.pk]),
    }


def stakes_form(session: GameSession, board: Scoreboard, data: object = None) -> StakesForm:
    return StakesForm(
        data,
        initial={"money_per_point": session.money_per_point, "buy_in": session.buy_in},
        net=is_net(board.ruleset),
        pool=board.pool,
    )
