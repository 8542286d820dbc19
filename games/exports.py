"""Exports and imports (issue 5): a session's round history and a league's standings
as CSV and XLSX, and a whole league as JSON that `import_league` restores exactly.

Every figure exported is one the app stored (hand entries, seat results, ratings) or
one `services.load_scoreboard` replays through the rules service: nothing here adds
up points. An import checks the whole file and re-scores every round with the rules
service before it writes anything, then writes in one transaction and lets the
services recompute seat results and ratings, so a league is restored completely or
not at all.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model, Prefetch
from django.db.models.functions import Lower
from django.utils import timezone
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from games.rules import (
    PlayerHand,
    PlayerResult,
    RulesError,
    Ruleset,
    format_groups,
    get_ruleset,
    parse_card,
    score_round,
)

from . import ratings, services, standings
from .models import (
    CARD_CODES,
    GameSession,
    HandEntry,
    League,
    Membership,
    Player,
    Rejoin,
    Round,
    Seat,
    new_share_token,
    validate_groups,
)
from .services import same_name

# Ids or tokens per query where a file may hold thousands: SQLite takes a limited
# number of parameters in one statement.
_BATCH = 500

# The JSON export's name and version: an import refuses any other, so a later change
# of the format can never be read as this one by mistake.
FORMAT = "scorekeeper-league"
VERSION = 1

Value = str | int | float | None


# --- Tables: CSV and XLSX ----------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One sheet of an export: what it is, its column headings and its rows."""

    title: str
    sheet: str  # the worksheet's name (at most 31 characters, no []:*?/\)
    header: tuple[str, ...]
    rows: tuple[tuple[Value, ...], ...]


# Per player and round, in this order, after the round's own columns.
PLAYER_COLUMNS = (
    "outcome",
    "groups",
    "hand points",
    "value points",
    "claims",
    "score",
    "total",
)


def session_history(session: GameSession) -> Table:
    """A session's rounds, one row each: number, dealer and cut joker, then for every
    seat the player's outcome, groups in card notation and stored figures, and the
    running total as the rules service replays it."""
    board = services.load_scoreboard(session)
    header = ["Round", "Dealer", "Cut joker"]
    for seat in board.seats:
        header += [f"{seat.player.name}: {column}" for column in PLAYER_COLUMNS]
    hands: dict[int, dict[int, HandEntry]] = {}
    for entry in HandEntry.objects.filter(round__session=session):
        hands.setdefault(entry.round_id, {})[entry.player_id] = entry
    rows = []
    for row in board.rows:
        entries = hands.get(row.round.pk, {})
        cells: list[Value] = [row.round.number, row.dealer, row.round.cut_joker]
        for seat, cell in zip(board.seats, row.cells, strict=True):
            cells += _entry_cells(entries.get(seat.player_id), cell.total)
        rows.append(tuple(cells))
    return Table(title=str(session), sheet="Rounds", header=tuple(header), rows=tuple(rows))


def _entry_cells(entry: HandEntry | None, total: int) -> list[Value]:
    if entry is None:  # out of the session by then: no hand, the total stands
        return [None] * (len(PLAYER_COLUMNS) - 1) + [total]
    return [
        entry.get_outcome_display(),
        groups_text(entry.groups),
        entry.hand_points,
        entry.value_points,
        entry.claims,
        entry.score,
        total,
    ]


def groups_text(groups: list[list[str]]) -> str:
    """Stored groups in the card notation players type (``2H 3H 4H | 8S 8S``)."""
    return format_groups([[parse_card(code) for code in group] for group in groups])


STANDINGS_HEADER = (
    "Player",
    "Rating",
    "Mu",
    "Sigma",
    "Sessions",
    "Sessions won",
    "Rounds",
    "Rounds won",
    "Points",
    "Points per round",
    "Drops",
    "Drop rate",
    "Best round",
    "Worst round",
)


