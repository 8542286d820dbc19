"""The rules service: pure Python, standard library only, no Django.

Everything a figure in the app comes from: card notation (:mod:`.cards`), rulesets
and presets (:mod:`.rulesets`), group classification (:mod:`.melds`), round scoring
(:mod:`.scoring`) and the JSON command line (``python -m games.rules``).
"""

from __future__ import annotations

from .cards import (
    PRINTED_JOKER,
    Card,
    CardError,
    format_cards,
    format_groups,
    parse_card,
    parse_cards,
    parse_groups,
)
from .errors import RoundErrors, RulesError
from .melds import JokerRoles, Kind, classify, describe_invalid, joker_roles
from .rulesets import PRESETS, Ruleset, get_ruleset, presets_listing
from .scoring import OUTCOMES, PlayerHand, PlayerResult, RoundResult, score_round

__all__ = [
    "OUTCOMES",
    "PRESETS",
    "PRINTED_JOKER",
    "Card",
    "CardError",
    "JokerRoles",
    "Kind",
    "PlayerHand",
    "PlayerResult",
    "RoundErrors",
    "RoundResult",
    "RulesError",
    "Ruleset",
    "classify",
    "describe_invalid",
    "format_cards",
    "format_groups",
    "get_ruleset",
    "joker_roles",
    "parse_card",
    "parse_cards",
    "parse_groups",
    "presets_listing",
    "score_round",
]
