"""Checking a round as it is typed on the form, or one hand as a phone enters it: the
rules service's verdicts on each hand and on the round, as records the form and table
mode file beside the fields they concern, and the solver's grouping where the cards
were typed in any order. Nothing here writes; what the checks say in the app's own
words comes from ``round_messages``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from games.models import Seat
from games.rules import (
    ARRANGED_OUTCOMES,
    FIGURES,
    FULL_HAND_OUTCOMES,
    INVALID_DECLARATION,
    SHOWN_OUTCOMES,
    WINNING_OUTCOMES,
    Arrangement,
    Card,
    CardError,
    HandAssessment,
    HandFigures,
    Kind,
    PlayerHand,
    PlayerResult,
    RoundErrors,
    RoundResult,
    RulesError,
    Ruleset,
    arrange,
    assess_hand,
    format_groups,
    hand_figures,
    joker_roles,
    needs_count,
    parse_card,
    parse_groups,
    read_groups,
    round_errors,
    score_round,
)
from games.services import round_messages as say
from games.services.round_entries import RoundEntry


@dataclass(frozen=True)
class Suggestion:
    """The best grouping of a player's cards (the rules service's solver), and how it
    compares with the grouping kept (as typed, or this one when it was arranged)."""

    groups: tuple[tuple[Card, ...], ...]
    declaration: str | None  # the way these cards declare, if they can
    hand_points: int | None  # what the best grouping costs for the outcome typed
    saving: int  # points the grouping kept costs more than the best one

    @property
    def text(self) -> str:
        return format_groups(self.groups)


def _solve(ruleset: Ruleset, cut: Card, hand: PlayerHand) -> Arrangement | None:
    """The solver's grouping of a whole hand whose outcome depends on its grouping;
    None for any other hand."""
    if hand.outcome not in ARRANGED_OUTCOMES or len(hand.cards) != ruleset.hand_size:
        return None
    try:
        return arrange(ruleset, cut, hand.cards, hand.on_deal)
    except RulesError:
        return None  # e.g. too many copies of a card: the hand's own error says so


def _may_be_replaced(typed: PlayerHand, as_typed: HandAssessment) -> bool:
    """Whether check_round's rule lets the solver's grouping replace the one typed at
    all: a hand typed without separators, or one that left cards loose."""
    return len(typed.groups) == 1 or any(group.kind == Kind.INVALID for group in as_typed.groups)


def _replaces_typed(
    typed: PlayerHand, as_typed: HandAssessment, as_arranged: HandAssessment
) -> bool:
    """Whether the solver's grouping replaces the one typed (check_round's rule): a
    hand typed without separators always; otherwise only a grouping that left cards
    loose (a group that is no group on its own), and only when the solver's is
    strictly better for the outcome."""
    if len(typed.groups) == 1:
        return True
    if not _may_be_replaced(typed, as_typed):
        return False  # grouped in full as shown: kept, whatever it costs
    # Only a shown loser's points depend on the grouping (a fixed penalty never does),
    # and only a declarer's assessment names a declaration.
    cheaper = (
        as_typed.hand_points is not None
        and as_arranged.hand_points is not None
        and as_arranged.hand_points < as_typed.hand_points
    )
    declares = as_typed.declaration is None and as_arranged.declaration is not None
    return cheaper or declares


def arranged_text(ruleset: Ruleset, cut_text: str, groups_text: str, on_deal: bool = False) -> str:
    """The best grouping of the cards typed, in card notation (the form's Arrange
    action; ``on_deal``: a winner marked as winning on the deal). Raises RulesError
    with a message to show beside the field."""
    try:
        cut = parse_card(cut_text or "")
    except CardError:
        raise RulesError(str(say.CUT_FIRST_TO_ARRANGE)) from None
    cards = [card for group in parse_groups(groups_text) for card in group]  # CardError
    if not cards:
        raise RulesError(str(say.NO_CARDS_TO_ARRANGE))
    return format_groups(arrange(ruleset, cut, cards, on_deal).groups)


@dataclass
class PlayerCheck:
    """One player's part of a round being entered, as the rules service sees it."""

    seat: Seat
    outcome: str | None
    text: str
    on_deal: bool = False  # marked as winning on the deal
    # A hand counted at the table: the figures typed instead of the cards (the text is
    # then not read). A trusted winner is counted with no figures.
    figures: HandFigures | None = None
    hand: PlayerHand | None = None  # None until the groups parse; as arranged if it was
    # The cards of groups that do not parse, read around their typos (empty groups
    # where a group is all typos): counted for copies of a card across the round.
    read_so_far: tuple[tuple[Card, ...], ...] = ()
    assessment: HandAssessment | None = None  # the live preview of ``hand`` (needs the cut)
    arranged: bool = False  # the solver's grouping replaced the one typed
    result: PlayerResult | None = None  # the settlement, once the round scores
    outcome_errors: list[str] = field(default_factory=list)
    groups_errors: list[str] = field(default_factory=list)
    # A counted hand's errors by the figure they concern (games.rules.FIGURES), or
    # "counted" for the hand as a whole (counts not allowed, a winner not trusted).
    figure_errors: dict[str, list[str]] = field(default_factory=dict)
    # Problems of the round this player's outcome is part of (one of two winners):
    # said once, for the round (RoundCheck.errors), but their outcome is wrong too.
    party_to: list[str] = field(default_factory=list)
    # ``best``, or how to work it out when first asked for.
    _best: Suggestion | Callable[[], Suggestion | None] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def name(self) -> str:
        return self.seat.player.name

    @property
    def best(self) -> Suggestion | None:
        """The best grouping of a whole hand, for comparison (the preview's hint). Where
        the grouping typed is kept whatever the solver finds, the solver runs only when
        this is first asked for: a save that goes through never shows the hint."""
        if callable(self._best):
            self._best = self._best()
        return self._best

    @property
    def could_declare(self) -> str | None:
        """The valid declaration the solver's grouping of these cards makes where the
        grouping kept makes none: the preview's "when grouped differently" hint. None
        where the grouping kept is already as good: a declarer's that declares, a
        shown loser's (whose assessment names no declaration: its measure is the
        points, and what a costlier grouping would save is the hint's other line)."""
        best = self.best
        if best is None or best.declaration is None or self.assessment is None:
            return None
        if self.shown or self.assessment.declaration is not None:
            return None
        return best.declaration

    @property
    def hand_points(self) -> int | None:
        """What the hand costs: once the round scores, the settlement's figure (a hand
        alone cannot tell that a Paplu default win makes every drop pay 30)."""
        if self.result is not None:
            return self.result.hand_points
        return self.assessment.hand_points if self.assessment else None

    @property
    def rule_applied(self) -> str | None:
        """Why :attr:`hand_points` is not the groups' sum, in words, or None."""
        if self.result is not None:
            return self.result.rule_applied
        return self.assessment.rule_applied if self.assessment else None

    @property
    def errors(self) -> list[str]:
        by_figure = [
            message
            for name in ("counted", *FIGURES)
            for message in self.figure_errors.get(name, ())
        ]
        return self.outcome_errors + self.groups_errors + by_figure

    @property
    def arranged_text(self) -> str:
        """The grouping the round is checked and saved with, in card notation, when
        the solver arranged it (for the field, if the user accepts it); else ""."""
        return format_groups(self.hand.groups) if self.arranged and self.hand else ""

    @property
    def shown(self) -> bool:
        """Whether the hand is counted card by card (a loser who showed)."""
        return self.outcome in SHOWN_OUTCOMES

    @property
    def counted(self) -> bool:
        """Whether the hand was counted at the table: typed as its figures."""
        return self.figures is not None

    @property
    def declared_invalid(self) -> bool:
        return self.outcome == INVALID_DECLARATION


