"""Entering a round: checking it with the rules service, saving, editing and deleting
it (once per submission, at the version it was opened with), and its audit trail.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, F, Max, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from games.access import AnyUser
from games.models import (
    GameSession,
    HandEntry,
    Round,
    RoundChange,
    Seat,
    TableRound,
)
from games.rules import (
    ARRANGED_OUTCOMES,
    FULL_HAND_OUTCOMES,
    INVALID_DECLARATION,
    SHOWN_OUTCOMES,
    WINNING_OUTCOMES,
    Arrangement,
    Card,
    CardError,
    HandAssessment,
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
    joker_roles,
    out_before,
    parse_card,
    parse_groups,
    read_groups,
    round_errors,
    score_round,
)
from games.services.errors import EntryRejected
from games.services.results import refresh_session
from games.services.scoreboard import (
    Fold,
    Scoreboard,
    fold_start,
    live_stamp,
    load_scoreboard,
    with_round,
)


@dataclass(frozen=True)
class RoundEntry:
    """What the round form is for: a new round of a session, or an earlier one."""

    session: GameSession
    ruleset: Ruleset
    seats: tuple[Seat, ...]  # the round's players, in seat order
    number: int
    dealer: Seat | None
    round: Round | None = None  # None for a new round
    finished: bool = False  # a new round on a finished session: nothing to enter
    winners: tuple[str, ...] = ()

    def seat_playing(self, pk: int | None) -> Seat | None:
        """The seat ``pk`` if its player plays this round: none once the session is
        over (a table link's phone picks only such a seat, and enters its hand)."""
        if self.finished:
            return None
        return next((seat for seat in self.seats if seat.pk == pk), None)


def new_round_entry(session: GameSession, board: Scoreboard | None = None) -> RoundEntry:
    """The next round: every player still in, dealt by the next dealer."""
    board = board or load_scoreboard(session)
    return RoundEntry(
        session=session,
        ruleset=board.ruleset,
        seats=board.playing_seats,
        number=len(board.rows) + 1,
        dealer=board.next_dealer,
        finished=board.finished,
        winners=board.winners,
    )


def round_entry_for_edit(played: Round, board: Scoreboard | None = None) -> RoundEntry:
    """An earlier round: the players who have a hand in it, plus anyone seated who
    was still in when it was played (an edit may bring a player back in)."""
    board = board or load_scoreboard(played.session)
    in_round = set(played.entries.values_list("player_id", flat=True))
    sat_out = out_before(board.state, played.number)
    seats = tuple(
        seat
        for seat in board.seats
        if seat.player_id in in_round or seat.player.name not in sat_out
    )
    return RoundEntry(
        session=played.session,
        ruleset=board.ruleset,
        seats=seats,
        number=played.number,
        dealer=played.dealer,
        round=played,
    )


def initial_values(played: Round) -> tuple[str, dict[int, tuple[str, str]]]:
    """A saved round as the form shows it: the cut joker and, per seat, the outcome
    and the groups in canonical notation."""
    seat_of = {seat.player_id: seat.pk for seat in played.session.seats.all()}
    values = {}
    for entry in played.entries.all():
        values[seat_of.get(entry.player_id)] = (entry.outcome, groups_text(entry.groups))
    return played.cut_joker, values


def groups_text(groups: Sequence[Sequence[str]]) -> str:
    """Stored groups (lists of card codes) in the notation the round form takes."""
    return format_groups([[parse_card(code) for code in group] for group in groups])


def on_deal_seats(played: Round) -> frozenset[int]:
    """The seat of a saved round's winner on the deal (docs/rules §4), if there is one:
    what the form's "won on the deal" box shows."""
    players = played.entries.filter(on_deal=True).values_list("player_id", flat=True)
    return frozenset(
        played.session.seats.filter(player_id__in=list(players)).values_list("pk", flat=True)
    )


def edit_form_data(played: Round) -> dict[str, object]:
    """The edit form's fields for a saved round, as the edit page first shows them:
    the cut joker, each seat's outcome and groups, the winner on the deal, and the
    version the edit starts from."""
    cut, hands = initial_values(played)
    data: dict[str, object] = {"cut_joker": cut, "version": played.version}
    for seat_pk, (outcome, text) in hands.items():
        data[f"outcome_{seat_pk}"] = outcome
        data[f"groups_{seat_pk}"] = text
    for seat_pk in on_deal_seats(played):
        data[f"on_deal_{seat_pk}"] = "on"
    return data


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
        raise RulesError("Enter the cut joker first: the best grouping depends on it.") from None
    cards = [card for group in parse_groups(groups_text) for card in group]  # CardError
    if not cards:
        raise RulesError("Type the cards first, in any order.")
    return format_groups(arrange(ruleset, cut, cards, on_deal).groups)


@dataclass
class PlayerCheck:
    """One player's part of a round being entered, as the rules service sees it."""

    seat: Seat
    outcome: str | None
    text: str
    on_deal: bool = False  # marked as winning on the deal
    hand: PlayerHand | None = None  # None until the groups parse; as arranged if it was
    # The cards of groups that do not parse, read around their typos (empty groups
    # where a group is all typos): counted for copies of a card across the round.
    read_so_far: tuple[tuple[Card, ...], ...] = ()
    assessment: HandAssessment | None = None  # the live preview of ``hand`` (needs the cut)
    arranged: bool = False  # the solver's grouping replaced the one typed
    result: PlayerResult | None = None  # the settlement, once the round scores
    outcome_errors: list[str] = field(default_factory=list)
    groups_errors: list[str] = field(default_factory=list)
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
        if self.counted or self.assessment.declaration is not None:
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
        return self.outcome_errors + self.groups_errors

    @property
    def arranged_text(self) -> str:
        """The grouping the round is checked and saved with, in card notation, when
        the solver arranged it (for the field, if the user accepts it); else ""."""
        return format_groups(self.hand.groups) if self.arranged and self.hand else ""

    @property
    def counted(self) -> bool:
        """Whether the hand is counted card by card (a loser who showed)."""
        return self.outcome in SHOWN_OUTCOMES

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
        """Every hand read, and each one that shows cards holds a whole hand of them."""
        size = self.entry.ruleset.hand_size
        return all(
            p.hand is not None
            and (p.hand.outcome not in FULL_HAND_OUTCOMES or len(p.hand.cards) == size)
            for p in self.players
        )

    # What a settlement waits for, in words: the round form says "once …" of them.
    WAITING_FOR_CUT = "the cut joker is entered"
    WAITING_FOR_HANDS = "every hand is complete"
    WAITING_FOR_FIXES = "what is marked wrong is fixed"
    # A round nothing has been typed in yet.
    WAITING_FOR_ALL = (WAITING_FOR_CUT, WAITING_FOR_HANDS)

    @property
    def waiting_for(self) -> list[str]:
        """What the round's settlement waits for (nothing once it is scored): the cut
        joker, a hand short of cards, something marked wrong."""
        if self.result is not None:
            return []
        waits = []
        if self.cut is None and not self.cut_errors:
            waits.append(self.WAITING_FOR_CUT)
        if not self.complete:
            waits.append(self.WAITING_FOR_HANDS)
        if self.has_errors:
            waits.append(self.WAITING_FOR_FIXES)
        return waits


_PLAYER_FIELD = re.compile(r"players\[(\d+)\]\.(\w+)")
# How many of a hand's typos are said one by one; more are counted in one line.
TYPOS_SAID = 3


# A round as typed: each seat id's (outcome, groups text), None where the form refused it.
TypedHands = Mapping[int, tuple[str | None, str | None]]


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


def _read_hands(entry: RoundEntry, cut_text, hands: TypedHands, *, final, on_deal) -> RoundCheck:
    """The cut joker and each hand of ``entry.seats`` read and previewed on its own
    (check_round's first half, and all of check_hand's)."""
    check = RoundCheck(entry=entry, cut=None, players=[])
    ruleset = entry.ruleset
    if cut_text:
        try:
            check.cut = parse_card(cut_text)
        except CardError as error:
            check.cut_errors.append(f"Cut joker: {error.message}")
    elif cut_text is not None and final:
        check.cut_errors.append("Enter the cut joker, e.g. 8S.")
    if check.cut is not None:
        check.jokers = tuple(joker_roles(ruleset, check.cut).joker_codes)

    for seat in entry.seats:
        outcome, text = hands.get(seat.pk, (None, None))
        player = PlayerCheck(
            seat=seat, outcome=outcome, text=text or "", on_deal=seat.pk in on_deal
        )
        check.players.append(player)
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
                player.groups_errors.append(
                    f"and {more} more word that is not a card"
                    if more == 1
                    else f"and {more} more words that are not cards"
                )
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
) -> RoundCheck:
    """One player's hand on its own, as table mode enters it on the player's phone:
    previewed as check_round previews it (the cards in any order arranged by the
    solver) and, when ``final`` (handed in), refused for whatever the rules service
    finds wrong in that hand alone: a card that is no card, a hand of the wrong size,
    more copies of a card than the decks hold, a false declaration, an outcome not
    played. What needs the other hands (one winner, copies across the round) is
    checked once they are all in (check_round)."""
    one = dataclasses.replace(entry, seats=(seat,))
    wins_on_deal = (seat.pk,) if on_deal else ()
    check = _read_hands(
        one, cut_text, {seat.pk: (outcome, text)}, final=final, on_deal=wins_on_deal
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
    for error in errors:
        match = _PLAYER_FIELD.match(error.field)
        if match and int(match[1]) < len(players):
            player = players[int(match[1])]
            # Said without the player's name, which heads their fields and which the
            # lists of problems put first ("Esha: must show all 21 cards, not 22").
            message = error.beside
            # "Won on the deal" is part of the outcome's choice in the form.
            if match[2] in ("outcome", "on_deal"):
                player.outcome_errors.append(message)
            elif match[2] == "groups":
                player.groups_errors.append(message)
            else:
                check.errors.append(error.message)
            continue
        winners = [p for p in players if p.outcome in WINNING_OUTCOMES]
        if error.field == "players" and len(winners) > 1:
            # "More than one winner" names the round, not a player; it belongs
            # beside each of the players entered as winning.
            for player in winners:
                player.outcome_errors.append(error.message)
        elif error.field == "cut_joker":
            check.cut_errors.append(error.message)
        else:
            check.errors.append(error.message)


def breakdown_of(result: PlayerResult) -> dict:
    # "rule_applied" (why the hand points are not the groups' sum) only where a rule
    # replaced the count: rounds saved before it was kept show no such line.
    return {
        "lines": list(result.breakdown),
        **({"rule_applied": result.rule_applied} if result.rule_applied else {}),
        "groups": [
            {
                "cards": [card.code for card in group.cards],
                "kind": str(group.kind),
                "counted": group.counted,
                "left_out": group.left_out,
            }
            for group in result.groups
        ],
        "value_cards": [card.code for card in result.value_cards],
    }


class RoundConflict(EntryRejected):
    """Another device saved this round first: ``theirs`` is their version (None if
    they deleted it). Nothing of ours was written."""

    def __init__(self, message: str, theirs: Round | None) -> None:
        super().__init__(message)
        self.theirs = theirs


def round_snapshot(
    played: Round,
    authors: Mapping[int, str] | None = None,
    entries: Sequence[HandEntry] | None = None,
) -> dict:
    """A round as the audit trail keeps it: enough to show what it was. ``authors``
    (player id: who entered that hand, table mode) adds ``entered_by`` to each hand.
    ``entries``: its hands as the caller just wrote them, in the order written (that
    of their ids), their players loaded; otherwise they are read."""
    if entries is None:
        entries = played.entries.select_related("player").order_by("pk")
    authors = authors or {}
    hands = (
        {
            "player": entry.player.name,
            "outcome": entry.outcome,
            "on_deal": entry.on_deal,
            "groups": entry.groups,
            "score": entry.score,
            **({"entered_by": authors[entry.player_id]} if entry.player_id in authors else {}),
        }
        for entry in entries
    )
    dealer = played.dealer.player.name if played.dealer_id else None
    return RoundChange.round_then(played.cut_joker, dealer, played.version, hands)


@dataclass(frozen=True)
class HandChanged:
    """What an edit changed in one player's hand, each part as (before, after) and
    None where it stayed: the outcome in words, the score, the cards (those taken out,
    those put in; both empty when the same cards were only grouped otherwise) and who
    entered the hand (table mode's "Ben's phone"; "" for the round form)."""

    player: str
    outcome: tuple[str, str] | None = None
    score: tuple[int | None, int | None] | None = None
    cards: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    entered_by: tuple[str, str] | None = None


@dataclass(frozen=True)
class RoundChanged:
    """What an edit changed in a round, from its audit snapshots: the cut joker and
    the dealer as (before, after) where they changed, and each hand that changed, in
    the round's order."""

    cut_joker: tuple[str, str] | None = None
    dealer: tuple[str, str] | None = None
    hands: tuple[HandChanged, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.cut_joker or self.dealer or self.hands)


# A player missing from one side of an edit (the stored snapshots allow it).
NOT_IN_THE_ROUND = "not in the round"


def _outcome_words(hand: Mapping | None) -> str:
    if hand is None:
        return NOT_IN_THE_ROUND
    return HandEntry.outcome_words(hand["outcome"]) + (
        " on the deal" if hand.get("on_deal") else ""
    )


def _cards_changed(before: Mapping | None, after: Mapping | None, outcome_changed: bool):
    """(taken out, put in), each in the order the hand holds them; ((), ()) when only
    the grouping changed; None when nothing did, or when one side shows no cards
    because its outcome (a drop) says so already."""
    old = [card for group in (before or {}).get("groups") or () for card in group]
    new = [card for group in (after or {}).get("groups") or () for card in group]
    if outcome_changed and not (old and new):
        return None
    if sorted(old) == sorted(new):
        same_groups = (before or {}).get("groups") == (after or {}).get("groups")
        return None if same_groups else ((), ())
    return _minus(old, new), _minus(new, old)


def _minus(cards: list[str], less: list[str]) -> tuple[str, ...]:
    """``cards`` without one copy of each card of ``less`` (two decks hold two)."""
    left = Counter(less)
    kept = []
    for card in cards:
        if left[card]:
            left[card] -= 1
        else:
            kept.append(card)
    return tuple(kept)


def _pair(before, after):
    return None if before == after else (before, after)


def round_changed(before: Mapping, after: Mapping) -> RoundChanged:
    """What an edit changed, read from its audit snapshots (round_snapshot's): what
    the history shows first, the two whole rounds only folded under it."""
    old = {hand["player"]: hand for hand in before.get("entries", ())}
    new = {hand["player"]: hand for hand in after.get("entries", ())}
    names = list(old) + [name for name in new if name not in old]
    hands = []
    for name in names:
        was, now = old.get(name), new.get(name)
        outcome = _pair(_outcome_words(was), _outcome_words(now))
        changed = HandChanged(
            player=name,
            outcome=outcome,
            score=_pair(was and was.get("score"), now and now.get("score")),
            cards=_cards_changed(was, now, outcome is not None),
            entered_by=_pair((was or {}).get("entered_by", ""), (now or {}).get("entered_by", "")),
        )
        if changed != HandChanged(player=name):
            hands.append(changed)
    return RoundChanged(
        cut_joker=_pair(before.get("cut_joker") or "", after.get("cut_joker") or ""),
        dealer=_pair(before.get("dealer") or "", after.get("dealer") or ""),
        hands=tuple(hands),
    )


def _record(
    played: Round,
    action: str,
    user: AnyUser,
    before: dict | None,
    after: dict | None,
    name: str = "",
) -> None:
    """One change of the history, by ``user``, else by ``name`` (a round that saved
    itself in table mode): the history says who as the round page does."""
    changed_by = user if user.is_authenticated else None
    RoundChange.objects.create(
        session_id=played.session_id,
        round=played if action != RoundChange.Action.DELETED else None,
        number=played.number,
        action=action,
        changed_by=changed_by,
        changed_by_name=name if changed_by is None else "",
        before=before,
        after=after,
    )


def _changed_on_another_device(played: Round | None, what: str) -> str:
    if played is None:
        return f"{what} was deleted on another device meanwhile. Nothing of yours was saved."
    who = played.entered_by.get_username() if played.entered_by else "someone"
    return (
        f"{what} was saved on another device by {who} meanwhile: their version is shown. "
        "Nothing of yours was saved; what you typed is still here."
    )


def _edit_already_saved(
    current: Round | None, check: RoundCheck, user: AbstractBaseUser | None, version: int | None
) -> bool:
    """Whether ``current`` is exactly what this edit would write, written by this user
    as the very next version: the same form sent again after its answer was lost (an
    edit has no submission token, so its content and version stand in for one)."""
    if current is None or version is None or user is None:
        return False
    if current.version != version + 1 or current.entered_by_id != user.pk:
        return False
    stored = [
        (entry.player_id, entry.outcome, entry.on_deal, entry.groups)
        for entry in current.entries.order_by("pk")
    ]
    typed = [
        (
            player.seat.player_id,
            result.outcome,
            result.on_deal,
            [[card.code for card in group] for group in player.hand.groups],
        )
        for player, result in zip(check.players, check.result.players, strict=True)
        if player.hand is not None
    ]
    return current.cut_joker == check.cut.code and stored == typed


def save_round(entry: RoundEntry, check: RoundCheck, user: AnyUser, **options) -> Round:
    """Save a checked round: a new one at the end, or an edit of ``entry.round``. The
    options are ``save_and_replay``'s, which also answers with the score table after
    it; this is for the callers that need only the round."""
    return save_and_replay(entry, check, user, **options).round


@dataclass(frozen=True)
class SavedRound:
    """A round as saved, and the session's score table after it."""

    round: Round
    board: Scoreboard  # the session after the save, replayed once
    stamp_before: str  # the session's live stamp just before the save
    repeated: bool = False  # nothing written: this very form had been saved already


def _still_current(board: Scoreboard | None, locked: GameSession) -> Scoreboard | None:
    """``board`` if it still shows the session as it is under the lock: every change to
    a session's rounds, rejoins or closing saves its row, which moves ``updated_at``
    (the live stamp), so an unchanged stamp means an unchanged table."""
    if board is None or board.saved is None or board.session.pk != locked.pk:
        return None
    return board if board.session.updated_at == locked.updated_at else None


def save_and_replay(
    entry: RoundEntry,
    check: RoundCheck,
    user: AnyUser,
    *,
    board: Scoreboard | None = None,
    version: int | None = None,
    expected_number: int | None = None,
    submission: str | None = None,
    authors: Mapping[int, str] | None = None,
    entered_by_name: str = "",
) -> SavedRound:
    """Save a checked round: a new one at the end, or an edit of ``entry.round``.

    A new round is saved only as round ``expected_number`` (the number its form
    showed) and only once per ``submission`` token: the same token again returns
    the round it saved (a double tap, a retried request). An edit saves only if the
    round is still at ``version``. Otherwise RoundConflict (another device saved
    first) or EntryRejected is raised and nothing is saved.

    ``board`` is the score table ``entry`` was made from: when nothing changed the
    session since it was read, the table after the save is that one replayed with
    the round saved, and the session's rounds are not read again (a save then costs
    the same at round 500 as at round 10, apart from the rules service's replay).

    Table mode passes who entered each hand (``authors``, by player id) for the
    audit trail and, for a round that saved itself, ``entered_by_name``. A new round
    however saved ends the table's entry of it: phones still on it are told so."""
    if not check.valid or check.cut is None or check.result is None:
        raise ValueError("only a round the rules service scored can be saved")
    entered_by = user if user.is_authenticated else None
    with transaction.atomic():
        # Lock the session row: two phones saving at once are serialised here.
        session = GameSession.objects.select_for_update().get(pk=entry.session.pk)
        stamp_before = live_stamp(session)
        board = _still_current(board, session)
        if entry.round is None:
            if submission:
                # By id: Round's default order (by session) would join the session row.
                done = session.rounds.filter(submission=submission).order_by("pk").first()
                if done is not None:  # this very form was saved already
                    board = board or load_scoreboard(session)
                    return SavedRound(done, board, stamp_before, repeated=True)
            if board is not None:  # read since the last change: it holds every round
                last = board.saved.rounds[-1][1] if board.saved.rounds else 0
            else:
                last = session.rounds.aggregate(last=Max("number"))["last"] or 0
            if expected_number is not None and expected_number != last + 1:
                theirs = session.rounds.filter(number=expected_number).first()
                what = f"Round {expected_number}"
                raise RoundConflict(_changed_on_another_device(theirs, what), theirs)
            board = board or load_scoreboard(session)
            if board.finished:
                raise EntryRejected("This session is over: it takes no new rounds.")
            if [s.pk for s in board.playing_seats] != [s.pk for s in entry.seats]:
                raise EntryRejected(
                    "The table changed while this round was typed: reload and enter it again."
                )
            played = Round.objects.create(
                session=session,
                number=last + 1,
                dealer=board.next_dealer,
                cut_joker=check.cut.code,
                entered_by=entered_by,
                entered_by_name=entered_by_name if entered_by is None else "",
                submission=submission or None,
            )
            TableRound.objects.filter(session=session, number__lte=played.number).delete()
            before = None
        else:
            current = session.rounds.select_related("entered_by").filter(pk=entry.round.pk).first()
            if _edit_already_saved(current, check, entered_by, version):
                board = board or load_scoreboard(session)
                return SavedRound(current, board, stamp_before, repeated=True)
            if current is None or current.version != version:
                what = f"Round {entry.round.number}"
                raise RoundConflict(_changed_on_another_device(current, what), current)
            before = round_snapshot(current)
            Round.objects.filter(pk=current.pk).update(
                cut_joker=check.cut.code,
                entered_by=entered_by,
                version=F("version") + 1,
                updated_at=timezone.now(),
            )
            played = Round.objects.select_related("dealer__player").get(pk=current.pk)
            played.entries.all().delete()
        hands = HandEntry.objects.bulk_create(_scored_hands(played, check))
        action = RoundChange.Action.CREATED if before is None else RoundChange.Action.EDITED
        after = round_snapshot(played, authors, hands)
        _record(played, action, user, before, after, entered_by_name)
        if board is not None:
            # The table as it was, with this round as now saved: no second read.
            board = with_round(board, played, {hand.player_id: hand.score for hand in hands})
        board = refresh_session(session, board)
        # The board's session row (the caller's) now shows the status and stamp written.
        board.session.status, board.session.updated_at = session.status, session.updated_at
    return SavedRound(played, board, stamp_before)


def _scored_hands(played: Round, check: RoundCheck) -> list[HandEntry]:
    """The hands of a round the rules service scored, as saved: what was entered (the
    grouping the check kept or arranged) and what the rules made of it."""
    return [
        HandEntry(
            round=played,
            player=player.seat.player,
            outcome=result.outcome,
            on_deal=result.on_deal,
            groups=[[card.code for card in group] for group in player.hand.groups],
            declaration=result.declaration or "",
            hand_points=result.hand_points,
            value_points=result.value_points,
            claims=result.claims,
            score=result.score,
            breakdown=breakdown_of(result),
        )
        for player, result in zip(check.players, check.result.players, strict=True)
        if player.hand is not None
    ]


# What saving a checked hand writes besides its round and player: as entered (the
# grouping kept or arranged) and as the rules service scored it.
SCORED_FIELDS = (*(name for name in HandEntry.RECORDED if name != "player"), "breakdown")


# A hand as a round records it, by player id: its outcome, its groups of card codes and
# whether it won on the deal.
RecordedHand = tuple[str, Sequence[Sequence[str]], bool]


def check_recorded(played: Round, cut: str, hands: Mapping[int, RecordedHand]) -> RoundCheck:
    """``played`` as it would be with the cut joker ``cut`` and ``hands`` (by player
    id), checked as the round page checks a save: the admin's edits of a round's hands
    go through it. Its ``problems`` say what stops it, each naming its player."""
    entry = round_entry_for_edit(played)
    seat_of = {seat.player_id: seat.pk for seat in entry.seats}
    typed = {
        seat_of[player]: (outcome, groups_text(groups))
        for player, (outcome, groups, _) in hands.items()
        if player in seat_of
    }
    on_deal = [seat_of[player] for player, (*_, won) in hands.items() if won and player in seat_of]
    check = check_round(entry, cut, typed, final=True, on_deal=on_deal)
    if set(hands) - set(seat_of):
        check.errors.append(
            "A hand of a player who was not playing this round: seated elsewhere or out."
        )
    check.errors += [
        f"{seat.player.name} has no hand: every player in the round needs one."
        for seat in entry.seats
        if seat.pk not in typed
    ]
    return check


def locked_version(played: Round) -> int | None:
    """Lock ``played``'s session as a save locks it, in the caller's transaction (a
    phone saving meanwhile waits, then finds the round changed), and read the round's
    version now: None if it was deleted meanwhile."""
    GameSession.objects.select_for_update().filter(pk=played.session_id).first()
    return Round.objects.filter(pk=played.pk).values_list("version", flat=True).first()


def begin_edit(played: Round) -> dict:
    """Start changing a saved round outside the round page (the admin), in the
    caller's transaction, its session locked (``locked_version``). Returns the round
    as it is (``round_snapshot``), for ``rescore_round``."""
    locked_version(played)
    return round_snapshot(Round.objects.get(pk=played.pk))


def problems(check: RoundCheck) -> list[str]:
    """Everything that stops a checked round, each problem of a player after their name."""
    listed = [
        *check.cut_errors,
        *check.errors,
        *(f"{player.name}: {error}" for player in check.players for error in player.errors),
    ]
    return listed or ([] if check.valid else ["The round could not be scored."])


def rescore_round(played: Round, user: AnyUser, before: dict, check: RoundCheck) -> None:
    """A round whose hands were changed outside the round page (the admin), saved with
    the rules service's figures: ``check`` is its hands as saved, checked valid with
    the session locked (``check_recorded``, ``locked_version``), so they are what the
    round records now. Where that changed it (``before`` is its ``round_snapshot``
    before the change), its version moves (a phone holding the old one must not save
    over it) and the history keeps the change, by ``user``. The caller refreshes the
    session (``refresh_session``), as after every other change of its rounds."""
    with transaction.atomic():
        # In place: each hand keeps its id (the admin's page of it stays where it was).
        stored = {entry.player_id: entry for entry in played.entries.select_related("player")}
        hands = []
        for scored in _scored_hands(played, check):
            hand = stored[scored.player.pk]
            for name in SCORED_FIELDS:
                setattr(hand, name, getattr(scored, name))
            hands.append(hand)
        hands.sort(key=lambda hand: hand.pk)  # the history lists them as written
        after = round_snapshot(played, None, hands)
        if {**after, "version": None} == {**before, "version": None}:
            return  # saved as it was: no new version, nothing for the history
        HandEntry.objects.bulk_update(hands, SCORED_FIELDS)
        Round.objects.filter(pk=played.pk).update(
            version=F("version") + 1, updated_at=timezone.now()
        )
        played.refresh_from_db(fields=["version", "updated_at"])
        after["version"] = played.version
        _record(played, RoundChange.Action.EDITED, user, before, after)


def delete_round(played: Round, user: AnyUser, *, version: int | None = None) -> int:
    """Delete a round and close the gap: later rounds move up one number, in
    ascending order and one row at a time, so (session, number) stays unique at
    every step (PostgreSQL checks it per row, not at the end of the statement).
    With ``version``, only if nobody changed the round since (else RoundConflict).
    Returns how many later rounds moved up."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=played.session_id)
        current = (
            session.rounds.select_related("entered_by", "dealer__player")
            .filter(pk=played.pk)
            .first()
        )
        what = f"Round {played.number}"
        if current is None or (version is not None and current.version != version):
            raise RoundConflict(_changed_on_another_device(current, what), current)
        _record(current, RoundChange.Action.DELETED, user, round_snapshot(current), None)
        number = current.number
        Round.objects.filter(pk=current.pk).delete()
        later = list(
            session.rounds.filter(number__gt=number).order_by("number").values_list("pk", flat=True)
        )
        for pk in later:
            Round.objects.filter(pk=pk).update(number=F("number") - 1)
        refresh_session(session)
    return len(later)


# The history shows this many of the latest changes; older ones are a tap away, as the
# score table's older rounds are (a 42-round session's changes were 31 phone screens).
LATEST_CHANGES = 10


def changes_of(
    session: GameSession, played: Round | None = None, *, first: int | None = None
) -> Fold[RoundChange]:
    """The audit trail of a session (or of one of its rounds), newest first, folded as
    the score table is: the latest changes, or from change ``first`` (counted from the
    oldest) on when the reader asked for older ones."""
    changes = session.changes.select_related("changed_by")
    if played is not None:
        changes = changes.filter(round=played)
    # The changes shown and how many there are, in ONE statement (as the score table
    # reads its rounds): counted and fetched apart, a change saved in between (another
    # phone's round) would push the window one along, under numbers and a count that
    # no longer match it. Each change's place is counted from the oldest.
    places = changes.annotate(
        total=Window(Count("pk")),
        place=Window(RowNumber(), order_by=(F("changed_at").asc(), F("pk").asc())),
    )
    # fold_start's choice, made in the query: the latest ones, and any from ``first`` on.
    # A filter on the windows is applied after them (Django wraps the query), so the
    # total and the places still count every change, not only the ones shown.
    shown = Q(place__gt=F("total") - LATEST_CHANGES)
    if first is not None and first >= 1:
        shown |= Q(place__gte=first)
    rows = tuple(places.filter(shown).order_by("-changed_at", "-pk"))
    # An edit says what it changed first; the whole rounds before and after are folded.
    for change in rows:
        both = change.before is not None and change.after is not None
        change.what_changed = round_changed(change.before, change.after) if both else None
    start, pinned = fold_start(rows[0].total if rows else 0, latest=LATEST_CHANGES, first=first)
    return Fold(rows=rows, first=start, pinned=pinned, step=LATEST_CHANGES)
