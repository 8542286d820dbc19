"""The outcomes a player can have in a round (docs/rules §5), and how the rules group
them: who wins, who drops, whose whole hand must be entered, whose cards count."""

from __future__ import annotations

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


def outcome_label(outcome: str) -> str:
    """An outcome as a player reads it: "middle_drop" is "Middle drop"; a default win
    reads better the other way round."""
    return "Won by default" if outcome == "default_win" else outcome.replace("_", " ").capitalize()
