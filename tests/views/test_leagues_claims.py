"""Claiming a player name: "This is me" on the player page for a member of
a league the player plays in; the page then says who claimed them, the standings
mark the claimant's row and the league and home pages lead to "My player page";
owners (and the claimant) undo a claim; others are refused."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import League, Membership, Player, PlayerClaim
from games.services.leagues import claim_player, create_league
from tests.support.builders import make_session, play
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db

Role = Membership.Role


@pytest.fixture
def club(user: User) -> League:
    league = create_league(user, name="Tuesday Club", preset="21-points", overrides={})
    play(make_session(user, league=league), "8S", ROUND_1)  # the standings list them
    return league


def member(name: str, league: League, role: str = Role.VIEWER) -> tuple[User, Client]:
    person = User.objects.create_user(name, password="x")
    Membership.objects.create(league=league, user=person, role=role)
    client = Client()
    client.force_login(person)
    return person, client


def named(name: str) -> Player:
    return Player.objects.get(name=name)


def player_page(client: Client, name: str) -> str:
    response = client.get(reverse("games:player_detail", args=[named(name).pk]))
    assert response.status_code == 200
    return response.content.decode()


def claim(client: Client, league: League, name: str, undo: bool = False):
    view = "games:player_unclaim" if undo else "games:player_claim"
    return client.post(reverse(view, args=[league.slug, named(name).pk]), follow=True)


def test_a_member_claims_a_name_and_every_page_links_it_to_them(club: League) -> None:
    _ben, client = member("ben", club)
    assert "This is me" in player_page(client, "Ben")

    response = claim(client, club, "Ben")
    text = response.content.decode()
    assert "You are Ben in Tuesday Club." in text
    assert "claimed by <strong>you (ben)</strong>" in text
    assert "This is not me" in text

    standings = client.get(reverse("games:league_standings", args=[club.slug])).content.decode()
    assert 'data-player="Ben" class="standings-you" data-you' in standings
    assert standings.count("data-you") == 1
    mine = reverse("games:player_detail", args=[named("Ben").pk])
    league_page = client.get(reverse("games:league_detail", args=[club.slug])).content.decode()
    assert f'href="{mine}" data-my-player>My player page (Ben)' in league_page
    home = client.get(reverse("games:home")).content.decode()
    assert f'href="{mine}">My player page</a>' in home


def test_other_members_see_who_claimed_a_name_and_cannot_claim_it(club: League) -> None:
    ben, ben_client = member("ben", club)
    claim(ben_client, club, "Ben")
    _gita, gita = member("gita", club)
    text = player_page(gita, "Ben")
    assert "claimed by <strong>ben</strong>" in text
    assert "data-claim-button" not in text
    assert "Undo this claim" not in text
    refused = claim(gita, club, "Ben").content.decode()
    assert "Ben is already claimed by ben." in refused
    assert claim(gita, club, "Ben", undo=True).status_code == 403
    assert PlayerClaim.objects.get().user == ben


def test_one_name_per_member_per_league(club: League) -> None:
    _ben, client = member("ben", club)
    claim(client, club, "Ben")
    assert "you are <a" in player_page(client, "Chen")
    refused = claim(client, club, "Chen").content.decode()
    assert "You already claimed Ben in this league: unclaim it first." in refused
    assert PlayerClaim.objects.count() == 1


def test_an_owner_undoes_a_claim_and_a_member_their_own(scorer: Client, club: League) -> None:
    _ben, client = member("ben", club)
    claim(client, club, "Ben")
    assert "Undo this claim" in player_page(scorer, "Ben")
    text = claim(scorer, club, "Ben", undo=True).content.decode()
    assert "Ben is no longer claimed by ben in Tuesday Club." in text
    assert not PlayerClaim.objects.exists()

    claim(client, club, "Chen")
    claim(client, club, "Chen", undo=True)
    assert not PlayerClaim.objects.exists()


def test_outside_the_league_there_is_nothing_to_claim(club: League, user: User) -> None:
    stranger = Client()
    stranger.force_login(User.objects.create_user("zed", password="x"))
    assert claim(stranger, club, "Ben").status_code == 404
    other = create_league(user, name="Harbour Club", preset="21-points", overrides={})
    make_session(user, players=("Dara", "Eamon"), league=other)
    _ben, client = member("ben", club)
    # Dara plays in the other league only: not a player of this one.
    assert claim(client, club, "Dara").status_code == 404
    assert not PlayerClaim.objects.exists()


def test_a_claim_in_another_league_is_not_shown(club: League, user: User) -> None:
    other = create_league(user, name="Harbour Club", preset="21-points", overrides={})
    make_session(user, league=other)
    ben = User.objects.create_user("ben", password="x")
    Membership.objects.create(league=other, user=ben, role=Role.VIEWER)
    claim_player(other, named("Ben"), ben)
    _gita, gita = member("gita", club)
    text = player_page(gita, "Ben")
    assert "Harbour Club" not in text
    assert "claimed by" not in text
    assert "This is me" in text


def test_a_new_member_finds_their_name_on_the_league_page_before_any_round(user: User) -> None:
    """Joined through an invite before the first round, the standings list nobody: the
    league page lists the names nobody has claimed, each a way to "This is me"."""
    league = create_league(user, name="New Club", preset="21-points", overrides={})
    make_session(user, league=league)  # seated, no round yet
    claim_player(league, named("Asha"), user)
    _ben, client = member("ben", league)

    page = client.get(reverse("games:league_detail", args=[league.slug])).content.decode()

    listed = page[page.index("Which player are you?") : page.index("</details>")]
    for name in ("Ben", "Chen"):
        link = reverse("games:player_detail", args=[named(name).pk])
        assert f'href="{link}">{name}</a>' in listed
    assert ">Asha</a>" not in listed  # claimed already
    assert "This is me" in player_page(client, "Chen")
    # Once they have said who they are, the question is gone.
    claim(client, league, "Ben")
    page = client.get(reverse("games:league_detail", args=[league.slug])).content.decode()
    assert "Which player are you?" not in page
