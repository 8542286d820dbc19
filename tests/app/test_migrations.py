"""The migrations describe the models as they are: `migrate` on a fresh machine
builds the schema the code expects."""

from __future__ import annotations

import datetime
import importlib
import io

import pytest
from django.core.management import call_command

from games.models import GameSession, League, PlayerClaim, Rating, StandingMonth
from games.rules.rulesets import BEFORE_EXACT_TEXTS
from games.zones import league_zone
from tests.support.builders import make_session, play
from tests.support.hands import PAPLU_ROUND, PAPLU_SCORES, PAPLU_SCORES_BEFORE
from tests.support.schema import migrated_back_to


@pytest.mark.django_db
def test_the_models_need_no_new_migration() -> None:
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit_:  # --check exits 1 when a migration is missing
        pytest.fail(
            f"makemigrations would write a migration (exit {exit_.code}):\n{out.getvalue()}"
        )
    assert "No changes detected" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_sessions_and_leagues_keep_the_rules_they_were_played_under(user) -> None:
    # Following the Paplu and Kodai texts exactly changed the 21-paplu and 21-kodai
    # presets; sessions and leagues store only what differs from their preset, so
    # migration 0007 writes the old values in.
    with migrated_back_to("0006_player_names_not_unique") as old:
        leagues, sessions = old.get_model("games", "League"), old.get_model("games", "GameSession")
        paplu_club = leagues.objects.create(name="P", slug="p", preset="21-paplu", overrides={})
        leagues.objects.create(name="K", slug="k", preset="21-kodai", overrides={"hand_cap": 90})
        leagues.objects.create(name="Q", slug="q", preset="21-points", overrides={})
        paplu = sessions.objects.create(league=paplu_club, preset="21-paplu", overrides={})
        # A Paplu session that played deal shows by house rule, as half the count then.
        halves = sessions.objects.create(preset="21-paplu", overrides={"deal_show": True})
        for position, name in enumerate(("Asha", "Ben", "Chen"), start=1):
            player = old.get_model("games", "Player").objects.create(name=name)
            old.get_model("games", "Seat").objects.create(
                session=paplu, player=player, position=position
            )

    earlier = BEFORE_EXACT_TEXTS["21-paplu"]
    assert League.objects.get(slug="p").overrides == earlier
    assert League.objects.get(slug="k").overrides == BEFORE_EXACT_TEXTS["21-kodai"] | {
        "hand_cap": 90
    }
    assert League.objects.get(slug="q").overrides == {}
    assert GameSession.objects.get(pk=halves.pk).overrides == earlier | {"deal_show": True}
    # The old session scores a round as Paplu was played then; a new one by seed 003.
    migrated = GameSession.objects.get(pk=paplu.pk)
    saved = play(migrated, "8S", PAPLU_ROUND, user)
    assert {e.player.name: e.score for e in saved.entries.all()} == PAPLU_SCORES_BEFORE
    fresh = make_session(user, preset="21-paplu")
    saved = play(fresh, "8S", PAPLU_ROUND, user)
    assert {e.player.name: e.score for e in saved.entries.all()} == PAPLU_SCORES
    assert fresh.overrides == {}


@pytest.mark.django_db(transaction=True)
def test_a_players_account_link_becomes_claims_where_they_are_a_member(capsys) -> None:
    with migrated_back_to("0011_performance_indexes") as old:
        users = old.get_model("auth", "User")
        leagues = old.get_model("games", "League")
        memberships = old.get_model("games", "Membership")
        players, seats = old.get_model("games", "Player"), old.get_model("games", "Seat")
        sessions = old.get_model("games", "GameSession")
        claims = old.get_model("games", "PlayerClaim")
        asha, ben = users.objects.create(username="asha"), users.objects.create(username="ben")
        club, other, third = (
            leagues.objects.create(name=name, slug=name) for name in ("club", "other", "third")
        )
        memberships.objects.create(league=club, user=asha, role="scorer")
        memberships.objects.create(league=third, user=asha, role="viewer")
        memberships.objects.create(league=third, user=ben, role="viewer")
        linked = players.objects.create(name="Asha", user=asha)
        stranger = players.objects.create(name="Ben")
        for league in (club, other, third):
            session = sessions.objects.create(league=league, preset="21-points", overrides={})
            seats.objects.create(session=session, player=linked, position=1)
            seats.objects.create(session=session, player=stranger, position=2)
        # In the third league Ben already said "this is me" of the linked player.
        claims.objects.create(league=third, player=linked, user=ben)
        # A link with no league to claim in (changed by hand since the import that set it).
        alone = players.objects.create(name="Dev", user=users.objects.create(username="dev"))
        personal = sessions.objects.create(preset="21-points", overrides={})
        seats.objects.create(session=personal, player=alone, position=1)

    # A claim where she is a member and the player sat; none in "other" (not a member);
    # the third league's own claim stands.
    assert sorted(
        PlayerClaim.objects.values_list("league__slug", "player__name", "user__username")
    ) == [("club", "Asha", "asha"), ("third", "Asha", "ben")]
    # The link that could not become a claim is said, for an administrator to act on.
    assert f"Player {alone.pk} (Dev): no league to claim it in" in capsys.readouterr().out


