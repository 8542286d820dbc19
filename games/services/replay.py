"""A table replayed by the rules service as its page shows it, from what is stored: its
rounds' scores and the changes to the table between them. A change the rules no longer
allow (an earlier round edited since) is left out and said in words, as the page says
it. The score table (games/services/scoreboard.py) and the league import replay by it,
so that an imported session counts what its page counted.
"""

from __future__ import annotations

import datetime
import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext

from games.rules import (
    JOIN,
    LEAVE,
    RulesError,
    Ruleset,
    SeatChange,
    Seating,
    SessionState,
    session_state,
)


@dataclass(frozen=True)
class Refused:
    """A seat change the rules service refused, and its reason."""

    change: SeatChange | Seating
    why: str


@dataclass(frozen=True)
class Replayed:
    """What the rules service made of the saved scores: the state, and the rejoins
    and seat changes it refused (an earlier round edited since), each in words."""

    state: SessionState
    ignored: tuple[str, ...]
    refused: tuple[Refused, ...]


# A change made at an unknown time (read from a league file that did not say) comes
# after those with one in its gap, as the time of the import it is stored with would.
_UNKNOWN = datetime.datetime.max.replace(tzinfo=datetime.UTC)

TimedChange = tuple[int, datetime.datetime | None, SeatChange | Seating]


def in_order_made(
    rejoins: Iterable[TimedChange], table_changes: Iterable[TimedChange]
) -> tuple[SeatChange | Seating, ...]:
    """Every change to the table, rejoins among them, as the rules service replays
    them: by round, and each gap's in the order they were made, for that order moves
    totals (a player who went home is no longer the highest total a rejoin tops, and a
    latecomer joining as a rejoin does is). Each is (after round, when made, change).
    Rejoins and the other changes are rows of two tables, each read in its own order;
    between the two, the times they were made decide (a league file keeps them)."""
    merged = heapq.merge(rejoins, table_changes, key=lambda timed: (timed[0], timed[1] or _UNKNOWN))
    return tuple(change for _, _, change in merged)


def replay_table(
    ruleset: Ruleset,
    seated: Sequence[str],
    scores: Sequence[Mapping[str, int]],
    *,
    ceiling: int | None,
    dealers: Sequence[str],
    first_dealer: str | None,
    changes: Sequence[SeatChange | Seating],
    closed: bool,
) -> Replayed:
    """A table replayed by the rules service as its page shows it: ``seated`` is every
    seat's player in seat order, latecomers included (their joins seat them);
    ``changes`` are the rejoins, joins, leaves and seatings in the order made
    (``in_order_made``). A change the rules refuse is left out and said in words; any
    other refusal (a score of a player not at the table) is a fault of the scores:
    RulesError. The league import replays a file's sessions by it too, so an imported
    session counts what its page counted."""
    # Latecomers are no first seats: their joins seat them, after the round given.
    joiners = {c.player for c in changes if isinstance(c, SeatChange) and c.kind == JOIN}
    names = [name for name in seated if name not in joiners]
    ignored: list[str] = []
    refused: list[Refused] = []
    kept = list(changes)
    while True:
        try:
            state = session_state(
                ruleset,
                names,
                scores,
                ceiling=ceiling,
                dealers=dealers,
                first_dealer=first_dealer,
                changes=kept,
                closed=closed,
            )
            return Replayed(state, tuple(ignored), tuple(refused))
        except RulesError as error:
            # An edit to an earlier round can make a later rejoin or leave break the
            # rules (a total now above the cutoff, a leaver already out): it no longer
            # counts, and the page says so. Any other field is a fault of the scores.
            field, _, rest = error.field.partition("[")
            index = rest.split("]")[0]
            if field == "changes" and index.isdigit():
                change = kept.pop(int(index))
                refused.append(Refused(change, error.message))
                ignored.append(_ignored(change, error.message))
            else:
                raise


def _ignored(change: SeatChange | Seating, why: str) -> str:
    """The sentence that says a change no longer counts, and the rules' reason."""
    if isinstance(change, Seating):
        message = gettext("The new seating after round {round} is ignored: {why}.")
        return message.format(round=change.after_round, why=why)
    if change.kind == LEAVE:
        message = gettext("{player}'s leaving after round {round} is ignored: {why}.")
    elif change.kind == JOIN:
        message = gettext("{player}'s joining after round {round} is ignored: {why}.")
    else:
        message = gettext("{player}'s rejoin after round {round} is ignored: {why}.")
    return message.format(player=change.player, round=change.after_round, why=why)
