"""Table mode's form: one seat's hand of the round, on the player's phone or as the
scorer corrects it."""

from __future__ import annotations

import dataclasses
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from games.forms import round_counts
from games.forms.rounds import RoundForm
from games.models import Seat, TableHand, TableRound
from games.rules import FIGURES, NUMBER_FIGURES, USUAL_OUTCOME, HandFigures, Ruleset, figure_names
from games.services.round_checks import RoundCheck
from games.services.round_entries import RoundEntry, counted_form_data
from games.services.table import TypedHand
from games.services.table_panel import counted_words

# What each figure of a counted hand is called beside its field.
FIGURE_LABELS = {
    "count": gettext_lazy("Your count"),
    "value_points": gettext_lazy("Value points"),
    "claims": gettext_lazy("Claims"),
    "two_point": gettext_lazy("Two-point hand"),
    "free_hand": gettext_lazy("Free hand"),
}


def counted_outcomes(ruleset: Ruleset) -> tuple[str, ...]:
    """The outcomes a phone may count a hand in: the round form's
    (round_counts.counted_outcomes), but only those that give a figure, or a trusted
    winner's show (a drop that gives none has nothing to count: it is the same hand
    either way)."""
    return tuple(
        outcome
        for outcome in round_counts.counted_outcomes(ruleset)
        if outcome == "declared" or figure_names(ruleset, outcome)
    )


@dataclasses.dataclass(frozen=True)
class FigureField:
    """One figure of a counted hand as the form shows it: its field, and the outcomes
    that give it (static/js/table_seat.js shows it for those alone)."""

    name: str
    field: forms.BoundField
    outcomes: tuple[str, ...]

    @property
    def box(self) -> bool:
        """A yes-or-no figure (a tick box), not a number."""
        return self.name not in NUMBER_FIGURES

    @property
    def outcomes_text(self) -> str:
        return " ".join(self.outcomes)


