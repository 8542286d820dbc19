"""The one error type of the rules service: bad input, named by the field at fault."""

from __future__ import annotations

from collections.abc import Sequence

from .speech import gettext as _


class RulesError(ValueError):
    """Input the rules cannot score: an unknown card, ruleset or option, a hand of
    the wrong size, too many copies of a card, a false declaration, no winner.

    ``field`` names the part of the input at fault in the JSON command line's terms,
    e.g. ``cut_joker``, ``overrides.hand_cap``, ``players[1].groups[2][0]``.

    ``beside`` is the message as a form says it beside the fields of the player it
    concerns, which their name already heads: the same words without the name ("must
    show all 21 cards, not 20" where the message, which the command line prints
    alone, is "Esha must show all 21 cards, not 20"). It is the message itself where
    that does not name the player at ``field``.

    Both are whole sentences of the player's language (:mod:`.speech`). Where the
    name is the sentence's subject ("Esha must show …", "Esha's declaration is …")
    the two are two sentences of the catalogue, each worded whole, since a language
    may build them differently; where the name only heads a problem ("Esha: outcome
    deal_show is not played under 21-points"), :meth:`headed` puts it before the
    problem with the one pattern "{name}: {problem}", a label and its message.
    """

    def __init__(self, message: str, field: str = "", *, beside: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.beside = beside or message

    @classmethod
    def headed(cls, name: str, problem: str, field: str) -> RulesError:
        """A problem of one player's, headed by their name ("Esha: …"); beside them,
        the problem alone."""
        # Translators: a player's name heading a problem with their hand, as a label.
        message = _("{name}: {problem}").format(name=name, problem=problem)
        return cls(message, field, beside=problem)

    def as_dict(self) -> dict[str, str]:
        return {"error": self.message, "field": self.field}


class RoundErrors(RulesError):
    """Several input errors in one round, so a form can show each beside its field.
    Behaves as the first of them where only one is wanted (the command line)."""

    def __init__(self, errors: Sequence[RulesError]) -> None:
        if not errors:
            raise ValueError("RoundErrors needs at least one error")
        first = errors[0]
        super().__init__(first.message, first.field, beside=first.beside)
        self.errors = list(errors)
