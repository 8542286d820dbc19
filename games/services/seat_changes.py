"""Mending the table's seats mid-session: taking back the last join or leave.
(Joining and leaving themselves are games/services/sessions.py's, with the toss they
call for.)
"""

from __future__ import annotations

from django.db import transaction

from games.models import GameSession, HandEntry, Player, PlayerClaim, Seat, SeatChange
from games.services.errors import EntryRejected
from games.services.results import refresh_session
from games.services.scoreboard import ChangeMade, load_scoreboard

_WHAT = {SeatChange.Kind.JOIN: "joining", SeatChange.Kind.LEAVE: "leaving"}


def take_back_change(session: GameSession, change_pk: int) -> ChangeMade:
    """Take back the latest join or leave, with the seating a toss dealt after it,
    while the rules service allows it: until the next round is played (a page left
    open, a forged post, or an older change are refused). A latecomer's seat goes with
    their join (they played no round on it), and the player too where the join made
    them and nothing else holds them. Answers the change taken back."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        board = load_scoreboard(session)
        made = board.last_change
        if made is None or made.pk != change_pk:
            raise EntryRejected(
                "That join or leave was already taken back, or is no longer the latest: "
                "only the latest may be."
            )
        problem = board.change_take_back_problem(made)
        what = f"{made.name}'s {_WHAT[SeatChange.Kind(made.kind)]} after round {made.after_round}"
        if problem:
            raise EntryRejected(f"{what} can no longer be taken back: {problem}.")
        stored = SeatChange.objects.select_related("seat").get(pk=made.pk)
        # The toss a change dealt follows it in the same gap: nothing else seats the
        # table anew, and any later change would be the latest instead.
        session.seat_changes.filter(
            kind=SeatChange.Kind.SEATING, after_round=made.after_round, pk__gt=made.pk
        ).delete()
        if stored.kind == SeatChange.Kind.JOIN:
            seat = stored.seat
            if HandEntry.objects.filter(round__session=session, player=seat.player_id).exists():
                raise EntryRejected(f"{what} can no longer be taken back: they have played.")
            seat.delete()  # with its join, and any hand typed on a phone for it
            _drop_if_unheld(seat.player_id)
        else:
            stored.delete()
        refresh_session(session)
    return made


def _drop_if_unheld(player_id: int) -> None:
    """Delete a player no seat and no claim holds any more: a latecomer typed in
    error, taken back. (Their ratings and months go with them.)"""
    held = Seat.objects.filter(player_id=player_id).exists()
    if not held and not PlayerClaim.objects.filter(player_id=player_id).exists():
        Player.objects.filter(pk=player_id).delete()
