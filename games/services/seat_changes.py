"""Mending the table's seats mid-session: taking back the last join or leave, and
correcting the name a player was seated under. (Joining and leaving themselves are
games/services/sessions.py's, with the toss they call for.)
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from games.access import AnyUser
from games.models import GameSession, HandEntry, Player, PlayerClaim, Seat, SeatChange
from games.names import clean_name
from games.services import standing_months
from games.services.errors import EntryRejected
from games.services.results import refresh_session
from games.services.round_audit import signed_in_or_none
from games.services.scoreboard import ChangeMade, load_scoreboard
from games.services.sessions import lock_seating, name_key, players_for_seats


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
                _(
                    "That join or leave was already taken back, or is no longer the latest: "
                    "only the latest may be."
                )
            )
        problem = board.change_take_back_problem(made)
        said = {"player": made.name, "round": made.after_round}
        if problem:
            if made.kind == SeatChange.Kind.JOIN:
                message = _(
                    "{player}'s joining after round {round} can no longer be taken back: {problem}."
                )
            else:
                message = _(
                    "{player}'s leaving after round {round} can no longer be taken back: {problem}."
                )
            raise EntryRejected(message.format(problem=problem, **said))
        stored = SeatChange.objects.select_related("seat").get(pk=made.pk)
        # The toss a change dealt follows it in the same gap: nothing else seats the
        # table anew, and any later change would be the latest instead.
        session.seat_changes.filter(
            kind=SeatChange.Kind.SEATING, after_round=made.after_round, pk__gt=made.pk
        ).delete()
        if stored.kind == SeatChange.Kind.JOIN:
            seat = stored.seat
            if HandEntry.objects.filter(round__session=session, player=seat.player_id).exists():
                raise EntryRejected(
                    _(
                        "{player}'s joining after round {round} can no longer be taken "
                        "back: they have played."
                    ).format(**said)
                )
            seat.delete()  # with its join, and any hand typed on a phone for it
            _drop_if_unheld(seat.player_id)
        else:
            stored.delete()
        refresh_session(session)
    return made


def rename(session: GameSession, seat: Seat, typed_name: str, user: AnyUser) -> SeatChange:
    """Correct the name a player was seated under (a name typed wrong), at any time.

    The policy: no player is ever renamed, as one player may sit at other tables and
    in other clubs. The seat is pointed at the player of the corrected name, found
    exactly as seating finds a typed name (``players_for_seats``: a player of that
    name the user already sees at a table, the league's first, else a new one), so
    another club's player is never renamed nor revealed. Refused where that player
    already has a seat at this table, and for a blank name or one that is no name.
    The seat's hands in this session's rounds go with it; the player it had, left
    with no seat anywhere and nobody's claim, is deleted (it was only the typo).

    Stored as a SeatChange (RENAME) with both names, for the history ("Ravee
    was renamed Ravi"); the rounds, totals and exports read every name through the seat,
    so they show the new one at once. Its standings and ratings move with it."""
    max_length = Player._meta.get_field("name").max_length
    try:
        # NFKC, as the new-session form seats a typed name: look-alike letters are
        # the letters they look like.
        name = clean_name(unicodedata.normalize("NFKC", typed_name), max_length=max_length)
    except ValidationError as error:
        raise EntryRejected(" ".join(error.messages)) from error
    if not name:
        raise EntryRejected(_("Say the name to seat them under."))
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session.pk)
        seat = session.seats.select_related("player").filter(pk=seat.pk).first()
        if seat is None:
            raise EntryRejected(_("That player has no seat at this table."))
        old = seat.player
        lock_seating(user, session.league)
        (player_id,) = players_for_seats([name], user, session.league)
        if player_id == old.pk:
            return _respell(session, seat, name, user)
        player = Player.objects.get(pk=player_id)
        # Another player spelt alike (shared before names resolved per club) would be
        # one name to the rules: refused as the same player is.
        others = session.seats.exclude(pk=seat.pk).values_list("player__name", flat=True)
        hands = HandEntry.objects.filter(round__session=session, player=player)
        if name_key(player.name) in map(name_key, others) or hands.exists():
            raise EntryRejected(
                _("{player} already has a seat at this table.").format(player=player.name)
            )
        seat.player = player
        seat.save(update_fields=["player"])
        HandEntry.objects.filter(round__session=session, player=old).update(player=player)
        made = _record_rename(session, seat, old.name, player.name, user)
        refresh_session(session)  # the new player's results, months and ratings
        # The old player's month in the league, without this seat.
        standing_months.refresh(session.league_id, session.played_on, [old.pk])
        _drop_if_unheld(old.pk)
    return made


def _respell(session: GameSession, seat: Seat, name: str, user: AnyUser) -> SeatChange:
    """The same name written otherwise ("asha" for "Asha", a space too many): the one
    case in which a player's own record takes the new spelling, and only where this
    seat is all that holds it, so that no other table's or club's name changes."""
    old = seat.player
    if name == old.name:
        raise EntryRejected(_("{player} is the name they have.").format(player=old.name))
    held_elsewhere = Seat.objects.filter(player=old).exclude(pk=seat.pk).exists()
    if held_elsewhere or PlayerClaim.objects.filter(player=old).exists():
        raise EntryRejected(
            _(
                "{player} is the name they have (names match ignoring case and spaces), and "
                "it is written so at other tables too: an admin can change its spelling."
            ).format(player=old.name)
        )
    made = _record_rename(session, seat, old.name, name, user)
    old.name = name
    old.save(update_fields=["name"])
    refresh_session(session)
    return made


def _record_rename(
    session: GameSession, seat: Seat, old_name: str, new_name: str, user: AnyUser
) -> SeatChange:
    """The correction as the history keeps it, with both names it was made with."""
    return SeatChange.objects.create(
        session=session,
        seat=seat,
        kind=SeatChange.Kind.RENAME,
        after_round=session.rounds.count(),
        old_name=old_name,
        new_name=new_name,
        created_by=signed_in_or_none(user),
    )


def _drop_if_unheld(player_id: int) -> None:
    """Delete a player no seat and no claim holds any more: a name typed in error,
    taken back or corrected. (Their ratings and months go with them.)"""
    held = Seat.objects.filter(player_id=player_id).exists()
    if not held and not PlayerClaim.objects.filter(player_id=player_id).exists():
        Player.objects.filter(pk=player_id).delete()
