"""Form fields several forms share: names, numbers, card lists, money."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from games.names import clean_name


class NameField(forms.CharField):
    """A form field for a name: games.names's rule, then the usual required and length
    checks on the trimmed name."""

    def to_python(self, value: Any) -> str:
        return clean_name(super().to_python(value))


class NumbersField(forms.CharField):
    """Three numbers typed as ``10, 30, 50`` (a value table for 1, 2 and 3 cards)."""

    def to_python(self, value: Any) -> list[int]:
        text = super().to_python(value)
        parts = [part for part in re.split(r"[\s,;/]+", text) if part]
        if not all(re.fullmatch(r"-?\d{1,7}", part) for part in parts):
            raise forms.ValidationError(
                gettext_lazy("Enter whole numbers separated by commas, e.g. 10, 30, 50.")
            )
        return [int(part) for part in parts]

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        # Read as here by static/js/app.js too (asRead: "as the preset" as it is typed).
        return super().widget_attrs(widget) | {"data-list": "numbers"}


class CardListField(forms.CharField):
    """Card codes typed as ``AS 2C``; the rules service judges them."""

    def to_python(self, value: Any) -> list[str]:
        return [part for part in re.split(r"[\s,;/|]+", super().to_python(value)) if part]

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        # Read as here by static/js/app.js too (asRead: "as the preset" as it is typed).
        return super().widget_attrs(widget) | {"data-list": "cards"}


MONEY_HELP = gettext_lazy("With 2 decimals, e.g. 0.10.")


def _money_field(label: Promise, max_digits: int, help_text: Promise) -> forms.DecimalField:
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
        gettext_lazy("Money per point"),
        8,
        gettext_lazy(
            "Net-format games (points, paplu): what a point is worth when settling up. "
            "Empty: points only."
        ),
    )


def buy_in_field() -> forms.DecimalField:
    return _money_field(
        gettext_lazy("Buy-in"),
        10,
        gettext_lazy(
            "Pool games: each player's stake; the pot is the buy-in times the players. "
            "Empty: no pot."
        ),
    )
