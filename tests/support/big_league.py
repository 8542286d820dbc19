"""A big league as a card table fills one: twelve players, some with long names and
some in other scripts (Devanagari, Chinese, Arabic: right to left), and a session of
eight of them many rounds long. For the browser tests that look at the pages on a
phone, and for tmp walk-throughs that take screenshots."""

from __future__ import annotations

from django.contrib.auth.models import User

from games.models import GameSession, League
from games.services.leagues import create_league
from tests.support.builders import make_session, play
from tests.support.hands import LOOSE_148, SHOWN_8S, THREE_PURE
from tests.support.reads import copies_of

LONG_NAME = "Venkataraghavan Subramaniam"
RTL_NAME = "محمد الأحمد"
PLAYERS = (
    LONG_NAME,
    "अनन्या",
    "Asha",
    "Bartholomew Fitzgerald-Smythe",
    "陈伟",
    "Chen",
    "Dara",
    RTL_NAME,
    "Eamon",
    "Farah",
    "Gopalakrishnan Ramasubramanian",
    "Ilse",
)
EIGHT = PLAYERS[:8]


def eight_hands(number: int, players: tuple[str, ...] = EIGHT) -> dict:
    """Round ``number`` (from 0) of 21-points under cut 8S: the winner moves one seat
    on each round, the next player shows a loose hand, the others drop."""
    hands = {}
    for seat, name in enumerate(players):
        turn = (seat - number) % len(players)
        if turn == 0:
            hands[name] = ("declared", THREE_PURE)
        elif turn == 1:
            hands[name] = ("shown", LOOSE_148 if number % 2 else SHOWN_8S)
        else:
            hands[name] = ("middle_drop" if turn in (3, 6) else "first_drop", "")
    return hands


def big_league(user: User) -> League:
    return create_league(
        user, name="Thursday Night Card Club of Koramangala", preset="21-points", overrides={}
    )


def long_session(
    user: User, league: League | None, rounds: int, *, ceiling: int | None = 20000
) -> GameSession:
    """A 21-points session of the first eight players, ``rounds`` rounds long: the first
    eight played round the table, the rest copies of them (`copies_of`)."""
    session = make_session(
        user, players=EIGHT, league=league, name="Diwali marathon", ceiling=ceiling
    )
    played = [play(session, "8S", eight_hands(n)) for n in range(min(rounds, 8))]
    if rounds > 8:
        copies_of(played[-1], rounds - 8)
    return GameSession.objects.get(pk=session.pk)