class HandForm(RoundForm):
    """One seat's outcome and groups (the round form's fields for that seat alone),
    and the cut joker while the table has none; where the house rules take counts,
    its *Count* switch and the figures its preset's counted hands give. The fields
    are only read here; services.table.write_hand checks the hand and
    ``file_errors`` files what it says."""

    lays_out_counts = False  # its Count switch and figures: _add_count_fields, seat_hand.html

    def __init__(
        self,
        *args: Any,
        entry: RoundEntry,
        seat: Seat,
        table_round: TableRound | None,
        hand: TableHand | None = None,
        **kwargs: Any,
    ) -> None:
        if hand is not None and not args and "data" not in kwargs:
            # A hand stored on the server is shown as it was left, previewed at once:
            # its figures too, kept while it is entered by its cards.
            figures = HandFigures(**hand.figures)
            kwargs["data"] = (
                {
                    f"outcome_{seat.pk}": hand.outcome or USUAL_OUTCOME,
                    f"groups_{seat.pk}": hand.text,
                    "number": str(entry.number),
                    "edit": str(hand.edit),
                }
                | ({f"on_deal_{seat.pk}": "on"} if hand.on_deal else {})
                | {
                    name: value
                    for name, value in counted_form_data(seat.pk, figures).items()
                    if hand.counted or name != f"counted_{seat.pk}"
                }
            )
        super().__init__(*args, entry=dataclasses.replace(entry, seats=(seat,)), **kwargs)
        self.seat = seat
        self.table_cut = table_round.cut_joker if table_round else ""
        self.hand = hand
        edit = self._posted("edit", r"[0-9]{1,9}")
        # The phone's count of edits (static/js/table_seat.js adds one for every change):
        # a write older than the stored hand is not kept over it.
        self.edit = int(edit) if edit else (hand.edit if hand else 0)
        self.counted_outcomes = counted_outcomes(entry.ruleset)
        if self.counted_outcomes:
            self._add_count_fields(entry.ruleset)

    def _add_count_fields(self, ruleset: Ruleset) -> None:
        """The *Count* switch (on from the start where the house rules open on counts)
        and a field for each figure some counted outcome gives."""
        name = self.seat.player.name
        self.fields[self.counted_name] = forms.BooleanField(
            required=False,
            initial=ruleset.hand_entry == "counts_first",
            # Translators: the label of a player's Count switch on their phone.
            label=gettext("{name}: count").format(name=name),
        )
        for figure in FIGURES:
            if not any(figure in figure_names(ruleset, o) for o in self.counted_outcomes):
                continue
            if figure in NUMBER_FIGURES:
                field: forms.Field = forms.IntegerField(
                    required=False,
                    min_value=-(10**round_counts.MAX_DIGITS) + 1,
                    max_value=10**round_counts.MAX_DIGITS - 1,
                    label=FIGURE_LABELS[figure],
                    error_messages={
                        "invalid": gettext_lazy("type a whole number, in digits (like 34)"),
                        "min_value": gettext_lazy("too long a number: no hand comes near it"),
                        "max_value": gettext_lazy("too long a number: no hand comes near it"),
                    },
                )
            else:
                field = forms.BooleanField(required=False, label=FIGURE_LABELS[figure])
            self.fields[f"{figure}_{self.seat.pk}"] = field

    @property
    def outcome_name(self) -> str:
        return f"outcome_{self.seat.pk}"

    @property
    def groups_name(self) -> str:
        return f"groups_{self.seat.pk}"

    @property
    def counted_name(self) -> str:
        return f"counted_{self.seat.pk}"

    # --- A counted hand -------------------------------------------------------------

    @property
    def count_switch(self) -> forms.BoundField | None:
        """The *Count* switch, where the house rules take a counted hand."""
        return self[self.counted_name] if self.counted_name in self.fields else None

    @property
    def figure_fields(self) -> list[FigureField]:
        ruleset = self.entry.ruleset
        fields = []
        for figure in FIGURES:
            key = f"{figure}_{self.seat.pk}"
            if key in self.fields:
                outcomes = tuple(
                    o for o in self.counted_outcomes if figure in figure_names(ruleset, o)
                )
                fields.append(FigureField(figure, self[key], outcomes))
        return fields

    @property
    def chosen_outcome(self) -> str:
        """The outcome chosen as the form stands (the usual one before any)."""
        return str(self[self.outcome_name].value() or USUAL_OUTCOME)

    @property
    def counted_said(self) -> str:
        """The counted hand as last checked, as the scorer's panel says it
        (counted_words); before any check (a figure the form refused), as stored."""
        if self.check is not None and self.check.players:
            figures = self.check.players[0].figures
        else:
            figures = self.hand.hand_figures if self.hand else None
        return counted_words(figures or HandFigures(), self.chosen_outcome)

    @property
    def counting(self) -> bool:
        """Whether the hand is entered by its count as the form stands: its switch on,
        and its outcome one that may be counted (a winner whose show is not trusted
        is entered by their cards, whatever the switch says)."""
        switch = self.count_switch
        if switch is None or not switch.value():
            return False
        return self.chosen_outcome in self.counted_outcomes

    def _figures(self, outcome: str | None) -> HandFigures | None:
        """The figures typed, those the outcome gives alone (a count left in a field
        that an outcome chosen since hides is not the hand's)."""
        if outcome is None or not self.counting:
            return None
        taken = figure_names(self.entry.ruleset, outcome)
        given = {
            figure: self.cleaned_data.get(f"{figure}_{self.seat.pk}")
            for figure in taken
            if f"{figure}_{self.seat.pk}" in self.fields
        }
        # "is not", not truth: a count of 0 is given; a box not ticked is not.
        typed = {name: value for name, value in given.items() if value is not None}
        return HandFigures(**{name: value for name, value in typed.items() if value is not False})

    def clean(self) -> dict[str, Any]:
        # Only the fields: the hand is checked by the service that stores it.
        return forms.Form.clean(self)

    def file_errors(self, check: RoundCheck) -> None:
        """As the round form files them, and a counted hand's beside the figure each
        concerns (beside the *Count* switch for the hand as a whole). While typing, a
        figure not typed yet is not said to be missing: it is on its way."""
        super().file_errors(check)
        for player in check.players:
            for figure, messages in player.figure_errors.items():
                name = f"{figure}_{self.seat.pk}"
                if name not in self.fields:
                    name = self.counted_name if self.counted_name in self.fields else None
                elif not self.final and self.data.get(name, "") in ("", None):
                    continue
                for message in messages:
                    if message not in self.errors.get(name or "__all__", []):
                        self.add_error(name, message)

    def typed(self) -> TypedHand:
        """The hand as typed, for services.table to check or store: None for a value a
        field refused (its error is filed); the round it was typed for, and the edit it
        follows."""
        cleaned = self.cleaned_data
        outcome = cleaned.get(self.outcome_name)
        return TypedHand(
            number=self.expected_number,
            outcome=outcome,
            text=None if self.groups_name in self.errors else cleaned.get(self.groups_name, ""),
            cut_text=None if "cut_joker" in self.errors else cleaned.get("cut_joker", ""),
            edit=self.edit,
            on_deal=bool(cleaned.get(f"on_deal_{self.seat.pk}")),
            figures=self._figures(outcome),
        )

    @property
    def row(self):
        return self.rows()[0]

    @property
    def handed_in(self) -> bool:
        return bool(self.hand and self.hand.status == TableHand.Status.IN)
