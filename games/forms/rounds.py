"""The round form: the cut joker and each player's outcome and groups, or the figures
of a hand counted at the table (games/forms/round_counts.py)."""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from games.forms import round_counts as counts
from games.models import HandEntry, Seat
from games.rules import FIGURES, USUAL_OUTCOME, HandFigures
from games.services import round_messages as say
from games.services.round_checks import PlayerCheck, RoundCheck, check_round, figures_of_cards
from games.services.round_entries import RoundEntry

# A 21-card hand in the longest notation is about 100 characters; this leaves room
# for spaces and comments while keeping a hostile POST small.
MAX_GROUPS_TEXT = 400


FORM_KEY = r"[0-9a-f]{8}"


SUBMISSION = r"[0-9a-f]{32}"


@dataclass(frozen=True)
class Chip:
    """One outcome button of a player's row, as its radio input shows it."""

    value: str
    label: str
    id: str
    checked: bool


@dataclass(frozen=True)
class PlayerRow:
    """One player's part of the round form: fields and what the rules said."""

    seat: Seat
    outcome: forms.BoundField
    groups: forms.BoundField
    check: PlayerCheck | None
    deals: bool  # dealt this round
    on_deal: forms.BoundField | None = None  # "won on the deal", where the rules have it
    # Counted at the table, where the house rules allow it: the *Count* switch, the
    # figures' fields, and the outcomes at which the switch means something.
    counted: forms.BoundField | None = None
    figures: tuple[counts.FigureInput, ...] = ()
    count_outcomes: tuple[str, ...] = ()
    figures_from_cards: bool = False  # the figures were just worked out from the cards

    @property
    def is_counted(self) -> bool:
        return bool(self.counted is not None and self.counted.value())

    @property
    def figures_wrong(self) -> str:
        """The figures marked wrong, by name (static/js/check.js marks their fields)."""
        return " ".join(figure.name for figure in self.figures if figure.field.errors)

    @property
    def figure_errors(self) -> list[str]:
        """The switch's errors, then each figure's, in the order of the fields."""
        fields = ([self.counted] if self.counted is not None else []) + [
            figure.field for figure in self.figures
        ]
        return [error for field in fields for error in field.errors]

    @property
    def counted_line(self) -> str:
        return counts.counted_line(self.check) if self.check else ""

    @property
    def outcome_wrong(self) -> bool:
        """Whether the outcome is marked wrong: for its own error, or as part of one the
        round lists once (one of two winners: PlayerCheck.party_to)."""
        return bool(self.outcome.errors) or bool(self.check and self.check.party_to)

    @property
    def chips(self) -> list[Chip]:
        """The outcome's buttons, with the ids, and the one checked, that its RadioSelect
        would give them: the template writes them out (round_fields.html#outcomes),
        which costs a fraction of a widget template per button."""
        chosen = self.outcome.value()
        chosen = "" if chosen is None else str(chosen)
        prefix = self.outcome.auto_id
        return [
            Chip(str(value), str(label), f"{prefix}_{index}", str(value) == chosen)
            for index, (value, label) in enumerate(self.outcome.field.choices)
        ]


def problems_listed(data: Mapping[str, Any]) -> bool:
    """Whether the form was sent with Save's list of problems still above its button
    (round_fields.html#problems, whose hidden input says so)."""
    return data.get("problems") == "listed"


