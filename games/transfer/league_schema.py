"""The league file's shape, as pydantic models: every record, its keys and the JSON
type of each, and each value as the model field that stores it takes it (its
length, choices, range, the rule for names), before anything is planned.

What one record cannot say alone (a seat of a player the file does not list, a
round that does not score, a history that does not hold together) is the plan's
(league_plan). A refusal names its place as the app always has
("Session 2 (played 2024-01-05), round 3, Asha: ..."): pydantic gives where
(`loc`), league_schema_words says it in the app's words. Validators raise
`_refusal(template, ...)`, a message whose place is filled in there.

A key left out is a null, as the import has always read it (a record without a key
it must have is refused "..., not None."), and nothing is coerced (strict: "1" is no
number, true no whole number)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as FieldError
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Field as ModelField
from django.db.models import Model
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    PlainValidator,
    ValidationError,
    ValidationInfo,
    WrapValidator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from games.models import (
    CARD_CODES,
    GameSession,
    HandEntry,
    League,
    Membership,
    Player,
    Round,
    RoundChange,
    Seat,
    SeatChange,
    validate_groups,
)
from games.names import clean_name
from games.transfer.league_file import EXACT_TEXTS, FORMAT, HISTORY, READABLE, SEAT_CHANGES
from games.transfer.league_refusal import ImportRefused, shown
from games.transfer.league_schema_words import refusal_text

# What an IntegerField holds on PostgreSQL (SQLite would take more, and the same file
# must import, or not, on both).
INT_LOW, INT_HIGH = -(2**31), 2**31 - 1
# Times an import takes: what both databases store and read back, and Python's
# datetime converts to UTC and local time without overflowing (the day a session
# was played on: games/days.py).
_EARLIEST = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_LATEST = datetime.datetime(2101, 1, 1, tzinfo=datetime.UTC)  # not included
# House-rule numbers: as many digits as the house-rules form takes.
_OPTION_LIMIT = 9_999_999
# Who did something, as a file names them (a username, or a name it was given): as
# long as the columns that keep such names (Round.entered_by_name and its kin).
_AUTHOR_LENGTH = Round._meta.get_field("entered_by_name").max_length
PLAYER_NAME = Player._meta.get_field("name").max_length
# Who entered a hand in table mode: "Ben's phone", "asha (scorer)".
_HAND_AUTHOR_LENGTH = 200
ACTIONS = tuple(RoundChange.Action.values)
# A name corrected is no change of the table: a file names each player as corrected.
SEAT_CHANGE_KINDS = tuple(kind for kind in SeatChange.Kind.values if kind != SeatChange.Kind.RENAME)


# --- Refusals ---------------------------------------------------------------------------------


def _refusal(template: str, **values: object) -> PydanticCustomError:
    """A refusal whose words are the app's: ``template`` names the place as
    league_schema_words fills it in ({where}, {field}, {key}, {label}, {at}, {path}),
    and ``values`` what it quotes of the file (given as values, never as part of the
    template, so braces in a file are only text)."""
    return PydanticCustomError("refused", "{template}", {"template": template, **values})


def _quoted(value: object, limit: int = 40) -> str:
    return f"{value!r:.{limit}}"


def said(error: FieldError, value: object) -> str:
    """A field's refusal, the value it quotes (a date's or an amount's: “lots” value
    must be a decimal number) as a message quotes the file (shown)."""
    quoted = shown(value) if isinstance(value, str) else value
    return " ".join(
        part.message % {**part.params, "value": quoted}
        if isinstance(part.params, dict)
        else str(part.message)
        for part in error.error_list
    )


def _cleaned(field: ModelField, value: object, template: str) -> Any:
    """A value as the model's field takes it (its type, length, choices and range)."""
    try:
        return field.clean(value, None)
    except FieldError as error:
        raise _refusal(template, said=said(error, value)) from None


def _name_cleaned(value: str, template: str, max_length: int | None = None) -> str:
    try:
        return clean_name(value, max_length=max_length)
    except FieldError as error:
        raise _refusal(template, said=" ".join(error.messages)) from None


