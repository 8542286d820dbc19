"""A round's hands changed outside the round page (the admin's pages): checked as a
save checks them, with the session locked as a save locks it, and saved with the rules
service's figures, the change kept in the round's history.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import GameSession, HandEntry, Round, RoundChange
from games.rules import HandFigures
from games.services import round_messages as say
from games.services.round_audit import record_change, round_snapshot
from games.services.round_checks import RoundCheck, TypedHand, check_round
from games.services.round_entries import groups_text, round_entry_for_edit
from games.services.round_saves import SCORED_FIELDS, scored_hands


class RecordedHand(NamedTuple):
    """A hand as a round records it: its outcome, its groups of card codes, whether
    it won on the deal, and the figures of a hand counted at the table."""

    outcome: str
    groups: Sequence[Sequence[str]]
    on_deal: bool
    figures: HandFigures | None = None  # a hand counted at the table


def check_recorded(played: Round, cut: str, hands: Mapping[int, RecordedHand]) -> RoundCheck:
    """``played`` as it would be with the cut joker ``cut`` and ``hands`` (by player
    id), checked as the round page checks a save: the admin's edits of a round's hands
    go through it. Its ``problems`` say what stops it, each naming its player."""
    entry = round_entry_for_edit(played)
    seat_of = {seat.player_id: seat.pk for seat in entry.seats}
    typed = {
        seat_of[player]: TypedHand(hand.outcome, groups_text(hand.groups), hand.figures)
        for player, hand in hands.items()
        if player in seat_of
    }
    on_deal = [
        seat_of[player] for player, hand in hands.items() if hand.on_deal and player in seat_of
    ]
    check = check_round(entry, cut, typed, final=True, on_deal=on_deal)
    if set(hands) - set(seat_of):
        check.errors.append(str(say.HAND_OF_NO_PLAYER))
    check.errors += [say.no_hand(seat.player.name) for seat in entry.seats if seat.pk not in typed]
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


def rescore_round(
    played: Round, user: AbstractBaseUser | AnonymousUser, before: dict, check: RoundCheck
) -> None:
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
        for scored in scored_hands(played, check):
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
        record_change(played, RoundChange.Action.EDITED, user, before, after)
