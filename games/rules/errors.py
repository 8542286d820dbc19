"""The one error type of the rules service: bad input, named by the field at fault."""

from __future__ import annotations

from collections.abc import Sequence


class RulesError(ValueError):
    """Input the rules cannot score: an unknown card, ruleset or option, a hand of
    the wrong size, too many copies of a card, a false declaration, no winner.

    ``field`` names the part of the input at fault in the JSON command line's terms,
    e.g. ``cut_joker``, ``overrides.hand_cap``, ``players[1].groups[2][0]``.
    """

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def as_dict(self) -> dict[str, str]:
        return {"error": self.message, "field": self.field}


class RoundErrors(RulesError):
    """Several input errors in one round, so a form can show each beside its field.
    Behaves as the first of them where only one is wanted (the command line)."""

    def __init__(self, errors: Sequence[RulesError]) -> None:
        if not errors:
            raise ValueError("RoundErrors needs at least one error")
        super().__init__(errors[0].message, errors[0].field)
        self.errors = list(errors)
