"""The rule options of a session or a league as form fields, one per option of the
rule model, with the rules service's own help text and validation.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, pgettext

from games.forms.fields import CardListField, NumbersField
from games.models import Preset
from games.rules import (
    DEFAULT_PRESET,
    OPTION_NAMES,
    OPTION_SECTIONS,
    PRESETS,
    RulesError,
    Ruleset,
    choice_label,
    describe_preset,
    get_ruleset,
    option_help,
    option_label,
    option_range,
    option_text,
)

# The session's own ceiling field stands for the `ceiling` option.
_NOT_OFFERED = frozenset({"ceiling"})
HOUSE_RULES = tuple(name for name in OPTION_NAMES if name not in _NOT_OFFERED)


_HINTS = typing.get_type_hints(Ruleset)


_META = {f.name: f.metadata for f in dataclasses.fields(Ruleset)}


def _option_field(name: str) -> forms.Field:
    """A form field for one Ruleset option, from its type and metadata."""
    hint = _HINTS[name]
    meta = _META[name]
    optional = typing.get_origin(hint) in (typing.Union, types.UnionType)
    if optional:
        hint = next(arg for arg in typing.get_args(hint) if arg is not type(None))
    common = {"label": option_label(name), "help_text": option_help(name)}
    if hint is bool:
        return forms.BooleanField(required=False, **common)
    if hint is int and "choices" in meta:
        choices = [(choice, str(choice)) for choice in meta["choices"]]
        return forms.TypedChoiceField(choices=choices, coerce=int, **common)
    if hint is int:
        field = forms.IntegerField(
            required=not optional, min_value=-1_000_000, max_value=1_000_000, **common
        )
        # The browser knows what the rule takes: its stepper stays inside, and
        # static/js/app.js says a number outside as it is typed. The rules
        # service still judges what is sent, and says why in its own words (a field
        # bound of the rule's least would say Django's instead).
        least, most = option_range(name)
        field.widget.attrs["min"] = least
        if most is not None:
            field.widget.attrs["max"] = most
        return field
    if hint is str:
        choices = [(choice, choice_label(choice)) for choice in meta["choices"]]
        return forms.ChoiceField(choices=choices, **common)
    if typing.get_args(hint) == (int, int, int):
        return NumbersField(max_length=60, **common)
    if meta.get("cards"):
        return CardListField(required=False, max_length=100, **common)
    choices = [(choice, choice_label(choice)) for choice in meta["choices"]]
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


# An option's name in a message of the rules service (whole: deal_show is not the
# start of deal_show_max). Replaced in one pass, so the words of a label put in
# ("Number of decks") are never read again as a name.
_NAMED = re.compile(rf"\b({'|'.join(OPTION_NAMES)})\b")


def _in_a_sentence(label: str) -> str:
    """A label inside a sentence: "Number of decks" is "number of decks", but "K A 2
    marriage as a rummy" keeps its capital K."""
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def _beside(message: str) -> str:
    """The rules service's message about an option in the words of the page: its
    options by their labels ("deal_show_min must not be above deal_show_max" is
    "Lowest deal show cost must not be above highest deal show cost.")."""
    message = _NAMED.sub(lambda name: _in_a_sentence(option_label(name[0])), message)
    message = message[:1].upper() + message[1:]
    # Translators: a message of the rules service made a sentence of the page's
    # ("… must not be above …" with its full stop).
    return (
        message
        if message.endswith(".")
        else pgettext("sentence", "{message}.").format(message=message)
    )


@dataclasses.dataclass(frozen=True)
class RuleOption:
    field: forms.BoundField
    changed: bool  # differs from the shown preset, or cannot be read
    preset_value: str  # the shown preset's value, as text
    preset_shown: str  # the same as its field shows it, in JSON (the page compares)


@dataclasses.dataclass(frozen=True)
class RuleSection:
    """A heading of docs/rules/options.md with its options: open when one of them is changed or
    wrong, so what differs from the preset is in sight and the rest folded away."""

    title: str
    options: list[RuleOption]

    @property
    def changed(self) -> int:
        return sum(option.changed for option in self.options)

    @property
    def shown(self) -> list[RuleOption]:
        """The options in sight when the section is open: changed or wrong."""
        return [option for option in self.options if option.changed or option.field.errors]

    @property
    def folded(self) -> list[RuleOption]:
        """The rest, as the preset has them, one tap further."""
        shown = self.shown
        return [option for option in self.options if option not in shown]

    @property
    def open(self) -> bool:
        return bool(self.shown)


# Slugs shared with the rules service, labels from the model.
PRESET_CHOICES = [(value, label) for value, label in Preset.choices if value in PRESETS]