@dataclass
class RoundCheck:
    """A round as typed so far: the jokers, each player's preview, and either the
    round's settlement or the errors that stop it, each placed where it belongs."""

    entry: RoundEntry
    cut: Card | None
    players: list[PlayerCheck]
    jokers: tuple[str, ...] = ()
    result: RoundResult | None = None
    cut_errors: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # about the round as a whole

    @property
    def valid(self) -> bool:
        return self.result is not None and not self.has_errors

    @property
    def has_errors(self) -> bool:
        return bool(self.cut_errors or self.errors or any(p.errors for p in self.players))

    @property
    def complete(self) -> bool:
        """Every hand read, each one that shows cards holds a whole hand of them, and
        each one counted at the table has its count where the rules need it."""
        return all(_complete(player.hand, self.entry.ruleset) for player in self.players)

    # What a round nothing has been typed in yet waits for.
    WAITING_FOR_ALL = (say.WAITING_FOR_CUT, say.WAITING_FOR_HANDS)

    @property
    def waiting_for(self) -> list[str]:
        """What the round's settlement waits for (nothing once it is scored): the cut
        joker, a hand short of cards, something marked wrong."""
        if self.result is not None:
            return []
        waits = []
        if self.cut is None and not self.cut_errors:
            waits.append(say.WAITING_FOR_CUT)
        if not self.complete:
            waits.append(say.WAITING_FOR_HANDS)
        if self.has_errors:
            waits.append(say.WAITING_FOR_FIXES)
        return waits