# --- Values -----------------------------------------------------------------------------------
#
# Each a type for a model's field below: the check and the words of its refusal.


def _column(
    model: type[Model], name: str, *, at_path: bool = False, none_is_blank: bool = False
) -> Any:
    """Text for a model field (a choice, a day, a slug), as the field takes it; missing
    is None, which the field accepts or refuses (or, ``none_is_blank``, "")."""
    field = model._meta.get_field(name)
    refused = "{where}: {label} ({field}): {said}" if at_path else "{where}: {label}: {said}"

    def check(value: object) -> Any:
        if value is None and none_is_blank:
            return ""
        if value is not None and not isinstance(value, str):
            raise _refusal('{where}: "{key}" must be text, not {value}.', value=_quoted(value))
        return _cleaned(field, value, refused)

    return Annotated[Any, PlainValidator(check)]


def _name_column(model: type[Model], name: str, *, blank_if_falsy: bool = False) -> Any:
    """A name, held to the rule every form holds names to (games/names.py), then to
    its column. A session's may be left out, or be anything JSON calls false."""
    field = model._meta.get_field(name)

    def check(value: object) -> Any:
        if blank_if_falsy:
            value = value or ""
        if value is not None and not isinstance(value, str):
            raise _refusal(
                '{where}: "{key}" ({field}) must be text, not {value}.', value=_quoted(value)
            )
        if isinstance(value, str):
            value = _name_cleaned(value, "{where}: {label} ({field}): {said}")
        return _cleaned(field, value, "{where}: {label} ({field}): {said}")

    return Annotated[Any, PlainValidator(check)]


def _money(model: type[Model], name: str) -> Any:
    """An amount of money, as the stakes forms take it: more than 0, in cents. Written
    as text ("0.50": a JSON number would lose the cents), but a number typed by hand
    is taken too."""
    field = model._meta.get_field(name)

    def check(value: object) -> Decimal | None:
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, str | int | float)
        ):
            raise _refusal(
                '{where}: {field}: "{key}" must be an amount such as "0.50", not {value}.',
                value=_quoted(value),
            )
        amount = _cleaned(field, value, "{where}: {field}: {label}: {said}")
        if amount is not None and amount <= 0:
            raise _refusal("{where}: {field} must be more than 0, not {amount}.", amount=amount)
        return amount

    return Annotated[Any, PlainValidator(check)]


def _number(model: type[Model], name: str) -> Callable[[int | None], int | None]:
    """A whole number within what its integer column holds on every database the app
    runs on (the JSON type is the model's annotation: int)."""
    field = model._meta.get_field(name)
    low, high = BaseDatabaseOperations.integer_field_ranges[field.get_internal_type()]

    def check(value: int | None) -> int | None:
        if value is None:
            return None
        if not low <= value <= high:
            raise _refusal(
                "{where}: {field} must be a whole number from {low} to {high}, not {value}.",
                low=low,
                high=high,
                value=f"{value!s:.40}",
            )
        return _cleaned(field, value, "{where}: {label}: {said}")

    return check


def _at_least_one(message: str) -> Callable[[int | None], int | None]:
    def check(value: int | None) -> int | None:
        if value is not None and value < 1:
            raise _refusal(message, value=value)
        return value

    return check


def _username(value: str | None) -> str | None:
    """A username as this server's user model takes it (the file's is kept as it is)."""
    if value is not None:
        model = get_user_model()
        field = model._meta.get_field(model.USERNAME_FIELD)
        _cleaned(field, value, f"User: {field.name.replace('_', ' ')}: {{said}}")
    return value


def _name_ref(value: str | None) -> str | None:
    """A player's name where the file refers to one (a seat, a dealer, a hand), as the
    players list's names are cleaned, so the two match."""
    return None if value is None else _name_cleaned(value, '{where}: "{key}": {said}')


def _author(limit: int) -> Callable[[str | None], str]:
    """A name the file gives (who did something, a player in the history), held to the
    rule for names; "" where it gives none."""

    def check(value: str | None) -> str:
        return _name_cleaned(value or "", "{where}: {label}: {said}", limit)

    return check


