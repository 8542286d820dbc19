"""The league file's shape, as pydantic models: every record, its keys and the JSON
type of each (each value's check is league_schema_values'), before anything is
planned.

What one record cannot say alone (a seat of a player the file does not list, a
round that does not score, a history that does not hold together) is the plan's
(league_plan). A refusal names its place as the app always has
("Session 2 (played 2024-01-05), round 3, Asha: ..."): pydantic gives where
(`loc`), league_schema_words says it in the app's words.

A key left out is a null, as the import has always read it (a record without a key
it must have is refused "..., not None."), and nothing is coerced (strict: "1" is no
number, true no whole number)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Annotated, Any

from django.utils import timezone
from django.utils.translation import gettext
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import ErrorDetails

from games.models import RoundChange
from games.transfer.league_file import (
    COUNTED_HANDS,
    EXACT_TEXTS,
    FORMAT,
    HISTORY,
    READABLE,
    SEAT_CHANGES,
)
from games.transfer.league_refusal import ImportRefused
from games.transfer.league_schema_values import (
    Action,
    AfterRound,
    Author,
    BuyIn,
    Ceiling,
    ChangedAt,
    ChangeNumber,
    CutJoker,
    Day,
    Figures,
    Groups,
    HandAuthor,
    HistoryName,
    HistoryOutcome,
    HistoryPlayer,
    KeptVersion,
    LeagueCurrency,
    LeagueLanguage,
    LeagueMoney,
    LeagueName,
    LeaguePreset,
    LeagueSlug,
    LeagueZone,
    Moment,
    NameRef,
    OptionalNameRef,
    OptionalUsername,
    Outcome,
    Overrides,
    PlayerName,
    Position,
    Role,
    RoundVersion,
    Score,
    SeatChangeKind,
    Seating,
    SessionMoney,
    SessionName,
    SessionPreset,
    Username,
    history_only,
    kept_from,
    read_from,
)
from games.transfer.league_schema_words import refusal_text

# --- Records ----------------------------------------------------------------------------------
#
# Fields in the order a file is checked: a refusal names the first thing wrong.


class _Record(BaseModel):
    # Keys a record does not read (an export's share tokens, who created a session
    # there) are left alone.
    model_config = ConfigDict(strict=True, validate_default=True, extra="ignore", frozen=True)


class _Kept(BaseModel):
    """A round before or after a change, or a hand of it, as the history keeps it
    (services.round_audit.round_snapshot): nothing else."""

    model_config = ConfigDict(strict=True, validate_default=True, extra="forbid", frozen=True)


class HandThen(_Kept):
    player: HistoryPlayer = None
    outcome: HistoryOutcome = None  # type: ignore[assignment]
    # Both kept only where the file gives them (model_fields_set): a false "on_deal"
    # is left out, as a save leaves it out.
    on_deal: bool = False
    groups: Groups = None
    # Version 6 on, a hand counted at the table (round_snapshot keeps both); an
    # earlier file's history holds neither.
    counted: Annotated[bool | None, kept_from("counted_hands")] = None
    figures: Annotated[Figures, kept_from("counted_hands")] = None
    score: Score = None  # type: ignore[assignment]
    entered_by: HandAuthor = None

    def as_kept(self) -> dict[str, Any]:
        hand: dict[str, Any] = {"player": self.player, "outcome": self.outcome}
        if "on_deal" in self.model_fields_set:
            hand["on_deal"] = self.on_deal
        hand["groups"] = self.groups
        if self.counted:
            hand |= {"counted": True, "figures": self.figures or {}}
        hand["score"] = self.score
        if "entered_by" in self.model_fields_set:
            hand["entered_by"] = self.entered_by
        return hand


class RoundThen(_Kept):
    cut_joker: CutJoker = None  # type: ignore[assignment]
    version: KeptVersion = None  # type: ignore[assignment]
    entries: list[HandThen] = None  # type: ignore[assignment]
    dealer: HistoryName = None

    def as_kept(self) -> dict[str, Any]:
        """As the app keeps it (RoundChange.round_then)."""
        hands = (hand.as_kept() for hand in self.entries)
        return RoundChange.round_then(self.cut_joker, self.dealer or None, self.version, hands)


class LeagueRecord(_Record):
    name: LeagueName = None
    # The address the league had, kept where it is free (services.leagues.fresh_slug).
    slug: LeagueSlug = None
    preset: LeaguePreset = None
    money_per_point: LeagueMoney = None
    overrides: Overrides = None  # type: ignore[assignment]
    # Absent (a file written before it was kept): off, as for a new league.
    table_auto_save: bool | None = None
    # Absent (a file written before it was kept): the site's zone, as for a new league.
    time_zone: LeagueZone = None
    # Absent (a file written before they were kept): each browser's language, and the
    # language's currency, as for a new league.
    language: LeagueLanguage = None
    currency: LeagueCurrency = None


class Member(_Record):
    username: Username = None  # type: ignore[assignment]
    role: Role = None


class PlayerRecord(_Record):
    name: PlayerName = None
    # Before claims (version 3), the account a player was linked to.
    user: OptionalUsername = None


class Claim(_Record):
    player: NameRef = None  # type: ignore[assignment]
    user: str = None  # type: ignore[assignment]


class SeatRecord(_Record):
    player: NameRef = None  # type: ignore[assignment]
    position: Position = None  # type: ignore[assignment]


class Entry(_Record):
    player: NameRef = None  # type: ignore[assignment]
    outcome: Outcome = None
    on_deal: bool | None = None
    groups: Groups = None
    # Version 6 on, a hand counted at the table: "counted": true and the figures it
    # was entered with, in place of its groups (the rules service judges them).
    counted: Annotated[bool | None, read_from("counted_hands", None)] = None
    figures: Annotated[Figures, read_from("counted_hands", None)] = None
    # Figures a file may give: the plan holds them to the rules service's.
    hand_points: int | None = None
    value_points: int | None = None
    claims: int | None = None
    score: int | None = None
    declaration: str | None = None


class RoundRecord(_Record):
    number: int = None  # type: ignore[assignment]
    cut_joker: CutJoker = None  # type: ignore[assignment]
    entries: list[Entry] = None  # type: ignore[assignment]
    # Version 4 on: what a round's record holds besides its hands (a time it leaves out
    # is its history's).
    version: Annotated[RoundVersion, history_only(None)] = None
    created_at: Annotated[Moment, history_only(None)] = None
    updated_at: Annotated[Moment, history_only(None)] = None
    dealer: OptionalNameRef = None
    entered_by: Author = None


class Rejoin(_Record):
    player: NameRef = None  # type: ignore[assignment]
    after_round: int = None  # type: ignore[assignment]
    created_at: Annotated[Moment, history_only(None)] = None
    created_by: Annotated[Author, history_only("")] = None


class TableChange(_Record):
    """A player joining or leaving the table after a round, or its new seating
    (SeatChange): a join or leave names its "player", a seating lists its "seats"
    (the plan holds each kind to its keys)."""

    kind: SeatChangeKind = None  # type: ignore[assignment]
    player: OptionalNameRef = None
    after_round: AfterRound = None  # type: ignore[assignment]
    seats: Seating = None
    created_at: Moment = None
    created_by: Author = None


class Change(_Record):
    round: int | None = None  # its number in the file now; None: deleted since
    action: Action = None  # type: ignore[assignment]
    changed_at: ChangedAt = None
    number: ChangeNumber = None  # type: ignore[assignment]
    # Left out where the rest of the file says them (league_file.History):
    # model_fields_set tells a null from nothing.
    before: RoundThen | None = None
    after: RoundThen | None = None
    changed_by: Author = None


# Fields a session's refusals name it by its number ("Session 2"): those of its
# label; later ones name it by its label ("Session 2 (“Friday”, played 2024-01-05)").
SESSION_LABEL_FROM = "seats"


class SessionRecord(_Record):
    preset: SessionPreset = None
    played_on: Day = None
    # An unnamed session is written as "": a hand-written file may leave it out.
    name: SessionName = None
    money_per_point: SessionMoney = None
    buy_in: BuyIn = None
    overrides: Overrides = None  # type: ignore[assignment]
    ceiling: Ceiling = None
    closed_at: Moment = None
    # Absent or null: as the league says (off in a file written before it was kept).
    table_auto_save: bool | None = None
    created_at: Moment = None
    seats: list[SeatRecord] = None  # type: ignore[assignment]
    first_dealer: OptionalNameRef = None
    rounds: list[RoundRecord] = None  # type: ignore[assignment]
    rejoins: list[Rejoin] = None  # type: ignore[assignment]
    # Version 5 on; in an earlier file nobody joined or left (none was kept).
    seat_changes: Annotated[list[TableChange] | None, read_from("seat_changes", None)] = None
    # The number (from 1) in the file of the session this one is the rematch of.
    rematch_of: int | None = None
    changes: Annotated[list[Change] | None, history_only(None)] = None


class LeagueFile(_Record):
    league: LeagueRecord = None  # type: ignore[assignment]
    members: list[Member] = None  # type: ignore[assignment]
    players: list[PlayerRecord] = None  # type: ignore[assignment]
    sessions: list[SessionRecord] = None  # type: ignore[assignment]
    # Before version 3 a file has no claims.
    claims: list[Claim] | None = None


# --- The file ---------------------------------------------------------------------------------

# How far ahead of this server's clock the one that wrote a file may run: a time
# later than the import by more than this is refused (version 4 on).
_CLOCKS = datetime.timedelta(minutes=10)


@dataclass(frozen=True)
class Reading:
    """How a file of its version is read."""

    # Written before the presets took the rules' exact texts: its rules are the
    # presets of then (its sessions were scored under them, and its league keeps its
    # house rules as they were).
    earlier: bool = False
    # Version 4 on: the rounds' history and times, authors as accounts where they can
    # be, and no time later than the import.
    history: bool = False
    # Version 5 on: players joining and leaving, and the new seatings.
    seat_changes: bool = False
    # Version 6 on: hands counted at the table, as their figures.
    counted_hands: bool = False


def checked_league_file(data: object) -> tuple[LeagueFile, Reading]:
    """The file's records, every value checked, and how its version is read; or
    ImportRefused naming the first thing wrong."""
    if not isinstance(data, dict):
        raise ImportRefused(gettext("The file must be a JSON object."))
    if data.get("format") != FORMAT:
        raise ImportRefused(
            gettext('This is not a league file: it has no "format": "{format}".').format(
                format=FORMAT
            )
        )
    version = data.get("version")
    if version not in READABLE or isinstance(version, bool):
        raise ImportRefused(
            gettext(
                "This league file is format version {version}; this scorekeeper reads versions "
                "{versions}."
            ).format(version=repr(version), versions=", ".join(map(str, READABLE)))
        )
    reading = Reading(
        earlier=version < EXACT_TEXTS,
        history=version >= HISTORY,
        seat_changes=version >= SEAT_CHANGES,
        counted_hands=version >= COUNTED_HANDS,
    )
    # The latest time a file that keeps its history may give: the import's, read once.
    latest = timezone.now() + _CLOCKS if reading.history else None
    try:
        checked = LeagueFile.model_validate(
            data,
            context={
                "history": reading.history,
                "seat_changes": reading.seat_changes,
                "counted_hands": reading.counted_hands,
                "latest": latest,
            },
        )
    except ValidationError as error:
        raise ImportRefused(refusal_text(_first(error.errors(include_url=False)), data)) from None
    return checked, reading


def _first(errors: list[ErrorDetails]) -> ErrorDetails:
    """The error a refusal names: the first in the file, except that a record of the
    history holding a key it may not is named for that before anything in it (what its
    other keys are wrong about follows from it being something else)."""
    first = errors[0]
    around = [
        error
        for error in errors
        if error["type"] == "extra_forbidden"
        and first["loc"][: len(error["loc"]) - 1] == error["loc"][:-1]
    ]
    return min(around, key=lambda error: len(error["loc"]), default=first)
