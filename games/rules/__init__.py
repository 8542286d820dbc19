"""The rules service: pure Python, standard library only, no Django.

Everything a figure in the app comes from, and the public API the app uses:

- card notation (:mod:`.cards`), rulesets and presets (:mod:`.rulesets`);
- group classification (:mod:`.melds`), one round's scores (:mod:`.scoring`) and the
  best grouping of a hand (:mod:`.arrange`, the solver);
- a session's running totals, eliminations, rejoins and pot split (:mod:`.totals`),
  the toss for seats (:mod:`.toss`) and the money transfers that settle an evening
  (:mod:`.transfers`);
- the JSON command line (``python -m games.rules``, :mod:`.api`);
- its one error type, bad input named by the field at fault (:mod:`.errors`).
"""

from __future__ import annotations

from .arrange import Arrangement, arrange
from .cards import (
    PRINTED_JOKER,
    RANK_NAMES,
    SUIT_SYMBOLS,
    Card,
    CardError,
    all_cards,
    card_label,
    format_cards,
    format_groups,
    parse_card,
    parse_cards,
    parse_groups,
)
from .errors import RoundErrors, RulesError
from .melds import JokerRoles, Kind, classify, joker_roles, why_no_group
from .rulesets import (
    DEFAULT_PRESET,
    OPTION_NAMES,
    OPTION_SECTIONS,
    PRESET_NAMES,
    PRESETS,
    Ruleset,
    choice_label,
    describe_preset,
    get_ruleset,
    house_rule_changes,
    is_net,
    is_pool,
    option_help,
    option_label,
    option_range,
    option_text,
    presets_listing,
)
from .scoring import (
    ARRANGED_OUTCOMES,
    DROP_OUTCOMES,
    FULL_HAND_OUTCOMES,
    INVALID_DECLARATION,
    OUTCOMES,
    SHOWN_OUTCOMES,
    USUAL_OUTCOME,
    WINNING_OUTCOMES,
    HandAssessment,
    PlayerHand,
    PlayerResult,
    RoundResult,
    assess_hand,
    outcome_label,
    round_errors,
    score_round,
)
from .toss import toss, toss_strength
from .totals import (
    SessionState,
    can_end_by_hand,
    hands_after_elimination,
    out_before,
    pot_of,
    pot_split,
    rejoins_played,
    remaining_drops,
    session_state,
    take_back_problem,
)
from .transfers import Transfer, balances_from_totals, settle

__all__ = [
    "ARRANGED_OUTCOMES",
    "DEFAULT_PRESET",
    "DROP_OUTCOMES",
    "FULL_HAND_OUTCOMES",
    "INVALID_DECLARATION",
    "OPTION_NAMES",
    "OPTION_SECTIONS",
    "OUTCOMES",
    "PRESETS",
    "PRESET_NAMES",
    "PRINTED_JOKER",
    "RANK_NAMES",
    "SHOWN_OUTCOMES",
    "SUIT_SYMBOLS",
    "USUAL_OUTCOME",
    "WINNING_OUTCOMES",
    "Arrangement",
    "Card",
    "CardError",
    "HandAssessment",
    "JokerRoles",
    "Kind",
    "PlayerHand",
    "PlayerResult",
    "RoundErrors",
    "RoundResult",
    "RulesError",
    "Ruleset",
    "SessionState",
    "Transfer",
    "all_cards",
    "arrange",
    "assess_hand",
    "balances_from_totals",
    "can_end_by_hand",
    "card_label",
    "choice_label",
    "classify",
    "describe_preset",
    "format_cards",
    "format_groups",
    "get_ruleset",
    "hands_after_elimination",
    "house_rule_changes",
    "is_net",
    "is_pool",
    "joker_roles",
    "option_help",
    "option_label",
    "option_range",
    "option_text",
    "out_before",
    "outcome_label",
    "parse_card",
    "parse_cards",
    "parse_groups",
    "pot_of",
    "pot_split",
    "presets_listing",
    "rejoins_played",
    "remaining_drops",
    "round_errors",
    "score_round",
    "session_state",
    "settle",
    "take_back_problem",
    "toss",
    "toss_strength",
    "why_no_group",
]
