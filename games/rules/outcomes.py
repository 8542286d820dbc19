"""The outcomes a player can have in a round (docs/rules §5), and how the rules group
them: who wins, who drops, whose whole hand must be entered, whose cards count."""

from __future__ import annotations

from .speech import gettext as _
from .speech import gettext_noop

OUTCOMES = (
    "declared",
    "shown",
    "deal_show",
    "first_drop",
    "middle_drop",
    "invalid_declaration",
    "declare_timeout",
    "default_win",
)
WINNING_OUTCOMES = frozenset({"declared", "default_win"})
# Players out of the value exchange: they dropped (docs/rules §6). A wrong declarer is in.
DROP_OUTCOMES = frozenset({"first_drop", "middle_drop", "declare_timeout"})
# Outcomes that must show the whole hand.
FULL_HAND_OUTCOMES = frozenset({"declared", "shown", "deal_show"})
# Outcomes whose grouping matters, so the solver may arrange the cards: a loser's count,
# or whether a declaration holds.
ARRANGED_OUTCOMES = frozenset({"shown", "deal_show", "declared", "invalid_declaration"})
# Outcomes whose hand is counted card by card.
SHOWN_OUTCOMES = frozenset({"shown", "deal_show"})
# Outcomes that cost a fixed number of points, by ruleset option of the same name.
FIXED_OUTCOMES = frozenset({"first_drop", "middle_drop", "invalid_declaration", "declare_timeout"})
INVALID_DECLARATION = "invalid_declaration"
# The outcome a hand is entered at until another is picked: most hands of a round are
# a loser's, shown.
USUAL_OUTCOME = "shown"


# Each outcome as a player reads it on its own (a label) and inside a sentence.
_LABELS = {
    "declared": gettext_noop("Declared"),
    "shown": gettext_noop("Shown"),
    "deal_show": gettext_noop("Deal show"),
    "first_drop": gettext_noop("First drop"),
    "middle_drop": gettext_noop("Middle drop"),
    "invalid_declaration": gettext_noop("Invalid declaration"),
    "declare_timeout": gettext_noop("Declare timeout"),
    # A default win reads better the other way round.
    "default_win": gettext_noop("Won by default"),
}
_WORDS = {
    "declared": gettext_noop("declared"),
    "shown": gettext_noop("shown"),
    "deal_show": gettext_noop("deal show"),
    "first_drop": gettext_noop("first drop"),
    "middle_drop": gettext_noop("middle drop"),
    "invalid_declaration": gettext_noop("invalid declaration"),
    "declare_timeout": gettext_noop("declare timeout"),
    "default_win": gettext_noop("default win"),
}


def outcome_label(outcome: str) -> str:
    """An outcome as a player reads it: "middle_drop" is "Middle drop" (one the rules
    do not know, as written)."""
    if outcome in _LABELS:
        return _(_LABELS[outcome])
    return outcome.replace("_", " ").capitalize()


def outcome_words(outcome: str) -> str:
    """An outcome inside a sentence: "middle_drop" is "middle drop"."""
    return _(_WORDS[outcome]) if outcome in _WORDS else outcome.replace("_", " ")
