"""Which ruleset a session or league plays under."""

from __future__ import annotations

from games.models import (
    GameSession,
    League,
)
from games.rules import Ruleset, get_ruleset


def ruleset_of(session: GameSession | League) -> Ruleset:
    """The validated ruleset a session (or league) plays under.

    Overrides are validated when stored (session form, admin forms), so a RulesError
    here means the data was changed behind the app's back; it propagates."""
    return get_ruleset(session.preset, session.overrides)
