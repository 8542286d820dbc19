"""Every option of the rule model (docs/rules) and the six presets.

A ruleset is one frozen dataclass; a league or session changes it only through
validated overrides, so every option a club can set is listed here with its
label and meaning (the words every page shows for it), and nothing else about the
rules is configurable.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from .errors import RulesError
from .speech import gettext as _
from .speech import gettext_noop, list_words, ngettext

# Declaration ways of docs/rules §4, in the order a valid declaration is reported.
DECLARATION_WAYS = ("three_pure", "tunnelas", "dublees", "jokers", "marriages", "show13")
TOTALS_MODES = ("net", "penalty")
CEILING_MODES = ("game_ends", "out", "out_passing")
COUNTING_RULES = ("standard", "kodai")
MARRIAGE_TRIPLES = ("none", "claim_cards", "upper_lower")
VALUE_PAYMENTS = ("players_in", "drop_rules")
JOIN_TOTALS = ("zero", "worst", "rejoin")
# How a hand is entered (docs/rules §5, "A counted hand"): its cards only; its cards or
# the figures they give; the same, the round form opening on the figures.
HAND_ENTRIES = ("cards", "counts", "counts_first")

# Each choice above as a player reads it: the values are the rule model's names (in
# JSON, overrides and docs/rules), the labels what the house-rules page shows (in
# English, marked for the catalogue: choice_label says them in the player's language).
CHOICE_LABELS = {
    "three_pure": gettext_noop("Three pure sequences"),
    "tunnelas": gettext_noop("Tunnelas"),
    "dublees": gettext_noop("Dublees"),
    "jokers": gettext_noop("Jokers"),
    "marriages": gettext_noop("Marriages"),
    "show13": gettext_noop("13-card show"),
    "net": gettext_noop("Net"),
    "penalty": gettext_noop("Penalty"),
    "game_ends": gettext_noop("The session ends"),
    "out": gettext_noop("The player is out"),
    "out_passing": gettext_noop("Out only above the ceiling"),
    "standard": gettext_noop("Standard"),
    "kodai": gettext_noop("Kodai"),
    "none": gettext_noop("None"),
    "claim_cards": gettext_noop("Any claim card"),
    "upper_lower": gettext_noop("Upper or lower jokers"),
    "players_in": gettext_noop("Every player still in pays"),
    "drop_rules": gettext_noop("Drop rules"),
    "zero": gettext_noop("Zero"),
    "worst": gettext_noop("The worst total still in"),
    "rejoin": gettext_noop("As a rejoin"),
    "cards": gettext_noop("Cards only"),
    "counts": gettext_noop("Counts allowed"),
    "counts_first": gettext_noop("Counts first"),
}


def choice_label(value: object) -> str:
    """A choice of an option as a player reads it (a number as itself)."""
    if isinstance(value, str) and value in CHOICE_LABELS:
        return _(CHOICE_LABELS[value])
    return str(value)


def choice_words(value: object) -> str:
    """A choice as it reads inside a sentence: ``three_pure`` → three pure sequences,
    ``show13`` → 13-card show."""
    return choice_label(value).replace("_", " ").lower()


def option_text(value: object) -> str:
    """An option's value as the house rules say it: "on", "off", "empty", a choice
    by its label, a list of choices, a number as itself."""
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if value is None:
        return _("empty")
    if isinstance(value, tuple):
        return list_words(choice_label(item) for item in value) or _("none")
    return choice_label(value)


# Returns Any, as dataclasses.field does without a default: the annotation in Ruleset
# gives each option its type.
def _option(label: str, help: str, **extra: object) -> Any:
    """A dataclass field with what a player reads about it attached: its label, a
    few words on the house-rules page, and its meaning, the line beneath them (and
    the presets listing's). Both in English, marked for the catalogue: option_label
    and option_help say them in the player's language."""
    return field(metadata={"label": label, "help": help, **extra})


def _count(label: str, help: str, **extra: object) -> Any:
    """An option that counts decks, cards, groups or jokers: at least 1."""
    return _option(label, help, minimum=1, **extra)


def _points(label: str, help: str, minimum: int = 0) -> Any:
    """An option in points: what a hand costs or a card is worth."""
    return _option(label, help, minimum=minimum)


def ceiling_as_total(ceiling: int | None, net: bool) -> int | None:
    """The ceiling as a total the table may show: a penalty total's ceiling itself; in
    net totals, where it limits what a player has lost, that loss (-250 for a ceiling
    of 250), so that "508 to go" beside a total of 258 reads right."""
    if ceiling is None:
        return None
    return -ceiling if net else ceiling


@dataclass(frozen=True)
class Ruleset:
    """All options of one rule set. Build one with :func:`get_ruleset`."""

    preset: str = _option(
        gettext_noop("Game"), gettext_noop("The preset these options start from.")
    )
    # Cards and jokers (docs/rules §1–2)
    hand_size: int = _option(
        gettext_noop("Cards per hand"),
        gettext_noop("Cards dealt to each player: 21 or 13."),
        choices=(13, 21),
    )
    decks: int = _count(
        gettext_noop("Number of decks"),
        gettext_noop("Decks of 53 cards (52 and one printed joker) in the shoe."),
        maximum=4,
    )
    wild_rank_all_suits: bool = _option(
        gettext_noop("Cut rank wild in every suit"),
        gettext_noop(
            "Every card of the cut rank is a joker (off: only the cut card's suit, as in Paplu)."
        ),
    )
    upper_lower_jokers: bool = _option(
        gettext_noop("Upper and lower jokers"),
        gettext_noop("The cut suit's next higher (upper) and next lower (lower) cards are jokers."),
    )
    # Groups (docs/rules §3)
    tunnelas_and_dublees: bool = _option(
        gettext_noop("Tunnelas and dublees count"),
        gettext_noop("Three identical cards form a tunnela and two a dublee (21-card games)."),
    )
    printed_joker_tunnela: bool = _option(
        gettext_noop("Printed jokers as a tunnela"),
        gettext_noop("Three printed jokers form a tunnela (off: a group of jokers, not pure)."),
    )
    printed_joker_dublee: bool = _option(
        gettext_noop("Printed jokers as a dublee"),
        gettext_noop("Two printed jokers form a dublee (off: no group)."),
    )
    ace_marriage_pure: bool = _option(
        gettext_noop("K A 2 marriage as a rummy"),
        gettext_noop(
            "With an Ace cut, the cut suit's K A 2 (a marriage) may count as a pure sequence, "
            "a rummy, wherever that helps the player (Kodai)."
        ),
    )
    # Declarations (docs/rules §4)
    declarations: tuple[str, ...] = _option(
        gettext_noop("Ways to declare"),
        gettext_noop("Any way ticked makes a declaration valid."),
        choices=DECLARATION_WAYS,
    )
    pure_needed: int = _count(
        gettext_noop("Pure sequences to declare"),
        gettext_noop("Pure sequences (tunnelas count) needed for the three-pure way."),
    )
    tunnelas_needed: int = _count(
        gettext_noop("Tunnelas to declare"), gettext_noop("Tunnelas needed for the tunnelas way.")
    )
    dublees_needed: int = _count(
        gettext_noop("Dublees to declare"), gettext_noop("Dublees needed for the dublees way.")
    )
    jokers_needed: int = _count(
        gettext_noop("Jokers to declare"),
        gettext_noop("Jokers in one group needed for the jokers way."),
    )
    marriages_needed: int = _count(
        gettext_noop("Marriages to declare"),
        gettext_noop("Marriage groups needed for the marriages way."),
    )
    on_deal_dublees: int | None = _count(
        gettext_noop("Dublees to win on the deal"),
        gettext_noop(
            "Dublee groups that win on the deal: a winner marked as winning on the deal held "
            "them in the 21 cards dealt, before the first pick (Kodai: 7; empty: no wins on the "
            "deal by dublees)."
        ),
    )
    on_deal_jokers: int | None = _count(
        gettext_noop("Jokers to win on the deal"),
        gettext_noop(
            "Jokers in one all-joker group that win on the deal (Kodai: 8; empty: no wins on "
            "the deal by jokers)."
        ),
    )
    marriage_triples: str = _option(
        gettext_noop("Tunnelas that are marriages"),
        gettext_noop(
            "Three identical cards that also make a marriage group: none, any claim card "
            "(Kodai) or upper or lower jokers (Paplu)."
        ),
        choices=MARRIAGE_TRIPLES,
    )
    # Entering hands (docs/rules §5, "A counted hand")
    hand_entry: str = _option(
        gettext_noop("Cards or counts"),
        gettext_noop(
            "Counts allowed: a hand may be entered by the count its player makes at the table "
            "(with value points or claims where played) instead of its cards. Counts first: the "
            "same, the round form opening on the count."
        ),
        choices=HAND_ENTRIES,
    )
    trust_show: bool = _option(
        gettext_noop("Trust the table's show"),
        gettext_noop(
            "A declared winner may be entered without their cards: the table saw the show, so "
            "it is not checked (even with cards only)."
        ),
    )
    # Hand points (docs/rules §5)
    counting: str = _option(
        gettext_noop("Hand counting"),
        gettext_noop(
            "How a loser's cards are counted: standard (pure groups left out, all valid melds "
            "with enough pure groups) or kodai (only tunnelas and 4+ card pure sequences left "
            "out below three pure groups)."
        ),
        choices=COUNTING_RULES,
    )
    hand_cap: int = _points(
        gettext_noop("Maximum hand points"),
        gettext_noop("Most points a loser's hand can cost."),
        minimum=1,
    )
    cap_includes_values: bool = _option(
        gettext_noop("Value points in the maximum"),
        gettext_noop("The cap covers hand points plus the value points a loser pays (Paplu)."),
    )
    zero_count_becomes: int = _points(
        gettext_noop("Zero-count hand costs"),
        gettext_noop("A loser whose cards count 0 pays this instead (0: nothing)."),
    )
    first_drop: int = _points(
        gettext_noop("First drop costs"), gettext_noop("Points for dropping before the first pick.")
    )
    middle_drop: int = _points(
        gettext_noop("Middle drop costs"),
        gettext_noop("Points for dropping later or being forced out."),
    )
    invalid_declaration: int = _points(
        gettext_noop("Invalid declaration costs"), gettext_noop("Points for a wrong declaration.")
    )
    declare_timeout: int | None = _points(
        gettext_noop("Declare timeout costs"),
        gettext_noop(
            "Points for not grouping the hand in time after finishing (empty: outcome not used)."
        ),
    )
    deal_show: bool = _option(
        gettext_noop("Deal show allowed"),
        gettext_noop(
            "A loser who had no turn yet has the deal-show outcome: half the count, or the "
            "fixed cost below."
        ),
    )
    deal_show_fixed: int | None = _points(
        gettext_noop("Fixed deal show cost"),
        gettext_noop(
            "What a deal show costs whatever the hand holds, value points apart (Paplu: 60; "
            "empty: half the count, kept within the least and most below)."
        ),
    )
    deal_show_min: int = _points(
        gettext_noop("Lowest deal show cost"),
        gettext_noop("Half the hand's count is raised to this when below it."),
    )
    deal_show_max: int = _points(
        gettext_noop("Highest deal show cost"),
        gettext_noop("Half the hand's count is lowered to this when above it."),
    )
    two_point_loss: int = _points(
        gettext_noop("Two-point hand costs"),
        gettext_noop("What a loser holding a two-point hand (below) pays instead of the count."),
    )
    two_point_three_pure: bool = _option(
        gettext_noop("Three pure as a two-point hand"),
        gettext_noop(
            "A loser whose groups would be a valid three-pure declaration pays only the "
            "two-point loss."
        ),
    )
    two_point_dublees: int | None = _count(
        gettext_noop("Dublees for a two-point hand"),
        gettext_noop("Dublee groups that make a two-point hand (empty: none)."),
    )
    two_point_jokers: int | None = _count(
        gettext_noop("Jokers for a two-point hand"),
        gettext_noop("Jokers in one all-joker group that make a two-point hand (empty: none)."),
    )
    two_point_tunnelas: int | None = _count(
        gettext_noop("Tunnelas for a two-point hand"),
        gettext_noop("Tunnela groups that make a two-point hand (empty: none)."),
    )
    two_point_marriages: int | None = _count(
        gettext_noop("Marriages for a two-point hand"),
        gettext_noop("Marriage groups that make a two-point hand (empty: none)."),
    )
    free_hand_doubles: int | None = _count(
        gettext_noop("Doubles for a free hand"),
        gettext_noop(
            "Doubles in hand (a tenali counts once) that make a loser free of points and "
            "claims (empty: none)."
        ),
    )
    free_hand_jokers: int | None = _count(
        gettext_noop("Jokers for a free hand"),
        gettext_noop("Jokers in hand that make a loser free of points and claims (empty: none)."),
    )
    # Value cards (docs/rules §6): points for 1, 2 and 3 cards of a type, exchanged among
    # the players who did not drop.
    value_cards: bool = _option(
        gettext_noop("Value cards in play"),
        gettext_noop("Players exchange value points for value cards."),
    )
    value_cut: tuple[int, int, int] = _points(
        gettext_noop("Cut card values"),
        gettext_noop("Value of 1, 2, 3 spare copies of the cut card."),
    )
    value_upper: tuple[int, int, int] = _points(
        gettext_noop("Upper joker values"), gettext_noop("Value of 1, 2, 3 spare upper jokers.")
    )
    value_lower: tuple[int, int, int] = _points(
        gettext_noop("Lower joker values"), gettext_noop("Value of 1, 2, 3 spare lower jokers.")
    )
    value_printed_joker: tuple[int, int, int] = _points(
        gettext_noop("Printed joker values"), gettext_noop("Value of 1, 2, 3 printed jokers.")
    )
    value_extra_cards: tuple[str, ...] = _option(
        gettext_noop("Other value cards"),
        gettext_noop("More cards worth value points, each its own type (Paplu: AS and 2C)."),
        cards=True,
    )
    value_extra: tuple[int, int, int] = _points(
        gettext_noop("Other cards' values"),
        gettext_noop("Value of 1, 2, 3 copies of each other value card."),
    )
    value_marriages: tuple[int, int, int] = _points(
        gettext_noop("Marriage values"),
        gettext_noop(
            "Value of 1, 2, 3 marriages (one lower joker, cut card and upper joker each)."
        ),
    )
    value_payments: str = _option(
        gettext_noop("Who pays value points"),
        gettext_noop(
            "Who pays whom for value cards: every player still in pays every other, drops "
            "are out; or the drop rules (Paplu): a first drop pays the declarer "
            "only, everyone else pays every player, and a winner by default gets no value "
            "points."
        ),
        choices=VALUE_PAYMENTS,
    )
    first_drop_receives: int | None = _points(
        gettext_noop("First drop's value limit"),
        gettext_noop(
            "Under the drop rules, the most a first drop receives from each payer for its value "
            "cards (Paplu: 40; empty: its whole value)."
        ),
    )
    default_win_drop: int | None = _points(
        gettext_noop("Drops pay a default winner"),
        gettext_noop(
            "What each dropping player pays a winner by default, whatever kind of drop it "
            "was (Paplu: 30; empty: the drop's own points)."
        ),
    )
    # Claims (docs/rules §6, Kodai)
    claims: bool = _option(
        gettext_noop("Winner's claims"),
        gettext_noop("The winner's claim cards are added to every other player's score (Kodai)."),
    )
    claim_card: int = _points(
        gettext_noop("Claim card points"),
        gettext_noop(
            "What each claim card in the winner's hand adds to every other player's score."
        ),
    )
    claim_marriage: int = _points(
        gettext_noop("Marriage claim points"),
        gettext_noop(
            "What each marriage in the winner's hand adds (a lower joker, cut card and upper "
            "joker, or three identical claim cards)."
        ),
    )
    claim_mini_marriage: int = _points(
        gettext_noop("Mini-marriage claim points"),
        gettext_noop("Claim points per mini-marriage (a tenali of the cut rank in another suit)."),
    )
    # Totals (docs/rules §5)
    totals: str = _option(
        gettext_noop("How totals add up"),
        gettext_noop(
            "Net: losers lose their points to the winner. Penalty: losers add their points "
            "to their totals and the lowest total is best."
        ),
        choices=TOTALS_MODES,
    )
    ceiling: int | None = _points(
        gettext_noop("Point ceiling"),
        gettext_noop("The total a session plays to (empty: play until the table stops)."),
        minimum=1,
    )
    ceiling_mode: str = _option(
        gettext_noop("At the ceiling"),
        gettext_noop(
            "When a total reaches the ceiling: the session ends after that round; or the "
            "player is out, and the last one left wins; or, out only above the ceiling, the "
            "same but only a total above it puts a player out."
        ),
        choices=CEILING_MODES,
    )
    rejoin_cutoff: int | None = _points(
        gettext_noop("Rejoin limit"),
        gettext_noop(
            "An eliminated player may rejoin at the highest total still in plus one, while no "
            "player still in is above this total (empty: no rejoining)."
        ),
    )
    # Joining and leaving between rounds (docs/rules §5, "Joining and leaving")
    join_total: str = _option(
        gettext_noop("A latecomer starts at"),
        gettext_noop(
            "The total a player who joins between rounds starts at: zero; the worst total "
            "still in; or as a rejoin, the worst total still in plus one, and in a pool only "
            "while a rejoin is allowed."
        ),
        choices=JOIN_TOTALS,
    )
    toss_on_change: bool = _option(
        gettext_noop("New toss when players change"),
        gettext_noop(
            "After a player joins or leaves, a toss card is dealt to each player still in "
            "before the next round: the seats follow the toss and the lowest card deals "
            "(off: a newcomer sits last and the deal passes on clockwise)."
        ),
    )

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The outcomes a player can have in a round under these rules."""
        allowed = ["declared", "shown"]
        if self.deal_show:
            allowed.append("deal_show")
        allowed += ["first_drop", "middle_drop", "invalid_declaration"]
        if self.declare_timeout is not None:
            allowed.append("declare_timeout")
        allowed.append("default_win")
        return tuple(allowed)

    @property
    def ceiling_total(self) -> int | None:
        """The ceiling as a total (``ceiling_as_total``), for these rules' totals."""
        return ceiling_as_total(self.ceiling, self.totals == "net")

    @property
    def wins_on_deal(self) -> bool:
        """Whether a declared winner may be marked as winning on the deal (docs/rules §4)."""
        return self.on_deal_dublees is not None or self.on_deal_jokers is not None

    def overrides_from(self, base: Ruleset) -> dict[str, object]:
        """The options that differ from ``base``, as JSON-ready values."""
        return {
            f.name: _jsonable(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)
        }

    def as_dict(self) -> dict[str, object]:
        return {f.name: _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}


def _jsonable(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


class RulesetOptions(TypedDict, total=False):
    """Options of a Ruleset by name, each of its field's type: what the presets are
    put together from. The type checker keeps the two in step: an option here that
    Ruleset lacks, or of another type, fails the presets' ``Ruleset(**options)``, and
    an option of Ruleset missing here fails the preset that sets it."""

    hand_size: int
    decks: int
    wild_rank_all_suits: bool
    upper_lower_jokers: bool
    tunnelas_and_dublees: bool
    printed_joker_tunnela: bool
    printed_joker_dublee: bool
    ace_marriage_pure: bool
    declarations: tuple[str, ...]
    pure_needed: int
    tunnelas_needed: int
    dublees_needed: int
    jokers_needed: int
    marriages_needed: int
    on_deal_dublees: int | None
    on_deal_jokers: int | None
    marriage_triples: str
    hand_entry: str
    trust_show: bool
    counting: str
    hand_cap: int
    cap_includes_values: bool
    zero_count_becomes: int
    first_drop: int
    middle_drop: int
    invalid_declaration: int
    declare_timeout: int | None
    deal_show: bool
    deal_show_fixed: int | None
    deal_show_min: int
    deal_show_max: int
    two_point_loss: int
    two_point_three_pure: bool
    two_point_dublees: int | None
    two_point_jokers: int | None
    two_point_tunnelas: int | None
    two_point_marriages: int | None
    free_hand_doubles: int | None
    free_hand_jokers: int | None
    value_cards: bool
    value_cut: tuple[int, int, int]
    value_upper: tuple[int, int, int]
    value_lower: tuple[int, int, int]
    value_printed_joker: tuple[int, int, int]
    value_extra_cards: tuple[str, ...]
    value_extra: tuple[int, int, int]
    value_marriages: tuple[int, int, int]
    value_payments: str
    first_drop_receives: int | None
    default_win_drop: int | None
    claims: bool
    claim_card: int
    claim_marriage: int
    claim_mini_marriage: int
    totals: str
    ceiling: int | None
    ceiling_mode: str
    rejoin_cutoff: int | None
    join_total: str
    toss_on_change: bool


# --- The presets (docs/rules §5 table) -------------------------------------------------
# One line per topic, in the order of the Ruleset's options.

_21_CARD: RulesetOptions = (
    # Cards, jokers and groups (§1–3)
    RulesetOptions(hand_size=21, decks=3, wild_rank_all_suits=True, upper_lower_jokers=True)
    | dict(tunnelas_and_dublees=True, printed_joker_tunnela=True, printed_joker_dublee=True)
    | dict(ace_marriage_pure=False)
    # Declarations (§4)
    | dict(declarations=("three_pure", "tunnelas", "dublees", "jokers"), pure_needed=3)
    | dict(tunnelas_needed=3, dublees_needed=8, jokers_needed=8, marriages_needed=2)
    | dict(on_deal_dublees=None, on_deal_jokers=None, marriage_triples="none")
    # Entering hands (§5): by the cards, the winner's checked, as before counts came in.
    | dict(hand_entry="cards", trust_show=False)
    # Hand points (§5)
    | dict(counting="standard", cap_includes_values=False, zero_count_becomes=2)
    | dict(first_drop=30, invalid_declaration=120, declare_timeout=None)
    | dict(deal_show=False, deal_show_fixed=None, deal_show_min=2, deal_show_max=60)
    | dict(two_point_loss=2, two_point_three_pure=False, two_point_dublees=None)
    | dict(two_point_jokers=None, two_point_tunnelas=None, two_point_marriages=None)
    | dict(free_hand_doubles=None, free_hand_jokers=None)
    # Value cards and claims (§6)
    | dict(value_cards=False, value_cut=(0, 0, 0), value_upper=(0, 0, 0), value_lower=(0, 0, 0))
    | dict(value_printed_joker=(0, 0, 0), value_extra_cards=(), value_extra=(0, 0, 0))
    | dict(value_marriages=(0, 0, 0))
    | dict(value_payments="players_in", first_drop_receives=None, default_win_drop=None)
    | dict(claims=False, claim_card=10, claim_marriage=100, claim_mini_marriage=50)
    # Totals (§5)
    | dict(totals="net", ceiling=None, ceiling_mode="game_ends", rejoin_cutoff=None)
    # Joining and leaving (§5): a points game's latecomer starts at 0, which in net
    # totals (they add up to 0) is the table's average; seed 000 tosses again.
    | dict(join_total="zero", toss_on_change=True)
)

_13_CARD: RulesetOptions = (
    _21_CARD
    | dict(hand_size=13, decks=2, upper_lower_jokers=False)
    | dict(tunnelas_and_dublees=False, printed_joker_tunnela=False, printed_joker_dublee=False)
    | dict(declarations=("show13",))
    | dict(hand_cap=80, first_drop=20, middle_drop=40, invalid_declaration=80)
)

# The two-point hands of 21-card points (seeds 000, 001).
_21_TWO_POINT = RulesetOptions(two_point_three_pure=True, two_point_dublees=6, two_point_jokers=7)

# The preset a new session or league starts at.
DEFAULT_PRESET = "21-points"
# Each preset's name, as a player reads it, in the order the pages list them (in
# English, marked for the catalogue).
PRESET_NAMES = {
    "21-points": gettext_noop("21-card points"),
    "21-paplu": gettext_noop("21-card paplu"),
    "21-kodai": gettext_noop("21-card kodai"),
    "13-points": gettext_noop("13-card points"),
    "13-pool-101": gettext_noop("13-card pool 101"),
    "13-pool-201": gettext_noop("13-card pool 201"),
}

PRESETS: dict[str, Ruleset] = {
    "21-points": Ruleset(
        preset="21-points",
        **_21_CARD
        | dict(hand_cap=120, middle_drop=70, declare_timeout=120, deal_show=True)
        | _21_TWO_POINT
        | dict(value_cards=True, value_cut=(10, 30, 50), value_marriages=(100, 300, 500))
        | dict(value_upper=(10, 30, 50), value_lower=(10, 30, 50)),
    ),
    "21-paplu": Ruleset(
        preset="21-paplu",
        **_21_CARD
        | dict(wild_rank_all_suits=False, printed_joker_tunnela=False)
        | dict(declarations=("three_pure", "tunnelas", "dublees", "jokers", "marriages"))
        | dict(marriage_triples="upper_lower", hand_cap=250, cap_includes_values=True)
        | dict(middle_drop=60)
        # Seed 003: "Once a participant declares on the very first turn, all the other
        # participants who haven't had their turn will give a penalty of 60 points +
        # the points of the value cards."
        | dict(deal_show=True, deal_show_fixed=60)
        # Seed 003's own two-point hands: three pure, 3 tunnelas, 7 or 8 dublees, 8
        # jokers, 2 marriages. Not 6 dublees, and "Seven jokers in hand do not qualify
        # as free hand".
        | dict(two_point_three_pure=True, two_point_dublees=7, two_point_jokers=8)
        | dict(two_point_tunnelas=3, two_point_marriages=2)
        | dict(value_cards=True, value_cut=(10, 20, 30), value_marriages=(100, 200, 300))
        | dict(value_upper=(20, 40, 60), value_lower=(20, 40, 60))
        | dict(value_printed_joker=(20, 40, 60), value_extra=(20, 40, 60))
        | dict(value_extra_cards=("AS", "2C"))
        # Seed 003's drop rules: a first drop pays "the declarer" only and receives "up
        # to ... 40 value points"; "Only Winner, no declarer": 30 from each dropper.
        | dict(value_payments="drop_rules", first_drop_receives=40, default_win_drop=30),
    ),
    "21-kodai": Ruleset(
        preset="21-kodai",
        **_21_CARD
        | dict(declarations=("three_pure", "tunnelas", "dublees", "jokers", "marriages"))
        | dict(jokers_needed=9, marriage_triples="claim_cards")
        # Seed 002: K A 2 with an Ace cut "can also be counted as a rummy if you want";
        # appendix A: "Start the game with 7 doubles" or "with 8 jokers".
        | dict(ace_marriage_pure=True, on_deal_dublees=7, on_deal_jokers=8)
        | dict(counting="kodai", hand_cap=100, zero_count_becomes=0)
        | dict(middle_drop=60, invalid_declaration=100)
        | dict(free_hand_doubles=7, free_hand_jokers=8, claims=True)
        | dict(totals="penalty", ceiling=500, ceiling_mode="game_ends")
        # Lowest wins here, so 0 would put a latecomer in the lead: they start level
        # with the worst total still in.
        | dict(join_total="worst"),
    ),
    "13-points": Ruleset(preset="13-points", **_13_CARD),
    "13-pool-101": Ruleset(
        preset="13-pool-101",
        **_13_CARD
        | dict(totals="penalty", ceiling=101, ceiling_mode="out", rejoin_cutoff=79)
        | dict(join_total="rejoin"),
    ),
    "13-pool-201": Ruleset(
        preset="13-pool-201",
        **_13_CARD
        | dict(first_drop=25, middle_drop=50)
        | dict(totals="penalty", ceiling=201, ceiling_mode="out", rejoin_cutoff=174)
        | dict(join_total="rejoin"),
    ),
}

OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Ruleset) if f.name != "preset")