def _overrides(value: dict) -> dict:
    """House rules: the rules service judges them (the plan); their numbers are kept to
    what the house-rules form takes, so no score can outgrow its column."""
    for option, setting in value.items():
        for number in setting if isinstance(setting, list) else [setting]:
            if isinstance(number, bool) or not isinstance(number, int | float):
                continue
            if not -_OPTION_LIMIT <= number <= _OPTION_LIMIT:
                raise _refusal(
                    "{where}: {field}.{option} must be from -{limit} to {limit}, not {number}.",
                    option=shown(option),
                    limit=_OPTION_LIMIT,
                    number=f"{number!s:.40}",
                )
    return value


def _moment(value: str | None, info: ValidationInfo) -> datetime.datetime | None:
    """A date and time with its time zone (as the export writes them), from 1970 to
    2100 wherever on earth: a moment the databases cannot read back would break every
    page that shows it. In a file that keeps its history, no later than the import
    (give or take two servers' clocks): a record of what happened."""
    if value is None:
        return None
    try:
        moment = parse_datetime(value)
    except ValueError:
        moment = None
    if moment is None or timezone.is_naive(moment):
        raise _refusal(
            "{where}: {field}: {label} must be a date and time with its time zone, such as "
            "2024-01-05T20:00:00+00:00, not {value}.",
            value=_quoted(value),
        )
    # Compared with both ends as given (an offset of its own): converting a moment
    # at the edge of the calendar to UTC first could overflow.
    if not _EARLIEST <= moment < _LATEST:
        raise _refusal(
            "{where}: {field}: {label} must be from 1970 to 2100, not {value}.",
            value=_quoted(value),
        )
    latest = (info.context or {}).get("latest")
    if latest is not None and moment > latest:
        raise _refusal(
            "{where}: {field}: {label} is in the future ({value}): a file records what has "
            "happened.",
            value=_quoted(value),
        )
    # Kept in UTC: PostgreSQL takes offsets of at most 15:59, where a file may say
    # -23:59 (any offset Python reads); within 1970-2100 the conversion cannot overflow.
    return moment.astimezone(datetime.UTC)


def _card_code(template: str) -> Callable[[str], str]:
    def check(value: str) -> str:
        if value not in CARD_CODES:
            raise _refusal(template, card=_quoted(value, 20))
        return value

    return check


def _groups(value: object) -> list[list[str]]:
    """A hand's groups: lists of card codes as the rules service prints them."""
    if not isinstance(value, list):
        raise _refusal('{where}: "{key}" must be a list, not {value}.', value=_quoted(value))
    if not all(isinstance(group, list) for group in value) or not all(
        isinstance(card, str) for group in value for card in group
    ):
        raise _refusal("{where}: the groups must be lists of card codes such as 7H.")
    try:
        validate_groups(value)
    except FieldError as error:
        raise _refusal("{where}: {said}", said=" ".join(error.messages)) from None
    return value


def _action(value: object) -> str:
    if value not in ACTIONS:
        raise _refusal(
            '{where}: "action" must be one of {actions}, not {value}.',
            actions=", ".join(ACTIONS),
            value=_quoted(value),
        )
    return str(value)


def _kind(value: object) -> str:
    if value not in SEAT_CHANGE_KINDS:
        raise _refusal(
            '{where}: "kind" must be one of {kinds}, not {value}.',
            kinds=", ".join(SEAT_CHANGE_KINDS),
            value=_quoted(value),
        )
    return str(value)


