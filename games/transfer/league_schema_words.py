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
from pydantic_core import ErrorDetails

from games.models import GameSession
from games.names import clean_name
from games.transfer.league_refusal import shown

# Pydantic's errors for a value of another JSON type, as the app names each type.
_KINDS = {
    "string_type": "text",
    "int_type": "a whole number",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "an object",
}
# What a round and a hand of the history hold (league_schema.RoundThen, HandThen).
_ROUND_KEYS = "cut_joker, dealer, version, entries"
_HAND_KEYS = (
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
    return f"Session {index} ({f'“{name}”, ' if name else ''}played {played_on.isoformat()})"


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
            return f"{place.at}: {place.path} must be a JSON object or null, not {value!r:.40}."
        return f"{place.record} must be a JSON object."
    key = str(loc[-1])
    place = _place(loc[:-1], key, doc)
    field = f"{place.path}.{key}" if place.path else key
    if kind == "refused":
        context = dict(error.get("ctx") or {})
        names = {"where": place.where, "path": place.path, "at": place.at, "field": field}
        names |= {"key": key, "label": key.replace("_", " ")}
        return str(context.pop("template")).format_map(context | names)
    if kind == "extra_forbidden":
        keys = _ROUND_KEYS if place.history == "round" else _HAND_KEYS
        return (
            f'{place.at}: {place.path} holds "{shown(key)}", which a round\'s history does '
            f"not; it holds {keys}."
        )
    if kind in _KINDS:
        return f'{place.where}: "{key}" must be {_KINDS[kind]}, not {value!r:.40}.'
    # No check the schema makes: pydantic's words, at the place they are about.
    return f"{place.where}: {field}: {error['msg']}."


def _place(loc: tuple[int | str, ...], key: str, doc: dict[str, Any]) -> _Place:
    """The record at ``loc`` (keys and indexes into the file), as a refusal of its
    value ``key`` names it ("" : of the record itself)."""
    if not loc:
        return _Place("The file", "The file", "")
    head, *rest = loc
    if head == "league":
        return _Place('"league"', "League", "league")
    records = {"members": "Member", "players": "Player", "claims": "Claim"}
    if head in records and rest:
        label = f"{records[str(head)]} {int(rest[0]) + 1}"
        return _Place(label, label, f"{head}[{rest[0]}]")
    if head == "sessions" and rest:
        return _in_session(int(rest[0]), rest[1:], key, doc)
    return _Place("The file", "The file", "")


def _in_session(index: int, loc: list[int | str], key: str, doc: dict[str, Any]) -> _Place:
    number, path = f"Session {index + 1}", f"sessions[{index}]"
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
        seat = f"{label}: a seat"
        # Its player as "a seat"; its position, with its path, as the session's.
        return _Place(seat, seat if key == "player" else label, here)
    if records == "rejoins":
        whose = _player_in(record)
        named = key in ("after_round", "created_by") and whose
        return _Place(f"{label}: a rejoin", f"{label}: {whose}'s rejoin" if named else label, here)
    if records == "rounds":
        played = f"{label}, round {int(item) + 1}"
        if not inner:
            return _Place(played, played, here)
        # A hand: its player named with the round; its other values with the player.
        whose = _player_in(record["entries"][inner[1]])
        named = key and key != "player" and whose
        return _Place(played, f"{played}, {whose}" if named else played, here)
    if records == "seat_changes":
        at = f"{label}, seat change {int(item) + 1}"
        return _Place(at, at, here)
    if records == "changes":
        at = f"{label}, change {int(item) + 1}"
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
        return f"Session {index + 1}"
    return session_label(index + 1, name, played_on)


def _player_in(record: object) -> str:
    """The player a hand or a rejoin names, as the schema takes the name; "" if none."""
    player = record.get("player") if isinstance(record, dict) else None
    try:
        return clean_name(player) if isinstance(player, str) else ""
    except ValidationError:
        return ""