# The headings of docs/rules/options.md the options come under, each with its first option: a
# section runs, in the Ruleset's order, from there to the next section's first option.
# The headings are English, marked for the catalogue: a page translates them.
_SECTION_STARTS = (
    (gettext_noop("Cards and jokers"), "hand_size"),
    (gettext_noop("Groups"), "tunnelas_and_dublees"),
    (gettext_noop("Declarations"), "declarations"),
    (gettext_noop("Entering hands"), "hand_entry"),
    (gettext_noop("Hand points"), "counting"),
    (gettext_noop("Value cards"), "value_cards"),
    (gettext_noop("Claims"), "claims"),
    (gettext_noop("Totals"), "totals"),
)


def _sections() -> tuple[tuple[str, tuple[str, ...]], ...]:
    starts = [OPTION_NAMES.index(first) for _title, first in _SECTION_STARTS]
    ends = [*starts[1:], len(OPTION_NAMES)]
    return tuple(
        (title, OPTION_NAMES[start:end])
        for (title, _first), start, end in zip(_SECTION_STARTS, starts, ends, strict=True)
    )


# (heading, its options), every option under exactly one heading.
OPTION_SECTIONS = _sections()

# The preset values that changed when the presets came to follow the Paplu and Kodai
# texts exactly, as they were before. Rules stored before then (a session, a league, a
# league file of version 1) hold only what differed from the presets of their day, so
# these are added to them: a session keeps the scores it was played for. Never edit
# these; a later change of the presets gets its own table.
BEFORE_EXACT_TEXTS: dict[str, RulesetOptions] = {
    "21-paplu": RulesetOptions(
        deal_show=False,
        deal_show_fixed=None,
        two_point_dublees=6,
        two_point_jokers=7,
        value_payments="players_in",
        first_drop_receives=None,
        default_win_drop=None,
    ),
    "21-kodai": RulesetOptions(ace_marriage_pure=False, on_deal_dublees=None, on_deal_jokers=None),
}


