"""A session's history in a league file (version 4 on), planned: each change with its
round before and after whole, what a change leaves out taken from the rest of the file
(league_file.History), and each round's times from it where the round leaves them
out. Held together: changes in the order made, of rounds the session has, each
creation first and each side a round where there must be one."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, gettext_noop

from games.models import RoundChange
from games.transfer.league_file import NOTHING, History, round_times_in_history
from games.transfer.league_refusal import ImportRefused
from games.transfer.league_schema import Change

if TYPE_CHECKING:
    from games.transfer.league_plan import RoundPlan


@dataclass(frozen=True)
class ChangePlan:
    """One change of a session's history (RoundChange), its before and after whole."""

    round: int | None  # the round's number in the file now; None: deleted since
    number: int
    action: str
    author: str
    changed_at: datetime.datetime
    before: dict[str, Any] | None
    after: dict[str, Any] | None


def planned_changes(
    changes: Sequence[Change], rounds: Sequence[RoundPlan], where: str, index: int
) -> tuple[ChangePlan, ...]:
    """The session's changes, oldest first; ``where``: the session as a refusal names
    it, ``index``: its place in the file (from 0)."""
    numbers = [
        _changed_round(change, len(rounds), _change_words(where, number))
        for number, change in enumerate(changes, start=1)
    ]
    history = History(numbers, lambda number: _as_changed(rounds[number - 1]))
    planned: list[ChangePlan] = []
    begun: set[int] = set()  # the rounds with a change so far
    for position, (change, number) in enumerate(zip(changes, numbers, strict=True)):
        at = _change_words(where, position + 1)
        here = f"sessions[{index}].changes[{position}]"
        action, changed_at = change.action, change.changed_at
        if planned and changed_at < planned[-1].changed_at:
            raise ImportRefused(
                gettext(
                    "{where}: {path}.changed_at ({moment}) is earlier than the change before it: "
                    "a session's changes are listed in the order they were made."
                ).format(where=at, path=here, moment=changed_at.isoformat())
            )
        if action == RoundChange.Action.DELETED and number is not None:
            raise ImportRefused(
                gettext(
                    '{where}: a deleted round is no round of the file: "round" must be null, '
                    "not {number}."
                ).format(where=at, number=number)
            )
        if action == RoundChange.Action.CREATED and number in begun:
            raise ImportRefused(
                gettext("{where}: round {number} is created after a change of it.").format(
                    where=at, number=number
                )
            )
        given = change.model_fields_set
        before = _kept(change.before) if "before" in given else history.before(action, number)
        after = _kept(change.after) if "after" in given else history.after(position, action, number)
        _check_sides(action, number, before, after, at)
        history.record(number, after)
        if number is not None:
            begun.add(number)
        planned.append(
            ChangePlan(number, change.number, action, change.changed_by, changed_at, before, after)
        )
    return tuple(planned)


def round_times(
    rounds: Sequence[RoundPlan], changes: Sequence[ChangePlan], where: str
) -> list[tuple[datetime.datetime | None, datetime.datetime | None]]:
    """Each round's creation and last change: the file's, else its history's. A round
    that gives only one of them was entered and last changed then."""
    created, last = round_times_in_history(
        (change.round, change.action, change.changed_at) for change in changes
    )
    timed = []
    for planned in rounds:
        created_at = planned.created_at or created.get(planned.number)
        updated_at = planned.updated_at or last.get(planned.number) or created_at
        created_at = created_at or updated_at
        if created_at is not None and updated_at is not None and updated_at < created_at:
            raise ImportRefused(
                gettext(
                    "{where}, round {number}: it was last changed ({changed}) before it was "
                    "entered ({entered})."
                ).format(
                    where=where,
                    number=planned.number,
                    changed=updated_at.isoformat(),
                    entered=created_at.isoformat(),
                )
            )
        timed.append((created_at, updated_at))
    return timed


def _changed_round(change: Change, rounds: int, where: str) -> int | None:
    """The round a change is of, as its number in the file; None: deleted since."""
    number = change.round
    if number is not None and not 1 <= number <= rounds:
        if rounds:
            message = gettext(
                '{where}: "round" must be the number of a round of the session (1 to {count}), '
                "or null for a round deleted since; not {number}."
            )
        else:
            message = gettext(
                '{where}: "round" must be the number of a round of the session (this session '
                "has none), or null for a round deleted since; not {number}."
            )
        raise ImportRefused(message.format(where=where, count=rounds, number=f"{number!s:.20}"))
    return number


def _change_words(session: str, number: int) -> str:
    """A change of the session's history as a refusal names its place."""
    return gettext("{session}, change {number}").format(session=session, number=number)


def _kept(side: Any) -> dict[str, Any] | None:
    return None if side is None else side.as_kept()


def _as_changed(planned: RoundPlan) -> dict[str, Any]:
    hands = (
        {
            "player": entry.player,
            "outcome": entry.result.outcome,
            "on_deal": entry.result.on_deal,
            "groups": entry.groups,
            "counted": entry.result.counted,
            "figures": entry.result.figures.as_dict() if entry.result.figures else {},
            "score": entry.result.score,
        }
        for entry in planned.entries
    )
    return RoundChange.round_then(planned.cut_joker, planned.dealer, planned.version, hands)


# What each kind of change has before and after it (True: a round, False: nothing),
# and what it says when a side is not so.
_SIDES = {
    RoundChange.Action.CREATED: (
        (False, gettext_noop('{where}: a creation has nothing before it: "before" must be null.')),
        (True, gettext_noop('{where}: a creation gives the round as it was entered in "after".')),
    ),
    RoundChange.Action.EDITED: (
        (True, gettext_noop('{where}: an edit gives the round before it in "before".')),
        (True, gettext_noop('{where}: an edit gives the round after it in "after".')),
    ),
    RoundChange.Action.DELETED: (
        (True, gettext_noop('{where}: a deletion gives the round deleted in "before".')),
        (False, gettext_noop('{where}: a deletion leaves nothing after it: "after" must be null.')),
    ),
}


def _check_sides(action: str, number: int | None, before: Any, after: Any, where: str) -> None:
    for side, value in (("before", before), ("after", after)):
        if value is NOTHING:
            if number is None:
                message = gettext(
                    '{where}: "{side}" is missing, and a change of a round deleted since gives '
                    "the round before and after it."
                )
            elif side == "before":
                message = gettext(
                    '{where}: "before" is missing, and no earlier change of round {number} says it.'
                )
            else:
                message = gettext(
                    '{where}: "after" is missing, and only round {number}\'s last change may '
                    "leave it out."
                )
            raise ImportRefused(message.format(where=where, side=side, number=number))
    for value, (wanted, message) in zip((before, after), _SIDES[action], strict=True):
        if (value is not None) != wanted:
            raise ImportRefused(gettext(message).format(where=where))
