"""A club's season for the standings, player pages and exports: a 13-card pool-101
league played on three evenings (January, February, March), and what the rules
service says about those evenings, worked out without the app; and a points league
that played a pool too."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User

from games.models import GameSession, League, Membership
from games.rules.totals import SessionState
from games.services.sessions import close_session
from tests.support.builders import expected_totals, make_session, play
from tests.support.hands import POOL_ROUNDS, ROUND_1

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


# --- A points league that also played a pool ---------------------------------------------

# "Friday Club" plays 21-card points (net totals: a high score is good). Two rounds of
# ROUND_1 (cut 8S), then ended by hand: Asha +122 a round, Ben −92, Chen −30 (a first
# drop). The same evening a 13-card pool 101 was played in the league, still running:
# POOL_ROUNDS with Dev in Asha's seat and Farah in Chen's (Dev 0 + 0, Ben 40 + 20,
# Farah 80 + 40: out at 120).


def mixed_league(user: User, slug: str = "friday") -> tuple[League, GameSession, GameSession]:
    """The points league above, its points session and its pool session."""
    league = League.objects.create(name="Friday Club", slug=slug, preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    points = make_session(user, preset="21-points", league=league)
    for _ in range(2):
        play(points, "8S", ROUND_1, user)
    close_session(points)
    renamed = {"Asha": "Dev", "Ben": "Ben", "Chen": "Farah"}
    pool = make_session(user, preset="13-pool-101", players=("Dev", "Ben", "Farah"), league=league)
    for hands in POOL_ROUNDS:
        play(pool, "7C", {renamed[name]: hand for name, hand in hands.items()}, user)
    return league, points, pool
