"""A league whose hands were counted at the table stands and rates as the same league
entered by cards (games/queries/standings.py, games/services/ratings.py): a counted
hand scores what its cards would, and every figure after it follows from the scores."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import HandEntry, League, Rating, RatingChange
from games.services.sessions import close_session
from tests.support.counted import counted_league
from tests.support.league_files import standings_snapshot

pytestmark = pytest.mark.django_db


def played_out(league: League) -> League:
    """The league with each evening ended by hand, so that its sessions are rated."""
    for session in league.sessions.all():
        close_session(session)
    return league


def rated(league: League) -> dict:
    return {
        "standings": standings_snapshot(league),
        "kodai": standings_snapshot(league, game="21-kodai"),
        "ratings": sorted(
            (r.player.name, r.mu, r.sigma, r.ordinal, r.sessions)
            for r in Rating.objects.filter(league=league).select_related("player")
        ),
        "history": [
            (c.player.name, c.sequence, c.mu, c.sigma)
            for c in RatingChange.objects.filter(league=league).order_by("sequence", "player__name")
        ],
    }


def test_counted_rounds_stand_and_rate_as_the_same_rounds_entered_by_cards(user: User) -> None:
    by_cards = played_out(counted_league(user, counted=False, slug="cards"))
    counted = played_out(counted_league(user, counted=True, slug="counts"))

    # Every hand holding cards was counted: the winners' shows trusted, the losers'
    # counts said.
    hands = HandEntry.objects.filter(round__session__league=counted)
    assert hands.filter(counted=True).count() == 6
    assert not hands.filter(counted=True).exclude(groups=[]).exists()
    expected = rated(by_cards)
    # Each game is rated on its own: a points rating and a Kodai one each.
    assert [rating[0] for rating in expected["ratings"]] == [
        "Asha",
        "Asha",
        "Ben",
        "Ben",
        "Chen",
        "Chen",
    ]
    assert rated(counted) == expected
