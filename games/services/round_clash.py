"""A round typed on this phone against the round another phone saved under its
number: whether they are the same round (the same cut joker and, player by player,
the same outcome and cards), and the two side by side, for the person who must keep
one.

Two phones at one table fill in the same round; the first saves it. The second's
round is then either that round again (nothing to add: saving it would store it
twice) or another round (to save as the next one, knowingly). Cards are compared as
a hand holds them, in any grouping: the same cards grouped another way are the same
hand. A hand counted at the table is the same as another counted with the same
figures; never the same as a hand of cards, even one that counts as much: which of
the two to keep is for the person holding the phones to say.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from games.models import HandEntry, Round
from games.services.round_checks import RoundCheck


@dataclass(frozen=True)
class ClashHand:
    """One player's hand in one of the two rounds, as the comparison shows it."""

    outcome: str
    on_deal: bool
    groups: tuple[tuple[str, ...], ...]  # card codes, as grouped
    score: int | None
    # A hand counted at the table: its figures (HandFigures.as_dict), none for cards.
    figures: Mapping[str, object] | None = None

    @property
    def counted(self) -> bool:
        return self.figures is not None

    @property
    def held(self) -> Counter[str]:
        """The cards held, whatever their grouping."""
        return Counter(code for group in self.groups for code in group)

    def same_as(self, other: ClashHand | None) -> bool:
        return (
            other is not None
            and (self.outcome, self.on_deal) == (other.outcome, other.on_deal)
            and self.figures == other.figures
            and self.held == other.held
        )


@dataclass(frozen=True)
class ClashRow:
    """A player's hand in theirs and in mine (None: no hand in that round)."""

    name: str
    theirs: ClashHand | None
    mine: ClashHand | None

    @property
    def same(self) -> bool:
        return self.mine.same_as(self.theirs) if self.mine else self.theirs is None

    @property
    def hands(self) -> tuple[ClashHand | None, ClashHand | None]:
        """Theirs, then mine: the order of the comparison's columns."""
        return self.theirs, self.mine


@dataclass(frozen=True)
class Clash:
    """Their round (saved) beside mine (typed here), row by row."""

    theirs: Round
    cut_theirs: str
    cut_mine: str
    rows: tuple[ClashRow, ...]

    @property
    def same_cut(self) -> bool:
        return self.cut_theirs == self.cut_mine

    @property
    def same(self) -> bool:
        """Mine is their round entered again: nothing of it is new."""
        return self.same_cut and all(row.same for row in self.rows)

    @property
    def differs(self) -> tuple[str, ...]:
        """The players whose hands differ, in seat order."""
        return tuple(row.name for row in self.rows if not row.same)


def clash_of(theirs: Round, check: RoundCheck) -> Clash:
    """Their saved round beside the round ``check`` holds (checked and scored), player
    by player in the order of ``check`` (the seats), then any player only theirs has."""
    saved = {hand.player.name: _saved_hand(hand) for hand in theirs.entries.all()}
    mine = _typed_hands(check)
    names = [player.name for player in check.players]
    names += [name for name in saved if name not in names]
    rows = tuple(ClashRow(name, saved.get(name), mine.get(name)) for name in names)
    cut = check.cut.code if check.cut else ""
    return Clash(theirs, theirs.cut_joker, cut, rows)


def same_round(saved: Round, check: RoundCheck) -> bool:
    """Whether ``check`` holds ``saved`` again: its cut joker, and every player's
    outcome and cards, or figures counted at the table."""
    return clash_of(saved, check).same


def _saved_hand(hand: HandEntry) -> ClashHand:
    groups = tuple(tuple(group) for group in hand.groups)
    figures = hand.figures if hand.counted else None
    return ClashHand(hand.outcome, hand.on_deal, groups, hand.score, figures)


def _typed_hands(check: RoundCheck) -> dict[str, ClashHand]:
    results = {result.name: result for result in check.result.players} if check.result else {}
    hands = {}
    for player in check.players:
        result = results.get(player.name)
        if player.hand is None or result is None:
            continue
        groups = tuple(tuple(card.code for card in group) for group in player.hand.groups)
        figures = player.hand.figures.as_dict() if player.hand.figures is not None else None
        hands[player.name] = ClashHand(
            result.outcome, result.on_deal, groups, result.score, figures
        )
    return hands
