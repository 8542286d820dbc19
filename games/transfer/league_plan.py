"""What a checked league file (league_schema) will create, as typed records: every
round scored again by the rules service, every session replayed, every record held to
the others (a seat's player is on the players list, a dealer has a seat, a rejoin
follows a round played, a player who joins or leaves has a seat, a history holds
together), and nothing written.

A refusal here names its place as the schema's do (league_schema_words)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from django.utils.translation import gettext, gettext_noop

from games.models import CARD_CODES, GameSession
from games.models import SeatChange as StoredSeatChange
from games.rules import (
    REJOIN,
    HandFigures,
    PlayerHand,
    PlayerResult,
    RulesError,
    Ruleset,
    SeatChange,
    Seating,
    as_stored_before_exact_texts,
    get_ruleset,
    parse_card,
    score_round,
)
from games.services.replay import in_order_made, replay_table
from games.services.results import SeatResult, one_hand, seat_results
from games.services.round_words import Said, said_in_each_language
from games.services.sessions import name_key
from games.transfer.league_plan_history import ChangePlan, planned_changes, round_times
from games.transfer.league_refusal import ImportRefused
from games.transfer.league_schema import (
    Entry,
    LeagueFile,
    LeagueRecord,
    Reading,
    RoundRecord,
    SessionRecord,
)
from games.transfer.league_schema_values import INT_HIGH, INT_LOW
from games.transfer.league_schema_words import session_label


@dataclass(frozen=True)
class EntryPlan:
    player: str
    groups: list[list[str]]
    result: PlayerResult  # the rules service's figures for this hand
    said: dict[str, Said]  # and its words in each language (services.round_words)


@dataclass(frozen=True)
class RoundPlan:
    number: int
    dealer: str | None
    cut_joker: str
    author: str  # who saved it last, as the file names them ("" if it does not)
    entries: tuple[EntryPlan, ...]
    version: int
    # From the file or its history (version 4); None: the time of the import.
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None


@dataclass(frozen=True)
class RejoinPlan:
    player: str
    after_round: int
    created_at: datetime.datetime | None = None  # None: the time of the import
    author: str = ""

    def as_rules(self) -> SeatChange:
        """The rejoin as the rules service replays it."""
        return SeatChange(REJOIN, self.player, self.after_round)


@dataclass(frozen=True)
class SeatChangePlan:
    """A player joining or leaving the table after a round, or its new seating."""

    kind: str  # as SeatChange stores it: join, leave or seats
    player: str | None  # who joined or left; None for a new seating
    after_round: int
    seats: tuple[str, ...]  # a new seating: its players from the first seat
    created_at: datetime.datetime | None = None  # None: the time of the import
    author: str = ""

    def as_rules(self) -> SeatChange | Seating:
        """The change as the rules service replays it."""
        if self.kind == StoredSeatChange.Kind.SEATING or self.player is None:
            return Seating(self.after_round, self.seats)
        return SeatChange(self.kind, self.player, self.after_round)


@dataclass(frozen=True)
class SessionPlan:
    columns: dict[str, Any]  # GameSession fields, as the models take them
    created_at: datetime.datetime | None
    seats: tuple[tuple[str, int], ...]  # (player, position)
    first_dealer: str | None
    rejoins: tuple[RejoinPlan, ...]  # in the order they are replayed
    rounds: tuple[RoundPlan, ...]
    results: dict[str, SeatResult]  # by player (none for a latecomer the rules refused)
    rematch_of: int | None  # the number (from 1) in the file of the session it follows
    changes: tuple[ChangePlan, ...] = ()  # oldest first
    seat_changes: tuple[SeatChangePlan, ...] = ()  # in the order they are replayed


@dataclass(frozen=True)
class LeaguePlan:
    """A league file checked through: what to write, every round already scored and
    every session replayed."""

    league: dict[str, Any]  # League fields
    members: dict[str, str]  # username → role
    players: dict[str, str | None]  # name → the username a file before claims linked it to
    sessions: tuple[SessionPlan, ...]
    claims: dict[str, str]  # username → the player they said "this is me" of
    history: bool = False  # the file holds the rounds' history (version 4 on)


def plan_league(checked: LeagueFile, reading: Reading) -> LeaguePlan:
    """The plan of a checked file, or ImportRefused for what its records do not agree
    on, or a round the rules service does not score as the file says."""
    league = _league_columns(checked.league, reading.earlier)
    members = _members(checked)
    players = _players(checked)
    sessions = tuple(
        _session_plan(session, index, players, reading)
        for index, session in enumerate(checked.sessions, start=1)
    )
    _check_rematches(sessions)
    claims = _claims(checked, players, members)
    # Before claims, a player could name its account ("user"): a member's link is their
    # claim, unless the file claims the player, or has the member claim another, already.
    for name, username in players.items():
        if username in members and username not in claims and name not in claims.values():
            claims[username] = name
    return LeaguePlan(league, members, players, sessions, claims, reading.history)


def _league_columns(record: LeagueRecord, earlier: bool) -> dict[str, Any]:
    columns = {
        "name": record.name,
        "slug": record.slug,
        "preset": record.preset,
        "money_per_point": record.money_per_point,
        "overrides": record.overrides,
        "table_auto_save": record.table_auto_save or False,
        "time_zone": record.time_zone,
        "language": record.language,
        "currency": record.currency,
    }
    if earlier:
        columns["overrides"] = as_stored_before_exact_texts(columns["preset"], columns["overrides"])
    _ruleset(columns["preset"], columns["overrides"], gettext("League"))
    return columns


def _members(checked: LeagueFile) -> dict[str, str]:
    members: dict[str, str] = {}
    for index, member in enumerate(checked.members, start=1):
        if member.username in members:
            raise ImportRefused(
                gettext("Member {number}: {username} is listed twice.").format(
                    number=index, username=repr(member.username)
                )
            )
        members[member.username] = member.role
    return members


def _players(checked: LeagueFile) -> dict[str, str | None]:
    players: dict[str, str | None] = {}
    seen: set[str] = set()
    for index, player in enumerate(checked.players, start=1):
        if name_key(player.name) in seen:
            # Two players of one name in a league: seating that name could not tell
            # them apart (names compare as the session form compares them).
            raise ImportRefused(
                gettext("Player {number}: {name} is listed twice (names ignore case).").format(
                    number=index, name=repr(player.name)
                )
            )
        seen.add(name_key(player.name))
        players[player.name] = player.user
    return players


def _claims(
    checked: LeagueFile, players: Mapping[str, Any], members: Mapping[str, str]
) -> dict[str, str]:
    """Who said "this is me" of which player: a member of the file, one player each,
    and a player of the file, one member each (as PlayerClaim's constraints hold)."""
    claims: dict[str, str] = {}
    for index, claim in enumerate(checked.claims or [], start=1):
        where = gettext("Claim {number}").format(number=index)
        name, username = claim.player, claim.user
        if name not in players:
            raise ImportRefused(
                gettext("{where}: {name} is not in the players list.").format(
                    where=where, name=f"{name!r:.40}"
                )
            )
        if username not in members:
            raise ImportRefused(
                gettext(
                    "{where}: {username} claims {name}, but is not in the members list."
                ).format(where=where, username=f"{username!r:.40}", name=name)
            )
        if username in claims:
            raise ImportRefused(
                gettext("{where}: {username} claims two players.").format(
                    where=where, username=username
                )
            )
        if name in claims.values():
            raise ImportRefused(
                gettext("{where}: {name} is claimed twice.").format(where=where, name=name)
            )
        claims[username] = name
    return claims


def _check_rematches(sessions: tuple[SessionPlan, ...]) -> None:
    """Each "rematch_of" names another session of the file, and no session has two
    rematches (a second tap on Rematch finds the first)."""
    followed: set[int] = set()
    for index, planned in enumerate(sessions, start=1):
        original = planned.rematch_of
        if original is None:
            continue
        where = gettext("Session {number}").format(number=index)
        if not 1 <= original <= len(sessions) or original == index:
            raise ImportRefused(
                gettext(
                    '{where}: "rematch_of" must be the number of another session of the file '
                    "(1 to {count}), not {number}."
                ).format(where=where, count=len(sessions), number=original)
            )
        if original in followed:
            raise ImportRefused(
                gettext("{where}: session {number} already has a rematch.").format(
                    where=where, number=original
                )
            )
        followed.add(original)


def _session_plan(
    session: SessionRecord, index: int, players: Mapping[str, Any], reading: Reading
) -> SessionPlan:
    path = f"sessions[{index - 1}]"
    # Any share token in the file is ignored: each session gets a new one, so a file
    # cannot choose a share link (a guessable one, or another server's).
    columns: dict[str, Any] = {
        "preset": session.preset,
        "played_on": session.played_on,
        "name": session.name,
        "money_per_point": session.money_per_point,
        "buy_in": session.buy_in,
        "overrides": session.overrides,
        "ceiling": session.ceiling,
        "closed_at": session.closed_at,
        "table_auto_save": session.table_auto_save,
    }
    if reading.earlier:
        columns["overrides"] = as_stored_before_exact_texts(columns["preset"], columns["overrides"])
    where = session_label(index, columns["name"], columns["played_on"])
    ruleset = _ruleset(columns["preset"], columns["overrides"], where)
    if columns["ceiling"] is not None and columns["ceiling"] <= 0:
        raise ImportRefused(
            gettext("{where}: the ceiling must be a positive number of points.").format(where=where)
        )
    seats = _seats(session, where, players)
    seated = {name for name, _position in seats}
    first_dealer = _seated(session.first_dealer, seated, where)
    rounds = tuple(
        _round_plan(played, number, where, ruleset, seated)
        for number, played in enumerate(session.rounds, start=1)
    )
    rejoins = _rejoins(session, where, seated, len(rounds))
    seat_changes = _seat_changes(session, where, seated)
    _check_sums(rounds, where, path)
    table = _Table(seats, first_dealer, rejoins, seat_changes)
    results, finished = _replay(ruleset, columns, table, rounds, where)
    columns["status"] = GameSession.Status.after(finished)
    changes: tuple[ChangePlan, ...] = ()
    if reading.history:
        changes = planned_changes(session.changes or [], rounds, where, index - 1)
        timed = round_times(rounds, changes, where)
        rounds = tuple(
            replace(played, created_at=created, updated_at=updated)
            for played, (created, updated) in zip(rounds, timed, strict=True)
        )
    # In field order: every local is named for its field.
    return SessionPlan(
        columns,
        session.created_at,
        seats,
        first_dealer,
        rejoins,
        rounds,
        results,
        session.rematch_of,
        changes,
        seat_changes,
    )


def _seats(
    session: SessionRecord, where: str, players: Mapping[str, Any]
) -> tuple[tuple[str, int], ...]:
    seats: list[tuple[str, int]] = []
    for seat in session.seats:
        name, position = seat.player, seat.position
        if name not in players:
            raise ImportRefused(
                gettext("{where}: {name} has a seat but is not in the players list.").format(
                    where=where, name=repr(name)
                )
            )
        if any(name == other for other, _position in seats):
            raise ImportRefused(
                gettext("{where}: {name} has two seats.").format(where=where, name=name)
            )
        if any(position == other for _name, other in seats):
            raise ImportRefused(
                gettext("{where}: two players sit in seat {position}.").format(
                    where=where, position=position
                )
            )
        seats.append((name, position))
    if not seats:
        raise ImportRefused(gettext("{where}: nobody has a seat.").format(where=where))
    return tuple(sorted(seats, key=lambda seat: seat[1]))


def _seated(name: str | None, seated: set[str], where: str) -> str | None:
    if name is not None and name not in seated:
        raise ImportRefused(
            gettext("{where}: {name} has no seat at this table.").format(
                where=where, name=f"{name!r:.40}"
            )
        )
    return name


def _round_plan(
    played: RoundRecord, expected: int, session: str, ruleset: Ruleset, seated: set[str]
) -> RoundPlan:
    """A round scored by the rules service, with what its record holds besides its
    hands where the file keeps it (version 4 on): its version and times."""
    if played.number != expected:
        raise ImportRefused(
            gettext(
                "{session}: rounds must be numbered 1, 2, 3… in order; round {number} stands "
                "where round {expected} belongs."
            ).format(session=session, number=f"{played.number!r:.20}", expected=expected)
        )
    where = gettext("{session}, round {number}").format(session=session, number=expected)
    hands: list[PlayerHand] = []
    for entry in played.entries:
        name = _seated(entry.player, seated, where)
        if any(hand.name == name for hand in hands):
            raise ImportRefused(
                gettext("{where}: {name} has two hands.").format(where=where, name=name)
            )
        groups = tuple(tuple(_CARDS[code] for code in group) for group in entry.groups)
        figures = _counted(entry, _hand_of(where, name))
        hands.append(PlayerHand(name, entry.outcome, groups, entry.on_deal or False, figures))
    try:
        result = score_round(ruleset, _CARDS[played.cut_joker], hands)
    except RulesError as error:
        problems = getattr(error, "errors", [error])
        raise ImportRefused(
            gettext("{where} does not score under its rules: {problems}.").format(
                where=where, problems="; ".join(_named(problem, hands) for problem in problems)
            )
        ) from None
    for entry, scored in zip(played.entries, result.players, strict=True):
        _check_figures(entry, scored, _hand_of(where, scored.name))
    said = said_in_each_language(
        lambda: score_round(ruleset, _CARDS[played.cut_joker], hands), result
    )
    return RoundPlan(
        number=expected,
        dealer=_seated(played.dealer, seated, where),
        cut_joker=played.cut_joker,
        author=played.entered_by,
        entries=tuple(
            EntryPlan(entry.player, entry.groups, scored, words)
            for entry, scored, words in zip(played.entries, result.players, said, strict=True)
        ),
        version=played.version or 1,
        created_at=played.created_at,
        updated_at=played.updated_at,
    )


def _hand_of(round_words: str, name: str) -> str:
    """A hand of a round as a refusal names its place: the round, then the player."""
    # Translators: a place in a league file: a round, then the player whose hand it is.
    return gettext("{round}, {player}").format(round=round_words, player=name)


def _counted(entry: Entry, where: str) -> HandFigures | None:
    """A hand counted at the table, as the rules service scores it: its figures (none
    at all for a winner trusted on the table's show); None for a hand of cards. The
    rules refuse figures beside cards, counts under house rules that take cards only,
    and figures no hand makes."""
    if not entry.counted:
        if entry.figures is not None:
            raise ImportRefused(
                gettext(
                    '{where}: "figures" are given, but the hand is not "counted": true.'
                ).format(where=where)
            )
        return None
    return HandFigures(**(entry.figures or {}))


# Every card code, parsed once: a league file holds hundreds of thousands of cards,
# and the schema has already refused any other code.
_CARDS = {code: parse_card(code) for code in CARD_CODES}


def _named(error: RulesError, hands: list[PlayerHand]) -> str:
    """A rules error with the player it concerns named (its field indexes the hands):
    a message that names them already says otherwise beside them (RulesError.beside)."""
    if error.field.startswith("players[") and error.beside == error.message:
        index = error.field[len("players[") :].split("]", 1)[0]
        if index.isascii() and index.isdigit() and int(index) < len(hands):
            # Translators: a player's name, then what is wrong with their hand.
            return gettext("{name}: {problem}").format(
                name=hands[int(index)].name, problem=error.message
            )
    return error.message


class _FigureWords(NamedTuple):
    """A scored figure's refusals: the file gives another, or it outgrows its column."""

    other: str
    too_large: str


# Each figure of a hand the file may give, with the words of its refusals (marked for
# the catalogue, said in the importer's language).
_FIGURES = {
    "hand_points": _FigureWords(
        gettext_noop(
            "{where}: the file gives hand points {given}, but the rules service scores "
            "{scored}. The file was changed or written under other rules."
        ),
        gettext_noop("{where}: the hand points is too large to store."),
    ),
    "value_points": _FigureWords(
        gettext_noop(
            "{where}: the file gives value points {given}, but the rules service scores "
            "{scored}. The file was changed or written under other rules."
        ),
        gettext_noop("{where}: the value points is too large to store."),
    ),
    "claims": _FigureWords(
        gettext_noop(
            "{where}: the file gives claims {given}, but the rules service scores {scored}. "
            "The file was changed or written under other rules."
        ),
        gettext_noop("{where}: the claims is too large to store."),
    ),
    "score": _FigureWords(
        gettext_noop(
            "{where}: the file gives score {given}, but the rules service scores {scored}. "
            "The file was changed or written under other rules."
        ),
        gettext_noop("{where}: the score is too large to store."),
    ),
}


def _check_figures(entry: Entry, scored: PlayerResult, where: str) -> None:
    """Figures the file gives must be the rules service's: a file edited by hand or
    written under other rules would otherwise be "restored" as something else."""
    for name, words in _FIGURES.items():
        given = getattr(entry, name)
        if given is not None and given != getattr(scored, name):
            raise ImportRefused(
                gettext(words.other).format(
                    where=where, given=f"{given!s:.40}", scored=getattr(scored, name)
                )
            )
        if not INT_LOW <= getattr(scored, name) <= INT_HIGH:
            raise ImportRefused(gettext(words.too_large).format(where=where))
    declaration = entry.declaration
    if declaration is not None and declaration != (scored.declaration or ""):
        if scored.declaration:
            message = gettext(
                "{where}: the file gives the declaration {given}, but the rules service finds "
                "{found}."
            )
        else:
            message = gettext(
                "{where}: the file gives the declaration {given}, but the rules service finds none."
            )
        raise ImportRefused(
            message.format(where=where, given=f"{declaration!r:.40}", found=scored.declaration)
        )


def _rejoins(
    session: SessionRecord, where: str, seated: set[str], rounds: int
) -> tuple[RejoinPlan, ...]:
    rejoins = []
    for rejoin in session.rejoins:
        name = _seated(rejoin.player, seated, where)
        after = rejoin.after_round
        if not 1 <= after <= rounds:
            raise ImportRefused(
                gettext("{where}: {name} rejoins after round {number}, not played.").format(
                    where=where, name=name, number=f"{after!s:.20}"
                )
            )
        rejoins.append(RejoinPlan(rejoin.player, after, rejoin.created_at, rejoin.created_by))
    # In the order the session page replays them (services.scoreboard.load_scoreboard).
    return tuple(sorted(rejoins, key=lambda rejoin: rejoin.after_round))


def _seat_changes(
    session: SessionRecord, where: str, seated: set[str]
) -> tuple[SeatChangePlan, ...]:
    """Each join or leave names a player with a seat at the table (a latecomer has one
    too, after the others), each new seating lists players with a seat, once each.
    Whether the rules allow a change is the replay's: one they refuse is kept and
    ignored, as the session page ignores it (a round it followed deleted since)."""
    changes = []
    for number, change in enumerate(session.seat_changes or [], start=1):
        at = gettext("{session}, seat change {number}").format(session=where, number=number)
        if change.kind == StoredSeatChange.Kind.SEATING:
            if change.player is not None:
                raise ImportRefused(
                    gettext(
                        '{where}: a new seating lists its players in "seats", not "player".'
                    ).format(where=at)
                )
            if not change.seats:
                raise ImportRefused(
                    gettext('{where}: a new seating lists its players in "seats".').format(where=at)
                )
            for index, name in enumerate(change.seats):
                _seated(name, seated, at)
                if name in change.seats[:index]:
                    raise ImportRefused(
                        gettext("{where}: {name} is seated twice.").format(where=at, name=name)
                    )
        else:
            if change.player is None:
                raise ImportRefused(
                    gettext('{where}: a player who joins or leaves is named by "player".').format(
                        where=at
                    )
                )
            if change.seats is not None:
                raise ImportRefused(
                    gettext('{where}: only a new seating lists "seats".').format(where=at)
                )
            _seated(change.player, seated, at)
        changes.append(
            SeatChangePlan(
                change.kind,
                change.player,
                change.after_round,
                change.seats or (),
                change.created_at,
                change.created_by,
            )
        )
    # In the order the session page replays them (services.scoreboard.load_scoreboard).
    return tuple(sorted(changes, key=lambda change: change.after_round))


def _check_sums(rounds: tuple[RoundPlan, ...], where: str, path: str) -> None:
    """A seat's total and points are sums of its scores: each must fit its column."""
    spent: dict[str, int] = {}
    for planned in rounds:
        for entry in planned.entries:
            spent[entry.player] = spent.get(entry.player, 0) + abs(entry.result.score)
    for name, points in spent.items():
        if points > INT_HIGH:
            raise ImportRefused(
                gettext(
                    "{where}: {path}: {name}'s scores add up to more than a total can hold."
                ).format(where=where, path=path, name=name)
            )


@dataclass(frozen=True)
class _Table:
    """Who sat where in a session, and how the table changed between its rounds."""

    seats: tuple[tuple[str, int], ...]  # (player, position), latecomers included
    first_dealer: str | None
    rejoins: tuple[RejoinPlan, ...]
    seat_changes: tuple[SeatChangePlan, ...]


def _replay(
    ruleset: Ruleset,
    columns: Mapping[str, Any],
    table: _Table,
    rounds: tuple[RoundPlan, ...],
    where: str,
) -> tuple[dict[str, SeatResult], bool]:
    """The session replayed by the rules service as `services.results.refresh_session` does
    after a round is saved: each seat's result (by `seat_results`, as a save stores
    it), and whether it is finished. Computed here, from the plan, so that a league
    of thousands of sessions is written in a few bulk inserts rather than refreshed
    session by session. A rejoin or seat change the rules refuse (an earlier round
    edited since) is kept and left out of the replay, as the session page leaves it
    out (`services.replay.replay_table`): the league exported it so."""
    scores = [{entry.player: entry.result.score for entry in r.entries} for r in rounds]
    try:
        state = replay_table(
            ruleset,
            [name for name, _position in table.seats],
            scores,
            ceiling=columns["ceiling"],
            dealers=[r.dealer for r in rounds if r.dealer is not None],
            first_dealer=table.first_dealer,
            # In the order the session page will replay them once written.
            changes=in_order_made(
                [(r.after_round, r.created_at, r.as_rules()) for r in table.rejoins],
                [(c.after_round, c.created_at, c.as_rules()) for c in table.seat_changes],
            ),
            closed=columns["closed_at"] is not None,
        ).state
    except RulesError as error:
        raise ImportRefused(
            gettext("{where}: the session does not replay: {problem}.").format(
                where=where, problem=error.message
            )
        ) from None
    hands = (
        one_hand(entry.player, entry.result.outcome, entry.result.score)
        for r in rounds
        for entry in r.entries
    )
    return seat_results(state, hands), state.finished


def _ruleset(preset: str, overrides: dict, where: str) -> Ruleset:
    try:
        return get_ruleset(preset, overrides)
    except RulesError as error:
        raise ImportRefused(
            gettext("{where}: the house rules are not valid: {problem}.").format(
                where=where, problem=error.message
            )
        ) from None
