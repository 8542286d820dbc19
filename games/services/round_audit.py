"""A round's audit trail: the round as each change keeps it, the change written beside
the write that made it, and what an edit changed, read back from the two rounds kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from games.access import AnyUser
from games.models import HandEntry, Round, RoundChange


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