def standings_table(
    league: League,
    *,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> Table:
    """The league's standings over the dates, as the standings page lists them."""
    rows = standings.league_standings(league, date_from=date_from, date_to=date_to)
    return Table(
        title=f"{league.name}: standings",
        sheet="Standings",
        header=STANDINGS_HEADER,
        rows=tuple(
            (
                row.player.name,
                row.rating,
                row.mu,
                row.sigma,
                row.sessions,
                row.sessions_won,
                row.rounds,
                row.rounds_won,
                row.points,
                row.average_points,
                row.drops,
                row.drop_rate,
                row.best_round,
                row.worst_round,
            )
            for row in rows
        ),
    )


# A spreadsheet runs a cell that starts like a formula: text from players (names) is
# escaped so that opening an export cannot run anything (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def to_csv(table: Table) -> bytes:
    """The table as UTF-8 CSV with a byte order mark, which Excel needs to read the
    names' accents right; other readers skip it."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([_csv_cell(heading) for heading in table.header])
    writer.writerows([_csv_cell(value) for value in row] for row in table.rows)
    return out.getvalue().encode("utf-8-sig")


def _csv_cell(value: Value) -> str | int:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def to_xlsx(table: Table) -> bytes:
    """The table as an XLSX workbook of one sheet: headings in bold and frozen, the
    numbers as numbers."""
    book = Workbook()
    sheet = book.active
    sheet.title = table.sheet
    book.properties.title = table.title
    sheet.append([_xlsx_text(heading) for heading in table.header])
    for row in table.rows:
        sheet.append([_xlsx_text(v) if isinstance(v, str) else v for v in row])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in sheet.iter_rows():
        for cell in row:
            if isinstance(cell.value, float):
                cell.number_format = "0.00"
            elif isinstance(cell.value, str) and cell.data_type == "f":
                cell.data_type = "s"  # text that looks like a formula stays text
    for number, heading in enumerate(table.header, start=1):
        sheet.column_dimensions[get_column_letter(number)].width = max(10, len(heading) + 2)
    sheet.freeze_panes = "B2"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _xlsx_text(text: str) -> str:
    # Control characters are not allowed in the file format at all.
    return ILLEGAL_CHARACTERS_RE.sub("", text)


# --- A league as JSON ----------------------------------------------------------------------


def export_league(league: League, *, share_tokens: bool = True) -> dict[str, Any]:
    """Everything `import_league` needs to restore the league: its rules, members,
    players, and every session with its seats, rounds and hands, sessions in the
    order they are rated (the day played, then as created). Figures are included so
    the file reads on its own; the import re-scores and checks them.

    Without ``share_tokens`` (a member who is not shown the share links) each
    session's token is null, and an import makes a new one."""
    sessions = list(
        league.sessions.select_related("created_by", "first_dealer__player")
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("player__user").order_by("position")
            ),
            Prefetch(
                "rejoins",
                queryset=Rejoin.objects.select_related("seat__player").order_by(
                    "after_round", "pk"
                ),
            ),
            Prefetch(
                "rounds",
                queryset=Round.objects.select_related("dealer__player", "entered_by").order_by(
                    "number"
                ),
            ),
            Prefetch(
                "rounds__entries",
                queryset=HandEntry.objects.select_related("player").order_by("pk"),
            ),
        )
        .order_by("played_on", "pk")
    )
    players = {seat.player_id: seat.player for s in sessions for seat in s.seats.all()}
    members = league.memberships.select_related("user").order_by("user__username", "pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "league": {
            "name": league.name,
            "slug": league.slug,
            "preset": league.preset,
            "overrides": league.overrides,
            "money_per_point": _decimal(league.money_per_point),
        },
        "members": [{"username": m.user.get_username(), "role": m.role} for m in members],
        "players": [
            {"name": player.name, "user": _username(player.user)}
            for player in sorted(players.values(), key=lambda player: player.name.lower())
        ],
        "sessions": [_export_session(session, share_tokens) for session in sessions],
    }