def as_stored_before_exact_texts(preset: str, overrides: dict[str, object]) -> dict[str, object]:
    """The overrides of rules stored before the presets followed the Paplu and Kodai
    texts exactly, with the options that changed kept at their earlier values (where
    the overrides don't set them already), so that they mean under today's presets what
    they meant then."""
    return BEFORE_EXACT_TEXTS.get(preset, {}) | overrides


def option_label(name: str) -> str:
    """An option as a player names it: "Lowest deal show cost" for ``deal_show_min``."""
    return _(str(_FIELDS[name].metadata["label"]))


def option_help(name: str) -> str:
    """What an option means, in a sentence."""
    return _(str(_FIELDS[name].metadata["help"]))


def option_range(name: str) -> tuple[int, int | None]:
    """The least and the most (None: no most) a whole-number option takes: a count at
    least 1, points at least 0, unless the option says otherwise."""
    meta = _FIELDS[name].metadata
    return meta.get("minimum", 0), meta.get("maximum")


_FIELDS = {f.name: f for f in dataclasses.fields(Ruleset)}
_HINTS = typing.get_type_hints(Ruleset)


def get_ruleset(preset: object, overrides: object = None) -> Ruleset:
    """The preset named ``preset`` with ``overrides`` (a dict of option: value) applied
    and validated. Either may come from outside, as anything JSON holds.

    Raises RulesError (field ``ruleset`` or ``overrides.<option>``) for an unknown
    preset, an unknown option or a value of the wrong type or range.
    """
    if not isinstance(preset, str) or preset not in PRESETS:
        said = _("unknown ruleset {preset}; choose one of {presets}")
        raise RulesError(said.format(preset=repr(preset), presets=list_words(PRESETS)), "ruleset")
    base = PRESETS[preset]
    if not overrides:
        return base
    if not isinstance(overrides, dict):
        raise RulesError(_("overrides must be an object of option: value"), "overrides")
    changes = {name: _validated(name, value) for name, value in overrides.items()}
    ruleset = dataclasses.replace(base, **changes)
    _check_consistency(ruleset)
    return ruleset