class RulesetForm(forms.Form):
    """A preset, its point ceiling and every other option of the rule model (the
    house rules), for a session or a league's defaults.

    The house rules are rendered with the values of the preset in ``rules_preset``
    (or, for that preset, of ``defaults``: a league's own rules). Only options that
    differ from that preset's values become overrides, applied to the chosen preset,
    so switching preset without JavaScript still does the right thing.
    """

    preset = forms.ChoiceField(
        choices=PRESET_CHOICES,
        widget=forms.RadioSelect,
        # Translators: the game's preset, as the list of a form's problems names the
        # field (the form heads its choices "Game").
        label=gettext_lazy("Preset"),
    )
    rules_preset = forms.ChoiceField(
        choices=PRESET_CHOICES, required=False, widget=forms.HiddenInput
    )
    ceiling = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=1_000_000,
        # Lazy: the rules name the option in the language of the page that shows it.
        label=lazy(option_label, str)("ceiling"),
        help_text=gettext_lazy("Prefilled with the preset's; empty for a points game without one."),
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

    def shows_defaults(self) -> bool:
        """Whether the house-rules fields start from the defaults (a league's rules),
        not the bare preset's: only for the defaults' own preset."""
        return self.defaults is not None and self.defaults.preset == self._rules_preset()

    def _rules_preset(self) -> str:
        """The preset whose values the house-rules fields show."""
        source = self.data if self.is_bound else self.initial
        for key in ("rules_preset", "preset"):
            value = source.get(key)
            if isinstance(value, str) and value in PRESETS:
                return value
        return self.defaults.preset if self.defaults is not None else DEFAULT_PRESET

    # Sections for the template.

    def house_rules(self) -> list[forms.BoundField]:
        return [self[f"rule_{name}"] for name in HOUSE_RULES]

    def house_rule_sections(self) -> list[RuleSection]:
        """The house rules under their headings in docs/rules/options.md, each option marked when it
        differs from the preset whose values the fields show."""
        preset = PRESETS[self._rules_preset()]
        sections = []
        for title, names in OPTION_SECTIONS:
            options = [self._rule_option(name, preset) for name in names if name in HOUSE_RULES]
            if options:
                # The rules mark their headings for the catalogue; a page translates them.
                sections.append(RuleSection(gettext(title), options))
        return sections

    def _rule_option(self, name: str, preset: Ruleset) -> RuleOption:
        bound = self[f"rule_{name}"]
        base = getattr(preset, name)
        try:
            changed = bound.field.clean(bound.value()) != _jsonable(base)
        except forms.ValidationError:
            changed = True  # as typed it is not the preset's (its error says why)
        return RuleOption(
            bound, changed, option_text(base), json.dumps(_option_initial(preset, name))
        )

    def house_rules_have_errors(self) -> bool:
        return self.is_bound and any(self[f"rule_{name}"].errors for name in HOUSE_RULES)

    def preset_choices(self) -> list[tuple[Any, str]]:
        """Each preset's radio button with its one-line description."""
        return [(radio, describe_preset(radio.data["value"])) for radio in self["preset"]]

    # A session in a league resets to the league's rules (its starting point); a
    # league's own rules page resets to the bare preset's.
    reset_to_defaults = True
    read_only = False

    def disable(self) -> None:
        """Show the values without letting them change (a league's viewers)."""
        self.read_only = True
        for field in self.fields.values():
            field.disabled = True

    def resets_to_league(self) -> bool:
        return self.reset_to_defaults and self.defaults is not None

    def reset_rules(self, **kwargs: Any) -> RulesetForm:
        """This form as sent, unbound (so nothing is judged yet), with its ceiling and
        house rules back at the chosen preset's values (or the defaults', see
        ``reset_to_defaults``); every other field keeps what was typed."""
        typed = {
            name: field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
            for name, field in self.fields.items()
            if name != "ceiling" and not name.startswith("rule_")
        }
        preset = typed.get("preset")
        typed["rules_preset"] = preset if preset in PRESETS else self._rules_preset()
        defaults = self.defaults if self.reset_to_defaults else None
        return type(self)(initial=typed, defaults=defaults, **kwargs)

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
            if option in HOUSE_RULES:
                self.add_error(f"rule_{option}", _beside(error.message))
            else:
                self.add_error("preset", error.message)
        if shown != preset and cleaned.get("ceiling") == self.shown_ruleset(shown).ceiling:
            # Left as the other preset prefilled it: the chosen preset's applies.
            cleaned["ceiling"] = self.shown_ruleset(preset).ceiling
        return cleaned
