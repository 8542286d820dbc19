"""Forms: the shape of what a browser sends. Rules are judged by the rules service,
through services.py; these classes only turn its answers into form errors placed
next to the field they concern."""

from __future__ import annotations

import dataclasses
import re
import secrets
import types
import typing
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.db.models import QuerySet
from django.utils import timezone

from games.models import HandEntry, League, Membership, Player, Preset, Seat
from games.names import NameField
from games.rules import PRESETS, Card, RulesError, Ruleset, get_ruleset, is_net, is_pool
from games.rules.rulesets import OPTION_NAMES, option_help
from games.services.rounds import PlayerCheck, RoundCheck, RoundEntry, check_round
from games.services.rulesets import describe_preset

MAX_SEATS = 8
# A 21-card hand in the longest notation is about 100 characters; this leaves room
# for spaces and comments while keeping a hostile POST small.
MAX_GROUPS_TEXT = 400
MAX_NAME = Player._meta.get_field("name").max_length
FORM_KEY = r"[0-9a-f]{8}"
SUBMISSION = r"[0-9a-f]{32}"


class SignupForm(UserCreationForm):
    """Django's sign-up form; a club makes its own accounts. The e-mail address is
    optional: it is only where a forgotten password's reset link goes."""

    email = forms.EmailField(
        label="E-mail (optional)",
        required=False,
        help_text="Only to send you a link if you forget your password.",
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


# --- Starting a session ----------------------------------------------------------------

# The session's own ceiling field stands for the `ceiling` option.
HOUSE_RULES = tuple(name for name in OPTION_NAMES if name != "ceiling")
_HINTS = typing.get_type_hints(Ruleset)
_META = {f.name: f.metadata for f in dataclasses.fields(Ruleset)}


class NumbersField(forms.CharField):
    """Three numbers typed as ``10, 30, 50`` (a value table for 1, 2 and 3 cards)."""

    def to_python(self, value: Any) -> list[int]:
        text = super().to_python(value)
        parts = [part for part in re.split(r"[\s,;/]+", text) if part]
        if not all(re.fullmatch(r"-?\d{1,7}", part) for part in parts):
            raise forms.ValidationError("Enter whole numbers separated by commas, e.g. 10, 30, 50.")
        return [int(part) for part in parts]


class CardListField(forms.CharField):
    """Card codes typed as ``AS 2C``; the rules service judges them."""

    def to_python(self, value: Any) -> list[str]:
        return [part for part in re.split(r"[\s,;/|]+", super().to_python(value)) if part]


def _option_field(name: str) -> forms.Field:
    """A form field for one Ruleset option, from its type and metadata."""
    hint = _HINTS[name]
    meta = _META[name]
    optional = typing.get_origin(hint) in (typing.Union, types.UnionType)
    if optional:
        hint = next(arg for arg in typing.get_args(hint) if arg is not type(None))
    common = {"label": name.replace("_", " ").capitalize(), "help_text": option_help(name)}
    if hint is bool:
        return forms.BooleanField(required=False, **common)
    if hint is int and "choices" in meta:
        choices = [(choice, str(choice)) for choice in meta["choices"]]
        return forms.TypedChoiceField(choices=choices, coerce=int, **common)
    if hint is int:
        return forms.IntegerField(
            required=not optional, min_value=-1_000_000, max_value=1_000_000, **common
        )
    if hint is str:
        choices = [(choice, choice.replace("_", " ")) for choice in meta["choices"]]
        return forms.ChoiceField(choices=choices, **common)
    if typing.get_args(hint) == (int, int, int):
        return NumbersField(max_length=60, **common)
    if meta.get("cards"):
        return CardListField(required=False, max_length=100, **common)
    choices = [(choice, choice.replace("_", " ")) for choice in meta["choices"]]
    return forms.MultipleChoiceField(
        choices=choices, required=False, widget=forms.CheckboxSelectMultiple, **common
    )


def _option_initial(ruleset: Ruleset, name: str) -> Any:
    value = getattr(ruleset, name)
    if isinstance(value, tuple) and value and isinstance(value[0], int):
        return ", ".join(str(item) for item in value)
    if isinstance(value, tuple) and _META[name].get("cards"):
        return " ".join(value)
    return list(value) if isinstance(value, tuple) else value


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# Slugs shared with the rules service, labels from the model.
PRESET_CHOICES = [(value, label) for value, label in Preset.choices if value in PRESETS]


@dataclass(frozen=True)
class SeatRow:
    number: int
    name: forms.BoundField
    dealer: Any  # the radio button of `first_dealer` for this row
    card: Card | None  # the toss card, when the toss was just dealt


MONEY_HELP = "With 2 decimals, e.g. 0.10."


def _money_field(label: str, max_digits: int, help_text: str) -> forms.DecimalField:
    return forms.DecimalField(
        required=False,
        min_value=Decimal("0.01"),
        max_digits=max_digits,
        decimal_places=2,
        label=label,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"step": "0.01", "min": "0.01", "inputmode": "decimal"}),
    )