# Returns Any: each value has its own option's type, checked against the field's hint
# looked up by name, which no annotation can say.
def _validated(name: object, value: object) -> Any:
    if not isinstance(name, str) or name not in _FIELDS or name == "preset":
        raise RulesError(_("unknown option {name}").format(name=repr(name)), f"overrides.{name}")
    meta = _FIELDS[name].metadata
    hint = _HINTS[name]
    where = f"overrides.{name}"
    optional = typing.get_origin(hint) in (typing.Union, types.UnionType)
    if optional:
        if value is None:
            return None
        hint = next(arg for arg in typing.get_args(hint) if arg is not type(None))
    if hint is bool:
        if not isinstance(value, bool):
            said = _("{name} must be true or false, not {value}")
            raise RulesError(said.format(name=name, value=repr(value)), where)
        return value
    if hint is int:
        return _validated_int(name, value, meta, where)
    if hint is str:
        if not isinstance(value, str) or value not in meta["choices"]:
            said = _("{name} must be one of {choices}, not {value}")
            choices = list_words(meta["choices"])
            raise RulesError(said.format(name=name, choices=choices, value=repr(value)), where)
        return value
    # The tuple options: value tables of three numbers, and lists of names or cards.
    if not isinstance(value, list | tuple):
        said = _("{name} must be a list, not {value}")
        raise RulesError(said.format(name=name, value=repr(value)), where)
    item_types = typing.get_args(hint)
    if item_types == (int, int, int):
        if len(value) != 3:
            said = _("{name} must list 3 numbers (for 1, 2 and 3 cards)")
            raise RulesError(said.format(name=name), where)
        return tuple(_validated_int(name, item, meta, where) for item in value)
    if meta.get("cards"):
        from .cards import parse_card  # local: cards imports errors only, no cycle at load

        if not all(isinstance(item, str) for item in value):
            raise RulesError(_('{name} must list cards such as "AS"').format(name=name), where)
        try:
            return tuple(parse_card(item).code for item in value)
        except RulesError as error:
            said = _("{name}: {problem}").format(name=name, problem=error.message)
            raise RulesError(said, where) from None
    if not all(isinstance(item, str) and item in meta["choices"] for item in value):
        said = _("{name} must list some of {choices}, not {value}")
        choices = list_words(meta["choices"])
        raise RulesError(said.format(name=name, choices=choices, value=repr(value)), where)
    # In the choices' order (that of docs/rules §4, for the ways to declare), whatever order they
    # came in: the solver tries them in this order, and a reordering is no house rule.
    return tuple(choice for choice in meta["choices"] if choice in value)


