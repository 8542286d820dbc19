"""A player across leagues (games/queries/players.py): results per league and
preset from their seats, how many seats of theirs the viewer may see, played in or
not, and the leagues they sat in, from one aggregate query."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.access import member_leagues, visible_sessions
from games.models import Player
from games.queries.players import player_groups
from tests.support.builders import make_session
from tests.support.club import EVENINGS, build_club, pool_session, scores_of

pytestmark = pytest.mark.django_db


def results_for(player: Player, user: User):
    leagues = member_leagues(user)
    return player_groups(
        player, visible_sessions(user, list(leagues), through="session__"), leagues
    )


def test_groups_sum_the_played_seats_and_count_every_visible_seat(user):
    league, _ = build_club(user)
    # Asha sits down at a fourth evening that has no round yet: a session to list,
    # no result to add up.
    pool_session(user, league, EVENINGS[-1][0], ("Asha", "Chen"), [])
    asha, leagues = Player.objects.get(name="Asha"), member_leagues(user)
    visible = visible_sessions(user, list(leagues), through="session__")

    with CaptureQueriesContext(connection) as queries:
        groups, seats, sat_in = player_groups(asha, visible, leagues)

    assert seats == 3  # January, March, and the evening not played yet
    [group] = groups
    assert (group.league, group.preset) == (league, "13-pool-101")
    assert group.sessions == 2  # the unplayed evening is not a session of hers yet
    assert group.sessions_won == 1  # January; March is still running
    assert group.rounds == len(scores_of("Asha"))
    assert group.points == sum(scores_of("Asha"))
    assert sat_in == [league]
    assert len(queries) == 1  # the aggregate: the leagues are the viewer's, read already


def test_a_player_seated_only_at_unplayed_tables_has_seats_but_no_results(user):
    make_session(user, players=("Asha", "Ben"))

    groups, seats, sat_in = results_for(Player.objects.get(name="Asha"), user)

    assert (groups, seats, sat_in) == ([], 1, [])


def test_seats_the_viewer_may_not_see_are_neither_counted_nor_summed(user):
    build_club(user)
    stranger = User.objects.create_user("stranger")

    groups, seats, sat_in = results_for(Player.objects.get(name="Asha"), stranger)

    assert (groups, seats, sat_in) == ([], 0, [])