def _export_session(session: GameSession, share_tokens: bool) -> dict[str, Any]:
    return {
        "name": session.name,
        "preset": session.preset,
        "overrides": session.overrides,
        "ceiling": session.ceiling,
        "played_on": session.played_on.isoformat(),
        "created_at": session.created_at.isoformat(),
        "closed_at": session.closed_at.isoformat() if session.closed_at else None,
        "money_per_point": _decimal(session.money_per_point),
        "buy_in": _decimal(session.buy_in),
        "share_token": session.share_token if share_tokens else None,
        "created_by": _username(session.created_by),
        "first_dealer": session.first_dealer.player.name if session.first_dealer else None,
        "seats": [
            {"player": seat.player.name, "position": seat.position} for seat in session.seats.all()
        ],
        "rejoins": [
            {"player": rejoin.seat.player.name, "after_round": rejoin.after_round}
            for rejoin in session.rejoins.all()
        ],
        "rounds": [
            {
                "number": played.number,
                "dealer": played.dealer.player.name if played.dealer else None,
                "cut_joker": played.cut_joker,
                "entered_by": _username(played.entered_by),
                "entries": [
                    {
                        "player": entry.player.name,
                        "outcome": entry.outcome,
                        "groups": entry.groups,
                        "declaration": entry.declaration,
                        "hand_points": entry.hand_points,
                        "value_points": entry.value_points,
                        "claims": entry.claims,
                        "score": entry.score,
                    }
                    for entry in played.entries.all()
                ],
            }
            for played in session.rounds.all()
        ],
    }


def _decimal(value: Decimal | None) -> str | None:
    # A string: a JSON number would come back as a float and lose the cents.
    return None if value is None else str(value)


def _username(user: AbstractBaseUser | None) -> str | None:
    return None if user is None else user.get_username()


