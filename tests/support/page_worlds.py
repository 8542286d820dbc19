"""Sessions and a league as the browser tests that look at every page find them:
built with the app's own services (tests/e2e/test_accessibility.py, and the same pages
in Hindi, tests/e2e/test_hindi_pages.py)."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.models import User

from games.models import GameSession, League, Membership
from games.services.sessions import create_session
from tests.support.builders import play
from tests.support.club import build_club
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S, WIN_13
from tests.support.pages import PASSWORD

ROUND_2 = {"Asha": ("shown", SHOWN_8S), "Ben": ("declared", WIN_8S), "Chen": ("middle_drop", "")}
# 13-card pool 101 under cut 7C: Ben and Chen pass 101 in two rounds, Asha wins.
POOL_ROUND = {"Asha": ("declared", WIN_13), "Ben": ("middle_drop", ""), "Chen": ("first_drop", "")}
POOL_DECIDER = {
    "Asha": ("declared", WIN_13),
    "Ben": ("middle_drop", ""),
    "Chen": ("invalid_declaration", ""),
}


def friday(user: User, rounds: int = 2) -> GameSession:
    """A 21-points session with ``rounds`` rounds and money on it: the money lines show."""
    session = create_session(
        user,
        preset="21-points",
        overrides={},
        players=["Asha", "Ben", "Chen"],
        name="Friday",
        money_per_point=Decimal("0.10"),
    )
    for number in range(rounds):
        play(session, "8S", ROUND_1 if number % 2 == 0 else ROUND_2)
    return GameSession.objects.get(pk=session.pk)


def finished_pool(user: User) -> GameSession:
    session = create_session(
        user,
        preset="13-pool-101",
        overrides={},
        players=["Asha", "Ben", "Chen"],
        name="Pool",
        buy_in=Decimal("5"),
    )
    for hands in (POOL_ROUND, POOL_ROUND, POOL_DECIDER):
        play(session, "7C", hands)
    session = GameSession.objects.get(pk=session.pk)
    assert session.status == "finished"
    return session


def a_league(user: User) -> League:
    """The Friday club with three evenings (ratings), an owner, a scorer and someone
    the owner could invite."""
    league, _ = build_club(user, slug="friday")
    ben = User.objects.create_user("ben", password=PASSWORD)
    Membership.objects.create(league=league, user=ben, role=Membership.Role.SCORER)
    return league
