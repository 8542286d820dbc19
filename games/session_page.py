"""The session page's context: the score table, the round form, money, stakes and
sharing, built in one place so that the session page, its live score table and the
round views that answer on it show the same thing.

Each is built from one replay of the session (the board) and one look at what the
user may do in it (``Rights``, from ``access.session_with_rights``), whatever the
page asks of them.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from games.access import Rights, rights_in
from games.forms.rounds import RoundForm
from games.forms.sessions import RenameForm, StakesForm
from games.http import first_round
from games.models import GameSession
from games.rules import is_net
from games.services.money import money_of
from games.services.night import night_text
from games.services.round_entries import new_round_entry
from games.services.round_saves import SavedRound
from games.services.scoreboard import Scoreboard, fold_rows, live_stamp
from games.services.sessions import can_close, rematch_seating
from games.services.table_panel import table_view
from games.sharing import share_links, share_url, table_links
from games.zones import session_zone

# The name under which the round form sends the live stamp of the table the phone
# shows (the round form includes the live poll's element, which holds it).
SHOWN_STAMP = "shown"

# The tag of a message that says a join or a leave was made: the page offers to take
# it back beside it (templates/base.html), while it still may.
TAKE_BACK_TAG = "take-back"


def scoreboard_context(
    request: HttpRequest, session: GameSession, board, rights: Rights | None = None
) -> dict:
    """What the scoreboard partial needs, on the session page and in its live poll.
    The table shows the latest rounds, the older ones a tap away, so that the page
    and its poll cost the same at round 500 as at round 10."""
    rights = rights or rights_in(request.user, session)
    money = money_of(board)
    # The share link goes in the message only for those the page shows it to.
    link = share_url(request, session) if rights.manage and board.rows else None
    return {
        "session": session,
        "board": board,
        "fold": fold_rows(board, first=first_round(request)),
        "page_url": reverse("games:session_detail", args=[session.pk]),
        "writer": rights.write,
        "money": money,
        # Share the night: its text, kept current with the money lines it sits by.
        "night": night_text(board, money, link),
        "can_close": can_close(board),
        # Correcting a name: the form is in the standings, which the poll redraws.
        "rename_form": rename_form(board) if rights.write else None,
        "stamp": live_stamp(session),
        "poll_url": reverse("games:session_scoreboard", args=[session.pk]),
        "shown_stamp": SHOWN_STAMP,
    }


def round_entry_context(
    request: HttpRequest,
    session: GameSession,
    board: Scoreboard,
    rights: Rights,
    *,
    form: RoundForm | None = None,
) -> dict:
    """What the round form needs beside the score table: the answer to a save, which
    shows the form for the next round (and, where it must, the table again)."""
    context = scoreboard_context(request, session, board, rights)
    writer = rights.write
    entry = new_round_entry(session, board) if writer else None
    if writer and form is None:
        form = RoundForm(entry=entry)
    # Table mode: the seats filling up and the table link, for those who score.
    table = table_view(session, board) if writer and session.table_token else None
    return context | {
        "table": table,
        "table_links": table_links(request, session) if table else None,
        "table_poll_url": reverse("games:table_panel", args=[session.pk]),
        # Play again, once the session is over (a save that ends it shows it too).
        "rematch": rematch_context(session, board) if writer and board.finished else None,
        "entry": form.entry if form else entry,
        "form": form,
        "preview_url": reverse("games:round_preview", args=[session.pk]),
        "arrange_url": reverse("games:round_arrange", args=[session.pk]),
    }


def session_page_context(
    request: HttpRequest,
    session: GameSession,
    board: Scoreboard,
    form: RoundForm | None = None,
    rights: Rights | None = None,
    stakes: StakesForm | None = None,
    rename: RenameForm | None = None,
) -> dict:
    """The whole session page; ``form``, ``stakes`` and ``rename`` are the forms as
    sent back with their errors."""
    rights = rights or rights_in(request.user, session)
    context = round_entry_context(request, session, board, rights, form=form)
    if rename is not None:
        context["rename_form"] = rename
    manager = rights.manage
    return context | {
        "manager": manager,
        "share": share_links(request, session) if manager else None,
        "stakes_form": (stakes or stakes_form(session, board)) if manager else None,
    }


def answers_in_place(saved: SavedRound, shown: str | None) -> bool:
    """Whether the answer to a save may carry only what the save changed (the new
    row, the totals, the next form) rather than the whole score table: when the phone
    showed the table as it was just before this save (``shown``, its live stamp), the
    round is a new last one added to rows already shown, and it changed nothing of the
    table's shape: nobody went out, the session goes on (so whether it may be ended by
    hand is as it was)."""
    board = saved.board
    return (
        not saved.repeated
        and bool(shown)
        and shown == saved.stamp_before
        and saved.round.number == len(board.rows) > 1
        and not board.finished
        and saved.round.number not in board.state.eliminated_in.values()
    )


def stakes_form(session: GameSession, board: Scoreboard, data: object = None) -> StakesForm:
    return StakesForm(
        data,
        initial={"money_per_point": session.money_per_point, "buy_in": session.buy_in},
        net=is_net(board.ruleset),
        pool=board.pool,
    )


def rename_form(board: Scoreboard, data: object = None) -> RenameForm:
    """The form that corrects a player's name, offering everyone who sat at the table."""
    return RenameForm(data, seats=[(column.seat.pk, column.name) for column in board.columns])


def rematch_context(session: GameSession, board: Scoreboard) -> dict:
    """What the Rematch button says: the rematch already started, or the seat order
    and first dealer it would start with (fewer than two: everyone else went home)."""
    existing = GameSession.objects.filter(rematch_of=session).first()
    if existing is not None:
        # When it was started, on the league's clock (games/zones.py).
        return {"existing": existing, "zone": session_zone(session)}
    seats, dealer = rematch_seating(session, board)
    return {
        "existing": None,
        "order": [seat.player.name for seat in seats],
        "dealer": seats[dealer] if len(seats) > 1 else None,
        "gone": [column.name for column in board.columns if column.left_after],
    }
