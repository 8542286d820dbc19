"""A refusal of the league file's schema (league_schema) in the app's words: pydantic
says where (`loc`: keys and indexes) and what (its error type, or the app's template
a validator gave); this names the place as every message of an import has named it,
by the record ("Member 2", "Session 3 (“Friday”, played 2024-01-05), round 4") and,
where it helps, by its path in the file ("sessions[2].rounds[3].created_at")."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_noop
from pydantic_core import ErrorDetails

from games.models import GameSession
from games.names import clean_name
from games.transfer.league_refusal import shown

# Pydantic's errors for a value of another JSON type, as the app names each type.
_KINDS = {
    "string_type": gettext_noop('{where}: "{key}" must be text, not {value}.'),
    "int_type": gettext_noop('{where}: "{key}" must be a whole number, not {value}.'),
    "bool_type": gettext_noop('{where}: "{key}" must be true or false, not {value}.'),
    "list_type": gettext_noop('{where}: "{key}" must be a list, not {value}.'),
    "dict_type": gettext_noop('{where}: "{key}" must be an object, not {value}.'),
}
# What a round and a hand of the history hold (league_schema.RoundThen, HandThen).
_ROUND_KEYS = "cut_joker, dealer, version, entries"
# Translators: the keys of a league file are kept in English; only "and, from version 6," is words.
_HAND_KEYS = gettext_noop(
    "player, outcome, on_deal, groups, score, entered_by and, from version 6, counted, figures"
)
# The session's fields that are checked before its label is known: their refusals
# name the session by its number alone.
_BEFORE_LABEL = frozenset(
    (
        "preset",
        "played_on",
        "name",
        "money_per_point",
        "buy_in",
        "overrides",
        "ceiling",
        "closed_at",
        "table_auto_save",
        "created_at",
    )
)


def session_label(index: int, name: str, played_on: datetime.date) -> str:
    """A session as a refusal names it: its number in the file (from 1), its name and
    the day it was played."""
    if name:
        return gettext("Session {number} (“{name}”, played {day})").format(
            number=index, name=name, day=played_on.isoformat()
        )
    return gettext("Session {number} (played {day})").format(
        number=index, day=played_on.isoformat()
    )


@dataclass(frozen=True)
class _Place:
    record: str  # the record, as "… must be a JSON object" names it
    where: str  # what a refusal of one of its values starts with
    path: str  # the record's place in the file: sessions[2].rounds[0]
    at: str = ""  # in a round of the history: the change it belongs to
    history: str = ""  # "round" or "hand": a record of the history, which holds no other key


def refusal_text(error: ErrorDetails, doc: dict[str, Any]) -> str:
    """The message for pydantic's ``error`` about the file ``doc``."""
    loc, kind, value = error["loc"], error["type"], error.get("input")
    if kind == "model_type":  # the value at loc is no record
        place = _place(loc, "", doc)
        if place.history:
            return gettext("{at}: {path} must be a JSON object or null, not {value}.").format(
                at=place.at, path=place.path, value=f"{value!r:.40}"
            )
        return gettext("{record} must be a JSON object.").format(record=place.record)
    key = str(loc[-1])
    place = _place(loc[:-1], key, doc)
    field = f"{place.path}.{key}" if place.path else key
    if kind == "refused":
        context = dict(error.get("ctx") or {})
        names = {"where": place.where, "path": place.path, "at": place.at, "field": field}
        names |= {"key": key, "label": key.replace("_", " ")}
        return str(context.pop("template")).format_map(context | names)
    if kind == "extra_forbidden":
        keys = _ROUND_KEYS if place.history == "round" else gettext(_HAND_KEYS)
        return gettext(
            '{at}: {path} holds "{key}", which a round\'s history does not; it holds {keys}.'
        ).format(at=place.at, path=place.path, key=shown(key), keys=keys)
    if kind in _KINDS:
        return gettext(_KINDS[kind]).format(where=place.where, key=key, value=f"{value!r:.40}")
    # No check the schema makes: pydantic's words (English), at the place they are about.
    return f"{place.where}: {field}: {error['msg']}."


