"""Table mode on PostgreSQL loses nothing and doubles nothing: six phones
handing their hands in at the same moment, through the real views, each on its own
database connection, released together by a barrier (tests/support/threads.py). No
hand is lost, none lands in another seat, a round saves once, and a hand sent while
the round is being saved is either in it or told that it is not."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from games.models import HandEntry, Round, RoundChange, TableHand
from games.services.table import (
    RoundMovedOn,
    TypedHand,
    save_table_round,
    set_auto_save,
    write_hand,
)
from tests.support.builders import make_session
from tests.support.hands import FOUR_PURE, LOOSE_148, ONE_PURE, SEED_BEN, SHOWN_8S, WIN_8S
from tests.support.table import hand_data, seat_phone, url
from tests.support.threads import at_once

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks between real connections: PostgreSQL (make test-pg, CI)",
    ),
]

SIX = ("Asha", "Ben", "Chen", "Dev", "Esi", "Femi")
# Six different hands, so a hand stored under another seat would show.
EVERY_HAND_SHOWN = {
    "Asha": ("declared", WIN_8S),
    "Ben": ("shown", SHOWN_8S),
    "Chen": ("shown", LOOSE_148),
    "Dev": ("shown", SEED_BEN),
    "Esi": ("shown", ONE_PURE),
    "Femi": ("shown", FOUR_PURE),
}
# A round that checks: one winner, a loser showing, four drops.
A_ROUND = {
    "Asha": ("declared", WIN_8S),
    "Ben": ("shown", SHOWN_8S),
    "Chen": ("middle_drop", ""),
    "Dev": ("first_drop", ""),
    "Esi": ("middle_drop", ""),
    "Femi": ("first_drop", ""),
}


def phones_handing_in(session, hands) -> list:
    """Each seat's phone, ready to hand in: a job per phone for at_once."""
    phones = {name: seat_phone(session, name) for name in hands}

    def job(name: str):
        def hand_in():
            data = hand_data(session, name, *hands[name])
            return phones[name].post(url("table_hand", session), data).status_code

        return hand_in

    return [job(name) for name in hands]


def test_six_phones_handing_in_at_once_lose_none_and_mix_no_seats(user: User) -> None:
    session = make_session(user, players=SIX)

    results = at_once(phones_handing_in(session, EVERY_HAND_SHOWN))

    assert results == [200] * 6, results
    stored = {
        hand.seat.player.name: (hand.outcome, hand.text, hand.status)
        for hand in TableHand.objects.select_related("seat__player")
    }
    assert stored == {name: (*hand, "in") for name, hand in EVERY_HAND_SHOWN.items()}
    assert session.table_rounds.count() == 1


def test_six_phones_completing_a_round_that_saves_itself_save_it_once(user: User) -> None:
    session = make_session(user, players=SIX)
    set_auto_save(session, True)

    results = at_once(phones_handing_in(session, A_ROUND))

    # The phone whose hand completed the round is sent on to round 2; the others
    # were answered before it, or after it with round 2 open.
    assert sorted(results).count(302) == 1 and all(r in (200, 302, 403) for r in results), results
    played = Round.objects.get()
    hands = dict(played.entries.values_list("player__name", "outcome"))
    assert hands == {name: outcome for name, (outcome, _) in A_ROUND.items()}
    assert RoundChange.objects.count() == 1
    assert not TableHand.objects.exists()


def test_a_hand_changed_while_the_scorer_saves_is_in_the_round_or_told_it_is_late(
    user: User,
) -> None:
    for attempt in range(4):  # either order may win: both must come out whole
        session = make_session(user, players=SIX, name=f"Evening {attempt}")
        for name, hand in A_ROUND.items():
            phone = seat_phone(session, name)
            phone.post(url("table_hand", session), hand_data(session, name, *hand))
        ben = session.seats.get(player__name="Ben")

        def change_bens_hand(session=session, ben=ben):
            typed = TypedHand(1, outcome="shown", text=SEED_BEN, cut_text="8S", edit=9)
            return write_hand(session, ben, typed, final=True)

        results = at_once(
            [change_bens_hand, lambda session=session: save_table_round(session, 1, user)]
        )

        changed, saved = results
        assert isinstance(saved, Round), results
        stored = saved.entries.get(player__name="Ben").groups
        flat = " ".join(" ".join(group) for group in stored)
        if isinstance(changed, RoundMovedOn):
            assert changed.saved and sorted(flat.split()) == sorted(
                SHOWN_8S.replace("|", "").split()
            )
        else:  # the change came first: the round holds it
            assert sorted(flat.split()) == sorted(SEED_BEN.replace("|", "").split())
        assert HandEntry.objects.filter(round=saved).count() == 6


def test_two_phones_picking_one_seat_at_once_give_it_to_one(user: User) -> None:
    session = make_session(user, players=SIX)
    seat_phone(session, "Asha")  # opens the table
    phones = [Client() for _ in range(6)]
    pick = url("table_seats", session)
    ben = str(session.seats.get(player__name="Ben").pk)

    results = at_once(
        [lambda phone=phone: phone.post(pick, {"seat": ben}).status_code for phone in phones]
    )

    assert sorted(results) == [302] + [409] * 5, results
    holders = [phone for phone in phones if "seat" in phone.cookies and phone.cookies["seat"].value]
    assert len(holders) == 1
    assert holders[0].get(url("table_hand", session)).status_code == 200
