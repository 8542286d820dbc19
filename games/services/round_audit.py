"""A round's audit trail: the round as each change keeps it, the change written beside
the write that made it, and what an edit changed, read back from the two rounds kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext, gettext_lazy

from games.access import AnyUser
from games.models import HandEntry, Round, RoundChange
from games.rules import FIGURES, NUMBER_FIGURES


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
            # Only a hand counted at the table says so: snapshots of hands entered by
            # their cards stay as they were.
            **({"counted": True, "figures": entry.figures} if entry.counted else {}),
            "score": entry.score,
            **({"entered_by": authors[entry.player_id]} if entry.player_id in authors else {}),
        }
        for entry in entries
    )
    dealer = played.dealer.player.name if played.dealer_id else None
    return RoundChange.round_then(played.cut_joker, dealer, played.version, hands)


class FigureChanged(NamedTuple):
    """A figure of a hand counted at the table that an edit changed, in words: "count",
    "96", "102"; "none" where one side did not give it."""

    figure: str
    before: str
    after: str


@dataclass(frozen=True)
class HandChanged:
    """What an edit changed in one player's hand, each part as (before, after) and
    None where it stayed: the outcome in words, the score, the cards (those taken out,
    those put in; both empty when the same cards were only grouped otherwise), how the
    hand was entered where the edit turned its cards into a count at the table or back
    (each side "cards", the counted hand in words, or "" for a hand with no cards, a
    drop), a counted hand's figures, and who entered the hand (table mode's "Ben's
    phone"; "" for the round form)."""

    player: str
    outcome: tuple[str, str] | None = None
    score: tuple[int | None, int | None] | None = None
    cards: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    entered: tuple[str, str] | None = None
    figures: tuple[FigureChanged, ...] = ()
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
# Translators: in a round's history, where a player's outcome would be.
NOT_IN_THE_ROUND = gettext_lazy("not in the round")


def _outcome_words(hand: Mapping | None) -> str:
    if hand is None:
        return str(NOT_IN_THE_ROUND)
    outcome = HandEntry.outcome_words(hand["outcome"])
    if hand.get("on_deal"):
        # Translators: a winner's outcome ("Declared") when the hand won as dealt.
        return gettext("{outcome} on the deal").format(outcome=outcome)
    return outcome


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


def _entered(hand: Mapping | None) -> str:
    """How a hand of a snapshot was entered, as the history says it: "cards", a hand
    counted at the table in words, or "" (no hand, or one with no cards: a drop)."""
    if hand is None:
        return ""
    if hand.get("counted"):
        return HandEntry.counted_words(hand["outcome"], hand.get("figures") or {})
    # Translators: how a hand was entered, in a round's history: by its cards.
    return gettext("cards") if hand.get("groups") else ""


def _entered_changed(before: Mapping | None, after: Mapping | None) -> tuple[str, str] | None:
    """(before, after) where an edit turned a hand's cards into a count at the table, or
    a count into cards; None otherwise, or where the hand has nothing after it (its new
    outcome, a drop, says so already)."""
    was, now = _entered(before), _entered(after)
    counted = (bool((before or {}).get("counted")), bool((after or {}).get("counted")))
    if counted[0] == counted[1] or not now:
        return None
    return was, now


def _figure(figures: Mapping, name: str) -> object:
    """A figure as given, a yes-or-no one not given being no (as_dict leaves it out)."""
    value = figures.get(name)
    return value if name in NUMBER_FIGURES else bool(value)


def _figure_words(value: object) -> str:
    if value is None:
        # Translators: a figure of a counted hand that was not given.
        return gettext("none")
    if isinstance(value, bool):
        # Translators: a yes-or-no figure of a counted hand ("free hand: yes").
        return gettext("yes") if value else gettext("no")
    return str(value)


def _figures_changed(before: Mapping | None, after: Mapping | None) -> tuple[FigureChanged, ...]:
    """Each figure that differs between two hands both counted at the table."""
    if not ((before or {}).get("counted") and (after or {}).get("counted")):
        return ()
    assert before is not None and after is not None
    was, now = before.get("figures") or {}, after.get("figures") or {}
    return tuple(
        FigureChanged(
            str(HandEntry.FIGURE_WORDS[name]),
            _figure_words(_figure(was, name)),
            _figure_words(_figure(now, name)),
        )
        for name in FIGURES
        if _figure(was, name) != _figure(now, name)
    )


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
        # Cards are compared only between two hands entered by their cards: a count
        # at the table in place of cards says so in words (entered).
        by_cards = not ((was or {}).get("counted") or (now or {}).get("counted"))
        changed = HandChanged(
            player=name,
            outcome=outcome,
            score=_pair(was and was.get("score"), now and now.get("score")),
            cards=_cards_changed(was, now, outcome is not None) if by_cards else None,
            entered=_entered_changed(was, now),
            figures=_figures_changed(was, now),
            entered_by=_pair((was or {}).get("entered_by", ""), (now or {}).get("entered_by", "")),
        )
        if changed != HandChanged(player=name):
            hands.append(changed)
    return RoundChanged(
        cut_joker=_pair(before.get("cut_joker") or "", after.get("cut_joker") or ""),
        dealer=_pair(before.get("dealer") or "", after.get("dealer") or ""),
        hands=tuple(hands),
    )


def record_change(
    played: Round,
    action: str,
    user: AnyUser,
    before: dict | None,
    after: dict | None,
    name: str = "",
) -> None:
    """One change of the history, by ``user``, else by ``name`` (a round that saved
    itself in table mode): the history says who as the round page does."""
    changed_by = signed_in_or_none(user)
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


def signed_in_or_none(user: AnyUser) -> AbstractBaseUser | None:
    """Who a round or a change records as its author: a user signed in, else nobody
    (table mode's phones and a round that saved itself are named instead)."""
    return user if user.is_authenticated else None