@pytest.mark.django_db(transaction=True)
def test_standings_months_kept_before_are_split_by_game() -> None:
    # Before 0014 a league's months summed every game played in it: a pool's penalty
    # points counted in a points league's standings. The migration rebuilds them.
    with migrated_back_to("0013_remove_player_user") as old:
        league = old.get_model("games", "League").objects.create(
            name="Friday Club", slug="friday", preset="21-points", overrides={}
        )
        sessions, seats = old.get_model("games", "GameSession"), old.get_model("games", "Seat")
        ben = old.get_model("games", "Player").objects.create(name="Ben")
        day = datetime.date(2024, 3, 15)
        for preset, points, best in (("21-points", -184, -92), ("13-pool-101", 60, 20)):
            session = sessions.objects.create(
                league=league, preset=preset, overrides={}, played_on=day
            )
            seats.objects.create(
                session=session,
                player=ben,
                position=1,
                rounds_played=2,
                points=points,
                best_round=best,
                worst_round=best,
            )
        months = old.get_model("games", "StandingMonth")
        # The months as 0008 filled them, from the seats.
        importlib.import_module("games.migrations.0008_standing_months").fill(old, None)
        assert months.objects.get().points == -124  # both games summed

    assert sorted(StandingMonth.objects.values_list("preset", "points", "rounds")) == [
        ("13-pool-101", 60, 2),
        ("21-points", -184, 2),
    ]
    # Going back, the months are one per player and month again.
    with migrated_back_to("0013_remove_player_user") as old:
        months = old.get_model("games", "StandingMonth")
        assert list(months.objects.values_list("points")) == [(-124,)]


@pytest.mark.django_db(transaction=True)
def test_ratings_kept_before_are_replayed_one_a_game() -> None:
    # Before 0018 a league had one rating over every game: a pool night's places moved
    # the points table. The migration replays them per game and sums the totals.
    with migrated_back_to("0017_session_days_within_range") as old:
        league = old.get_model("games", "League").objects.create(
            name="Friday Club", slug="friday", preset="21-points", overrides={}
        )
        sessions, seats = old.get_model("games", "GameSession"), old.get_model("games", "Seat")
        players = old.get_model("games", "Player")
        asha, ben = players.objects.create(name="Asha"), players.objects.create(name="Ben")
        day = datetime.date(2024, 3, 15)
        # Asha wins the points night, Ben the pool night.
        for preset, winner in (("21-points", asha), ("13-pool-101", ben)):
            session = sessions.objects.create(
                league=league, preset=preset, overrides={}, played_on=day, status="finished"
            )
            for position, player in enumerate((asha, ben), start=1):
                won = player == winner
                seats.objects.create(
                    session=session,
                    player=player,
                    position=position,
                    place=1 if won else 2,
                    won=won,
                    rounds_played=1,
                    total=10 if won else -10,
                )
        importlib.import_module("games.migrations._ratings").fill_ratings(old)
        ratings = old.get_model("games", "Rating")
        assert ratings.objects.get(player=asha).sessions == 2  # one rating, both nights

    by_game = {
        (r.preset, r.player.name): r.ordinal for r in Rating.objects.select_related("player")
    }
    assert by_game[("21-points", "Asha")] > by_game[("21-points", "Ben")]
    assert by_game[("13-pool-101", "Ben")] > by_game[("13-pool-101", "Asha")]
    assert set(Rating.objects.values_list("sessions", flat=True)) == {1}
    assert sorted(StandingMonth.objects.values_list("preset", "player__name", "totals")) == [
        ("13-pool-101", "Asha", -10),
        ("13-pool-101", "Ben", 10),
        ("21-points", "Asha", 10),
        ("21-points", "Ben", -10),
    ]
    # Going back, one rating a player again.
    with migrated_back_to("0017_session_days_within_range") as old:
        assert old.get_model("games", "Rating").objects.filter(player__name="Asha").count() == 1


@pytest.mark.django_db(transaction=True)
def test_leagues_kept_before_their_own_zone_follow_the_sites(settings) -> None:
    # 0019 gives leagues a time zone: those kept before pick none, so they read the
    # site's zone as they did, and a club that sets DJANGO_TIME_ZONE later moves too.
    with migrated_back_to("0018_ratings_per_game_and_total_points") as old:
        old.get_model("games", "League").objects.create(
            name="Friday Club", slug="friday", preset="21-points", overrides={}
        )

    league = League.objects.get(slug="friday")
    assert league.time_zone == ""
    settings.TIME_ZONE = "Asia/Kolkata"
    assert league_zone(league).key == "Asia/Kolkata"
