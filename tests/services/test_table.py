"""Table mode's writes under the session's lock (games/services/table.py): a hand or a
cut that reaches the service after the scorer closed table mode, replaced its link or
released the seat is refused there and leaves nothing behind, whatever the view
checked a moment before."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth.models import User

from games.models import GameSession, Seat, TableHand, TableRound
from games.services.table import (
    SeatReleased,
    TableClosed,
    TypedHand,
    claim_seat,
    close_table,
    open_table,
    release_seat,
    replace_table_link,
    set_cut,
    write_hand,
)
from tests.support.hands import SHOWN_8S, WIN_8S

pytestmark = pytest.mark.django_db

HAND = TypedHand(1, outcome="shown", text=SHOWN_8S, cut_text="8S", edit=1)


@pytest.fixture
def phone(table: GameSession) -> tuple[GameSession, Seat]:
    """Ben's seat held on a phone: the session and the seat as the phone's view read
    them (the link it came by, the seat's phone key), before anything else happened."""
    open_table(table)
    seat = claim_seat(table, table.seats.select_related("player").get(player__name="Ben"))
    return GameSession.objects.get(pk=table.pk), seat


def fresh(session: GameSession) -> GameSession:
    return GameSession.objects.get(pk=session.pk)


def test_a_hand_after_table_mode_closed_is_refused_and_brings_no_table_round_back(
    phone, user: User
) -> None:
    session, seat = phone
    write_hand(session, seat, HAND, final=False)  # typing: a table round exists
    close_table(fresh(session))
    assert not TableRound.objects.exists()

    with pytest.raises(TableClosed, match="The scorer closed table mode"):
        write_hand(session, seat, HAND, final=True)
    with pytest.raises(TableClosed, match="Table mode is closed"):  # the scorer's old page
        write_hand(session, seat, HAND, final=True, user=user)
    with pytest.raises(TableClosed, match="Table mode is closed"):
        set_cut(session, 1, "8S")

    assert not TableRound.objects.exists() and not TableHand.objects.exists()


def test_a_hand_from_a_replaced_link_is_refused(phone) -> None:
    session, seat = phone
    replace_table_link(fresh(session))

    with pytest.raises(TableClosed, match="new table link"):
        write_hand(session, seat, HAND, final=True)

    assert not TableHand.objects.exists()


def test_a_hand_from_a_phone_whose_seat_was_released_is_refused(phone, user: User) -> None:
    session, seat = phone
    release_seat(session, Seat.objects.get(pk=seat.pk))

    with pytest.raises(SeatReleased, match="no longer holds Ben's seat"):
        write_hand(session, seat, HAND, final=True)
    # Another phone picked the seat since: the first phone's key no longer holds either.
    claim_seat(session, Seat.objects.get(pk=seat.pk))
    with pytest.raises(SeatReleased):
        write_hand(session, seat, HAND, final=True)
    assert not TableHand.objects.exists()

    # The scorer needs no phone's key: their correction is written.
    written = write_hand(session, seat, HAND, final=True, user=user)
    assert written.hand.status == "in"


def test_a_phone_still_holding_its_seat_writes_its_hand(phone) -> None:
    session, seat = phone
    asha = claim_seat(session, session.seats.select_related("player").get(player__name="Asha"))
    write_hand(session, asha, replace(HAND, outcome="declared", text=WIN_8S), final=True)

    written = write_hand(session, seat, HAND, final=True)

    assert written.hand.status == "in"
    assert TableHand.objects.count() == 2
