"""The JSON shape of the rules service (DESIGN.md), shared by the command line and
anything else that speaks JSON: a round in, the scored round out.

What it says about the JSON itself (a field of the wrong type) is English only: no
player reads it, only a program or its author (the app never speaks JSON to the rules).
"""

from __future__ import annotations

from .arrange import arrange
from .cards import Card, CardError, parse_card, parse_cards, parse_groups
from .counted import FIGURES, NUMBER_FIGURES, HandFigures
from .errors import RoundErrors, RulesError
from .rulesets import Ruleset, get_ruleset
from .scoring import PlayerHand, score_round


def parse_groups_field(value: object, where: str) -> tuple[tuple[Card, ...], ...]:
    """``groups`` as a list of lists of card codes, a list of strings (one group
    each) or one string in the notation of docs/rules §1."""
    if value is None:
        return ()
    if isinstance(value, str):
        try:
            return tuple(tuple(group) for group in parse_groups(value))
        except CardError as error:
            raise RulesError(error.message, where) from None
    if not isinstance(value, list):
        raise RulesError("groups must be a list of groups or a string of cards", where)
    groups = []
    for g, group in enumerate(value):
        if isinstance(group, str):
            try:
                cards = [card for part in parse_groups(group) for card in part]
            except CardError as error:
                raise RulesError(error.message, f"{where}[{g}]") from None
        elif isinstance(group, list):
            cards = []
            for c, code in enumerate(group):
                if not isinstance(code, str):
                    raise RulesError(
                        f'card {code!r} must be a string like "7H"', f"{where}[{g}][{c}]"
                    )
                try:
                    cards.append(parse_card(code))
                except CardError as error:
                    raise RulesError(error.message, f"{where}[{g}][{c}]") from None
        else:
            raise RulesError("each group must be a list of cards", f"{where}[{g}]")
        if cards:
            groups.append(tuple(cards))
    return tuple(groups)


def parse_figures_field(player: dict[str, object], where: str) -> HandFigures | None:
    """A hand counted at the table (docs/rules §5): its figures ``count``,
    ``value_points`` and ``claims`` (whole numbers), ``two_point`` and ``free_hand``
    (true or false), any of which makes it counted, as ``"counted": true`` does alone
    (a trusted winner's show with nothing to count). None for a hand of cards. Only
    the types are checked here; what the figures may be, the rules judge."""
    counted = player.get("counted", False)
    if not isinstance(counted, bool):
        raise RulesError("counted must be true or false", f"{where}.counted")
    given = [name for name in FIGURES if name in player]
    if not given:
        return None if not counted else HandFigures()
    if "counted" in player and not counted:
        raise RulesError(f"counted is false, but {given[0]} is given", f"{where}.{given[0]}")
    for name in given:
        value = player[name]
        if name in NUMBER_FIGURES:
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise RulesError(f"{name} must be a whole number, not {value!r}", f"{where}.{name}")
        elif not isinstance(value, bool):
            raise RulesError(f"{name} must be true or false", f"{where}.{name}")

    def number(name: str) -> int | None:
        value = player.get(name)
        return value if isinstance(value, int) else None

    return HandFigures(
        count=number("count"),
        value_points=number("value_points"),
        claims=number("claims"),
        two_point=player.get("two_point") is True,
        free_hand=player.get("free_hand") is True,
    )


def parse_round(data: object) -> tuple[Ruleset, Card, list[PlayerHand]]:
    """The ruleset, cut card and hands of a round request; RoundErrors lists every
    field at fault."""
    if not isinstance(data, dict):
        raise RulesError("the round must be a JSON object", "")
    errors: list[RulesError] = []
    ruleset = cut = None
    try:
        ruleset = get_ruleset(data.get("ruleset"), data.get("overrides") or {})
    except RulesError as error:
        errors.append(error)
    raw_cut = data.get("cut_joker")
    if not isinstance(raw_cut, str):
        errors.append(RulesError('cut_joker must be a card such as "8S"', "cut_joker"))
    else:
        try:
            cut = parse_card(raw_cut)
        except CardError as error:
            errors.append(RulesError(f"cut joker: {error.message}", "cut_joker"))
    players = data.get("players")
    hands = []
    if not isinstance(players, list) or not players:
        errors.append(RulesError("players must be a list of players", "players"))
        players = []
    for i, player in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(player, dict):
            errors.append(RulesError("each player must be an object", where))
            continue
        name, outcome = player.get("name"), player.get("outcome")
        if not isinstance(name, str):
            errors.append(RulesError(f"player {i + 1} needs a name", f"{where}.name"))
            continue
        if not isinstance(outcome, str):
            said = "needs an outcome"
            errors.append(RulesError(f"{name} {said}", f"{where}.outcome", beside=said))
            continue
        on_deal = player.get("on_deal", False)
        if not isinstance(on_deal, bool):
            said = "on_deal must be true or false"
            errors.append(RulesError.headed(name, said, f"{where}.on_deal"))
            continue
        try:
            groups = parse_groups_field(player.get("groups"), f"{where}.groups")
            figures = parse_figures_field(player, where)
        except RulesError as error:
            errors.append(RulesError.headed(name, error.message, error.field))
            continue
        hands.append(
            PlayerHand(name=name, outcome=outcome, groups=groups, on_deal=on_deal, figures=figures)
        )
    if errors:
        raise RoundErrors(errors)
    assert ruleset is not None and cut is not None
    return ruleset, cut, hands


def score_request(data: object) -> dict[str, object]:
    """Score a round given as JSON data (DESIGN.md) and return the JSON result."""
    ruleset, cut, hands = parse_round(data)
    return score_round(ruleset, cut, hands).as_dict()


def arrange_request(
    preset: object, cut: object, cards: object, overrides: object = None, on_deal: bool = False
) -> dict[str, object]:
    """The best grouping of a hand given in card notation, as JSON data (``on_deal``:
    the hand as dealt, for a win on the deal)."""
    ruleset = get_ruleset(preset, overrides or {})
    if not isinstance(cut, str):
        raise RulesError('the cut joker must be a card such as "8S"', "cut_joker")
    try:
        cut_card = parse_card(cut)
    except CardError as error:
        raise RulesError(f"cut joker: {error.message}", "cut_joker") from None
    if not isinstance(cards, str):
        raise RulesError("cards must be a string of card notation", "cards")
    try:
        hand = parse_cards(cards)
    except CardError as error:
        raise RulesError(error.message, "cards") from None
    if on_deal and not ruleset.wins_on_deal:
        raise RulesError(f"winning on the deal is not played under {ruleset.preset}", "on_deal")
    result = arrange(ruleset, cut_card, hand, on_deal)
    return {
        "ruleset": ruleset.preset,
        "cut_joker": cut_card.code,
        "cards": [card.code for card in hand],
        **result.as_dict(),
    }
