"""Table mode's form: one seat's hand of the round, on the player's phone or as the
scorer corrects it."""

from __future__ import annotations

import dataclasses
from typing import Any

from django import forms

from games.forms.rounds import RoundForm
from games.models import Seat, TableHand, TableRound
from games.rules import USUAL_OUTCOME
from games.services.round_entries import RoundEntry
from games.services.table import TypedHand


class HandForm(RoundForm):
    """One seat's outcome and groups (the round form's fields for that seat alone),
    and the cut joker while the table has none. The fields are only read here;
    services.table.write_hand checks the hand and ``file_errors`` files what it says."""

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
            # A hand stored on the server is shown as it was left, previewed at once.
            kwargs["data"] = {
                f"outcome_{seat.pk}": hand.outcome or USUAL_OUTCOME,
                f"groups_{seat.pk}": hand.text,
                "number": str(entry.number),
                "edit": str(hand.edit),
            } | ({f"on_deal_{seat.pk}": "on"} if hand.on_deal else {})
        super().__init__(*args, entry=dataclasses.replace(entry, seats=(seat,)), **kwargs)
        self.seat = seat
        self.table_cut = table_round.cut_joker if table_round else ""
        self.hand = hand
        edit = self._posted("edit", r"[0-9]{1,9}")
        # The phone's count of edits (static/js/table_seat.js adds one for every change):
        # a write older than the stored hand is not kept over it.
        self.edit = int(edit) if edit else (hand.edit if hand else 0)

    @property
    def outcome_name(self) -> str:
        return f"outcome_{self.seat.pk}"

    @property
    def groups_name(self) -> str:
        return f"groups_{self.seat.pk}"

    def clean(self) -> dict[str, Any]:
        # Only the fields: the hand is checked by the service that stores it.
        return forms.Form.clean(self)

    def typed(self) -> TypedHand:
        """The hand as typed, for services.table to check or store: None for a value a
        field refused (its error is filed); the round it was typed for, and the edit it
        follows."""
        cleaned = self.cleaned_data
        return TypedHand(
            number=self.expected_number,
            outcome=cleaned.get(self.outcome_name),
            text=None if self.groups_name in self.errors else cleaned.get(self.groups_name, ""),
            cut_text=None if "cut_joker" in self.errors else cleaned.get("cut_joker", ""),
            edit=self.edit,
            on_deal=bool(cleaned.get(f"on_deal_{self.seat.pk}")),
        )

    @property
    def row(self):
        return self.rows()[0]

    @property
    def handed_in(self) -> bool:
        return bool(self.hand and self.hand.status == TableHand.Status.IN)
