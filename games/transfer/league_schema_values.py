"""The league file's values, each checked as the model field that stores it takes it
(its length, choices, range, the rule for names), and the words of its refusal: the
types the records of the file's schema (league_schema) are made of.

Validators raise `_refusal(template, ...)`, a message whose place league_schema_words
fills in ("Session 2 (played 2024-01-05), round 3, Asha: ..."). Nothing is coerced
(strict: "1" is no number, true no whole number)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from decimal import Decimal
from typing import Annotated, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as FieldError
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Field as ModelField
from django.db.models import Model
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, gettext_noop
from pydantic import (
    AfterValidator,
    PlainValidator,
    ValidationInfo,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

from games.currencies import currency_codes
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
from games.rules import FIGURES, NUMBER_FIGURES
from games.transfer.league_refusal import shown

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
    template, so braces in a file are only text). Templates are marked where they are
    written (gettext_noop) and said here, in the language of the import's page."""
    return PydanticCustomError("refused", "{template}", {"template": gettext(template), **values})


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


def _cleaned(field: ModelField, value: object, template: str, **values: object) -> Any:
    """A value as the model's field takes it (its type, length, choices and range)."""
    try:
        return field.clean(value, None)
    except FieldError as error:
        raise _refusal(template, said=said(error, value), **values) from None


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
    refused = (
        gettext_noop("{where}: {label} ({field}): {said}")
        if at_path
        else gettext_noop("{where}: {label}: {said}")
    )

    def check(value: object) -> Any:
        if value is None and none_is_blank:
            return ""
        if value is not None and not isinstance(value, str):
            raise _refusal(
                gettext_noop('{where}: "{key}" must be text, not {value}.'), value=_quoted(value)
            )
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
                gettext_noop('{where}: "{key}" ({field}) must be text, not {value}.'),
                value=_quoted(value),
            )
        if isinstance(value, str):
            value = _name_cleaned(value, gettext_noop("{where}: {label} ({field}): {said}"))
        return _cleaned(field, value, gettext_noop("{where}: {label} ({field}): {said}"))

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
                gettext_noop(
                    '{where}: {field}: "{key}" must be an amount such as "0.50", not {value}.'
                ),
                value=_quoted(value),
            )
        amount = _cleaned(field, value, gettext_noop("{where}: {field}: {label}: {said}"))
        if amount is not None and amount <= 0:
            raise _refusal(
                gettext_noop("{where}: {field} must be more than 0, not {amount}."), amount=amount
            )
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
                gettext_noop(
                    "{where}: {field} must be a whole number from {low} to {high}, not {value}."
                ),
                low=low,
                high=high,
                value=f"{value!s:.40}",
            )
        return _cleaned(field, value, gettext_noop("{where}: {label}: {said}"))

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
        _cleaned(
            field,
            value,
            # Translators: {name} is a field of a user account ("username").
            gettext_noop("User: {name}: {said}"),
            name=field.name.replace("_", " "),
        )
    return value


def _name_ref(value: str | None) -> str | None:
    """A player's name where the file refers to one (a seat, a dealer, a hand), as the
    players list's names are cleaned, so the two match."""
    return None if value is None else _name_cleaned(value, gettext_noop('{where}: "{key}": {said}'))