def money_per_point_field() -> forms.DecimalField:
    return _money_field(
        "Money per point",
        8,
        "Net-format games (points, paplu): what a point is worth when settling up. "
        "Empty: points only.",
    )


def buy_in_field() -> forms.DecimalField:
    return _money_field(
        "Buy-in",
        10,
        "Pool games: each player's stake; the pot is the buy-in times the players. Empty: no pot.",
    )


class RulesetForm(forms.Form):
    """A preset, its point ceiling and every other option of the rule model (the
    house rules), for a session or a league's defaults.

    The house rules are rendered with the values of the preset in ``rules_preset``
    (or, for that preset, of ``defaults``: a league's own rules). Only options that
    differ from that preset's values become overrides, applied to the chosen preset,
    so switching preset without JavaScript still does the right thing.
    """

    preset = forms.ChoiceField(choices=PRESET_CHOICES, widget=forms.RadioSelect)
    rules_preset = forms.ChoiceField(
        choices=PRESET_CHOICES, required=False, widget=forms.HiddenInput
    )
    ceiling = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=1_000_000,
        label="Point ceiling",
        help_text="Prefilled with the preset's; empty for a points game without one.",
    )

    def __init__(self, *args: Any, defaults: Ruleset | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.defaults = defaults
        preset = self._rules_preset()
        shown = self.shown_ruleset(preset)
        for name in HOUSE_RULES:
            self.fields[f"rule_{name}"] = _option_field(name)
            self.initial.setdefault(f"rule_{name}", _option_initial(shown, name))
        self.initial.setdefault("preset", preset)
        self.initial.setdefault("rules_preset", preset)
        self.initial.setdefault("ceiling", shown.ceiling)
        self.ruleset: Ruleset | None = None

    def shown_ruleset(self, preset: str) -> Ruleset:
        """The values the house rules start from for ``preset``: the defaults' own
        when they are of that preset, else the preset's."""
        if self.defaults is not None and self.defaults.preset == preset:
            return self.defaults
        return PRESETS[preset]

    def _rules_preset(self) -> str:
        """The preset whose values the house-rules fields show."""
        source = self.data if self.is_bound else self.initial
        for key in ("rules_preset", "preset"):
            value = source.get(key)
            if isinstance(value, str) and value in PRESETS:
                return value
        return self.defaults.preset if self.defaults is not None else "21-points"

    # Sections for the template.

    def house_rules(self) -> list[forms.BoundField]:
        return [self[f"rule_{name}"] for name in HOUSE_RULES]

    def house_rules_have_errors(self) -> bool:
        return self.is_bound and any(self[f"rule_{name}"].errors for name in HOUSE_RULES)

    def preset_choices(self) -> list[tuple[Any, str]]:
        """Each preset's radio button with its one-line description."""
        return [(radio, describe_preset(radio.data["value"])) for radio in self["preset"]]

    def disable(self) -> None:
        """Show the values without letting them change (a league's viewers)."""
        for field in self.fields.values():
            field.disabled = True

    # Validation.

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        preset = cleaned.get("preset")
        if preset is None:
            return cleaned
        shown = cleaned.get("rules_preset") or preset
        changed = {}
        for name in HOUSE_RULES:
            key = f"rule_{name}"
            if key in cleaned and cleaned[key] != _jsonable(getattr(PRESETS[shown], name)):
                changed[name] = cleaned[key]
        try:
            self.ruleset = get_ruleset(preset, changed)
        except RulesError as error:
            option = error.field.removeprefix("overrides.")
            self.add_error(f"rule_{option}" if option in HOUSE_RULES else "preset", error.message)
        if shown != preset and cleaned.get("ceiling") == self.shown_ruleset(shown).ceiling:
            # Left as the other preset prefilled it: the chosen preset's applies.
            cleaned["ceiling"] = self.shown_ruleset(preset).ceiling
        return cleaned


class SessionForm(RulesetForm):
    """Start a session: players in seat order, the evening it is played, a preset, a
    ceiling, house rules and the stakes; in a league, its rules are the defaults."""

    name = NameField(max_length=100, required=False, label="Name (optional)")
    played_on = forms.DateField(
        required=False,
        label="Played on",
        help_text="Empty: today.",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    first_dealer = forms.TypedChoiceField(
        choices=[(n, f"Seat {n}") for n in range(1, MAX_SEATS + 1)],
        coerce=int,
        required=False,
        widget=forms.RadioSelect,
        label="Deals first",
    )
    league = forms.ModelChoiceField(queryset=League.objects.none(), required=False)
    money_per_point = money_per_point_field()
    buy_in = buy_in_field()

    def __init__(
        self,
        *args: Any,
        leagues: QuerySet[League] | None = None,
        toss_cards: dict[str, Card] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.toss_cards = toss_cards or {}
        if leagues is not None:
            self.fields["league"].queryset = leagues
        for number in range(1, MAX_SEATS + 1):
            self.fields[f"seat_{number}"] = NameField(
                max_length=MAX_NAME, required=False, label=f"Seat {number}"
            )
        self.initial.setdefault("first_dealer", 1)
        self.initial.setdefault("played_on", timezone.localdate())
        self.players: list[str] = []
        self.dealer_index = 0

    def seat_rows(self) -> list[SeatRow]:
        radios = list(self["first_dealer"])
        rows = []
        for number in range(1, MAX_SEATS + 1):
            bound = self[f"seat_{number}"]
            typed = (bound.value() or "").strip()
            rows.append(SeatRow(number, bound, radios[number - 1], self.toss_cards.get(typed)))
        return rows

    def seated(self) -> list[str]:
        """Players typed so far in seat order, checking names for duplicates; adds
        errors next to the seats at fault."""
        names: list[str] = []
        seen: dict[str, int] = {}
        for number in range(1, MAX_SEATS + 1):
            typed = self.cleaned_data.get(f"seat_{number}") or ""
            # NFKC: look-alike letters typed by some keyboards (the Kelvin sign for K,
            # full-width letters) become the letters they look like, so "Kim" is Kim.
            name = " ".join(unicodedata.normalize("NFKC", typed).split())
            if not name:
                continue
            # Both foldings: casefold() is how people read names, lower() how the
            # database's unique constraint compares them.
            keys = (name.casefold(), name.lower())
            clash = next((seen[key] for key in keys if key in seen), None)
            if clash is not None:
                self.add_error(f"seat_{number}", f"{name} already sits in seat {clash}.")
                continue
            seen.update(dict.fromkeys(keys, number))
            names.append(name)
        if len(names) < 2:
            self.add_error("seat_1", "Seat at least two players.")
        return names

    def clean(self) -> dict[str, Any]:
        self.players = self.seated()
        cleaned = super().clean()
        dealer = cleaned.get("first_dealer") or 1
        typed = [bool((cleaned.get(f"seat_{n}") or "").strip()) for n in range(1, dealer + 1)]
        if not typed[-1]:
            self.add_error("first_dealer", "The first dealer must be one of the seated players.")
        else:
            self.dealer_index = sum(typed) - 1  # empty rows before the dealer don't count
        if self.ruleset is not None:
            # Stakes only where the rules use them (the page offers only those): a
            # pot in a pool, money per point in a net-format game.
            ceiling = cleaned.get("ceiling") or self.ruleset.ceiling
            if not is_net(self.ruleset):
                cleaned["money_per_point"] = None
            if not is_pool(self.ruleset, ceiling):
                cleaned["buy_in"] = None
        return cleaned

    def stakes(self) -> list[forms.BoundField]:
        """The stakes the shown preset plays for (money per point, or a buy-in)."""
        shown = self.shown_ruleset(self._rules_preset())
        fields = []
        if is_net(shown):
            fields.append(self["money_per_point"])
        if is_pool(shown, shown.ceiling):
            fields.append(self["buy_in"])
        return fields


class LeagueForm(RulesetForm):
    """A league's name and default rules: its preset, ceiling and house rules, and
    the money a point is worth in its net-format sessions."""

    name = NameField(
        max_length=100, label="Name", error_messages={"required": "Give the league a name."}
    )
    money_per_point = money_per_point_field()

    field_order = ["name"]

    def overrides(self) -> dict[str, Any]:
        """What the league stores: the options that differ from its preset, the
        ceiling among them (a session's own ceiling field stands for it)."""
        assert self.ruleset is not None
        preset = PRESETS[self.cleaned_data["preset"]]
        ceiling = self.cleaned_data.get("ceiling")
        ruleset = dataclasses.replace(self.ruleset, ceiling=ceiling or preset.ceiling)
        return ruleset.overrides_from(preset)


class MemberForm(forms.Form):
    """An owner adds someone to the league by their username, with a role."""

    username = forms.CharField(max_length=150, label="Username")
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.SCORER)


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices)


class StakesForm(forms.Form):
    """What a session is played for: money per point (net-format games) or a buy-in
    (pools); only the one its rules use is offered."""

    money_per_point = money_per_point_field()
    buy_in = buy_in_field()

    def __init__(self, *args: Any, net: bool, pool: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not net:
            del self.fields["money_per_point"]
        if not pool:
            del self.fields["buy_in"]


# --- Entering a round ------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRow:
    """One player's part of the round form: fields and what the rules said."""

    seat: Seat
    outcome: forms.BoundField
    groups: forms.BoundField
    check: PlayerCheck | None
    deals: bool  # dealt this round


class RoundForm(forms.Form):
    """The cut joker, then each player's outcome and groups.

    ``clean()`` asks the rules service (via check_round) and files every
    error under the player's outcome or groups field; ``check`` keeps the previews.
    """

    cut_joker = forms.CharField(max_length=12, required=False, label="Cut joker")

    # The hidden inputs (key, submission, number, version) are read in __init__, not
    # declared as fields: a mangled one must not make the form invalid with an error
    # nobody can see; it is simply not trusted.

    def __init__(self, *args: Any, entry: RoundEntry, final: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entry = entry
        self.final = final
        self.check: RoundCheck | None = None
        # Names this rendering of the form in the ids of its preview regions; a preview
        # answered after the form was replaced (the round saved) then matches nothing.
        self.form_key = self._posted("key", FORM_KEY) or secrets.token_hex(4)
        # The form's own random token: a double tap or a retried request saves once.
        self.submission_token = self._posted("submission", SUBMISSION) or secrets.token_hex(16)
        # What this form was opened on: the round number it showed (a new round is
        # saved only as that number) or the version it started from (an edit saves
        # only over that version; None when none was sent). Kept through previews and
        # Arrange; a view moves them on only once the user has seen another device's
        # save.
        number = self._posted("number", r"[0-9]{1,9}")
        version = self._posted("version", r"[0-9]{1,9}")
        self.expected_number = int(number) if number else entry.number
        self.posted_version = int(version) if version else None
        self.expected_version = self.posted_version or (
            entry.round.version if entry.round else None
        )
        outcomes = [(o, HandEntry.Outcome(o).label) for o in entry.ruleset.outcomes]
        for seat in entry.seats:
            name = seat.player.name
            self.fields[f"outcome_{seat.pk}"] = forms.ChoiceField(
                choices=outcomes, initial="shown", label=f"{name}: outcome"
            )
            self.fields[f"groups_{seat.pk}"] = forms.CharField(
                required=False,
                max_length=MAX_GROUPS_TEXT,
                label=f"{name}: groups",
                widget=forms.Textarea(
                    attrs={
                        "rows": 3,
                        "autocomplete": "off",
                        "autocapitalize": "characters",
                        "spellcheck": "false",
                        "data-groups": "",
                        "placeholder": "e.g. 5H 6H 7H | 8S 8S 8S | …",
                    }
                ),
            )

    def _posted(self, name: str, pattern: str) -> str | None:
        posted = self.data.get(name) if self.is_bound else None
        return posted if isinstance(posted, str) and re.fullmatch(pattern, posted) else None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        cut = None if "cut_joker" in self.errors else cleaned.get("cut_joker", "")
        hands = {}
        for seat in self.entry.seats:
            groups_key = f"groups_{seat.pk}"
            text = None if groups_key in self.errors else cleaned.get(groups_key, "")
            hands[seat.pk] = (cleaned.get(f"outcome_{seat.pk}"), text)
        self.check = check_round(self.entry, cut, hands, final=self.final)
        for message in self.check.cut_errors:
            self.add_error("cut_joker", message)
        for player in self.check.players:
            for message in player.outcome_errors:
                self.add_error(f"outcome_{player.seat.pk}", message)
            for message in player.groups_errors:
                self.add_error(f"groups_{player.seat.pk}", message)
        for message in self.check.errors:
            self.add_error(None, message)
        return cleaned

    def rows(self) -> list[PlayerRow]:
        checks = {p.seat.pk: p for p in self.check.players} if self.check else {}
        return [
            PlayerRow(
                seat=seat,
                outcome=self[f"outcome_{seat.pk}"],
                groups=self[f"groups_{seat.pk}"],
                check=checks.get(seat.pk),
                deals=seat == self.entry.dealer,
            )
            for seat in self.entry.seats
        ]
