"""What a club would miss after moving its league by file (format version 3): the
rematch links between sessions, the members' "this is me" claims, and standings that
read the same; and a file written before version 3 still imports. (That the whole
league comes back exactly, and exports as the same file, is test_league_import's
first test.)"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, League, Membership, Player
from games.transfer.league_export import dumps, export_league
from games.transfer.league_import import import_league
from tests.support.forms import forms_in
from tests.support.league_files import post_file, standings_snapshot, wipe

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def player_page(client: Client, name: str) -> str:
    player = Player.objects.get(name=name)
    return client.get(reverse("games:player_detail", args=[player.pk])).content.decode()


def test_a_rematch_shows_its_first_game_again_after_an_import(moved: dict) -> None:
    asha = User.objects.create_user(username="asha", password="x")
    client = signed_in(asha)

    assert post_file(client, moved).status_code == 302

    league = League.objects.get(slug="club")
    rematch = league.sessions.get(rematch_of__isnull=False)
    first = rematch.rematch_of
    assert (first.played_on.isoformat(), rematch.played_on.isoformat()) == (
        moved["sessions"][0]["played_on"],
        moved["sessions"][3]["played_on"],
    )
    page = client.get(reverse("games:session_detail", args=[rematch.pk])).content.decode()
    link = reverse("games:session_detail", args=[first.pk])
    assert f'rematch of <a href="{link}">{first}</a>' in page
    # And the first game leads to its rematch instead of offering another.
    page = client.get(link).content.decode()
    rematch_link = reverse("games:session_detail", args=[rematch.pk])
    assert f'<a class="button" href="{rematch_link}">Go to the rematch</a>' in page


def test_the_importers_claim_is_made_and_the_others_make_theirs_with_one_tap(
    moved: dict,
) -> None:
    asha = User.objects.create_user(username="asha", password="x")
    ben = User.objects.create_user(username="ben", password="x")
    owner = signed_in(asha)

    response = post_file(owner, moved, follow=True)

    # The importer said "this is me" of Asha in the file: it is theirs again at once.
    assert "claimed by <strong>you (asha)</strong>" in player_page(owner, "Asha")
    # Ben's claim is his own word: the file cannot make it for him. His owner sees it.
    html = response.content.decode()
    assert "(“this is me”: Ben)" in html and 'data-invitable="ben"' in html
    assert "claimed by" not in player_page(owner, "Ben")
    add = reverse("games:member_add", args=["club"])
    invite = next(f for f in forms_in(html) if f.action == add and ("username", "ben") in f.fields)
    owner.post(add, {k: v for k, v in invite.data().items() if k != "csrfmiddlewaretoken"})

    # Once a member, Ben is offered his name back on the league's page.
    player = signed_in(ben)
    page = player.get(reverse("games:league_detail", args=["club"])).content.decode()
    assert "The imported league file says you are" in page
    claim = reverse("games:player_claim", args=["club", Player.objects.get(name="Ben").pk])
    assert any(form.action == claim for form in forms_in(page))
    player.post(claim)

    assert "claimed by <strong>you (ben)</strong>" in player_page(player, "Ben")
    page = player.get(reverse("games:league_detail", args=["club"])).content.decode()
    assert "The imported league file says" not in page and "My player page (Ben)" in page


def test_a_file_claim_is_not_offered_once_someone_else_has_that_player(moved: dict) -> None:
    asha = User.objects.create_user(username="asha", password="x")
    ben = User.objects.create_user(username="ben", password="x")
    league = import_league(json.dumps(moved), owner=asha).league
    Membership.objects.create(league=league, user=ben, role=Membership.Role.SCORER)
    # Asha (the owner) moved her claim to Ben's player before Ben joined.
    league.claims.update(player=Player.objects.get(name="Ben"))

    page = signed_in(ben).get(reverse("games:league_detail", args=["club"])).content.decode()

    assert "The imported league file says" not in page


def test_every_member_and_claim_comes_back_with_keep_members(league: League) -> None:
    text = dumps(export_league(league))
    wipe()

    imported = import_league(text, keep_members=True).league

    assert "claimed by <strong>you (ben)</strong>" in player_page(
        signed_in(User.objects.get(username="ben")), "Ben"
    )
    assert sorted(imported.claims.values_list("player__name", "user__username")) == [
        ("Asha", "asha"),
        ("Ben", "ben"),
    ]


def test_an_imported_leagues_standings_equal_the_exported_leagues(
    league: League, client: Client, user: User
) -> None:
    client.force_login(user)
    urls = [
        reverse("games:league_standings_csv", args=["club"]),
        reverse("games:league_standings_csv", args=["club"]) + "?date_from=2024-02-01",
    ]
    before = [client.get(url).content for url in urls]
    figures = standings_snapshot(league)
    assert figures and any(row[4] for row in figures)  # rounds won counted
    text = dumps(export_league(league))
    wipe()

    imported = import_league(text, keep_members=True).league

    assert standings_snapshot(imported) == figures
    client.force_login(User.objects.get(username="asha"))
    assert [client.get(url).content for url in urls] == before


def test_a_file_before_version_3_imports_without_claims_or_rematches(moved: dict) -> None:
    moved["version"] = 2
    del moved["claims"]
    for session in moved["sessions"]:
        del session["rematch_of"]
    owner = User.objects.create_user(username="asha", password="x")

    league = import_league(json.dumps(moved), owner=owner).league

    assert league.sessions.count() == 6
    assert not GameSession.objects.filter(rematch_of__isnull=False).exists()
    assert not league.claims.exists()
    assert all("claimed" not in item for item in league.imported_members)


def test_a_players_account_in_a_file_before_claims_is_read_as_that_members_claim(
    moved: dict,
) -> None:
    # Before version 3 a player could name its account; claims did not exist.
    moved["version"] = 2
    del moved["claims"]
    for session in moved["sessions"]:
        del session["rematch_of"]
    for player in moved["players"]:
        player["user"] = {"Asha": "asha", "Ben": "ben", "Chen": "nobody"}[player["name"]]
    owner = User.objects.create_user(username="asha", password="x")

    league = import_league(json.dumps(moved), owner=owner).league

    # The importer's own link is their claim at once; Ben's is offered to him once he
    # joins; a name that is no member of the file claims nothing.
    assert list(league.claims.values_list("player__name", "user__username")) == [("Asha", "asha")]
    assert "claimed by <strong>you (asha)</strong>" in player_page(signed_in(owner), "Asha")
    listed = {item["username"]: item.get("claimed") for item in league.imported_members}
    assert listed["ben"] == "Ben"
    assert "nobody" not in listed


def test_a_claim_by_someone_no_longer_a_member_is_left_out_and_the_file_imports(
    league: League,
) -> None:
    # Leaving the league takes a claim away; the admin can still leave one behind.
    league.memberships.filter(user__username="ben").delete()
    text = dumps(export_league(league))
    assert json.loads(text)["claims"] == [{"player": "Asha", "user": "asha"}]
    wipe()

    imported = import_league(text, keep_members=True).league

    assert list(imported.claims.values_list("user__username", flat=True)) == ["asha"]