def _author(limit: int) -> Callable[[str | None], str]:
    """A name the file gives (who did something, a player in the history), held to the
    rule for names; "" where it gives none."""

    def check(value: str | None) -> str:
        return _name_cleaned(value or "", gettext_noop("{where}: {label}: {said}"), limit)

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
                    gettext_noop(
                        "{where}: {field}.{option} must be from -{limit} to {limit}, not {number}."
                    ),
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
            gettext_noop(
                "{where}: {field}: {label} must be a date and time with its time zone, such as "
                "2024-01-05T20:00:00+00:00, not {value}."
            ),
            value=_quoted(value),
        )
    # Compared with both ends as given (an offset of its own): converting a moment
    # at the edge of the calendar to UTC first could overflow.
    if not _EARLIEST <= moment < _LATEST:
        raise _refusal(
            gettext_noop("{where}: {field}: {label} must be from 1970 to 2100, not {value}."),
            value=_quoted(value),
        )
    latest = (info.context or {}).get("latest")
    if latest is not None and moment > latest:
        raise _refusal(
            gettext_noop(
                "{where}: {field}: {label} is in the future ({value}): a file records what has "
                "happened."
            ),
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
        raise _refusal(
            gettext_noop('{where}: "{key}" must be a list, not {value}.'), value=_quoted(value)
        )
    if not all(isinstance(group, list) for group in value) or not all(
        isinstance(card, str) for group in value for card in group
    ):
        raise _refusal(gettext_noop("{where}: the groups must be lists of card codes such as 7H."))
    try:
        validate_groups(value)
    except FieldError as error:
        raise _refusal(gettext_noop("{where}: {said}"), said=" ".join(error.messages)) from None
    return value


def _figures(value: object) -> dict[str, int | bool] | None:
    """A counted hand's figures (docs/rules §5, "A counted hand"): the rules' names,
    numbers where the rules count and true or false where they ask yes or no. What
    the figures may be under the session's rules (a count no hand makes, a figure its
    outcome does not give, figures beside cards) is the rules service's to say."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _refusal(
            gettext_noop(
                '{where}: "figures" must be an object such as {{"count": 34}}, not {value}.'
            ),
            value=_quoted(value),
        )
    for name, figure in value.items():
        if name not in FIGURES:
            raise _refusal(
                gettext_noop(
                    '{where}: "figures" holds {name}, which is no figure: a counted hand gives '
                    "{names}."
                ),
                name=_quoted(name),
                names=", ".join(FIGURES),
            )
        if name in NUMBER_FIGURES and (isinstance(figure, bool) or not isinstance(figure, int)):
            raise _refusal(
                gettext_noop("{where}: figures: {name} must be a whole number, not {value}."),
                name=name,
                value=_quoted(figure),
            )
        if name not in NUMBER_FIGURES and not isinstance(figure, bool):
            raise _refusal(
                gettext_noop("{where}: figures: {name} must be true or false, not {value}."),
                name=name,
                value=_quoted(figure),
            )
    return value


def _action(value: object) -> str:
    if value not in ACTIONS:
        raise _refusal(
            gettext_noop('{where}: "action" must be one of {actions}, not {value}.'),
            actions=", ".join(ACTIONS),
            value=_quoted(value),
        )
    return str(value)


def _kind(value: object) -> str:
    if value not in SEAT_CHANGE_KINDS:
        raise _refusal(
            gettext_noop('{where}: "kind" must be one of {kinds}, not {value}.'),
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
            gettext_noop('{where}: "seats" must be a list of players\' names, not {value}.'),
            value=_quoted(value),
        )
    return tuple(_name_cleaned(name, gettext_noop('{where}: "seats": {said}')) for name in value)


def read_from(since: str, default: object) -> WrapValidator:
    """A key that files keep from a version on (``since``: the reading's flag for it):
    in an earlier file a key of that name is not its, and is not read."""

    def check(value: object, handler: Callable[[object], object], info: ValidationInfo) -> object:
        return handler(value) if (info.context or {}).get(since) else default

    return WrapValidator(check)


def kept_from(since: str) -> WrapValidator:
    """A key of the history's rounds that files keep from a version on (``since``: the
    reading's flag for it): an earlier file's history holds no such key, and is
    refused for it as for any other key it does not hold."""

    def check(value: object, handler: Callable[[object], object], info: ValidationInfo) -> object:
        if value is not None and not (info.context or {}).get(since):
            raise PydanticCustomError("extra_forbidden", "Extra inputs are not permitted")
        return handler(value)

    return WrapValidator(check)


def history_only(default: object) -> WrapValidator:
    """A key that files keep from version 4 on, with the rounds' history."""
    return read_from("history", default)


def _required_time(value: datetime.datetime | None) -> datetime.datetime:
    if value is None:
        raise _refusal(gettext_noop("{where}: {field}: a change needs the time it was made."))
    return value


Day = _column(GameSession, "played_on", at_path=True)
LeagueName = _name_column(League, "name")
LeagueSlug = _column(League, "slug", none_is_blank=True)
LeaguePreset = _column(League, "preset")
LeagueMoney = _money(League, "money_per_point")
LeagueZone = _column(League, "time_zone", none_is_blank=True)


def _language(value: str) -> str:
    """A league's language, one of this site's; one it does not have (a file from a
    site with more) is read as none, each browser's: no figure depends on it."""
    return value if value in dict(settings.LANGUAGES) else ""


def _currency(value: str) -> str:
    if value and value not in currency_codes():
        raise _refusal(
            gettext_noop(
                '{where}: {label}: "{value}" is not a currency code (ISO 4217, such as INR).'
            ),
            value=value,
        )
    return value


LeagueLanguage = Annotated[
    _column(League, "language", none_is_blank=True), AfterValidator(_language)
]
LeagueCurrency = Annotated[
    _column(League, "currency", none_is_blank=True), AfterValidator(_currency)
]
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
Figures = Annotated[Any, PlainValidator(_figures)]


def _kept_version(value: int) -> int:
    if not 1 <= value <= INT_HIGH:
        raise _refusal(
            gettext_noop("{at}: {path}.version must be from 1 to {high}."), high=INT_HIGH
        )
    return value


def _named_player(value: str) -> str:
    if not value:
        raise _refusal(gettext_noop('{where}: "player" must name the player.'))
    return value


def _outcome(value: str) -> str:
    if value not in HandEntry.Outcome.values:
        raise _refusal(
            gettext_noop("{where}: {outcome} is not an outcome."), outcome=_quoted(value)
        )
    return value


def _score(value: int) -> int:
    if not INT_LOW <= value <= INT_HIGH:
        raise _refusal(gettext_noop("{where}: the score is too large to store."))
    return value


CutJoker = Annotated[
    str,
    AfterValidator(_card_code(gettext_noop("{where}: the cut joker {card} is not a card code."))),
]
HistoryName = Annotated[str | None, AfterValidator(_author(PLAYER_NAME))]
HistoryPlayer = Annotated[HistoryName, AfterValidator(_named_player)]
HistoryOutcome = Annotated[str, AfterValidator(_outcome)]
HandAuthor = Annotated[str | None, AfterValidator(_author(_HAND_AUTHOR_LENGTH))]
Score = Annotated[int, AfterValidator(_score)]
KeptVersion = Annotated[int, AfterValidator(_kept_version)]
Username = Annotated[str, AfterValidator(_username)]
OptionalUsername = Annotated[str | None, AfterValidator(_username)]
Position = Annotated[int, AfterValidator(_number(Seat, "position"))]
Ceiling = Annotated[int | None, AfterValidator(_number(GameSession, "ceiling"))]
RoundVersion = Annotated[
    int | None,
    AfterValidator(_number(Round, "version")),
    AfterValidator(_at_least_one(gettext_noop("{where}: {field} must be 1 or more, not {value}."))),
]
AfterRound = Annotated[
    int,
    AfterValidator(_number(SeatChange, "after_round")),
    AfterValidator(
        _at_least_one(gettext_noop("{where}: {field} must be a round's number, from 1, not 0."))
    ),
]
ChangeNumber = Annotated[
    int,
    AfterValidator(_number(RoundChange, "number")),
    AfterValidator(
        _at_least_one(gettext_noop("{where}: {field} must be a round's number, from 1, not 0."))
    ),
]
SeatChangeKind = Annotated[str, PlainValidator(_kind)]
Seating = Annotated[Any, PlainValidator(_seating)]
Action = Annotated[str, PlainValidator(_action)]
ChangedAt = Annotated[Moment, AfterValidator(_required_time)]
