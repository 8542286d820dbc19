"""A name typed when seating a session finds only players the user
can already see, so seating "asha" never reveals that another club has an "Asha"
(nor attaches that club's player to a stranger's table); a league import makes its
own players. Two clubs' "Asha"s are two players."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import GameSession, League, Membership, Player
from games.services.sessions import create_session
from games.transfer.league_export import export_league
from games.transfer.league_import import import_league
from tests.support.builders import make_session, play, session_form_data
from tests.support.hands import ROUND_1
from tests.support.schema import migrated_back_to

pytestmark = pytest.mark.django_db


def club(slug: str, owner: User, *members: tuple[User, str]) -> League:
    league = League.objects.create(name=slug.title(), slug=slug, preset="21-points")
    Membership.objects.create(league=league, user=owner, role=Membership.Role.OWNER)
    for member, role in members:
        Membership.objects.create(league=league, user=member, role=role)
    return league


@pytest.fixture
def captain() -> User:
    return User.objects.create_user("captain", password="a-long-pass-phrase")


@pytest.fixture
def theirs(captain: User) -> GameSession:
    """League "theirs", which the signed-in user is not in: a session with a round
    played by its Asha, Ben and Chen."""
    session = make_session(captain, league=club("theirs", captain))
    play(session, "8S", ROUND_1, captain)
    return session


def seat_new_session(client: Client, *names: str, **fields: str) -> GameSession:
    data = session_form_data(**{f"seat_{n}": name for n, name in enumerate(names, start=1)})
    response = client.post(reverse("games:session_new"), data | fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    return GameSession.objects.get(pk=int(response.url.rstrip("/").rsplit("/", 1)[1]))


def seated(session: GameSession) -> list[Player]:
    return [seat.player for seat in session.seats.select_related("player").order_by("position")]


def shown_sessions(client: Client, player: Player) -> set[int] | None:
    """The sessions a player page lists, or None for a 404."""
    response = client.get(reverse("games:player_detail", args=[player.pk]))
    if response.status_code == 404:
        return None
    assert response.status_code == 200
    return {int(pk) for pk in re.findall(r'<li data-session="(\d+)">', response.content.decode())}


def standing_rows(html: str) -> list[str]:
    return re.findall(r'<tr data-player="[^"]*">.*?</tr>', html, re.S)


def test_a_stranger_seating_asha_gets_a_new_player_spelt_as_typed(
    scorer: Client, captain: User, theirs: GameSession
) -> None:
    their_asha = theirs.seats.get(position=1).player
    captain_client = Client()
    captain_client.force_login(captain)
    standings = reverse("games:league_standings", args=["theirs"])
    standings_before = standing_rows(captain_client.get(standings).content.decode())
    assert len(standings_before) == 3

    mine = seat_new_session(scorer, "asha", "Zed")

    asha, _zed = seated(mine)
    assert asha != their_asha and asha.name == "asha"
    html = scorer.get(reverse("games:session_detail", args=[mine.pk])).content.decode()
    assert 'data-player="asha"' in html and 'data-player="Asha"' not in html
    # The other club's pages do not change, and its Asha stays out of the user's sight.
    assert shown_sessions(captain_client, their_asha) == {theirs.pk}
    assert shown_sessions(scorer, their_asha) is None
    assert shown_sessions(scorer, asha) == {mine.pk}
    assert standing_rows(captain_client.get(standings).content.decode()) == standings_before


def test_seating_asha_again_finds_the_users_own_asha(scorer: Client, theirs: GameSession) -> None:
    first = seat_new_session(scorer, "asha", "Zed")
    again = seat_new_session(scorer, "ASHA", "zed", "Chen")

    assert seated(again)[:2] == seated(first)
    assert seated(again)[2] != theirs.seats.get(position=3).player  # their Chen, unseen


def test_a_member_seating_asha_in_the_league_gets_the_leagues_asha(
    scorer: Client, user: User, captain: User, theirs: GameSession
) -> None:
    Membership.objects.create(league=theirs.league, user=user, role=Membership.Role.SCORER)

    session = seat_new_session(scorer, "asha", "ben", "Dev", league=str(theirs.league_id))

    their = seated(theirs)
    assert seated(session)[:2] == their[:2]
    assert [p.name for p in seated(session)] == ["Asha", "Ben", "Dev"]  # the league's spelling


def test_a_member_of_two_leagues_gets_the_leagues_own_player_first(
    scorer: Client, user: User, captain: User, theirs: GameSession
) -> None:
    Membership.objects.create(league=theirs.league, user=user, role=Membership.Role.SCORER)
    host = User.objects.create_user("host", password="a-long-pass-phrase")
    other = club("other", host, (user, Membership.Role.SCORER))
    others = make_session(host, players=("ASHA", "Ben", "Kim"), league=other)
    their_asha, other_asha = seated(theirs)[0], seated(others)[0]
    assert their_asha != other_asha  # two clubs, two players

    in_theirs = seat_new_session(scorer, "asha", "kim", league=str(theirs.league_id))
    in_other = seat_new_session(scorer, "asha", "ben", league=str(other.pk))

    # Each league's own Asha; a name the league lacks comes from the user's other one.
    assert seated(in_theirs) == [their_asha, seated(others)[2]]
    assert seated(in_other) == [other_asha, seated(others)[1]]


def test_an_import_never_attaches_another_leagues_player(
    client: Client, captain: User, theirs: GameSession
) -> None:
    their_players = set(seated(theirs))
    data = export_league(theirs.league)
    data["league"] |= {"slug": "copied", "name": "Copied"}
    importer = User.objects.create_user("zed", password="a-long-pass-phrase")

    imported = import_league(json.dumps(data), owner=importer).league

    copied = GameSession.objects.get(league=imported)
    assert [p.name for p in seated(copied)] == ["Asha", "Ben", "Chen"]
    assert not set(seated(copied)) & their_players
    client.force_login(importer)
    assert all(shown_sessions(client, player) is None for player in their_players)
    assert shown_sessions(client, seated(copied)[0]) == {copied.pk}


def test_two_players_of_one_name_may_exist_but_not_at_one_table(
    scorer: Client, theirs: GameSession
) -> None:
    Player.objects.create(name="ASHA")  # a third Asha: allowed now, in another club

    response = scorer.post(
        reverse("games:session_new"), session_form_data(seat_1="Asha", seat_2="asha")
    )

    assert response.status_code == 422
    assert "asha already sits in seat 1." in response.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks between real connections: PostgreSQL (make test-pg, CI)",
)
def test_phones_seating_a_new_name_at_once_in_one_league_make_one_player(
    user: User, captain: User
) -> None:
    from tests.support.threads import at_once

    league = club("friday", captain, (user, Membership.Role.SCORER))
    phones = [captain, user] * 3

    results = at_once(
        [
            lambda who=who: create_session(
                who, preset="21-points", overrides={}, players=["Zoë", "Yuki"], league=league
            )
            for who in phones
        ]
    )

    assert all(isinstance(r, GameSession) for r in results), results
    assert Player.objects.filter(name="Zoë").count() == 1
    assert Player.objects.filter(name="Yuki").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_players_already_shared_shared() -> None:
    with migrated_back_to("0005_import_authors_members_printable_names") as old:
        players = old.get_model("games", "Player")
        asha = players.objects.create(name="Asha")
        for slug in ("one", "two"):
            league = old.get_model("games", "League").objects.create(name=slug, slug=slug)
            session = old.get_model("games", "GameSession").objects.create(league=league)
            old.get_model("games", "Seat").objects.create(session=session, player=asha, position=1)

    assert list(Player.objects.values_list("pk", "name")) == [(asha.pk, "Asha")]
    assert set(Player.objects.get().seats.values_list("session__league__slug", flat=True)) == {
        "one",
        "two",
    }
    Player.objects.create(name="asha")  # another club's: no longer refused


def test_running_the_demo_again_reuses_its_four_players() -> None:
    for _ in range(3):
        call_command("demo", stdout=io.StringIO())

    assert sorted(Player.objects.values_list("name", flat=True)) == ["Asha", "Ben", "Chen", "Dev"]