def dumps(data: Mapping[str, Any]) -> str:
    """The export as the text of a file (UTF-8, names as they are written)."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


# --- Importing a league ----------------------------------------------------------------------


class ImportRefused(Exception):
    """A league file that cannot be restored as it is; nothing was written."""


@dataclass(frozen=True)
class Imported:
    league: League
    left_out: tuple[str, ...] = ()  # usernames with no account here (not created)


def import_league(
    raw: bytes | str, *, owner: AbstractBaseUser | None = None, create_users: bool = True
) -> Imported:
    """Restore a league from the text of a file `export_league` wrote, as a new
    league; ``owner`` (the user importing, if any) becomes one of its owners.

    Accounts the file names are matched by username. Only the command line creates
    the missing ones (``create_users``, with no usable password): through the web,
    anyone signed in could otherwise reserve usernames, so there they are left out
    (memberships, "entered by") and listed in ``left_out``.

    Raises ImportRefused, writing nothing, for a file that is not JSON or not this
    format and version, a slug or share link already in use, a value the models
    would refuse, or a round the rules service does not score as the file says.
    """
    plan = _plan(read_league_file(raw))
    try:
        with transaction.atomic():
            return _write(plan, owner, create_users)
    except IntegrityError:
        # Checked before writing; only a league imported or created meanwhile gets here.
        raise ImportRefused(
            f"A league with the slug {plan.league['slug']!r} or one of its sessions' share "
            "links was created while this file was imported; nothing was imported."
        ) from None
    except RulesError as error:
        raise ImportRefused(f"The sessions do not replay: {error.message}.") from None


def read_league_file(raw: bytes | str) -> object:
    """The file's JSON, or ImportRefused saying why it is not JSON."""
    try:
        return json.loads(raw, parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        raise ImportRefused("This is not a league file: it is not UTF-8 text.") from None
    except (ValueError, RecursionError) as error:
        raise ImportRefused(f"This is not a league file: it is not valid JSON ({error}).") from None


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


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
    entered_by: str | None
    entries: tuple[_EntryPlan, ...]


@dataclass(frozen=True)
class _SessionPlan:
    columns: dict[str, Any]  # GameSession fields, as the models take them
    created_at: datetime.datetime | None
    created_by: str | None
    seats: tuple[tuple[str, int], ...]  # (player, position)
    first_dealer: str | None
    rejoins: tuple[tuple[str, int], ...]  # (player, after round)
    rounds: tuple[_RoundPlan, ...]


@dataclass(frozen=True)
class _LeaguePlan:
    """A league file checked through: what to write, every round already scored."""

    league: dict[str, Any]  # League fields
    members: dict[str, str]  # username → role
    players: dict[str, str | None]  # name → username of the user it belongs to
    sessions: tuple[_SessionPlan, ...]
    usernames: frozenset[str]  # every account the file names


def _plan(data: object) -> _LeaguePlan:
    """Check the whole file, before anything is written."""
    doc = _object(data, "The file")
    if doc.get("format") != FORMAT:
        raise ImportRefused(f'This is not a league file: it has no "format": "{FORMAT}".')
    if doc.get("version") != VERSION or isinstance(doc.get("version"), bool):
        raise ImportRefused(
            f"This league file is format version {doc.get('version')!r}; "
            f"this scorekeeper reads version {VERSION}."
        )
    league = _league_columns(_object(doc.get("league"), '"league"'))
    members = _members(_list(doc, "members", "The file"))
    players = _players(_list(doc, "players", "The file"))
    sessions = tuple(
        _session_plan(_object(item, f"Session {index}"), index, players)
        for index, item in enumerate(_list(doc, "sessions", "The file"), start=1)
    )
    _check_share_tokens(sessions)
    usernames = set(members) | {u for u in players.values() if u}
    for session in sessions:
        usernames |= {session.created_by} | {r.entered_by for r in session.rounds}
    usernames.discard(None)
    for username in usernames:
        _clean(get_user_model(), get_user_model().USERNAME_FIELD, username, "User")
    return _LeaguePlan(league, members, players, sessions, frozenset(usernames))


def _league_columns(data: Mapping[str, Any]) -> dict[str, Any]:
    where = "League"
    columns = {name: _column(League, name, data, where) for name in ("name", "slug", "preset")}
    columns["money_per_point"] = _column(League, "money_per_point", data, where, _MONEY)
    columns["overrides"] = _get(data, "overrides", dict, where)
    _ruleset(columns["preset"], columns["overrides"], where)
    if League.objects.filter(slug=columns["slug"]).exists():
        raise ImportRefused(
            f"A league with the slug {columns['slug']!r} already exists: nothing was imported. "
            "Change the slug in the file to import it as another league."
        )
    return columns


def _members(items: list) -> dict[str, str]:
    members: dict[str, str] = {}
    for index, item in enumerate(items, start=1):
        where = f"Member {index}"
        member = _object(item, where)
        username = _get(member, "username", str, where)
        if username in members:
            raise ImportRefused(f"{where}: {username!r} is listed twice.")
        members[username] = _column(Membership, "role", member, where)
    return members


def _players(items: list) -> dict[str, str | None]:
    players: dict[str, str | None] = {}
    seen: set[str] = set()
    for index, item in enumerate(items, start=1):
        where = f"Player {index}"
        player = _object(item, where)
        name = _column(Player, "name", player, where)
        if name.lower() in seen:
            # Players are one per name whatever its case: two would become one.
            raise ImportRefused(f"{where}: {name!r} is listed twice (names ignore case).")
        seen.add(name.lower())
        players[name] = _get(player, "user", str, where, optional=True)
    return players


def _session_plan(data: Mapping[str, Any], index: int, players: Mapping) -> _SessionPlan:
    where = f"Session {index}"
    columns = {name: _column(GameSession, name, data, where) for name in ("preset", "played_on")}
    # A file exported without the share links (null) gets new ones.
    token = data.get("share_token")
    columns["share_token"] = (
        new_share_token() if token is None else _column(GameSession, "share_token", data, where)
    )
    # An unnamed session is written as "": a hand-written file may leave it out.
    columns["name"] = _column(GameSession, "name", {"name": data.get("name") or ""}, where)
    for name in ("money_per_point", "buy_in"):
        columns[name] = _column(GameSession, name, data, where, _MONEY)
    columns["overrides"] = _get(data, "overrides", dict, where)
    columns["ceiling"] = _column(GameSession, "ceiling", data, where, int)
    columns["closed_at"] = _aware(_column(GameSession, "closed_at", data, where))
    where = _session_label(index, columns["name"], columns["played_on"])
    ruleset = _ruleset(columns["preset"], columns["overrides"], where)
    if columns["ceiling"] is not None and columns["ceiling"] <= 0:
        raise ImportRefused(f"{where}: the ceiling must be a positive number of points.")
    if not columns["share_token"] or not _is_token(columns["share_token"]):
        raise ImportRefused(f"{where}: the share token is missing or not a share token.")
    seats = _seats(_list(data, "seats", where), where, players)
    seated = {name for name, _ in seats}
    first_dealer = _seated(data, "first_dealer", seated, where)
    rounds = tuple(
        _round_plan(_object(item, f"{where}, round {number}"), number, where, ruleset, seated)
        for number, item in enumerate(_list(data, "rounds", where), start=1)
    )
    rejoins = _rejoins(_list(data, "rejoins", where), where, seated, len(rounds))
    return _SessionPlan(
        columns=columns,
        created_at=_aware(_column(GameSession, "created_at", data, where)),
        created_by=_get(data, "created_by", str, where, optional=True),
        seats=seats,
        first_dealer=first_dealer,
        rejoins=rejoins,
        rounds=rounds,
    )


def _session_label(index: int, name: str, played_on: datetime.date) -> str:
    return f"Session {index} ({f'“{name}”, ' if name else ''}played {played_on.isoformat()})"


def _seats(items: list, where: str, players: Mapping) -> tuple[tuple[str, int], ...]:
    seats: list[tuple[str, int]] = []
    for item in items:
        seat = _object(item, f"{where}: a seat")
        name = _get(seat, "player", str, f"{where}: a seat")
        if name not in players:
            raise ImportRefused(f"{where}: {name!r} has a seat but is not in the players list.")
        position = _column(Seat, "position", seat, where, int)
        if any(name == other for other, _ in seats):
            raise ImportRefused(f"{where}: {name} has two seats.")
        if any(position == other for _, other in seats):
            raise ImportRefused(f"{where}: two players sit in seat {position}.")
        seats.append((name, position))
    if not seats:
        raise ImportRefused(f"{where}: nobody has a seat.")
    return tuple(sorted(seats, key=lambda seat: seat[1]))


def _round_plan(
    data: Mapping[str, Any], expected: int, session: str, ruleset: Ruleset, seated: set[str]
) -> _RoundPlan:
    number = _get(data, "number", int, f"{session}, round {expected}")
    if number != expected:
        raise ImportRefused(
            f"{session}: rounds must be numbered 1, 2, 3… in order; round {number!r} "
            f"stands where round {expected} belongs."
        )
    where = f"{session}, round {number}"
    cut_joker = _get(data, "cut_joker", str, where)
    if cut_joker not in CARD_CODES:
        raise ImportRefused(f"{where}: the cut joker {cut_joker!r} is not a card code.")
    hands: list[PlayerHand] = []
    groups: list[list[list[str]]] = []
    entries = [_object(item, where) for item in _list(data, "entries", where)]
    for entry in entries:
        name = _seated(entry, "player", seated, where, optional=False)
        if any(hand.name == name for hand in hands):
            raise ImportRefused(f"{where}: {name} has two hands.")
        outcome = _column(HandEntry, "outcome", entry, f"{where}, {name}")
        cards = _groups(entry, f"{where}, {name}")
        hands.append(PlayerHand(name, outcome, tuple(_cards(group) for group in cards)))
        groups.append(cards)
    try:
        result = score_round(ruleset, parse_card(cut_joker), hands)
    except RulesError as error:
        problems = getattr(error, "errors", [error])
        raise ImportRefused(
            f"{where} does not score under its rules: "
            + "; ".join(_named(problem, hands) for problem in problems)
            + "."
        ) from None
    for entry, scored in zip(entries, result.players, strict=True):
        _check_figures(entry, scored, f"{where}, {scored.name}")
    return _RoundPlan(
        number=number,
        dealer=_seated(data, "dealer", seated, where),
        cut_joker=cut_joker,
        entered_by=_get(data, "entered_by", str, where, optional=True),
        entries=tuple(
            _EntryPlan(hand.name, cards, scored)
            for hand, cards, scored in zip(hands, groups, result.players, strict=True)
        ),
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
    return tuple(parse_card(code) for code in group)


def _named(error: RulesError, hands: list[PlayerHand]) -> str:
    """A rules error with the player it concerns named (its field indexes the hands)."""
    if error.field.startswith("players["):
        index = error.field[len("players[") :].split("]", 1)[0]
        if index.isdigit() and int(index) < len(hands):
            name = hands[int(index)].name
            if not error.message.startswith(name):
                return f"{name}: {error.message}"
    return error.message


_FIGURES = ("hand_points", "value_points", "claims", "score")


def _check_figures(entry: Mapping[str, Any], scored: PlayerResult, where: str) -> None:
    """Figures the file gives must be the rules service's: a file edited by hand or
    written under other rules would otherwise be "restored" as something else."""
    for name in _FIGURES:
        given = _get(entry, name, int, where, optional=True)
        if given is not None and given != getattr(scored, name):
            raise ImportRefused(
                f"{where}: the file gives {name.replace('_', ' ')} {given}, but the rules "
                f"service scores {getattr(scored, name)}. The file was changed or written "
                "under other rules."
            )
    declaration = _get(entry, "declaration", str, where, optional=True)
    if declaration is not None and declaration != (scored.declaration or ""):
        raise ImportRefused(
            f"{where}: the file gives the declaration {declaration!r}, but the rules service "
            f"finds {scored.declaration or 'none'}."
        )


def _rejoins(items: list, where: str, seated: set[str], rounds: int) -> tuple[tuple[str, int], ...]:
    rejoins = []
    for item in items:
        rejoin = _object(item, f"{where}: a rejoin")
        name = _seated(rejoin, "player", seated, where, optional=False)
        after = _get(rejoin, "after_round", int, f"{where}: {name}'s rejoin")
        if not 1 <= after <= rounds:
            raise ImportRefused(f"{where}: {name} rejoins after round {after}, not played.")
        rejoins.append((name, after))
    return tuple(rejoins)


def _check_share_tokens(sessions: Iterable[_SessionPlan]) -> None:
    tokens = [session.columns["share_token"] for session in sessions]
    if len(set(tokens)) != len(tokens):
        raise ImportRefused("Two sessions in the file have the same share token.")
    batches = (tokens[start : start + _BATCH] for start in range(0, len(tokens), _BATCH))
    if any(GameSession.objects.filter(share_token__in=batch).exists() for batch in batches):
        raise ImportRefused(
            "A session of this file is already here (its share link is in use): "
            "nothing was imported."
        )


def _is_token(token: str) -> bool:
    # As `new_share_token` makes them, and as the share URLs take them.
    return all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in token)


# --- Reading values of the file ------------------------------------------------------------

# Money is written as text ("0.50": a JSON number would lose the cents), but a
# number typed by hand is taken too.
_MONEY = (str, int, float)
_KINDS = {
    str: "text",
    int: "a whole number",
    list: "a list",
    dict: "an object",
    _MONEY: 'an amount such as "0.50"',
}


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


def _seated(
    data: Mapping[str, Any], key: str, seated: set[str], where: str, *, optional: bool = True
) -> str | None:
    name = _get(data, key, str, where, optional=optional)
    if name is not None and name not in seated:
        raise ImportRefused(f"{where}: {name!r} has no seat at this table.")
    return name


def _column(
    model: type[Model],
    name: str,
    data: Mapping[str, Any],
    where: str,
    kind: type | tuple[type, ...] = str,
) -> Any:
    """The file's value for a model field: of the JSON type the export writes (a
    date as text, not a number), then as the field takes it. Missing is None, which
    the field accepts or refuses."""
    value = data.get(name)
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise ImportRefused(f'{where}: "{name}" must be {_KINDS[kind]}, not {value!r:.40}.')
    return _clean(model, name, value, where)


def _clean(model: type[Model], name: str, value: object, where: str) -> Any:
    """A value as the model's field takes it (its type, length, choices and range),
    or a refusal naming it."""
    try:
        return model._meta.get_field(name).clean(value, None)
    except ValidationError as error:
        label = name.replace("_", " ")
        raise ImportRefused(f"{where}: {label}: {' '.join(error.messages)}") from None


def _aware(moment: datetime.datetime | None) -> datetime.datetime | None:
    if moment is not None and timezone.is_naive(moment):
        return timezone.make_aware(moment)
    return moment


def _ruleset(preset: str, overrides: dict, where: str) -> Ruleset:
    try:
        return get_ruleset(preset, overrides)
    except RulesError as error:
        raise ImportRefused(f"{where}: the house rules are not valid: {error.message}.") from None


# --- Writing ---------------------------------------------------------------------------------


def _write(plan: _LeaguePlan, owner: AbstractBaseUser | None, create_users: bool) -> Imported:
    users, new_users = _users(plan.usernames, create=create_users)
    players = _player_rows(plan.players, users, new_users)
    league = League.objects.create(**plan.league)
    roles = {
        users[username].pk: role for username, role in plan.members.items() if username in users
    }
    if owner is not None:
        roles[owner.pk] = Membership.Role.OWNER
    Membership.objects.bulk_create(
        Membership(league=league, user_id=user, role=role) for user, role in roles.items()
    )
    # Each session is written and refreshed (status, seat results) outside the
    # league, then all join it and the league is rated once: replaying the ratings
    # after every session, as saving a round does, would cost the square of their
    # number. Nobody sees the sessions in between: it is all one transaction.
    written = [_write_session(session, users, players) for session in plan.sessions]
    for start in range(0, len(written), _BATCH):
        GameSession.objects.filter(pk__in=written[start : start + _BATCH]).update(league=league)
    ratings.replay(league.pk)
    return Imported(league, tuple(sorted(plan.usernames - set(users))))


def _users(
    usernames: Iterable[str], *, create: bool
) -> tuple[dict[str, AbstractBaseUser], set[str]]:
    """username → user, matching existing users; with ``create`` the others are
    created with no usable password (they sign in after a password reset, if ever)."""
    model = get_user_model()
    field_name = model.USERNAME_FIELD
    wanted = set(usernames)
    users = {
        user.get_username(): user for user in model.objects.filter(**{f"{field_name}__in": wanted})
    }
    created = wanted - set(users) if create else set()
    for username in sorted(created):
        users[username] = model.objects.create_user(**{field_name: username}, password=None)
    return users, created


def _player_rows(
    wanted: Mapping[str, str | None], users: Mapping[str, AbstractBaseUser], new_users: set[str]
) -> dict[str, Player]:
    """name → player, matching existing players whatever the case of the name. A
    player created here is linked to its user only if that user is new too: an
    import must not attach a stranger's existing account to a player."""
    players = {}
    for name, username in wanted.items():
        # Matched as the unique constraint compares names (LOWER), like the services.
        player = Player.objects.alias(name_lower=Lower("name")).filter(same_name(name)).first()
        if player is None:
            user = users[username] if username in new_users else None
            player = Player.objects.create(name=name, user=user)
        players[name] = player
    return players


def _write_session(
    plan: _SessionPlan, users: Mapping[str, AbstractBaseUser], players: Mapping[str, Player]
) -> int:
    """Write one session, its seats, rounds, hands and rejoins, and let the services
    work out its status and seat results; returns its id."""
    session = GameSession.objects.create(
        created_by=users.get(plan.created_by or ""), **plan.columns
    )
    if plan.created_at is not None:
        GameSession.objects.filter(pk=session.pk).update(created_at=plan.created_at)
    Seat.objects.bulk_create(
        Seat(session=session, player=players[name], position=position)
        for name, position in plan.seats
    )
    by_player = {seat.player_id: seat for seat in session.seats.all()}
    seat_of = {name: by_player[players[name].pk] for name, _ in plan.seats}
    if plan.first_dealer is not None:
        session.first_dealer = seat_of[plan.first_dealer]
        session.save(update_fields=["first_dealer"])
    Round.objects.bulk_create(
        (
            Round(
                session=session,
                number=planned.number,
                dealer=seat_of.get(planned.dealer or ""),
                cut_joker=planned.cut_joker,
                entered_by=users.get(planned.entered_by or ""),
            )
            for planned in plan.rounds
        ),
        batch_size=1000,
    )
    # Read back rather than trust bulk_create to set ids: not every database does.
    rounds = {played.number: played for played in session.rounds.all()}
    HandEntry.objects.bulk_create(
        (
            _hand_entry(rounds[planned.number], entry, players[entry.player])
            for planned in plan.rounds
            for entry in planned.entries
        ),
        batch_size=1000,
    )
    Rejoin.objects.bulk_create(
        Rejoin(session=session, seat=seat_of[name], after_round=after)
        for name, after in plan.rejoins
    )
    # Status and each seat's result, as after a round saved (no league yet: no ratings).
    services.refresh_session(session)
    return session.pk


def _hand_entry(played: Round, entry: _EntryPlan, player: Player) -> HandEntry:
    result = entry.result
    return HandEntry(
        round=played,
        player=player,
        outcome=result.outcome,
        groups=entry.groups,
        declaration=result.declaration or "",
        hand_points=result.hand_points,
        value_points=result.value_points,
        claims=result.claims,
        score=result.score,
        breakdown=services.breakdown_of(result),
    )