class RoundForm(forms.Form):
    """The cut joker, then each player's outcome and groups or, where the house rules
    allow it, the figures the hand was counted at (its *Count* switch on).

    ``clean()`` asks the rules service (via check_round) and files every error under
    the player's outcome, groups, switch or figure field; ``check`` keeps the previews.
    """

    cut_joker = forms.CharField(max_length=12, required=False, label=gettext_lazy("Cut joker"))
    # Whether the form lays out a counted hand's switch and figures in each player's
    # row (round_fields.html) and files their errors there; table mode's seat form
    # lays out and files its own (games/forms/table.py).
    lays_out_counts = True

    # The hidden inputs (key, submission, number, opened, version) are read in __init__, not
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
        # The number the form was first opened at, which a clash with another
        # device's round does not move on (services.round_saves.NewRound.opened_number).
        opened = self._posted("opened", r"[0-9]{1,9}")
        self.opened_number = int(opened) if opened else self.expected_number
        self.posted_version = int(version) if version else None
        self.expected_version = self.posted_version or (
            entry.round.version if entry.round else None
        )
        outcomes = [(o, HandEntry.Outcome(o).label) for o in entry.ruleset.outcomes]
        # Where a hand may be counted at the table instead of shown by its cards.
        self.count_outcomes = counts.counted_outcomes(entry.ruleset)
        for seat in entry.seats:
            name = seat.player.name
            # Buttons, not a select: one tap for the outcome (the preset's only).
            self.fields[f"outcome_{seat.pk}"] = forms.ChoiceField(
                choices=outcomes,
                initial=USUAL_OUTCOME,
                # Translators: the label a screen reader gives a player's outcome buttons.
                label=gettext("{name}: outcome").format(name=name),
                widget=forms.RadioSelect,
            )
            if entry.ruleset.wins_on_deal:
                # A declared winner who held the hand as dealt (docs/rules §4, Kodai):
                # the rules then ask for fewer dublees or jokers.
                self.fields[f"on_deal_{seat.pk}"] = forms.BooleanField(
                    required=False,
                    # Translators: the label of a player's "won on the deal" box.
                    label=gettext("{name}: won on the deal").format(name=name),
                )
            # A textarea, written out by round_fields.html#groups_field.
            self.fields[f"groups_{seat.pk}"] = forms.CharField(
                required=False,
                max_length=MAX_GROUPS_TEXT,
                # Translators: the label of the box a player's cards are typed in.
                label=gettext("{name}: groups").format(name=name),
                widget=forms.Textarea,
            )
            if self.count_outcomes and self.lays_out_counts:
                counts.add_fields(self.fields, seat, entry.ruleset)
        # The figures of the cards typed for a hand just switched to its count, by seat:
        # shown in its fields (round_fields.html#figures, out of band in a preview).
        self.from_cards: dict[int, HandFigures] = {}
        # The seats counted with nothing typed yet: no figure of theirs is wrong while
        # typing goes on (Save still says what is missing).
        self.untyped: set[int] = set()

    def _posted(self, name: str, pattern: str) -> str | None:
        posted = self.data.get(name) if self.is_bound else None
        return posted if isinstance(posted, str) and re.fullmatch(pattern, posted) else None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        cut = None if "cut_joker" in self.errors else cleaned.get("cut_joker", "")
        rules = self.entry.ruleset
        hands = {}
        for seat in self.entry.seats:
            groups_key = f"groups_{seat.pk}"
            text = None if groups_key in self.errors else cleaned.get(groups_key, "")
            outcome = cleaned.get(f"outcome_{seat.pk}")
            figures = counts.typed_figures(cleaned, seat.pk, rules, outcome)
            if figures is not None and counts.nothing_typed(self.data, seat.pk, rules):
                # Switched to its count with the cards typed: counted at what they give.
                on_deal = bool(cleaned.get(f"on_deal_{seat.pk}"))
                got = figures_of_cards(self.entry, seat, cut, outcome, text, on_deal=on_deal)
                if got is None:
                    self.untyped.add(seat.pk)
                else:
                    figures = self.from_cards[seat.pk] = got
            hands[seat.pk] = counts.typed_hand(rules, outcome, text, figures)
        on_deal = [seat.pk for seat in self.entry.seats if cleaned.get(f"on_deal_{seat.pk}")]
        check = check_round(self.entry, cut, hands, final=self.final, on_deal=on_deal)
        self.file_errors(check)
        for player in check.players:
            self._file_figure_errors(player)
        return cleaned

    def file_errors(self, check: RoundCheck) -> None:
        """Keep the rules service's check and file each of its errors under the field
        it concerns (the cut joker, a player's outcome or groups) or the form."""
        self.check = check
        for message in self.check.cut_errors:
            self.add_error("cut_joker", message)
        for player in self.check.players:
            for message in player.outcome_errors:
                self.add_error(f"outcome_{player.seat.pk}", message)
            for message in player.groups_errors:
                self.add_error(f"groups_{player.seat.pk}", message)
        for message in self.check.errors:
            self.add_error(None, message)

    def _file_figure_errors(self, player: PlayerCheck) -> None:
        """A counted hand's errors beside the figure they name, the hand's own beside
        its switch. A figure the form refused already (not a number) keeps its own
        message alone: the rules, not given it, would only add that it is missing. A
        hand just switched to its count, nothing typed yet, is not yet wrong for what
        it lacks ("must show all 21 cards, not 0" is not said of an untouched hand)."""
        seat = player.seat.pk
        switch = f"counted_{seat}" if f"counted_{seat}" in self.fields else None
        refused = set(self.errors)
        untyped = not self.final and seat in self.untyped
        for name in ("counted", *FIGURES):
            key: str | None = f"{name}_{seat}"
            if key in refused or (untyped and name != "counted"):
                continue
            if key not in self.fields:  # a figure the form does not ask for
                key = switch
            for message in player.figure_errors.get(name, ()):
                self.add_error(key, message)

    @property
    def waiting_for(self) -> str:
        """What the settlement waits for, said as one sentence: as the last check found
        it, or, before any check (a new round, nothing typed yet), the cut joker and
        every hand."""
        waits = self.check.waiting_for if self.check else RoundCheck.WAITING_FOR_ALL
        return say.settlement_waits(waits)

    @property
    def player_names(self) -> list[str]:
        """The round's players: words in the rules' lines that stay words, whatever
        card they spell (templatetags.cards.explained)."""
        return [seat.player.name for seat in self.entry.seats]

    @property
    def problem_count(self) -> int:
        """How many messages the form holds: the number the list above Save gives."""
        return sum(len(errors) for errors in self.errors.values())

    def rows(self) -> list[PlayerRow]:
        checks = {p.seat.pk: p for p in self.check.players} if self.check else {}
        return [
            PlayerRow(
                seat=seat,
                outcome=self[f"outcome_{seat.pk}"],
                groups=self[f"groups_{seat.pk}"],
                check=checks.get(seat.pk),
                deals=seat == self.entry.dealer,
                on_deal=self[f"on_deal_{seat.pk}"] if f"on_deal_{seat.pk}" in self.fields else None,
                **self._count_fields(seat),
            )
            for seat in self.entry.seats
        ]

    def _count_fields(self, seat: Seat) -> dict[str, Any]:
        if not self.lays_out_counts or f"counted_{seat.pk}" not in self.fields:
            return {}
        rules = self.entry.ruleset
        figures = counts.figure_inputs(self, seat, rules, self.from_cards.get(seat.pk))
        return {
            "counted": self[f"counted_{seat.pk}"],
            "figures": tuple(figures),
            "count_outcomes": counts.switch_outcomes(rules),
            "figures_from_cards": seat.pk in self.from_cards,
        }
