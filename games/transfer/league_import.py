"""Importing a league file: every value checked and every round re-scored by the rules
service before anything is written, then one transaction of bulk writes, so a league
is restored completely or not at all, its rounds' history with it (version 4 on). An
import acts on nobody but the importer (its members and their "this is me" claims
are listed for the owner to invite, share tokens are always new, whoever entered or
changed a round is an account only if the import made them a member, else a name).
"""

from __future__ import annotations

import datetime
import gc
import itertools
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Model
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.models import (
    CARD_CODES,
    GameSession,
    HandEntry,
    League,
    Membership,
    Player,
    PlayerClaim,
    Rejoin,
    Round,
    RoundChange,
    Seat,
    validate_groups,
)
from games.names import clean_name
from games.rules import (
    PlayerHand,
    PlayerResult,
    RulesError,
    Ruleset,
    as_stored_before_exact_texts,
    get_ruleset,
    parse_card,
    score_round,
    session_state,
)
from games.services.leagues import LeagueError, league_at_a_free_address
from games.services.results import SeatResult, one_hand, refresh_league, seat_results
from games.services.round_saves import breakdown_of
from games.services.sessions import name_key
from games.transfer.league_file import (
    EXACT_TEXTS,
    FORMAT,
    HISTORY,
    NOTHING,
    READABLE,
    History,
    round_times_in_history,
)


class ImportRefused(Exception):
    """A league file that cannot be restored as it is; nothing was written."""

    def __init__(self, message: str) -> None:
        # Whatever a message quotes of the file can be written out: a page or a
        # terminal that is handed half a character (a lone surrogate) fails instead.
        super().__init__(message.encode("utf-8", "backslashreplace").decode("utf-8"))


# What the importer of a file before version 4 is told (the import page, the command).
BEFORE_HISTORY = (
    "This file was exported before league files kept the rounds' history: its "
    "sessions' history pages start empty, and who entered each round is kept as a name."
)


@dataclass(frozen=True)
class Imported:
    league: League
    # The file's members, (username, role), who were not added: the owner may invite
    # them (the league's page lists them).
    invitable: tuple[tuple[str, str], ...] = ()
    # Whether the file held its rounds' history (version 4 on): before, none was kept
    # in a file, and its sessions' history pages start empty.
    history: bool = True


@contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a file is imported. An import holds the whole
    file and every round it scored until it writes them, and the collector walked all
    of those objects again and again as they grew: a third of the time of a
    10,000-round import. Cycles made meanwhile are collected once it is back on. It is
    the process's switch: a request another thread of the worker serves meanwhile goes
    without it for those seconds too."""
    if not gc.isenabled():
        yield  # off already (another import in this process): whoever turned it off
        return  # turns it back on
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@_cycle_collector_paused()
def import_league(
    raw: bytes | str,
    *,
    owner: AbstractBaseUser | None = None,
    keep_members: bool = False,
    max_rounds: int | None = None,
    name: str = "",
) -> Imported:
    """Restore a league from the text of a file `export_league` wrote, as a new
    league of which ``owner`` (the user importing, if any) is the only member, named
    ``name`` (held to the rule for names), else as the file names it; beside one of
    the owner's leagues of that name, by the day it came ("Friday club (imported 26
    Nov 2026)", then ", 2" and on: _imported_again).

    Its address is its own (services.leagues.fresh_slug): the file's, or the typed
    name's, numbered as a new league's is if another league has it ("club-2"). So
    the same file imports again as another league, and no message tells the
    importer whose league has that address.

    A file may not act on anyone else (issue 9): its members are not added but kept
    on the league for the owner to invite (``Imported.invitable``), each with the
    player they claimed ("this is me"), which they make again with one tap once they
    are members (the importer's own claim is made at once); its share links
    are never used (every session gets a new one); its players are linked to no
    account. Only an administrator's ``keep_members`` (``manage.py import_league
    --keep-members``) adds the file's members, creating the accounts missing here
    with no usable password, and makes their claims again.

    Each session's history comes back as the file has it (version 4 on): every
    change with its time, author and the round before and after, each round's version
    and times, each rejoin's time and author. An author is linked to an account as a
    claim is: a member of the file whom the import made a member (the importer; every
    member with ``keep_members``); anyone else is kept as a name, linked to no
    account. A file before version 4 holds no history: its authors are names, its
    rounds and rejoins are timed at the import, and ``Imported.history`` is False.

    Raises ImportRefused, writing nothing, for a file that is not JSON or not this
    format and version, a name that is not printable text (the file's or ``name``), a
    date or number the database could not store and read back (or, version 4 on, a
    time in the future), a value the models would refuse, a round the rules service
    does not score as the file says, or a history that does not hold together (a
    change of a round the session does not have, a round before or after that is not
    one, changes out of order, a round last changed before it was entered); and,
    before scoring any, for a file of more than ``max_rounds`` rounds (the import
    page's limit: every round is scored again, which takes time).
    """
    name = _league_name(name)
    data = read_league_file(raw)
    if max_rounds is not None:
        _check_round_count(data, max_rounds)
    plan = _plan(data)
    final = name or plan.league["name"]
    if _a_league_of_theirs_is_called(owner, final):
        # Beside a league of theirs of that name (the same file imported again, or the
        # name typed): two leagues of one name on every menu of theirs would not read
        # apart.
        final = _imported_again(owner, final)
    if final != plan.league["name"]:
        # Another name: the file's address was the file's name's.
        plan = replace(plan, league=plan.league | {"name": final, "slug": ""})
    with transaction.atomic():
        return _write(plan, owner, keep_members)


def _a_league_of_theirs_is_called(owner: AbstractBaseUser | None, name: str) -> bool:
    """Whether ``owner`` is a member of a league of that name (only leagues they see:
    another club's name is never a reason, so nothing is told of it)."""
    return (
        owner is not None
        and League.objects.filter(memberships__user=owner, name__iexact=name).exists()
    )


def _imported_again(owner: AbstractBaseUser, name: str) -> str:
    """The name of a league imported beside one of the same name: the day it came, and
    how many came that day where that name is theirs too ("imported 26 Nov 2026, 2"),
    so the third import of a file on one day reads apart from the second. Picked
    before the import's transaction and not a unique column: two imports of one file
    by one owner at the same moment may still share a name (the owner renames one)."""
    today = timezone.localdate()
    day = f"imported {today.day} {today:%b %Y}"
    limit = League._meta.get_field("name").max_length
    for count in itertools.count(1):
        ending = f" ({day})" if count == 1 else f" ({day}, {count})"
        again = name[: limit - len(ending)].rstrip() + ending
        if not _a_league_of_theirs_is_called(owner, again):
            return again
    raise AssertionError("unreachable: itertools.count never ends")


def _league_name(name: str) -> str:
    """The name typed for the league, as the league form takes it; "" for none."""
    try:
        return clean_name(name, max_length=League._meta.get_field("name").max_length)
    except ValidationError as error:
        raise ImportRefused(f"The league's name: {' '.join(error.messages)}") from None


def _check_round_count(data: object, limit: int) -> None:
    sessions = data.get("sessions") if isinstance(data, dict) else None
    if not isinstance(sessions, list):
        return  # not a league file: _plan says why
    count = sum(
        len(session["rounds"])
        for session in sessions
        if isinstance(session, dict) and isinstance(session.get("rounds"), list)
    )
    if count > limit:
        raise ImportRefused(
            f"This file holds {count:,} rounds; the import page takes at most {limit:,} at "
            "once (each is scored again, and the page must answer within seconds). Nothing "
            "was imported: an administrator can import it with manage.py import_league."
        )


def read_league_file(raw: bytes | str) -> object:
    """The file's JSON, or ImportRefused saying why it is not JSON, or where it holds
    text that is not Unicode."""
    try:
        data = json.loads(raw, parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        raise ImportRefused("This is not a league file: it is not UTF-8 text.") from None
    except (ValueError, RecursionError) as error:
        raise ImportRefused(f"This is not a league file: it is not valid JSON ({error}).") from None
    if _may_hold_surrogates(raw):
        _refuse_surrogates(data)
    return data


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


# Half a character as a JSON escape ("\ud800" to "\udfff"): the export never writes
# one (it writes names as they are), so a file without one is not walked.
_HALF_CHARACTER_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_HALF_CHARACTER = re.compile(r"[\ud800-\udfff]")


def _may_hold_surrogates(raw: bytes | str) -> bool:
    """Whether the JSON of ``raw`` may hold half a character (a lone surrogate): JSON
    reads one from an escape; Python's reading of JSON bytes lets one through where
    the bytes spell it, though UTF-8 does not allow that; a text handed in as a str
    may hold one as it is. Looked for in the text first (0.012 s for 6 MB), so that the
    walk over every string of a large file is made only when one may be there."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            return True  # UTF-16 or UTF-32 (JSON reads those too), or surrogates
    elif _HALF_CHARACTER.search(raw):
        return True
    return _HALF_CHARACTER_ESCAPE.search(raw) is not None


def _refuse_surrogates(data: object) -> None:
    """Refuse a file with half a character anywhere, naming where: no database stores
    one, no page or terminal can show one, and a file the export wrote never holds
    one (the two halves of an emoji's escape make one character)."""
    found = _half_character_in(data)
    if found is None:
        return
    path, key, text = found
    where = _path_text(path) or "The file"
    if key:
        where = f"A key of {_path_text(path[:-1]) or 'the file'} ({where})"
    code = f"U+{ord(_HALF_CHARACTER.search(text).group()):04X}"
    raise ImportRefused(
        f"{where}: this is not text: {code} is half of a character (a lone surrogate), "
        "which nothing can store or show. Nothing was imported."
    )


def _path_text(path: list[str | int]) -> str:
    """A place in the file as its messages name one: sessions[2].overrides.first_drop."""
    text = "".join(f"[{part}]" if isinstance(part, int) else f".{_shown(part)}" for part in path)
    return text.removeprefix(".")


def _half_character_in(value: object) -> tuple[list[str | int], bool, str] | None:
    """Where the first half character is: the path to it (keys and indexes), whether
    it is in a key (the path's last part) rather than a value, and the text."""
    if isinstance(value, str):
        return ([], False, value) if _HALF_CHARACTER.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if _HALF_CHARACTER.search(key):
                return [key], True, key
            found = _half_character_in(item)
            if found is not None:
                found[0].insert(0, key)
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _half_character_in(item)
            if found is not None:
                found[0].insert(0, index)
                return found
    return None


def _shown(text: str, limit: int = 40) -> str:
    """Text of the file as a message quotes it: at most ``limit`` characters, those
    that cannot be shown as they are (control characters, half a character) written
    as escapes, as Python writes them."""
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text[:limit]
    )


@dataclass(frozen=True)
class _EntryPlan:
    player: str
    groups: list[list[str]]
    result: PlayerResult  # the rules service's figures for this hand


@dataclass(frozen=True)
class _RoundPlan:
    number: int
    dealer: str | None
    cut_joker: str
    author: str  # who saved it last, as the file names them ("" if it does not)
    entries: tuple[_EntryPlan, ...]
    version: int
    # From the file or its history (version 4); None: the time of the import.
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None


@dataclass(frozen=True)
class _RejoinPlan:
    player: str
    after_round: int
    created_at: datetime.datetime | None = None  # None: the time of the import
    author: str = ""


@dataclass(frozen=True)
class _ChangePlan:
    """One change of a session's history (RoundChange), its before and after whole."""

    round: int | None  # the round's number in the file now; None: deleted since
    number: int
    action: str
    author: str
    changed_at: datetime.datetime
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass(frozen=True)
class _SessionPlan:
    columns: dict[str, Any]  # GameSession fields, as the models take them
    created_at: datetime.datetime | None
    seats: tuple[tuple[str, int], ...]  # (player, position)
    first_dealer: str | None
    rejoins: tuple[_RejoinPlan, ...]  # in the order they are replayed
    rounds: tuple[_RoundPlan, ...]
    results: dict[str, SeatResult]  # by player
    rematch_of: int | None  # the number (from 1) in the file of the session it follows
    changes: tuple[_ChangePlan, ...] = ()  # oldest first


@dataclass(frozen=True)
class _Reading:
    """How a file of its version is read."""

    # Written before issue 14: its rules are the presets of then (its sessions were
    # scored under them, and its league keeps its house rules as they were).
    earlier: bool = False
    # Version 4 on: the rounds' history and times, authors as accounts where they can
    # be, and no time later than the import (`latest`).
    history: bool = False

    @cached_property
    def latest(self) -> datetime.datetime | None:
        """The latest time a file that keeps its history may give: the import's, read
        once, give or take the clocks of two servers; None for a file before it."""
        return timezone.now() + _CLOCKS if self.history else None


@dataclass(frozen=True)
class _LeaguePlan:
    """A league file checked through: what to write, every round already scored and
    every session replayed."""

    league: dict[str, Any]  # League fields
    members: dict[str, str]  # username → role
    players: dict[str, str | None]  # name → the username a file before claims linked it to
    sessions: tuple[_SessionPlan, ...]
    claims: dict[str, str]  # username → the player they said "this is me" of
    history: bool = False  # the file holds the rounds' history (version 4 on)


def _plan(data: object) -> _LeaguePlan:
    """Check the whole file, before anything is written."""
    doc = _object(data, "The file")
    if doc.get("format") != FORMAT:
        raise ImportRefused(f'This is not a league file: it has no "format": "{FORMAT}".')
    version = doc.get("version")
    if version not in READABLE or isinstance(version, bool):
        raise ImportRefused(
            f"This league file is format version {version!r}; "
            f"this scorekeeper reads versions {', '.join(map(str, READABLE))}."
        )
    reading = _Reading(earlier=version < EXACT_TEXTS, history=version >= HISTORY)
    league = _league_columns(_object(doc.get("league"), '"league"'), reading.earlier)
    members = _members(_list(doc, "members", "The file"))
    players = _players(_list(doc, "players", "The file"))
    sessions = tuple(
        _session_plan(_object(item, f"Session {index}"), index, players, reading)
        for index, item in enumerate(_list(doc, "sessions", "The file"), start=1)
    )
    _check_rematches(sessions)
    # Before version 3 a file has no claims.
    claims = _claims(_get(doc, "claims", list, "The file", optional=True) or [], players, members)
    # Before claims, a player could name its account ("user"): a member's link is their
    # claim, unless the file claims the player, or has the member claim another, already.
    for name, username in players.items():
        if username in members and username not in claims and name not in claims.values():
            claims[username] = name
    return _LeaguePlan(league, members, players, sessions, claims, reading.history)


def _league_columns(data: Mapping[str, Any], earlier: bool = False) -> dict[str, Any]:
    where = "League"
    columns = {
        "name": _name_column(League, "name", data, where, "league.name"),
        # The address the league had, kept where it is free (services.leagues.fresh_slug).
        "slug": "" if data.get("slug") is None else _column(League, "slug", data, where),
        "preset": _column(League, "preset", data, where),
        "money_per_point": _money(League, "money_per_point", data, where, "league"),
        "overrides": _overrides(data, where, "league"),
        # Absent (a file written before it was kept): off, as for a new league.
        "table_auto_save": _get(data, "table_auto_save", bool, where, optional=True) or False,
    }
    if earlier:
        columns["overrides"] = as_stored_before_exact_texts(columns["preset"], columns["overrides"])
    _ruleset(columns["preset"], columns["overrides"], where)
    return columns


def _members(items: list) -> dict[str, str]:
    members: dict[str, str] = {}
    model = get_user_model()
    for index, item in enumerate(items, start=1):
        where = f"Member {index}"
        member = _object(item, where)
        username = _get(member, "username", str, where)
        _clean(model, model.USERNAME_FIELD, username, "User")
        if username in members:
            raise ImportRefused(f"{where}: {username!r} is listed twice.")
        members[username] = _column(Membership, "role", member, where)
    return members


def _players(items: list) -> dict[str, str | None]:
    players: dict[str, str | None] = {}
    seen: set[str] = set()
    model = get_user_model()
    for index, item in enumerate(items, start=1):
        where = f"Player {index}"
        player = _object(item, where)
        name = _name_column(Player, "name", player, where, f"players[{index - 1}].name")
        if name_key(name) in seen:
            # Two players of one name in a league: seating that name could not tell
            # them apart (names compare as the session form compares them).
            raise ImportRefused(f"{where}: {name!r} is listed twice (names ignore case).")
        seen.add(name_key(name))
        username = _get(player, "user", str, where, optional=True)
        if username is not None:
            _clean(model, model.USERNAME_FIELD, username, "User")
        players[name] = username
    return players


def _claims(items: list, players: Mapping[str, Any], members: Mapping[str, str]) -> dict[str, str]:
    """Who said "this is me" of which player: a member of the file, one player each,
    and a player of the file, one member each (as PlayerClaim's constraints hold)."""
    claims: dict[str, str] = {}
    for index, item in enumerate(items, start=1):
        where = f"Claim {index}"
        claim = _object(item, where)
        name = _name_ref(claim, "player", where)
        username = _get(claim, "user", str, where)
        if name not in players:
            raise ImportRefused(f"{where}: {name!r:.40} is not in the players list.")
        if username not in members:
            raise ImportRefused(
                f"{where}: {username!r:.40} claims {name}, but is not in the members list."
            )
        if username in claims:
            raise ImportRefused(f"{where}: {username} claims two players.")
        if name in claims.values():
            raise ImportRefused(f"{where}: {name} is claimed twice.")
        claims[username] = name
    return claims


def _check_rematches(sessions: tuple[_SessionPlan, ...]) -> None:
    """Each "rematch_of" names another session of the file, and no session has two
    rematches (a second tap on Rematch finds the first)."""
    followed: set[int] = set()
    for index, planned in enumerate(sessions, start=1):
        original = planned.rematch_of
        if original is None:
            continue
        where = f"Session {index}"
        if not 1 <= original <= len(sessions) or original == index:
            raise ImportRefused(
                f'{where}: "rematch_of" must be the number of another session of the file '
                f"(1 to {len(sessions)}), not {original}."
            )
        if original in followed:
            raise ImportRefused(f"{where}: session {original} already has a rematch.")
        followed.add(original)


def _session_plan(
    data: Mapping[str, Any], index: int, players: Mapping, reading: _Reading = _Reading()
) -> _SessionPlan:
    where = f"Session {index}"
    path = f"sessions[{index - 1}]"
    # Any share token in the file is ignored: each session gets a new one, so a file
    # cannot choose a share link (a guessable one, or another server's).
    columns: dict[str, Any] = {
        "preset": _column(GameSession, "preset", data, where),
        "played_on": _day(data, "played_on", where, path),
        # An unnamed session is written as "": a hand-written file may leave it out.
        "name": _name_column(
            GameSession, "name", {"name": data.get("name") or ""}, where, f"{path}.name"
        ),
        "money_per_point": _money(GameSession, "money_per_point", data, where, path),
        "buy_in": _money(GameSession, "buy_in", data, where, path),
        "overrides": _overrides(data, where, path),
        "ceiling": _number(GameSession, "ceiling", data, where, path, optional=True),
        "closed_at": _moment(data, "closed_at", where, path, reading.latest),
        # Absent or null: as the league says (off in a file written before it was kept).
        "table_auto_save": _get(data, "table_auto_save", bool, where, optional=True),
    }
    if reading.earlier:
        columns["overrides"] = as_stored_before_exact_texts(columns["preset"], columns["overrides"])
    created_at = _moment(data, "created_at", where, path, reading.latest)
    where = _session_label(index, columns["name"], columns["played_on"])
    ruleset = _ruleset(columns["preset"], columns["overrides"], where)
    if columns["ceiling"] is not None and columns["ceiling"] <= 0:
        raise ImportRefused(f"{where}: the ceiling must be a positive number of points.")
    seats = _seats(_list(data, "seats", where), where, path, players)
    seated = {name for name, _ in seats}
    first_dealer = _seated(data, "first_dealer", seated, where)
    rounds = tuple(
        _round_plan(
            _object(item, f"{where}, round {number}"), number, where, path, ruleset, seated, reading
        )
        for number, item in enumerate(_list(data, "rounds", where), start=1)
    )
    rejoins = _rejoins(_list(data, "rejoins", where), where, path, seated, len(rounds), reading)
    _check_sums(rounds, where, path)
    results, finished = _replay(ruleset, columns, seats, first_dealer, rejoins, rounds, where)
    columns["status"] = GameSession.Status.after(finished)
    rematch_of = _get(data, "rematch_of", int, where, optional=True)
    changes: tuple[_ChangePlan, ...] = ()
    if reading.history:
        items = _get(data, "changes", list, where, optional=True) or []
        changes = _changes(items, rounds, where, path, reading.latest)
        rounds = _round_times(rounds, changes, where)
    # In field order: every local is named for its field.
    return _SessionPlan(
        columns, created_at, seats, first_dealer, rejoins, rounds, results, rematch_of, changes
    )


def _session_label(index: int, name: str, played_on: datetime.date) -> str:
    return f"Session {index} ({f'“{name}”, ' if name else ''}played {played_on.isoformat()})"


def _seats(items: list, where: str, path: str, players: Mapping) -> tuple[tuple[str, int], ...]:
    seats: list[tuple[str, int]] = []
    for number, item in enumerate(items):
        seat = _object(item, f"{where}: a seat")
        name = _name_ref(seat, "player", f"{where}: a seat")
        if name not in players:
            raise ImportRefused(f"{where}: {name!r} has a seat but is not in the players list.")
        position = _number(Seat, "position", seat, where, f"{path}.seats[{number}]")
        if any(name == other for other, _ in seats):
            raise ImportRefused(f"{where}: {name} has two seats.")
        if any(position == other for _, other in seats):
            raise ImportRefused(f"{where}: two players sit in seat {position}.")
        seats.append((name, position))
    if not seats:
        raise ImportRefused(f"{where}: nobody has a seat.")
    return tuple(sorted(seats, key=lambda seat: seat[1]))


def _round_plan(
    data: Mapping[str, Any],
    expected: int,
    session: str,
    path: str,
    ruleset: Ruleset,
    seated: set[str],
    reading: _Reading,
) -> _RoundPlan:
    """A round scored by the rules service, with what its record holds besides its
    hands where the file keeps it (version 4 on): its version and times."""
    number = _get(data, "number", int, f"{session}, round {expected}")
    if number != expected:
        raise ImportRefused(
            f"{session}: rounds must be numbered 1, 2, 3… in order; round {number!r:.20} "
            f"stands where round {expected} belongs."
        )
    where = f"{session}, round {number}"
    cut_joker = _get(data, "cut_joker", str, where)
    if cut_joker not in CARD_CODES:
        raise ImportRefused(f"{where}: the cut joker {cut_joker!r:.20} is not a card code.")
    hands: list[PlayerHand] = []
    groups: list[list[list[str]]] = []
    entries = [_object(item, where) for item in _list(data, "entries", where)]
    for entry in entries:
        name = _seated(entry, "player", seated, where, optional=False)
        if any(hand.name == name for hand in hands):
            raise ImportRefused(f"{where}: {name} has two hands.")
        outcome = _column(HandEntry, "outcome", entry, f"{where}, {name}")
        on_deal = _get(entry, "on_deal", bool, f"{where}, {name}", optional=True) or False
        cards = _groups(entry, f"{where}, {name}")
        hands.append(PlayerHand(name, outcome, tuple(_cards(group) for group in cards), on_deal))
        groups.append(cards)
    try:
        result = score_round(ruleset, _CARDS[cut_joker], hands)
    except RulesError as error:
        problems = getattr(error, "errors", [error])
        raise ImportRefused(
            f"{where} does not score under its rules: "
            + "; ".join(_named(problem, hands) for problem in problems)
            + "."
        ) from None
    for entry, scored in zip(entries, result.players, strict=True):
        _check_figures(entry, scored, f"{where}, {scored.name}")
    version, created_at, updated_at = (
        _recorded(data, where, f"{path}.rounds[{number - 1}]", reading.latest)
        if reading.history
        else (1, None, None)
    )
    return _RoundPlan(
        number=number,
        dealer=_seated(data, "dealer", seated, where),
        cut_joker=cut_joker,
        author=_name_in(data, "entered_by", where),
        entries=tuple(
            _EntryPlan(hand.name, cards, scored)
            for hand, cards, scored in zip(hands, groups, result.players, strict=True)
        ),
        version=version,
        created_at=created_at,
        updated_at=updated_at,
    )


def _groups(entry: Mapping[str, Any], where: str) -> list[list[str]]:
    """A hand's groups: lists of card codes as the rules service prints them."""
    groups = _get(entry, "groups", list, where)
    if not all(isinstance(group, list) for group in groups) or not all(
        isinstance(card, str) for group in groups for card in group
    ):
        raise ImportRefused(f"{where}: the groups must be lists of card codes such as 7H.")
    try:
        validate_groups(groups)
    except ValidationError as error:
        raise ImportRefused(f"{where}: {' '.join(error.messages)}") from None
    return groups


def _cards(group: list[str]) -> tuple:
    return tuple(_CARDS[code] for code in group)


# Every card code, parsed once: a league file holds hundreds of thousands of cards,
# and validate_groups has already refused any other code.
_CARDS = {code: parse_card(code) for code in CARD_CODES}


def _named(error: RulesError, hands: list[PlayerHand]) -> str:
    """A rules error with the player it concerns named (its field indexes the hands):
    a message that names them already says otherwise beside them (RulesError.beside)."""
    if error.field.startswith("players[") and error.beside == error.message:
        index = error.field[len("players[") :].split("]", 1)[0]
        if index.isascii() and index.isdigit() and int(index) < len(hands):
            return f"{hands[int(index)].name}: {error.message}"
    return error.message


_FIGURES = ("hand_points", "value_points", "claims", "score")


def _check_figures(entry: Mapping[str, Any], scored: PlayerResult, where: str) -> None:
    """Figures the file gives must be the rules service's: a file edited by hand or
    written under other rules would otherwise be "restored" as something else."""
    for name in _FIGURES:
        given = _get(entry, name, int, where, optional=True)
        if given is not None and given != getattr(scored, name):
            raise ImportRefused(
                f"{where}: the file gives {name.replace('_', ' ')} {given!s:.40}, but the rules "
                f"service scores {getattr(scored, name)}. The file was changed or written "
                "under other rules."
            )
        if not _INT_LOW <= getattr(scored, name) <= _INT_HIGH:
            raise ImportRefused(f"{where}: the {name.replace('_', ' ')} is too large to store.")
    declaration = _get(entry, "declaration", str, where, optional=True)
    if declaration is not None and declaration != (scored.declaration or ""):
        raise ImportRefused(
            f"{where}: the file gives the declaration {declaration!r:.40}, but the rules "
            f"service finds {scored.declaration or 'none'}."
        )


def _rejoins(
    items: list, where: str, path: str, seated: set[str], rounds: int, reading: _Reading
) -> tuple[_RejoinPlan, ...]:
    rejoins = []
    for index, item in enumerate(items):
        rejoin = _object(item, f"{where}: a rejoin")
        name = _seated(rejoin, "player", seated, where, optional=False)
        after = _get(rejoin, "after_round", int, f"{where}: {name}'s rejoin")
        if not 1 <= after <= rounds:
            raise ImportRefused(f"{where}: {name} rejoins after round {after!s:.20}, not played.")
        if reading.history:
            here = f"{path}.rejoins[{index}]"
            created_at = _moment(rejoin, "created_at", where, here, reading.latest)
            author = _name_in(rejoin, "created_by", f"{where}: {name}'s rejoin")
            rejoins.append(_RejoinPlan(name, after, created_at, author))
        else:
            rejoins.append(_RejoinPlan(name, after))
    # In the order the session page replays them (services.scoreboard.load_scoreboard).
    return tuple(sorted(rejoins, key=lambda rejoin: rejoin.after_round))


def _check_sums(rounds: tuple[_RoundPlan, ...], where: str, path: str) -> None:
    """A seat's total and points are sums of its scores: each must fit its column."""
    spent: dict[str, int] = {}
    for planned in rounds:
        for entry in planned.entries:
            spent[entry.player] = spent.get(entry.player, 0) + abs(entry.result.score)
    for name, points in spent.items():
        if points > _INT_HIGH:
            raise ImportRefused(
                f"{where}: {path}: {name}'s scores add up to more than a total can hold."
            )


def _replay(
    ruleset: Ruleset,
    columns: Mapping[str, Any],
    seats: tuple[tuple[str, int], ...],
    first_dealer: str | None,
    rejoins: tuple[_RejoinPlan, ...],
    rounds: tuple[_RoundPlan, ...],
    where: str,
) -> tuple[dict[str, SeatResult], bool]:
    """The session replayed by the rules service as `services.results.refresh_session` does
    after a round is saved: each seat's result (by `seat_results`, as a save stores
    it), and whether it is finished. Computed here, from the plan, so that a league
    of thousands of sessions is written in a few bulk inserts rather than refreshed
    session by session."""
    names = [name for name, _ in seats]
    scores = [{entry.player: entry.result.score for entry in r.entries} for r in rounds]
    try:
        state = session_state(
            ruleset,
            names,
            scores,
            ceiling=columns["ceiling"],
            dealers=[r.dealer for r in rounds if r.dealer is not None],
            first_dealer=first_dealer,
            rejoins=[(rejoin.player, rejoin.after_round) for rejoin in rejoins],
            closed=columns["closed_at"] is not None,
        )
    except RulesError as error:
        raise ImportRefused(f"{where}: the session does not replay: {error.message}.") from None
    hands = (
        one_hand(entry.player, entry.result.outcome, entry.result.score)
        for r in rounds
        for entry in r.entries
    )
    return seat_results(state, hands), state.finished


# --- The rounds' history (version 4) ---------------------------------------------------------


def _recorded(
    data: Mapping[str, Any], where: str, here: str, latest: datetime.datetime | None
) -> tuple[int, datetime.datetime | None, datetime.datetime | None]:
    """A round's version, creation and last change as its record keeps them (version
    4 on); a time it leaves out is its history's (_round_times)."""
    version = _number(Round, "version", data, where, here, optional=True)
    if version is not None and version < 1:
        raise ImportRefused(f"{where}: {here}.version must be 1 or more, not {version}.")
    return (
        version or 1,
        _moment(data, "created_at", where, here, latest),
        _moment(data, "updated_at", where, here, latest),
    )


def _changes(
    items: list,
    rounds: tuple[_RoundPlan, ...],
    where: str,
    path: str,
    latest: datetime.datetime | None,
) -> tuple[_ChangePlan, ...]:
    """A session's history, each change with its before and after whole: what the file
    leaves out is taken from the rest of it (league_file.History)."""
    read = [_object(item, f"{where}, change {index}") for index, item in enumerate(items, start=1)]
    numbers = [
        _changed_round(change, len(rounds), f"{where}, change {index}")
        for index, change in enumerate(read, start=1)
    ]
    history = History(numbers, lambda number: _as_changed(rounds[number - 1]))
    changes: list[_ChangePlan] = []
    begun: set[int] = set()  # the rounds with a change so far
    for index, (change, number) in enumerate(zip(read, numbers, strict=True)):
        at, here = f"{where}, change {index + 1}", f"{path}.changes[{index}]"
        action = change.get("action")
        if action not in _ACTIONS:
            raise ImportRefused(
                f'{at}: "action" must be one of {", ".join(_ACTIONS)}, not {action!r:.40}.'
            )
        changed_at = _moment(change, "changed_at", at, here, latest)
        if changed_at is None:
            raise ImportRefused(f"{at}: {here}.changed_at: a change needs the time it was made.")
        if changes and changed_at < changes[-1].changed_at:
            raise ImportRefused(
                f"{at}: {here}.changed_at ({changed_at.isoformat()}) is earlier than the change "
                "before it: a session's changes are listed in the order they were made."
            )
        then = _number(RoundChange, "number", change, at, here)
        if then < 1:
            raise ImportRefused(f"{at}: {here}.number must be a round's number, from 1, not 0.")
        if action == RoundChange.Action.DELETED and number is not None:
            raise ImportRefused(
                f'{at}: a deleted round is no round of the file: "round" must be null, '
                f"not {number}."
            )
        if action == RoundChange.Action.CREATED and number in begun:
            raise ImportRefused(f"{at}: round {number} is created after a change of it.")
        before = (
            _round_then(change["before"], at, f"{here}.before")
            if "before" in change
            else history.before(action, number)
        )
        after = (
            _round_then(change["after"], at, f"{here}.after")
            if "after" in change
            else history.after(index, action, number)
        )
        _check_sides(action, number, before, after, at)
        history.record(number, after)
        if number is not None:
            begun.add(number)
        author = _name_in(change, "changed_by", at)
        changes.append(_ChangePlan(number, then, action, author, changed_at, before, after))
    return tuple(changes)


def _changed_round(change: Mapping[str, Any], rounds: int, where: str) -> int | None:
    """The round a change is of, as its number in the file; None: deleted since."""
    number = _get(change, "round", int, where, optional=True)
    if number is not None and not 1 <= number <= rounds:
        which = f"1 to {rounds}" if rounds else "this session has none"
        raise ImportRefused(
            f'{where}: "round" must be the number of a round of the session ({which}), or '
            f"null for a round deleted since; not {number!s:.20}."
        )
    return number


def _as_changed(planned: _RoundPlan) -> dict[str, Any]:
    hands = (
        {
            "player": entry.player,
            "outcome": entry.result.outcome,
            "on_deal": entry.result.on_deal,
            "groups": entry.groups,
            "score": entry.result.score,
        }
        for entry in planned.entries
    )
    return RoundChange.round_then(planned.cut_joker, planned.dealer, planned.version, hands)


_ACTIONS = tuple(RoundChange.Action.values)
# What each kind of change has before and after it (True: a round, False: nothing),
# and what it says when a side is not so.
_SIDES = {
    RoundChange.Action.CREATED: (
        (False, 'a creation has nothing before it: "before" must be null'),
        (True, 'a creation gives the round as it was entered in "after"'),
    ),
    RoundChange.Action.EDITED: (
        (True, 'an edit gives the round before it in "before"'),
        (True, 'an edit gives the round after it in "after"'),
    ),
    RoundChange.Action.DELETED: (
        (True, 'a deletion gives the round deleted in "before"'),
        (False, 'a deletion leaves nothing after it: "after" must be null'),
    ),
}


def _check_sides(action: str, number: int | None, before: Any, after: Any, where: str) -> None:
    for side, value in (("before", before), ("after", after)):
        if value is NOTHING:
            if number is None:
                why = "a change of a round deleted since gives the round before and after it"
            elif side == "before":
                why = f"no earlier change of round {number} says it"
            else:
                why = f"only round {number}'s last change may leave it out"
            raise ImportRefused(f'{where}: "{side}" is missing, and {why}.')
    for value, (wanted, message) in zip((before, after), _SIDES[action], strict=True):
        if (value is not None) != wanted:
            raise ImportRefused(f"{where}: {message}.")


# A round as the history keeps it (services.round_audit.round_snapshot), and each hand of it.
_ROUND_THEN = ("cut_joker", "dealer", "version", "entries")
_HAND_THEN = ("player", "outcome", "on_deal", "groups", "score", "entered_by")
# Who entered a hand in table mode: "Ben's phone", "asha (scorer)".
_HAND_AUTHOR_LENGTH = 200


def _round_then(value: object, where: str, path: str) -> dict[str, Any] | None:
    """A round before or after a change, as the history keeps it; None for null."""
    if value is None:
        return None
    data = _shaped(value, _ROUND_THEN, where, path)
    cut_joker = _get(data, "cut_joker", str, f"{where}: {path}")
    if cut_joker not in CARD_CODES:
        raise ImportRefused(f"{where}: {path}: the cut joker {cut_joker!r:.20} is not a card code.")
    version = _get(data, "version", int, f"{where}: {path}")
    if not 1 <= version <= _INT_HIGH:
        raise ImportRefused(f"{where}: {path}.version must be from 1 to {_INT_HIGH}.")
    hands = _get(data, "entries", list, f"{where}: {path}")
    dealer = _name_in(data, "dealer", f"{where}: {path}", limit=_PLAYER_NAME) or None
    # Shaped as the app keeps it (an "on_deal": false is left out, as a save leaves it).
    return RoundChange.round_then(
        cut_joker,
        dealer,
        version,
        (_hand_then(hand, where, f"{path}.entries[{index}]") for index, hand in enumerate(hands)),
    )


def _hand_then(value: object, where: str, path: str) -> dict[str, Any]:
    data = _shaped(value, _HAND_THEN, where, path)
    at = f"{where}: {path}"
    player = _name_in(data, "player", at, limit=_PLAYER_NAME)
    if not player:
        raise ImportRefused(f'{at}: "player" must name the player.')
    outcome = _get(data, "outcome", str, at)
    if outcome not in HandEntry.Outcome.values:
        raise ImportRefused(f"{at}: {outcome!r:.40} is not an outcome.")
    score = _get(data, "score", int, at)
    if not _INT_LOW <= score <= _INT_HIGH:
        raise ImportRefused(f"{at}: the score is too large to store.")
    hand: dict[str, Any] = {"player": player, "outcome": outcome}
    if "on_deal" in data:
        hand["on_deal"] = _get(data, "on_deal", bool, at)  # checked; False is left out
    hand |= {"groups": _groups(data, at), "score": score}
    if "entered_by" in data:
        hand["entered_by"] = _name_in(data, "entered_by", at, limit=_HAND_AUTHOR_LENGTH)
    return hand


def _shaped(value: object, keys: tuple[str, ...], where: str, path: str) -> Mapping[str, Any]:
    """A JSON object holding no key but ``keys``: the history keeps nothing else."""
    if not isinstance(value, dict):
        raise ImportRefused(f"{where}: {path} must be a JSON object or null, not {value!r:.40}.")
    for key in value:
        if key not in keys:
            raise ImportRefused(
                f'{where}: {path} holds "{_shown(key)}", which a round\'s history does not; it '
                f"holds {', '.join(keys)}."
            )
    return value


def _round_times(
    rounds: tuple[_RoundPlan, ...], changes: tuple[_ChangePlan, ...], where: str
) -> tuple[_RoundPlan, ...]:
    """Each round's times: the file's, else its history's (its creation, its last
    change). A round that gives only one of them was entered and last changed then."""
    created, last = round_times_in_history(
        (change.round, change.action, change.changed_at) for change in changes
    )
    timed = []
    for planned in rounds:
        created_at = planned.created_at or created.get(planned.number)
        updated_at = planned.updated_at or last.get(planned.number) or created_at
        created_at = created_at or updated_at
        if created_at is not None and updated_at < created_at:
            raise ImportRefused(
                f"{where}, round {planned.number}: it was last changed "
                f"({updated_at.isoformat()}) before it was entered ({created_at.isoformat()})."
            )
        timed.append(replace(planned, created_at=created_at, updated_at=updated_at))
    return tuple(timed)


# --- Reading values of the file ------------------------------------------------------------

# Money is written as text ("0.50": a JSON number would lose the cents), but a
# number typed by hand is taken too.
_MONEY = (str, int, float)
_KINDS = {
    bool: "true or false",
    str: "text",
    int: "a whole number",
    list: "a list",
    dict: "an object",
    _MONEY: 'an amount such as "0.50"',
}
# What an IntegerField holds on PostgreSQL (SQLite would take more, and the same file
# must import, or not, on both).
_INT_LOW, _INT_HIGH = -(2**31), 2**31 - 1
# Times an import takes: what both databases store and read back, and Python's
# datetime converts to UTC and local time without overflowing (the day a session
# was played on: games/days.py).
_EARLIEST = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_LATEST = datetime.datetime(2101, 1, 1, tzinfo=datetime.UTC)  # not included
# House-rule numbers: as many digits as the house-rules form takes.
_OPTION_LIMIT = 9_999_999
# How far ahead of this server's clock the one that wrote a file may run: a time
# later than the import by more than this is refused (version 4 on).
_CLOCKS = datetime.timedelta(minutes=10)
# Who did something, as a file names them (a username, or a name it was given): as
# long as the columns that keep such names (Round.entered_by_name and its kin).
_AUTHOR_LENGTH = Round._meta.get_field("entered_by_name").max_length
_PLAYER_NAME = Player._meta.get_field("name").max_length


def _get(
    data: Mapping[str, Any], key: str, kind: type, where: str, *, optional: bool = False
) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ImportRefused(f'{where}: "{key}" must be {_KINDS[kind]}, not {value!r:.40}.')
    return value


def _object(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ImportRefused(f"{where} must be a JSON object.")
    return value


def _list(data: Mapping[str, Any], key: str, where: str) -> list:
    return _get(data, key, list, where)


def _name_ref(data: Mapping[str, Any], key: str, where: str, *, optional: bool = False):
    """A player's name where the file refers to one (a seat, a dealer, a hand), as
    the players list's names are cleaned, so the two match."""
    name = _get(data, key, str, where, optional=optional)
    if name is None:
        return None
    try:
        return clean_name(name)
    except ValidationError as error:
        raise ImportRefused(f'{where}: "{key}": {" ".join(error.messages)}') from None


def _seated(
    data: Mapping[str, Any], key: str, seated: set[str], where: str, *, optional: bool = True
) -> str | None:
    name = _name_ref(data, key, where, optional=optional)
    if name is not None and name not in seated:
        raise ImportRefused(f"{where}: {name!r:.40} has no seat at this table.")
    return name


def _column(
    model: type[Model],
    name: str,
    data: Mapping[str, Any],
    where: str,
    kind: type | tuple[type, ...] = str,
    *,
    path: str | None = None,
) -> Any:
    """The file's value for a model field: of the JSON type the export writes (a
    date as text, not a number), then as the field takes it. Missing is None, which
    the field accepts or refuses."""
    value = data.get(name)
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise ImportRefused(f'{where}: "{name}" must be {_KINDS[kind]}, not {value!r:.40}.')
    return _clean(model, name, value, where, path)


def _clean(
    model: type[Model], name: str, value: object, where: str, path: str | None = None
) -> Any:
    """A value as the model's field takes it (its type, length, choices and range),
    or a refusal naming it (and where it is in the file, if given)."""
    try:
        return model._meta.get_field(name).clean(value, None)
    except ValidationError as error:
        label = name.replace("_", " ") + (f" ({path})" if path else "")
        raise ImportRefused(f"{where}: {label}: {_said(error, value)}") from None


def _said(error: ValidationError, value: object) -> str:
    """A field's refusal, the value it quotes (a date's or an amount's: “lots” value
    must be a decimal number) as a message quotes the file (_shown)."""
    shown = _shown(value) if isinstance(value, str) else value
    return " ".join(
        part.message % {**part.params, "value": shown}
        if isinstance(part.params, dict)
        else str(part.message)
        for part in error.error_list
    )


def _name_in(data: Mapping[str, Any], key: str, where: str, *, limit: int = _AUTHOR_LENGTH) -> str:
    """A name the file gives as text (who did something, a player in the history),
    held to the rule for names; "" where it gives none."""
    name = _get(data, key, str, where, optional=True) or ""
    try:
        return clean_name(name, max_length=limit)
    except ValidationError as error:
        label = key.replace("_", " ")
        raise ImportRefused(f"{where}: {label}: {' '.join(error.messages)}") from None


def _name_column(
    model: type[Model], name: str, data: Mapping[str, Any], where: str, path: str
) -> str:
    """A name, held to the rule every form holds names to (games/names.py)."""
    value = data.get(name)
    if value is not None and not isinstance(value, str):
        raise ImportRefused(f'{where}: "{name}" ({path}) must be text, not {value!r:.40}.')
    if isinstance(value, str):
        try:
            value = clean_name(value)
        except ValidationError as error:
            label = name.replace("_", " ")
            raise ImportRefused(f"{where}: {label} ({path}): {' '.join(error.messages)}") from None
    return _clean(model, name, value, where, path)


def _number(
    model: type[Model],
    name: str,
    data: Mapping[str, Any],
    where: str,
    path: str,
    *,
    optional: bool = False,
) -> int | None:
    """A whole number for an integer column, within what the column holds on every
    database the app runs on."""
    value = _get(data, name, int, where, optional=optional)
    if value is None:
        return None
    low, high = BaseDatabaseOperations.integer_field_ranges[
        model._meta.get_field(name).get_internal_type()
    ]
    if not low <= value <= high:
        raise ImportRefused(
            f"{where}: {path}.{name} must be a whole number from {low} to {high}, "
            f"not {value!s:.40}."
        )
    return _clean(model, name, value, where)


def _money(model: type[Model], name: str, data: Mapping[str, Any], where: str, path: str):
    """An amount of money, as the stakes forms take it: more than 0, in cents."""
    value = _column(model, name, data, f"{where}: {path}.{name}", _MONEY)
    if value is not None and value <= 0:
        raise ImportRefused(f"{where}: {path}.{name} must be more than 0, not {value}.")
    return value


def _overrides(data: Mapping[str, Any], where: str, path: str) -> dict:
    """House rules: the rules service judges them; their numbers are kept to what
    the house-rules form takes, so no score can outgrow its column."""
    overrides = _get(data, "overrides", dict, where)
    for option, value in overrides.items():
        numbers = value if isinstance(value, list) else [value]
        for number in numbers:
            if isinstance(number, bool) or not isinstance(number, int | float):
                continue
            if not -_OPTION_LIMIT <= number <= _OPTION_LIMIT:
                raise ImportRefused(
                    f"{where}: {path}.overrides.{_shown(option)} must be from -{_OPTION_LIMIT} "
                    f"to {_OPTION_LIMIT}, not {number!s:.40}."
                )
    return overrides


def _day(data: Mapping[str, Any], name: str, where: str, path: str) -> datetime.date:
    """The day a session was played on, held to the rule the session form and the
    admin hold it to (games/days.py, the field's validator): whatever a league holds,
    its export imports back."""
    return _column(GameSession, name, data, where, path=f"{path}.{name}")


def _moment(
    data: Mapping[str, Any],
    name: str,
    where: str,
    path: str,
    latest: datetime.datetime | None = None,
) -> datetime.datetime | None:
    """A date and time with its time zone (as the export writes them), from 1970 to
    2100 wherever on earth: a moment the databases cannot read back would break
    every page that shows it. With ``latest``, no later than that: a record of what
    happened (version 4 on)."""
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ImportRefused(f'{where}: "{name}" must be text, not {value!r:.40}.')
    try:
        moment = parse_datetime(value)
    except ValueError:
        moment = None
    label = name.replace("_", " ")
    if moment is None or timezone.is_naive(moment):
        raise ImportRefused(
            f"{where}: {path}.{name}: {label} must be a date and time with its time zone, "
            f"such as 2024-01-05T20:00:00+00:00, not {value!r:.40}."
        )
    # Compared with both ends as given (an offset of its own): converting a moment
    # at the edge of the calendar to UTC first could overflow.
    if not _EARLIEST <= moment < _LATEST:
        raise ImportRefused(
            f"{where}: {path}.{name}: {label} must be from 1970 to 2100, not {value!r:.40}."
        )
    if latest is not None and moment > latest:
        raise ImportRefused(
            f"{where}: {path}.{name}: {label} is in the future ({value!r:.40}): a file "
            "records what has happened."
        )
    return moment


def _ruleset(preset: str, overrides: dict, where: str) -> Ruleset:
    try:
        return get_ruleset(preset, overrides)
    except RulesError as error:
        raise ImportRefused(f"{where}: the house rules are not valid: {error.message}.") from None


# --- Writing ---------------------------------------------------------------------------------

# Rows per INSERT: large enough that a league of thousands of sessions takes a few
# dozen statements, small enough for SQLite's limit on parameters per statement.
_INSERT_BATCH = 500


def _write(plan: _LeaguePlan, owner: AbstractBaseUser | None, keep_members: bool) -> Imported:
    """Write the checked plan: a handful of bulk inserts, whatever the file's size.

    bulk_create sets the new rows' ids on PostgreSQL and on SQLite (3.35 and later,
    RETURNING), the two databases the app runs on, so rows can refer to each other
    without reading anything back."""
    roles: dict[Any, str] = {}
    if keep_members:
        users = _users(plan.members)
        roles = {users[username].pk: role for username, role in plan.members.items()}
        member_ids = {username: users[username].pk for username in plan.members}
    else:
        member_ids = {owner.get_username(): owner.pk} if owner is not None else {}
    invitable = () if keep_members else _invitable(plan.members, owner)
    if owner is not None:
        roles[owner.pk] = Membership.Role.OWNER
    league = _new_league(plan.league, [_listed(u, r, plan.claims.get(u)) for u, r in invitable])
    Membership.objects.bulk_create(
        Membership(league=league, user_id=user, role=role) for user, role in roles.items()
    )
    players = _player_rows(plan.players)
    # A claim is its member's own word: made again for a member of the new league (the
    # importer; every member with --keep-members), listed with the others otherwise, for
    # them to make again once they are members (leagues.claimed_in_file).
    PlayerClaim.objects.bulk_create(
        PlayerClaim(league=league, player=players[name], user_id=member_ids[username])
        for username, name in plan.claims.items()
        if username in member_ids
    )
    # The accounts authors are linked to (_by): the members of the file whom this
    # import made members, as their claims are. Before version 4 every author is a name.
    accounts = (
        {name: pk for name, pk in member_ids.items() if name in plan.members}
        if plan.history
        else {}
    )
    sessions = GameSession.objects.bulk_create(
        (
            GameSession(league=league, created_by=owner, **planned.columns)
            for planned in plan.sessions
        ),
        batch_size=_INSERT_BATCH,
    )
    seats = Seat.objects.bulk_create(
        (
            Seat(
                session=session,
                player=players[name],
                position=position,
                **vars(planned.results[name]),
            )
            for session, planned in zip(sessions, plan.sessions, strict=True)
            for name, position in planned.seats
        ),
        batch_size=_INSERT_BATCH,
    )
    seat_of = {(seat.session_id, seat.player_id): seat for seat in seats}

    def seat(session: GameSession, name: str | None) -> Seat | None:
        return None if name is None else seat_of[session.pk, players[name].pk]

    # auto_now_add gave every session the time of the import: the file's, where it
    # has one; and the first dealer, now that the seats exist, and the session each
    # is the rematch of, now that they all do.
    for session, planned in zip(sessions, plan.sessions, strict=True):
        session.created_at = planned.created_at or session.created_at
        session.first_dealer = seat(session, planned.first_dealer)
        if planned.rematch_of is not None:
            session.rematch_of = sessions[planned.rematch_of - 1]
    GameSession.objects.bulk_update(
        sessions, ["created_at", "first_dealer", "rematch_of"], batch_size=_INSERT_BATCH
    )
    rounds = Round.objects.bulk_create(
        (
            Round(
                session=session,
                number=planned.number,
                dealer=seat(session, planned.dealer),
                cut_joker=planned.cut_joker,
                **_by("entered_by", planned.author, accounts),
                version=planned.version,
            )
            for session, planned_session in zip(sessions, plan.sessions, strict=True)
            for planned in planned_session.rounds
        ),
        batch_size=_INSERT_BATCH,
    )
    planned_rounds = [r for planned in plan.sessions for r in planned.rounds]
    _insert_rows(
        HandEntry,
        _HAND_FIELDS,
        (
            _hand_row(played, entry, players[entry.player])
            for played, planned in zip(rounds, planned_rounds, strict=True)
            for entry in planned.entries
        ),
    )
    # auto_now_add and auto_now gave every round the time of the import: the file's
    # (or its history's), where it has them.
    _restore_times(rounds, planned_rounds, "created_at", "updated_at")
    rejoins = Rejoin.objects.bulk_create(
        (
            Rejoin(
                session=session,
                seat=seat(session, rejoin.player),
                after_round=rejoin.after_round,
                **_by("created_by", rejoin.author, accounts),
            )
            for session, planned in zip(sessions, plan.sessions, strict=True)
            for rejoin in planned.rejoins
        ),
        batch_size=_INSERT_BATCH,
    )
    _restore_times(rejoins, [r for planned in plan.sessions for r in planned.rejoins], "created_at")
    round_id = {
        (played.session_id, number): played.pk
        for played, number in zip(rounds, (r.number for r in planned_rounds), strict=True)
    }
    _insert_rows(
        RoundChange,
        _CHANGE_FIELDS,
        (
            _change_row(session.pk, change, round_id, accounts)
            for session, planned in zip(sessions, plan.sessions, strict=True)
            for change in planned.changes
        ),
    )
    # Its standings' months and ratings made once, the sessions in the order played.
    refresh_league(league.pk)
    return Imported(league, invitable, plan.history)


def _new_league(columns: Mapping[str, Any], listed: list[dict[str, str]]) -> League:
    """The league, at a free address: the file's where no league has it."""
    given = dict(columns)
    wanted = given.pop("slug")
    try:
        return league_at_a_free_address(wanted, **given, imported_members=listed)
    except LeagueError:
        raise ImportRefused(
            "No free address was found for this league; nothing was imported. Try again."
        ) from None


def _restore_times(rows: list[Model], planned: Iterable[Any], *fields: str) -> None:
    """Give rows that bulk_create stamped with the time of the import (auto_now_add,
    auto_now) their planned times, where the plan has them (else the import's stay).

    One UPDATE … FROM (VALUES …) a batch: bulk_update wrote a CASE arm a row and took
    a third of the time of a 10,000-round import. Both databases name a VALUES list's
    columns column1, column2, …"""
    changed = []
    for row, plan in zip(rows, planned, strict=True):
        times = [getattr(plan, field) for field in fields]
        if any(moment is not None for moment in times):
            current = (getattr(row, field) for field in fields)
            changed.append(
                (
                    row.pk,
                    *(
                        connection.ops.adapt_datetimefield_value(mine or theirs)
                        for mine, theirs in zip(times, current, strict=True)
                    ),
                )
            )
    if not changed:
        return
    model = type(rows[0])
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    sets = ", ".join(
        f"{quote(model._meta.get_field(field).column)} = v.column{number}"
        for number, field in enumerate(fields, start=2)
    )
    width = len(fields) + 1
    batch = min(_INSERT_BATCH, (connection.features.max_query_params or 10**6) // width)
    row = "(" + ", ".join(["%s"] * width) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(changed), batch):
            part = changed[start : start + batch]
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM (VALUES {', '.join([row] * len(part))}) AS v "
                f"WHERE {table}.{quote(model._meta.pk.column)} = v.column1",
                [value for values in part for value in values],
            )


def _listed(username: str, role: str, claimed: str | None) -> dict[str, str]:
    """A member of the file not added, as League.imported_members lists them."""
    return {"username": username, "role": role, **({"claimed": claimed} if claimed else {})}


def _invitable(
    members: Mapping[str, str], owner: AbstractBaseUser | None
) -> tuple[tuple[str, str], ...]:
    mine = owner.get_username() if owner is not None else None
    return tuple((username, role) for username, role in members.items() if username != mine)


def _users(usernames: Iterable[str]) -> dict[str, AbstractBaseUser]:
    """username → user, matching existing users and creating the others with no
    usable password (they sign in after a password reset, if ever)."""
    model = get_user_model()
    field_name = model.USERNAME_FIELD
    wanted = set(usernames)
    users = {
        user.get_username(): user for user in model.objects.filter(**{f"{field_name}__in": wanted})
    }
    created = {
        username: model.objects.create_user(**{field_name: username}, password=None)
        for username in sorted(wanted - set(users))
    }
    return users | created


def _player_rows(wanted: Iterable[str]) -> dict[str, Player]:
    """name → player, every one new: an imported league has its own players, never
    another club's of the same name (issue 9: names are not unique, and matching
    one would attach a stranger's file to that club's player and reveal it). Who is
    who among the members is said by claims alone."""
    wanted = list(wanted)
    created = Player.objects.bulk_create(Player(name=name) for name in wanted)
    return dict(zip(wanted, created, strict=True))


# HandEntry's columns as _hand_row gives them.
_HAND_FIELDS = ("round", *HandEntry.RECORDED, "breakdown")
# RoundChange's columns as _change_row gives them.
_CHANGE_FIELDS = (
    "session",
    "round",
    "number",
    "action",
    "changed_by",
    "changed_by_name",
    "changed_at",
    "before",
    "after",
)


def _hand_row(played: Round, entry: _EntryPlan, player: Player) -> tuple:
    """One hand as a row of HandEntry's table (its JSON as text)."""
    result = entry.result
    return (
        played.pk,
        player.pk,
        result.outcome,
        result.on_deal,
        json.dumps(entry.groups),
        result.declaration or "",
        result.hand_points,
        result.value_points,
        result.claims,
        result.score,
        json.dumps(breakdown_of(result)),
    )


def _by(field: str, author: str, accounts: Mapping[str, int]) -> dict[str, Any]:
    """Who entered, changed or rejoined something (``field``: entered_by, changed_by,
    created_by), as the file names them, in the row's two columns: a member of the file
    whom this import made a member is that account here; anyone else is kept as a
    name, linked to no account (issue 9)."""
    if author in accounts:
        return {f"{field}_id": accounts[author], f"{field}_name": ""}
    return {f"{field}_id": None, f"{field}_name": author}


def _change_row(
    session: int, change: _ChangePlan, round_id: Mapping[tuple[int, int], int], accounts
) -> tuple:
    """One change as a row of RoundChange's table (its JSON as text)."""
    by = _by("changed_by", change.author, accounts)
    return (
        session,
        None if change.round is None else round_id[session, change.round],
        change.number,
        change.action,
        by["changed_by_id"],
        by["changed_by_name"],
        connection.ops.adapt_datetimefield_value(change.changed_at),
        None if change.before is None else json.dumps(change.before),
        None if change.after is None else json.dumps(change.after),
    )


def _insert_rows(model: type[Model], fields: tuple[str, ...], rows: Iterable[tuple]) -> None:
    """Insert rows of the largest tables of a league, its hands (several a round) and
    its history (a change or more a round), by COPY on PostgreSQL and one prepared
    INSERT on SQLite.

    Not with bulk_create: on PostgreSQL it sends a batch of rows as arrays (UNNEST),
    and psycopg escapes the JSON of every hand inside an array literal in Python,
    quote by quote, which took most of the time of a large import. The values are
    those the model would store: ids, text, whole numbers, true or false, times as
    the database takes them and JSON text."""
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = ", ".join(quote(model._meta.get_field(name).column) for name in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            values = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({values})", list(rows))