def _complete(hand: PlayerHand | None, rules: Ruleset) -> bool:
    if hand is None:
        return False
    if hand.figures is not None:
        return hand.figures.count is not None or not needs_count(hand.outcome, hand.figures, rules)
    return hand.outcome not in FULL_HAND_OUTCOMES or len(hand.cards) == rules.hand_size


_PLAYER_FIELD = re.compile(r"players\[(\d+)\]\.(\w+)")
# How many of a hand's typos are said one by one; more are counted in one line.
TYPOS_SAID = 3


class TypedHand(NamedTuple):
    """One player's hand as the form hands it over; None where the form refused the
    value already (its own message is beside the field). ``figures``: the hand was
    counted at the table and typed as these figures, the text then left unread."""

    outcome: str | None
    text: str | None
    figures: HandFigures | None = None


# A round as typed, by seat id. A plain (outcome, text) pair serves as well.
TypedHands = Mapping[int, TypedHand | tuple[str | None, str | None]]


def check_round(
    entry: RoundEntry,
    cut_text: str | None,
    hands: TypedHands,
    *,
    final: bool,
    on_deal: Collection[int] = (),
) -> RoundCheck:
    """Check a round as typed: ``hands`` maps seat ids to (outcome, groups text), and
    ``on_deal`` holds the seat marked as winning on the deal (docs/rules §4), if any.

    ``None`` stands for a value the form already refused. While typing (``final``
    False) each hand is previewed with ``assess_hand`` and the round is scored once
    every hand is complete; when saving (``final``) the round is always scored, so
    every error the rules service finds is reported next to its player. A round that
    cannot be scored (a card that is not one, no cut joker) still gets, when saving,
    every error the rules service can tell without it (``round_errors``): each hand
    read that is short or has an outcome not played, no winner or more than one.

    Cards in any order: once the cut joker is known, a whole hand (``hand_size``
    cards) whose outcome depends on its grouping (``ARRANGED_OUTCOMES``) may be
    replaced by the solver's arrangement (``arrange``: the best valid declaration
    for a winner, the lowest count for a loser), which is then previewed, scored
    and saved, and the player's ``arranged`` says so:

    - a hand typed with no separator at all (one group) is always arranged;
    - a hand typed in groups is kept as typed unless one of its groups is no valid
      group on its own (cards left loose) and the solver's grouping is strictly
      better: a lower count for a loser who showed, a valid declaration where the
      typed grouping makes none for a declarer. A grouping whose every group is
      valid is kept as typed; ``best`` then says what the solver's would save.
    """
    check = _read_hands(entry, cut_text, hands, final=final, on_deal=on_deal)
    ruleset = entry.ruleset
    hands_ready = all(player.hand is not None for player in check.players)
    if check.cut is None or not hands_ready:
        if final:
            _place_errors(check, _unscored_errors(ruleset, check.cut, check.players))
        return check
    if not (check.complete or final):
        return check
    try:
        check.result = score_round(ruleset, check.cut, [p.hand for p in check.players])
    except RoundErrors as errors:
        _place_errors(check, errors.errors)
    else:
        for player, result in zip(check.players, check.result.players, strict=True):
            player.result = result
    return check