def _seating(value: object) -> tuple[str, ...] | None:
    """A new seating's players, from the first seat, each name cleaned as the players
    list's names are (_name_ref), so the two match."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise _refusal(
            '{where}: "seats" must be a list of players\' names, not {value}.',
            value=_quoted(value),
        )
    return tuple(_name_cleaned(name, '{where}: "seats": {said}') for name in value)


def _read_from(since: str, default: object) -> WrapValidator:
    """A key that files keep from a version on (``since``: the reading's flag for it):
    in an earlier file a key of that name is not its, and is not read."""

    def check(value: object, handler: Callable[[object], object], info: ValidationInfo) -> object:
        return handler(value) if (info.context or {}).get(since) else default

    return WrapValidator(check)


def _history_only(default: object) -> WrapValidator:
    """A key that files keep from version 4 on, with the rounds' history."""
    return _read_from("history", default)


def _required_time(value: datetime.datetime | None) -> datetime.datetime:
    if value is None:
        raise _refusal("{where}: {field}: a change needs the time it was made.")
    return value


Day = _column(GameSession, "played_on", at_path=True)
LeagueName = _name_column(League, "name")
LeagueSlug = _column(League, "slug", none_is_blank=True)
LeaguePreset = _column(League, "preset")
LeagueMoney = _money(League, "money_per_point")
LeagueZone = _column(League, "time_zone", none_is_blank=True)
Role = _column(Membership, "role")
PlayerName = _name_column(Player, "name")
Outcome = _column(HandEntry, "outcome")
SessionPreset = _column(GameSession, "preset")
SessionName = _name_column(GameSession, "name", blank_if_falsy=True)
SessionMoney = _money(GameSession, "money_per_point")
BuyIn = _money(GameSession, "buy_in")
Moment = Annotated[str | None, AfterValidator(_moment)]
Overrides = Annotated[dict, AfterValidator(_overrides)]
NameRef = Annotated[str, AfterValidator(_name_ref)]
OptionalNameRef = Annotated[str | None, AfterValidator(_name_ref)]
Author = Annotated[str | None, AfterValidator(_author(_AUTHOR_LENGTH))]
Groups = Annotated[Any, PlainValidator(_groups)]


def _kept_version(value: int) -> int:
    if not 1 <= value <= INT_HIGH:
        raise _refusal("{at}: {path}.version must be from 1 to {high}.", high=INT_HIGH)
    return value


def _named_player(value: str) -> str:
    if not value:
        raise _refusal('{where}: "player" must name the player.')
    return value


def _outcome(value: str) -> str:
    if value not in HandEntry.Outcome.values:
        raise _refusal("{where}: {outcome} is not an outcome.", outcome=_quoted(value))
    return value


def _score(value: int) -> int:
    if not INT_LOW <= value <= INT_HIGH:
        raise _refusal("{where}: the score is too large to store.")
    return value


CutJoker = Annotated[
    str, AfterValidator(_card_code("{where}: the cut joker {card} is not a card code."))
]
HistoryName = Annotated[str | None, AfterValidator(_author(PLAYER_NAME))]


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
    player: Annotated[HistoryName, AfterValidator(_named_player)] = None
    outcome: Annotated[str, AfterValidator(_outcome)] = None  # type: ignore[assignment]
    # Both kept only where the file gives them (model_fields_set): a false "on_deal"
    # is left out, as a save leaves it out.
    on_deal: bool = False
    groups: Groups = None
    score: Annotated[int, AfterValidator(_score)] = None  # type: ignore[assignment]
    entered_by: Annotated[str | None, AfterValidator(_author(_HAND_AUTHOR_LENGTH))] = None

    def as_kept(self) -> dict[str, Any]:
        hand: dict[str, Any] = {"player": self.player, "outcome": self.outcome}
        if "on_deal" in self.model_fields_set:
            hand["on_deal"] = self.on_deal
        hand |= {"groups": self.groups, "score": self.score}
        if "entered_by" in self.model_fields_set:
            hand["entered_by"] = self.entered_by
        return hand


class RoundThen(_Kept):
    cut_joker: CutJoker = None  # type: ignore[assignment]
    version: Annotated[int, AfterValidator(_kept_version)] = None  # type: ignore[assignment]
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


class Member(_Record):
    username: Annotated[str, AfterValidator(_username)] = None  # type: ignore[assignment]
    role: Role = None


class PlayerRecord(_Record):
    name: PlayerName = None
    # Before claims (version 3), the account a player was linked to.
    user: Annotated[str | None, AfterValidator(_username)] = None


class Claim(_Record):
    player: NameRef = None  # type: ignore[assignment]
    user: str = None  # type: ignore[assignment]


class SeatRecord(_Record):
    player: NameRef = None  # type: ignore[assignment]
    position: Annotated[int, AfterValidator(_number(Seat, "position"))] = None  # type: ignore[assignment]


class Entry(_Record):
    player: NameRef = None  # type: ignore[assignment]
    outcome: Outcome = None
    on_deal: bool | None = None
    groups: Groups = None
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
    version: Annotated[
        int | None,
        AfterValidator(_number(Round, "version")),
        AfterValidator(_at_least_one("{where}: {field} must be 1 or more, not {value}.")),
        _history_only(None),
    ] = None
    created_at: Annotated[Moment, _history_only(None)] = None
    updated_at: Annotated[Moment, _history_only(None)] = None
    dealer: OptionalNameRef = None
    entered_by: Author = None


class Rejoin(_Record):
    player: NameRef = None  # type: ignore[assignment]
    after_round: int = None  # type: ignore[assignment]
    created_at: Annotated[Moment, _history_only(None)] = None
    created_by: Annotated[Author, _history_only("")] = None


class TableChange(_Record):
    """A player joining or leaving the table after a round, or its new seating
    (SeatChange): a join or leave names its "player", a seating lists its "seats"
    (the plan holds each kind to its keys)."""

    kind: Annotated[str, PlainValidator(_kind)] = None  # type: ignore[assignment]
    player: OptionalNameRef = None
    after_round: Annotated[
        int,
        AfterValidator(_number(SeatChange, "after_round")),
        AfterValidator(_at_least_one("{where}: {field} must be a round's number, from 1, not 0.")),
    ] = None  # type: ignore[assignment]
    seats: Annotated[Any, PlainValidator(_seating)] = None
    created_at: Moment = None
    created_by: Author = None


class Change(_Record):
    round: int | None = None  # its number in the file now; None: deleted since
    action: Annotated[str, PlainValidator(_action)] = None  # type: ignore[assignment]
    changed_at: Annotated[Moment, AfterValidator(_required_time)] = None
    number: Annotated[
        int,
        AfterValidator(_number(RoundChange, "number")),
        AfterValidator(_at_least_one("{where}: {field} must be a round's number, from 1, not 0.")),
    ] = None  # type: ignore[assignment]
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
    ceiling: Annotated[int | None, AfterValidator(_number(GameSession, "ceiling"))] = None
    closed_at: Moment = None
    # Absent or null: as the league says (off in a file written before it was kept).
    table_auto_save: bool | None = None
    created_at: Moment = None
    seats: list[SeatRecord] = None  # type: ignore[assignment]
    first_dealer: OptionalNameRef = None
    rounds: list[RoundRecord] = None  # type: ignore[assignment]
    rejoins: list[Rejoin] = None  # type: ignore[assignment]
    # Version 5 on; in an earlier file nobody joined or left (none was kept).
    seat_changes: Annotated[list[TableChange] | None, _read_from("seat_changes", None)] = None
    # The number (from 1) in the file of the session this one is the rematch of.
    rematch_of: int | None = None
    changes: Annotated[list[Change] | None, _history_only(None)] = None


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


def checked_league_file(data: object) -> tuple[LeagueFile, Reading]:
    """The file's records, every value checked, and how its version is read; or
    ImportRefused naming the first thing wrong."""
    if not isinstance(data, dict):
        raise ImportRefused("The file must be a JSON object.")
    if data.get("format") != FORMAT:
        raise ImportRefused(f'This is not a league file: it has no "format": "{FORMAT}".')
    version = data.get("version")
    if version not in READABLE or isinstance(version, bool):
        raise ImportRefused(
            f"This league file is format version {version!r}; "
            f"this scorekeeper reads versions {', '.join(map(str, READABLE))}."
        )
    reading = Reading(
        earlier=version < EXACT_TEXTS,
        history=version >= HISTORY,
        seat_changes=version >= SEAT_CHANGES,
    )
    # The latest time a file that keeps its history may give: the import's, read once.
    latest = timezone.now() + _CLOCKS if reading.history else None
    try:
        checked = LeagueFile.model_validate(
            data,
            context={
                "history": reading.history,
                "seat_changes": reading.seat_changes,
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