def _place(loc: tuple[int | str, ...], key: str, doc: dict[str, Any]) -> _Place:
    """The record at ``loc`` (keys and indexes into the file), as a refusal of its
    value ``key`` names it ("" : of the record itself)."""
    the_file = gettext("The file")
    if not loc:
        return _Place(the_file, the_file, "")
    head, *rest = loc
    if head == "league":
        return _Place('"league"', gettext("League"), "league")
    if head in _RECORDS and rest:
        label = gettext(_RECORDS[str(head)]).format(number=int(rest[0]) + 1)
        return _Place(label, label, f"{head}[{rest[0]}]")
    if head == "sessions" and rest:
        return _in_session(int(rest[0]), rest[1:], key, doc)
    return _Place(the_file, the_file, "")


# A record of one of the file's lists, by its number in the list (from 1).
_RECORDS = {
    "members": gettext_noop("Member {number}"),
    "players": gettext_noop("Player {number}"),
    "claims": gettext_noop("Claim {number}"),
}


def _in_session(index: int, loc: list[int | str], key: str, doc: dict[str, Any]) -> _Place:
    number = gettext("Session {number}").format(number=index + 1)
    path = f"sessions[{index}]"
    if not loc and (not key or key in _BEFORE_LABEL):
        return _Place(number, number, path)
    data = doc["sessions"][index]
    label = _label_of(index, data)
    if not loc:
        return _Place(label, label, path)
    records, item, *inner = loc
    here = f"{path}.{records}[{item}]"
    record = data[records][item]
    if records == "seats":
        seat = gettext("{session}: a seat").format(session=label)
        # Its player as "a seat"; its position, with its path, as the session's.
        return _Place(seat, seat if key == "player" else label, here)
    if records == "rejoins":
        whose = _player_in(record)
        named = key in ("after_round", "created_by") and whose
        rejoin = gettext("{session}: a rejoin").format(session=label)
        if named:
            whose_rejoin = gettext("{session}: {player}'s rejoin").format(
                session=label, player=whose
            )
            return _Place(rejoin, whose_rejoin, here)
        return _Place(rejoin, label, here)
    if records == "rounds":
        played = gettext("{session}, round {number}").format(session=label, number=int(item) + 1)
        if not inner:
            return _Place(played, played, here)
        # A hand: its player named with the round; its other values with the player.
        whose = _player_in(record["entries"][inner[1]])
        named = key and key != "player" and whose
        # Translators: a place in a league file: a round, then the player whose hand it is.
        hand_of = gettext("{round}, {player}").format(round=played, player=whose)
        return _Place(played, hand_of if named else played, here)
    if records == "seat_changes":
        at = gettext("{session}, seat change {number}").format(session=label, number=int(item) + 1)
        return _Place(at, at, here)
    if records == "changes":
        at = gettext("{session}, change {number}").format(session=label, number=int(item) + 1)
        if not inner:
            return _Place(at, at, here)
        side = f"{here}.{inner[0]}"
        if len(inner) == 1:
            return _Place(at, f"{at}: {side}", side, at, "round")
        hand = f"{side}.entries[{inner[2]}]"
        return _Place(at, f"{at}: {hand}", hand, at, "hand")
    return _Place(label, label, here)


def _label_of(index: int, data: dict[str, Any]) -> str:
    """The session's label, from its name and day as the schema takes them; its number
    alone where one of them is refused (and so is named first)."""
    try:
        name = clean_name(data.get("name") or "")
        played_on = GameSession._meta.get_field("played_on").clean(data.get("played_on"), None)
    except (ValidationError, TypeError, AttributeError):
        return gettext("Session {number}").format(number=index + 1)
    return session_label(index + 1, name, played_on)


def _player_in(record: object) -> str:
    """The player a hand or a rejoin names, as the schema takes the name; "" if none."""
    player = record.get("player") if isinstance(record, dict) else None
    try:
        return clean_name(player) if isinstance(player, str) else ""
    except ValidationError:
        return ""