def _read_hands(
    entry: RoundEntry,
    cut_text: str | None,
    hands: TypedHands,
    *,
    final: bool,
    on_deal: Collection[int],
) -> RoundCheck:
    """The cut joker and each hand of ``entry.seats`` read and previewed on its own
    (check_round's first half, and all of check_hand's)."""
    check = RoundCheck(entry=entry, cut=None, players=[])
    ruleset = entry.ruleset
    if cut_text:
        try:
            check.cut = parse_card(cut_text)
        except CardError as error:
            check.cut_errors.append(say.cut_refused(error.message))
    elif cut_text is not None and final:
        check.cut_errors.append(str(say.CUT_MISSING))
    if check.cut is not None:
        check.jokers = tuple(joker_roles(ruleset, check.cut).joker_codes)

    for seat in entry.seats:
        outcome, text, *counted = hands.get(seat.pk, TypedHand(None, None))
        figures = counted[0] if counted else None
        player = PlayerCheck(
            seat=seat,
            outcome=outcome,
            text=text or "",
            on_deal=seat.pk in on_deal,
            figures=figures,
        )
        check.players.append(player)
        if figures is not None:
            if outcome is not None:
                player.hand = PlayerHand(seat.player.name, outcome, (), player.on_deal, figures)
                if not final:
                    _preview_counted(ruleset, check.cut, player)
            continue
        if text is None:
            continue
        groups, typos = read_groups(text)
        if typos:
            # Every typo at once (a few, where something else was pasted in); the cards
            # around them still count for copies of a card across the round
            # (_unscored_errors).
            player.groups_errors += [typo.message for typo in typos[:TYPOS_SAID]]
            more = len(typos) - TYPOS_SAID
            if more > 0:
                player.groups_errors.append(say.more_typos(more))
            player.read_so_far = tuple(tuple(group) for group in groups)
            continue
        if outcome is None:
            continue
        player.hand = PlayerHand(
            name=seat.player.name,
            outcome=outcome,
            groups=tuple(tuple(g) for g in groups),
            on_deal=player.on_deal,
        )
        # An untouched field of a player who must show a hand has nothing to preview
        # yet ("must show all 21 cards, not 0" beside every player would be noise).
        if check.cut is not None and (text or outcome not in FULL_HAND_OUTCOMES):
            _preview(ruleset, check.cut, player)

    return check


def check_hand(
    entry: RoundEntry,
    seat: Seat,
    cut_text: str | None,
    outcome: str | None,
    text: str | None,
    *,
    final: bool,
    on_deal: bool = False,
    figures: HandFigures | None = None,
) -> RoundCheck:
    """One player's hand on its own, as table mode enters it on the player's phone:
    previewed as check_round previews it (the cards in any order arranged by the
    solver) and, when ``final`` (handed in), refused for whatever the rules service
    finds wrong in that hand alone: a card that is no card, a hand of the wrong size,
    more copies of a card than the decks hold, a false declaration, an outcome not
    played. What needs the other hands (one winner, copies across the round) is
    checked once they are all in (check_round). ``figures``: the hand counted at the
    table, typed as these figures (checked as check_round checks them)."""
    one = dataclasses.replace(entry, seats=(seat,))
    wins_on_deal = (seat.pk,) if on_deal else ()
    check = _read_hands(
        one,
        cut_text,
        {seat.pk: TypedHand(outcome, text, figures)},
        final=final,
        on_deal=wins_on_deal,
    )
    player = check.players[0]
    if not final or outcome is None or player.groups_errors:
        return check
    hand = player.hand or PlayerHand(player.name, outcome, on_deal=on_deal)
    unread = [0] if player.hand is None else []
    errors = round_errors(entry.ruleset, check.cut, [hand], unread)
    # Who won, and how many play, are the round's business, not this hand's.
    _place_errors(check, [error for error in errors if error.field != "players"])
    return check


def figures_of_cards(
    entry: RoundEntry,
    seat: Seat,
    cut_text: str | None,
    outcome: str | None,
    text: str | None,
    *,
    on_deal: bool = False,
) -> HandFigures | None:
    """The figures a whole hand's cards give, grouped as the round would score them
    (the solver's grouping where check_round's rule takes it): what a hand switched
    from its cards to its count is counted at. None while they give none: no cut
    joker, no outcome, a hand short of cards or with a card that is none."""
    if not (cut_text and outcome and text):
        return None
    check = check_hand(entry, seat, cut_text, outcome, text, final=False, on_deal=on_deal)
    player = check.players[0]
    hand = player.hand
    if check.cut is None or hand is None or player.errors:
        return None
    if len(hand.cards) != entry.ruleset.hand_size:
        return None
    return hand_figures(entry.ruleset, check.cut, hand)


def _preview_counted(ruleset: Ruleset, cut: Card | None, player: PlayerCheck) -> None:
    """While typing, what the rules refuse in a counted hand on its own (a count no
    hand makes, a figure its outcome does not give), beside the figure concerned; the
    limits that need the cut joker are checked once it is typed."""
    assert player.hand is not None
    errors = round_errors(ruleset, cut, [player.hand])
    _place_player_errors(player, [error for error in errors if error.field != "players"], [])


