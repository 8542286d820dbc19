"""A hand counted at the table on the round form (docs/rules §5, "A counted hand"):
its *Count* switch, the figures typed instead of its cards, and the hand they make
for the rules service.

The field names are services.round_entries.counted_form_data's: ``counted_<seat>``
for the switch, ``<figure>_<seat>`` for each figure (``count_12``, ``two_point_12``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from games.models import HandEntry, Seat
from games.rules import (
    FULL_HAND_OUTCOMES,
    NUMBER_FIGURES,
    HandFigures,
    Ruleset,
    figure_names,
)
from games.services.round_checks import PlayerCheck, TypedHand

# What the form calls each figure (games.rules.FIGURES), beside its field.
LABELS = {
    # Translators: the figure of a hand counted at the table: its points.
    "count": gettext_lazy("Count"),
    "value_points": gettext_lazy("Value points"),
    "claims": gettext_lazy("Claims"),
    "two_point": gettext_lazy("Two-point hand"),
    "free_hand": gettext_lazy("Free hand"),
}
# More than any hand holds (210 a count, 320 value points), and short enough that a
# hostile POST is refused by the form, not worked through.
MAX_DIGITS = 6


def counted_outcomes(rules: Ruleset) -> tuple[str, ...]:
    """The outcomes a hand may be counted at under these house rules: every one where
    counts are allowed, but a declared winner only where the table's show is trusted
    (where it is, even under cards only)."""
    return tuple(
        outcome
        for outcome in rules.outcomes
        if (rules.trust_show if outcome == "declared" else rules.hand_entry != "cards")
    )


def offered_figures(rules: Ruleset) -> dict[str, tuple[str, ...]]:
    """Each figure some countable outcome gives (in the order of games.rules.FIGURES),
    with the outcomes that give it: the form asks for no other."""
    offered: dict[str, list[str]] = {}
    for outcome in counted_outcomes(rules):
        for name in figure_names(rules, outcome):
            offered.setdefault(name, []).append(outcome)
    return {name: tuple(offered[name]) for name in ("count", *LABELS) if name in offered}


def switch_outcomes(rules: Ruleset) -> tuple[str, ...]:
    """The outcomes at which the *Count* switch means something: a countable outcome
    that gives a figure, or the trusted winner, who gives none in a 13-card game."""
    return tuple(
        outcome
        for outcome in counted_outcomes(rules)
        if outcome == "declared" or figure_names(rules, outcome)
    )


class FigureField(forms.Field):
    """A whole number typed at the table, or nothing; what it may be (not below 0, a
    count some hand makes), the rules judge, beside the field."""

    def to_python(self, value: Any) -> int | None:
        text = str(value or "").strip()
        if not text:
            return None
        if not re.fullmatch(rf"-?\d{{1,{MAX_DIGITS}}}", text):
            shown = text if len(text) <= 12 else text[:11] + "…"
            raise forms.ValidationError(
                gettext("type a whole number, such as 34, not “{typed}”").format(typed=shown)
            )
        return int(text)


def add_fields(form_fields: dict[str, forms.Field], seat: Seat, rules: Ruleset) -> None:
    """The seat's *Count* switch and the figures the rules may ask of it. Counts first
    (``hand_entry``): the switch starts on, so a new round opens on every hand's count
    (a winner the table's show is not trusted for turns to cards when Declared is
    tapped: static/js/counts.js)."""
    name = seat.player.name
    form_fields[f"counted_{seat.pk}"] = forms.BooleanField(
        required=False,
        initial=rules.hand_entry == "counts_first",
        # Translators: the label of a player's Count switch.
        label=gettext("{name}: count at the table").format(name=name),
    )
    for figure in offered_figures(rules):
        # Translators: the label of a figure's field in a player's row ("Asha: claims").
        label = gettext("{name}: {figure}").format(name=name, figure=HandEntry.FIGURE_WORDS[figure])
        if figure in NUMBER_FIGURES:
            form_fields[f"{figure}_{seat.pk}"] = FigureField(required=False, label=label)
        else:
            form_fields[f"{figure}_{seat.pk}"] = forms.BooleanField(required=False, label=label)


def typed_figures(
    cleaned: Mapping[str, Any], seat_pk: int, rules: Ruleset, outcome: str | None
) -> HandFigures | None:
    """The figures typed for a counted hand, None for a hand entered by its cards. Only
    those the outcome gives are passed on: a count left in a field that a drop hides
    is not the drop's. A figure the form refused (not a number) is not given; its own
    message stands beside it."""
    if not cleaned.get(f"counted_{seat_pk}"):
        return None
    names = figure_names(rules, outcome) if outcome else tuple(offered_figures(rules))
    given = {name: cleaned.get(f"{name}_{seat_pk}") for name in names}
    return HandFigures(
        **{name: value for name, value in given.items() if value is not None and value is not False}
    )


def nothing_typed(data: Mapping[str, Any], seat_pk: int, rules: Ruleset) -> bool:
    """Whether a counted hand's figures are all blank as sent: the *Count* switch was
    just turned on (the form then gives the figures of the cards typed)."""
    names = offered_figures(rules)
    return not any(str(data.get(f"{name}_{seat_pk}") or "").strip() for name in names)


def typed_hand(
    rules: Ruleset, outcome: str | None, text: str | None, figures: HandFigures | None
) -> TypedHand:
    """The hand the rules service checks: by its cards, or by its figures. A counted
    hand whose outcome gives no figure and shows no cards (a drop, whose cost is
    fixed) is simply that outcome, as it is entered by cards."""
    if figures is None:
        return TypedHand(outcome, text)
    shows = outcome is None or outcome in FULL_HAND_OUTCOMES
    if not shows and not figure_names(rules, outcome):
        return TypedHand(outcome, "")
    return TypedHand(outcome, text, figures)


def counted_line(check: PlayerCheck) -> str:
    """A counted hand as the preview says it, in the round page's words: "Counted at
    the table: count 34, value points 5."; a winner on the table's show who gives no
    figure, "Shown at the table: no cards entered."; "" while nothing is typed."""
    if check.figures is None:
        return ""
    said = HandEntry.figures_words(check.figures.as_dict())
    shown = check.outcome == "declared"  # a winner's show; any other hand is counted
    if said:
        if shown:
            return gettext("Shown at the table: {figures}.").format(figures=said)
        return gettext("Counted at the table: {figures}.").format(figures=said)
    if shown:
        return gettext("Shown at the table: no cards entered.")
    return ""  # nothing typed yet, or a drop's fixed cost (its own line says so)


@dataclass(frozen=True)
class FigureInput:
    """One figure's field in a player's row, as round_fields.html#figures writes it."""

    name: str  # the figure (games.rules.FIGURES)
    label: str
    field: forms.BoundField
    outcomes: tuple[str, ...]  # the outcomes that give it: shown only at those
    value: Any  # as shown: as typed, or the figure of the cards typed

    @property
    def number(self) -> bool:
        return self.name in NUMBER_FIGURES

    @property
    def shown(self) -> str:
        return "" if self.value is None else str(self.value)


def figure_inputs(
    form: forms.Form, seat: Seat, rules: Ruleset, from_cards: HandFigures | None
) -> list[FigureInput]:
    """The seat's figure fields, in order; each holding the figure of the cards where
    the hand was just switched to its count (``from_cards``)."""
    inputs = []
    for name, outcomes in offered_figures(rules).items():
        bound = form[f"{name}_{seat.pk}"]
        value = bound.value()
        if from_cards is not None:
            value = getattr(from_cards, name)
        elif name not in NUMBER_FIGURES:
            value = bool(value)  # the box as ticked (a checkbox's data is read as a bool)
        inputs.append(FigureInput(name, str(LABELS[name]), bound, outcomes, value))
    return inputs
