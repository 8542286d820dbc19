"""A club's season for the standings, player pages and exports: a 13-card pool-101
league played on three evenings (January, February, March), and what the rules
service says about those evenings, worked out without the app."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User

from games.models import GameSession, League, Membership
from games.rules.totals import SessionState
from tests.support.builders import expected_totals, make_session, play

# 13-card pool 101 under cut 7C: a show13 declaration, and a loose hand capped at 80.
POOL_WIN = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7D | KC KD KS"
POOL_LOOSE = "4C 8D 9H 2S | 5S 6H QH JD | 10C 3D 4H KH AS"
JAN, FEB, MAR = datetime.date(2024, 1, 5), datetime.date(2024, 2, 10), datetime.date(2024, 3, 15)


WIN = ("declared", POOL_WIN)
LOSE = ("shown", POOL_LOOSE)
FIRST = ("first_drop", "")
MIDDLE = ("middle_drop", "")

# The club's evenings: (day, players, rounds). Asha beats Ben in January (Ben shows
# 80 twice: out at 160); Ben beats Chen in February (Chen drops twice and shows
# once); in March all three are one round into a session still running.
EVENINGS = [
    (JAN, ("Asha", "Ben"), [{"Asha": WIN, "Ben": LOSE}, {"Asha": WIN, "Ben": LOSE}]),
    (
        FEB,
        ("Ben", "Chen"),
        [{"Ben": WIN, "Chen": LOSE}, {"Ben": WIN, "Chen": FIRST}, {"Ben": WIN, "Chen": MIDDLE}],
    ),
    (MAR, ("Asha", "Ben", "Chen"), [{"Chen": WIN, "Asha": LOSE, "Ben": FIRST}]),
]


def pool_session(
    user: User, league: League | None, day: datetime.date, players: tuple[str, ...], rounds
) -> GameSession:
    session = make_session(user, preset="13-pool-101", players=players, league=league)
    # The evening it was played, before any round: ratings follow that order.
    GameSession.objects.filter(pk=session.pk).update(played_on=day)
    session.refresh_from_db()
    for hands in rounds:
        play(session, "7C", hands, user)
    return session


def build_club(user: User, slug: str = "club") -> tuple[League, list[GameSession]]:
    league = League.objects.create(name="Friday club", slug=slug, preset="13-pool-101")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    sessions = [pool_session(user, league, *evening) for evening in EVENINGS]
    return league, sessions


def states(evenings=EVENINGS) -> list[SessionState]:
    """What the rules service says about each evening, worked out without the app."""
    return [
        expected_totals("13-pool-101", players, [("7C", hands) for hands in rounds])
        for _day, players, rounds in evenings
    ]


def scores_of(name: str, evenings=EVENINGS) -> list[int]:
    return [
        line.scores[name]
        for state in states(evenings)
        for line in state.lines
        if line.scores.get(name) is not None
    ]