def _preview(ruleset: Ruleset, cut: Card, player: PlayerCheck) -> None:
    """Judge the player's hand as typed or, where check_round's rule says so, as the
    solver arranges it (the hand then checked and saved); keep the solver's grouping
    for comparison either way (worked out later, if asked for, where the rule keeps
    the hand as typed)."""
    typed = player.hand
    assert typed is not None
    as_typed = player.assessment = assess_hand(ruleset, cut, typed)
    if not _may_be_replaced(typed, as_typed):
        player._best = lambda: _compared(ruleset, cut, typed, as_typed)[0]
        return
    best, arranged = _compared(ruleset, cut, typed, as_typed)
    if best is not None and arranged is not None and _replaces_typed(typed, as_typed, arranged[1]):
        player.hand, player.assessment = arranged
        player.arranged = True
        best = dataclasses.replace(best, saving=0)  # the grouping kept is the best one
    player._best = best


def _compared(
    ruleset: Ruleset, cut: Card, typed: PlayerHand, as_typed: HandAssessment
) -> tuple[Suggestion | None, tuple[PlayerHand, HandAssessment] | None]:
    """The solver's grouping of ``typed`` as a Suggestion beside the grouping typed,
    and the hand so grouped with its assessment; (None, None) for a hand the solver
    does not arrange."""
    best = _solve(ruleset, cut, typed)
    if best is None:
        return None, None
    solved = PlayerHand(typed.name, typed.outcome, best.groups, typed.on_deal)
    arranged = assess_hand(ruleset, cut, solved)
    points, saving = None, 0
    if typed.outcome in SHOWN_OUTCOMES:  # only a shown loser's points depend on it
        points = arranged.hand_points
        saving = max((as_typed.hand_points or 0) - (points or 0), 0)
    return Suggestion(best.groups, best.declaration, points, saving), (solved, arranged)


def _unscored_errors(
    ruleset: Ruleset, cut: Card | None, players: list[PlayerCheck]
) -> list[RulesError]:
    """What the rules service finds in a round it cannot score yet (a hand with a card
    that is not one, no cut joker), so that saving reports every problem at once: each
    hand that was read, and who won. Nothing while an outcome is missing: the form
    has refused it, and who won cannot be told without it."""
    if any(player.outcome is None for player in players):
        return []
    hands = [
        player.hand
        or PlayerHand(player.name, player.outcome, player.read_so_far, on_deal=player.on_deal)
        for player in players
    ]
    unread = [index for index, player in enumerate(players) if player.hand is None]
    return round_errors(ruleset, cut, hands, unread)


def _place_errors(check: RoundCheck, errors: Iterable[RulesError]) -> None:
    """Put each error of the rules service next to the player it concerns: its field
    indexes the list of hands we passed, which is the round's seat order."""
    players = check.players
    names = [player.name for player in players]
    for error in errors:
        match = _PLAYER_FIELD.match(error.field)
        if match and int(match[1]) < len(players):
            if not _place_player_errors(players[int(match[1])], [error], names):
                check.errors.append(say.with_card_faces(error.message, names))
            continue
        # What names the round, not one player ("more than one winner (Asha, Chen)",
        # "no winner"), is said once, for the round: beside each winner it was listed
        # as many times as there were winners. Their outcomes are marked all the same.
        message = say.with_card_faces(error.message, names)
        if error.field == "cut_joker":
            check.cut_errors.append(message)
            continue
        check.errors.append(message)
        winners = [player for player in players if player.outcome in WINNING_OUTCOMES]
        if error.field == "players" and len(winners) > 1:
            for player in winners:
                player.party_to.append(message)


def _place_player_errors(
    player: PlayerCheck, errors: Iterable[RulesError], names: list[str]
) -> bool:
    """Put each of one player's errors beside the field it names; False if one names
    no field of theirs (it is then for the round to say)."""
    for error in errors:
        where = _PLAYER_FIELD.match(error.field)
        if where is None:
            return False
        # Said without the player's name, which heads their fields and which the
        # lists of problems put first ("Esha: must show all 21 cards, not 22").
        message = say.with_card_faces(error.beside, names)
        # "Won on the deal" is part of the outcome's choice in the form.
        if where[2] in ("outcome", "on_deal"):
            player.outcome_errors.append(message)
        elif where[2] == "groups":
            player.groups_errors.append(message)
        elif where[2] in FIGURES or where[2] == "counted":
            said = player.figure_errors.setdefault(where[2], [])
            if message not in said:  # seen while typing, then again when scored
                said.append(message)
        else:
            return False
    return True


def problems(check: RoundCheck) -> list[str]:
    """Everything that stops a checked round, each problem of a player after their name."""
    listed = [
        *check.cut_errors,
        *check.errors,
        *(
            say.player_problem(player.name, error)
            for player in check.players
            for error in player.errors
        ),
    ]
    return listed or ([] if check.valid else [str(say.NOT_SCORED)])
