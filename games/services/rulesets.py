"""Which ruleset a session or league plays under, one line about each preset, and the
house rules a session plays in words."""

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
from games.rules.rulesets import OPTION_NAMES, option_label, option_text


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


def house_rule_changes(ruleset: Ruleset) -> tuple[str, ...]:
    """Each option ``ruleset`` changes from its preset, as the house-rules form labels
    it, with the preset's value: "First drop costs 25 (preset 30)". Once play starts
    this is the only place a player sees them (the ceiling is shown on its own)."""
    preset = PRESETS[ruleset.preset]
    changes = []
    for name in OPTION_NAMES:
        value, was = getattr(ruleset, name), getattr(preset, name)
        if name == "ceiling" or value == was:
            continue
        # A number reads after its label ("First drop costs 25"); anything else after
        # a colon ("Deal show allowed: off").
        numbers = type(value) is int and type(was) is int
        said = f"{option_label(name)}{' ' if numbers else ': '}{option_text(value)}"
        changes.append(f"{said} (preset {option_text(was)})")
    return tuple(changes)
