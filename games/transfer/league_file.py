"""The league file's format: its name and version, and what the export and the import
both read the same way (what a file may leave out because it follows from the rest)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

# The JSON export's name and version: an import refuses any other, so a later change
# of the format can never be read as this one by mistake.
FORMAT = "scorekeeper-league"
# 2: a hand may carry "on_deal": true, and the rules are those of the presets that
# follow the rules' exact texts (games.rules.rulesets).
# 3: the league's "claims" ({"player", "user"}: who said "this is me" of which
# player) and each session's "rematch_of" (the number, from 1, of the session in
# this file's "sessions" it is the rematch of, or null). A player is its name alone:
# a player's "user" of earlier files is read as that member's claim.
# 4: each session's record of its rounds, as its history page, round pages and round
# history downloads show it: its "changes" (the audit trail, oldest first: {"round",
# "number", "action", "changed_by", "changed_at", "before", "after"}), each round's
# "version" (left out while 1) and, where its history does not say them, its
# "created_at" and "updated_at"; each rejoin's "created_at" and "created_by". A hand
# leaves out a declaration of none, value points and claims of 0, as it leaves out
# "on_deal" when false: its score, which they make up, is always there (and checked).
# Table mode's "save rounds by themselves": the league's "table_auto_save" and a
# session's own (left out while it follows the league's); absent, as in files written
# before it was kept, it is off. The league's "time_zone": the clock its times are read
# in (games/zones.py); absent, as in files written before it was kept, the importing
# site's. Every time in the file stays UTC, with its offset, whatever the zone.
# 5: each session's "seat_changes", in the order the table made them: a player who
# joined or left after a round ({"kind": "join" or "leave", "player", "after_round"})
# and each new seating a toss gave the table then ({"kind": "seats", "after_round",
# "seats": the players from the first seat}), each with its "created_at" and
# "created_by". A new version, not a key added to version 4: a reader of version 4
# would take such a file's latecomers for players seated from the first round and its
# leavers for players still at the table, and import other totals without a word.
# 6: a hand counted at the table (docs/rules §5, "A counted hand") carries
# "counted": true and its "figures" ({"count": 102, "value_points": 10}; {} for a
# winner trusted on the table's show), with no groups; the history's rounds keep both
# as round_snapshot does. A new version, not keys added to version 5: a reader of
# version 5 would take such a hand for one with no cards, and refuse the file for a
# hand short of its cards or for figures the rules do not score, blaming the file
# instead of saying that the server is older than the file.
# Keys added to 6: the league's "language" and "currency" (an ISO 4217 code), ""
# for each browser's and the language's default. No new version: a reader of 6 that
# ignores them imports every figure right, and only names no currency.
VERSION = 6
# Versions an import still reads: a version-1 file's rules are read as the presets
# were before they followed the exact texts (games.rules.rulesets.BEFORE_EXACT_TEXTS),
# so its rounds score as they were played; a file before version 3 has no claims and
# no rematches, one before version 4 no history (its sessions' history pages start
# empty), one before version 5 no joins, leaves or new seatings (none was kept: its
# latecomers and leavers sit at the table from the first round to the last, as that
# file's import always seated them), one before version 6 no hand counted at the
# table (none could be entered).
READABLE = (1, 2, 3, 4, 5, 6)
# The first version whose rules are the exact texts' presets: a file before it is read
# with the presets of its day.
EXACT_TEXTS = 2
# The first version that carries the rounds' history, and whose authors are accounts
# where they can be (games/transfer/league_write.py).
HISTORY = 4
# The first version that carries the table's joins, leaves and new seatings.
SEAT_CHANGES = 5
# The first version whose hands may be counted at the table, as their figures.
COUNTED_HANDS = 6

# --- What a file may leave out (version 4 on) -------------------------------------------
#
# Every round has at least one change in its history (its creation), which holds the
# whole round once more: written out each time, the history made a league's file
# twice as large, and a big league's no longer fitted the import page's 10 MB. So a
# change leaves out what the file says elsewhere:
#
# - "before" of a change that is not a round's creation, where it is the "after" of the
#   previous change of the same round ("round": the round's number in the file now);
#   a creation has nothing before it (null, or left out);
# - "after" of a round's last change, where it is the round as the file holds it
#   (`RoundChange.round_then`); a deletion leaves nothing after it (null, or left out);
# - a round's "created_at" and "updated_at", where they are the times of its creation
#   and of its last change in the history (the app writes a round and its change in one
#   save, milliseconds apart: `SAME_SAVE`).
#
# A change of a round deleted since ("round": null) gives both its before and after.

# A round's time and its change's that are this close are the same save.
SAME_SAVE = datetime.timedelta(seconds=1)


def round_times_in_history(
    changes: Iterable[tuple[int | None, str, datetime.datetime]],
) -> tuple[dict[int, datetime.datetime], dict[int, datetime.datetime]]:
    """When each round was entered and last changed, by its number in the file, as
    its history says (``changes``: each change's round, action and time, in order):
    the times a round may leave out (the export) and takes from there (the import)."""
    created: dict[int, datetime.datetime] = {}
    last: dict[int, datetime.datetime] = {}
    for number, action, changed_at in changes:
        if number is not None:
            if action == "created":
                created[number] = changed_at
            last[number] = changed_at
    return created, last


def said_by_history(moment: datetime.datetime, change: datetime.datetime | None) -> bool:
    """Whether a round's time is its history's: that of its change in the same save."""
    return change is not None and abs(moment - change) < SAME_SAVE


class _Nothing:
    def __repr__(self) -> str:
        return "NOTHING"


# What a change must give itself: nothing in the rest of the file says it.
NOTHING: Any = _Nothing()


class History:
    """A session's changes walked in their order, and what each may leave out: the
    export leaves out what this gives, the import takes it from here.

    ``rounds``: each change's round, as its number in the file (None: deleted since).
    ``round_now(number)``: that round as the file holds it (`RoundChange.round_then`)."""

    def __init__(self, rounds: Iterable[int | None], round_now) -> None:
        self._last = {number: index for index, number in enumerate(rounds) if number is not None}
        self._round_now = round_now
        self._after: dict[int, Any] = {}

    def before(self, action: str, number: int | None) -> Any:
        if action == "created":
            return None
        return self._after.get(number, NOTHING) if number is not None else NOTHING

    def after(self, index: int, action: str, number: int | None) -> Any:
        if action == "deleted":
            return None
        if number is not None and self._last[number] == index:
            return self._round_now(number)
        return NOTHING

    def record(self, number: int | None, after: Any) -> None:
        """The change just walked left its round as ``after``."""
        if number is not None:
            self._after[number] = after