def _validated_int(name: str, value: object, meta: Mapping[str, Any], where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        said = _("{name} must be a whole number, not {value}")
        raise RulesError(said.format(name=name, value=repr(value)), where)
    if "choices" in meta and value not in meta["choices"]:
        choices = list_words(str(choice) for choice in meta["choices"])
        said = _("{name} must be one of {choices}, not {value}")
        raise RulesError(said.format(name=name, choices=choices, value=value), where)
    least, most = option_range(name)
    if value < least:
        said = _("{name} must be at least {least}, not {value}")
        raise RulesError(said.format(name=name, least=least, value=value), where)
    if most is not None and value > most:
        said = _("{name} must be at most {most}, not {value}")
        raise RulesError(said.format(name=name, most=most, value=value), where)
    return value


def _check_consistency(ruleset: Ruleset) -> None:
    if not ruleset.declarations:
        said = _("at least one declaration way must be enabled")
        raise RulesError(said, "overrides.declarations")
    if ruleset.deal_show_min > ruleset.deal_show_max:
        # Options by their names, which a form replaces with their labels.
        said = _("{lowest} must not be above {highest}")
        said = said.format(lowest="deal_show_min", highest="deal_show_max")
        raise RulesError(said, "overrides.deal_show_min")


def presets_listing() -> dict[str, object]:
    """Every preset with every option, and what each option means."""
    return {
        "presets": {name: ruleset.as_dict() for name, ruleset in PRESETS.items()},
        "options": {name: option_help(name) for name in OPTION_NAMES},
    }


def is_net(ruleset: Ruleset) -> bool:
    """Net totals (losers pay the winner): what a point is worth settles the evening."""
    return ruleset.totals == "net"


def best_and_worst(
    lowest: int | None, highest: int | None, *, net: bool
) -> tuple[int | None, int | None]:
    """Of a player's round scores, the lowest and the highest as (best, worst): in net
    totals the most won is the best round, in penalty totals the least lost."""
    return (highest, lowest) if net else (lowest, highest)


def is_pool(ruleset: Ruleset, ceiling: int | None) -> bool:
    """A pool: players go out at the ceiling, so the pot is split among those left."""
    return ceiling is not None and ruleset.ceiling_mode != "game_ends"


def describe_preset(name: str) -> str:
    """One line about a preset, built from its options so it cannot drift from them."""
    rules = PRESETS[name]
    cards = ngettext("{count} card", "{count} cards", rules.hand_size)
    decks = ngettext("{count} deck", "{count} decks", rules.decks)
    parts = [
        list_words([cards.format(count=rules.hand_size), decks.format(count=rules.decks)]),
        _jokers(rules),
    ]
    if is_net(rules):
        parts.append(_("losers pay the winner their points"))
    else:
        parts.append(_("losers add their points, lowest total is best"))
    if rules.value_cards and rules.value_payments == "drop_rules":
        parts.append(_("value cards exchanged (drops by Paplu's rules)"))
    elif rules.value_cards:
        parts.append(_("value cards exchanged"))
    if rules.claims:
        parts.append(_("the winner claims for jokers"))
    if rules.ceiling is not None:
        if rules.ceiling_mode == "out":
            parts.append(_("out at {ceiling}").format(ceiling=rules.ceiling))
        else:
            parts.append(_("game ends at {ceiling}").format(ceiling=rules.ceiling))
    return " · ".join(parts)


def _jokers(rules: Ruleset) -> str:
    """Which cards are wild: what sets Paplu apart from a points game at a glance."""
    if rules.wild_rank_all_suits and rules.upper_lower_jokers:
        return _("jokers: the cut rank in every suit and the cut suit's next card up and down")
    if rules.wild_rank_all_suits:
        return _("jokers: the cut rank in every suit")
    if rules.upper_lower_jokers:
        return _("jokers: the cut card and the cut suit's next card up and down")
    return _("jokers: the cut card")


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
        if numbers:
            said = _("{option} {value} (preset {preset})")
        else:
            said = _("{option}: {value} (preset {preset})")
        changes.append(
            said.format(
                option=option_label(name), value=option_text(value), preset=option_text(was)
            )
        )
    return tuple(changes)
