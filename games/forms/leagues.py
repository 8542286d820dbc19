"""A league: its name and house rules, its members and their roles."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django import forms
from django.conf import settings
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy

from games.currencies import CurrencyChoice, currency_from, suggested_currencies
from games.forms.fields import NameField, money_per_point_field
from games.forms.rulesets import RulesetForm
from games.models import LeagueInvite, Membership
from games.rules import PRESETS
from games.services.leagues import INVITE_DAYS, PICK_INVITE_DAYS, PICK_INVITE_ROLE
from games.zones import site_zone, validate_time_zone, zone_choices


class LeagueForm(RulesetForm):
    """A league's name and default rules: its preset, ceiling and house rules, the
    money a point is worth in its net-format sessions and the currency it is counted
    in, and the language its pages open in."""

    name = NameField(
        max_length=100,
        label=gettext_lazy("Name"),
        error_messages={"required": gettext_lazy("Give the league a name.")},
    )
    money_per_point = money_per_point_field()
    table_auto_save = forms.BooleanField(
        required=False,
        label=gettext_lazy("Table mode: save each round by itself"),
        help_text=gettext_lazy(
            "When every player enters their own hand on their own phone, the round saves "
            "itself once every hand is in and it checks. A session can change this."
        ),
    )
    currency = forms.CharField(
        required=False,
        label=gettext_lazy("Currency"),
        help_text=gettext_lazy(
            "Its code (INR, GBP, USD) or its sign (₹, £, €), named on every amount of money. "
            "Empty: ₹ when the league's language is Hindi, else no currency named."
        ),
        widget=forms.TextInput(
            attrs={
                "list": "currencies",
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "size": 12,
            }
        ),
    )
    language = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Language"),
        help_text=gettext_lazy(
            "The language the league's pages open in for a member who has not picked one. "
            "Figures, days and money are written as it writes them."
        ),
        error_messages={"invalid_choice": gettext_lazy("Pick a language from the list.")},
    )
    time_zone = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy(
            "The history, the downloads and the day a session is dated by follow this clock."
        ),
        validators=[validate_time_zone],
        error_messages={
            "invalid_choice": gettext_lazy(
                "“%(value)s” is not a time zone. Pick one from the list, such as Asia/Kolkata "
                "or Europe/London."
            )
        },
    )

    field_order = ["name"]
    reset_to_defaults = False  # the defaults are this league's rules: back to the preset

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Empty follows each browser's language; the languages are the site's.
        self.fields["language"].choices = [("", gettext("Browser's language")), *settings.LANGUAGES]
        # Empty follows the site's zone (games/zones.py), named as it is now.
        self.fields["time_zone"].choices = [
            ("", gettext("The site's time zone ({zone})").format(zone=site_zone().key)),
            *zone_choices(),
        ]

    def clean_currency(self) -> str:
        """The ISO code meant: "inr" and "₹" are INR (games/currencies.py)."""
        return currency_from(self.cleaned_data["currency"])

    @property
    def currencies(self) -> list[CurrencyChoice]:
        """The currencies the field suggests as it is typed in, in the page's language."""
        return suggested_currencies()

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

    username = forms.CharField(max_length=150, label=gettext_lazy("Username"))
    role = forms.ChoiceField(
        choices=Membership.Role.choices,
        initial=Membership.Role.SCORER,
        label=gettext_lazy("Role"),
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices, label=gettext_lazy("Role"))


def _pick(what: Promise) -> dict[str, Promise]:
    # Only a forged or stale page sends another choice, or none: say what to pick.
    return {"required": what, "invalid_choice": what}


class InviteForm(forms.Form):
    """An owner makes an invite link: the role it gives and how long it works."""

    role = forms.ChoiceField(
        choices=LeagueInvite.Role.choices,
        initial=LeagueInvite.Role.VIEWER,
        label=gettext_lazy("Joins as"),
        error_messages=_pick(PICK_INVITE_ROLE),
    )
    days = forms.TypedChoiceField(
        choices=[
            (days, format_lazy(ngettext_lazy("{count} day", "{count} days", days), count=days))
            for days in INVITE_DAYS
        ],
        coerce=int,
        initial=7,
        label=gettext_lazy("Works for"),
        error_messages=_pick(PICK_INVITE_DAYS),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Its own ids: the league page's "Add a member" form has a role field too.
        kwargs.setdefault("auto_id", "invite_%s")
        super().__init__(*args, **kwargs)

    # The address the league page is sent to once a link is made carries the choices
    # made, so that the form offers them again (another scorer link for the same table).
    CHOSEN = ("role", "days")

    @classmethod
    def as_chosen(cls, query: Mapping[str, str]) -> InviteForm:
        """The form set to the role and days of the link just made (``query``, the page
        address's, from views.leagues.invite_create), not back to a viewer's link; a value
        the form does not offer is left at its default."""
        initial = {}
        for name in cls.CHOSEN:
            offered = {str(value) for value, _label in cls.base_fields[name].choices}
            if query.get(name) in offered:
                initial[name] = query[name]
        return cls(initial=initial)

    def full_clean(self) -> None:
        super().full_clean()
        # A choice the page does not offer comes back as the field's default: a select
        # showing none would show its first option, a scorer link one tap away.
        wrong = [name for name in self.fields if self.is_bound and self.has_error(name)]
        if wrong:
            self.data = self.data.copy()
            for name in wrong:
                self.data[name] = str(self.fields[name].initial)
