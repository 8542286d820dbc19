"""Which ruleset a session or league plays under, and one line about each preset."""

from __future__ import annotations

from games.models import (
    GameSession,
    League,
)
from games.rules import (
    PRESETS,
    Ruleset,
    get_ruleset,
    is_net,
)


def ruleset_of(session: GameSession | League) -> Ruleset:
    """The validated ruleset a session (or league) plays under.

    Overrides are validated when stored (session form, admin forms), so a RulesError
    here means the data was changed behind the app's back; it propagates."""
    return get_ruleset(session.preset, session.overrides)


def describe_preset(name: str) -> str:
    """One line about a preset, built from its options so it cannot drift from them."""
    rules = PRESETS[name]
    parts = [f"{rules.hand_size} cards, {rules.decks} decks"]
    if is_net(rules):
        parts.append("losers pay the winner their points")
    else:
        parts.append("losers add their points, lowest total is best")
    if rules.value_cards:
        parts.append("value cards exchanged")
    if rules.claims:
        parts.append("the winner claims for jokers")
    if rules.ceiling is not None:
        if rules.ceiling_mode == "out":
            parts.append(f"out at {rules.ceiling}")
        else:
            parts.append(f"game ends at {rules.ceiling}")
    return " · ".join(parts)
