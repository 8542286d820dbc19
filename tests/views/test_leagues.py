"""Leagues: starting one, its members and their roles, its house rules, and its
sessions starting from them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.forms.rulesets import HOUSE_RULES
from games.models import GameSession, League, Membership
from games.rules import PRESETS, get_ruleset
from games.rules.rulesets import (
    BEFORE_EXACT_TEXTS,
    OPTION_NAMES,
    as_stored_before_exact_texts,
    option_help,
)
from games.services.leagues import create_league
from tests.support.builders import league_form_data, session_form_data

pytestmark = pytest.mark.django_db

Role = Membership.Role


@pytest.fixture
def club(user: User) -> League:
    return create_league(user, name="Tuesday Club", preset="21-points", overrides={})


def member(league: League, username: str, role: str) -> User:
    person = User.objects.create_user(username, password="x")
    Membership.objects.create(league=league, user=person, role=role)
    return person


def test_starting_a_league_makes_its_creator_the_owner(scorer: Client, user: User) -> None:
    response = scorer.post(
        reverse("games:league_new"), league_form_data(rule_hand_cap="150", ceiling="")
    )

    league = League.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:league_detail", args=[league.slug])
    assert league.slug == "tuesday-club" and league.preset == "21-points"
    assert league.overrides == {"hand_cap": 150}  # only what differs from the preset
    assert Membership.objects.get().role == Role.OWNER


def test_two_leagues_of_one_name_get_distinct_addresses(user: User) -> None:
    first = create_league(user, name="Club", preset="21-points", overrides={})
    second = create_league(user, name="Club", preset="21-points", overrides={})
    reserved = create_league(user, name="New", preset="21-points", overrides={})
    assert (first.slug, second.slug, reserved.slug) == ("club", "club-2", "new-league")


def test_a_bad_house_rule_is_shown_beside_it_and_nothing_is_made(scorer: Client) -> None:
    response = scorer.post(reverse("games:league_new"), league_form_data(rule_hand_cap="abc"))

    assert response.status_code == 422
    assert "rule_hand_cap" in response.context_data["form"].errors
    assert not League.objects.exists()


def test_the_league_list_shows_only_the_users_leagues_with_their_role(
    scorer: Client, club: League
) -> None:
    other = User.objects.create_user("zed", password="x")
    create_league(other, name="Elsewhere", preset="13-points", overrides={})

    html = scorer.get(reverse("games:league_list")).content.decode()

    assert 'data-league="tuesday-club"' in html and "Elsewhere" not in html
    assert ">owner</span>" in html


def test_a_role_is_said_in_the_pages_language(scorer: Client, club: League) -> None:
    hindi = {"HTTP_ACCEPT_LANGUAGE": "hi"}
    with translation.override("hi"):
        owner = translation.gettext("Owner").lower()
    listed = scorer.get(reverse("games:league_list"), **hindi).content.decode()
    page = scorer.get(reverse("games:league_detail", args=[club.slug]), **hindi).content.decode()

    assert f">{owner}</span>" in listed and ">owner<" not in listed
    assert owner in page and "owner</p>" not in page


def test_the_house_rules_page_lists_every_option_with_its_meaning(
    scorer: Client, club: League
) -> None:
    html = scorer.get(reverse("games:league_rules", args=[club.slug])).content.decode()

    for name in HOUSE_RULES:  # the ceiling has its own field
        assert f'data-option="rule_{name}"' in html
        assert option_help(name).replace("'", "&#x27;") in html


def test_an_owner_changes_the_house_rules(scorer: Client, club: League) -> None:
    data = league_form_data(rule_middle_drop="60", ceiling="250", money_per_point="0.50")

    response = scorer.post(reverse("games:league_rules", args=[club.slug]), data)

    assert response.status_code == 302
    club.refresh_from_db()
    assert club.overrides == {"middle_drop": 60, "ceiling": 250}
    assert str(club.money_per_point) == "0.50"
    assert get_ruleset(club.preset, club.overrides).middle_drop == 60


def test_members_see_the_house_rules_but_only_owners_change_them(
    client: Client, club: League
) -> None:
    client.force_login(member(club, "ben", Role.SCORER))
    url = reverse("games:league_rules", args=[club.slug])

    page = client.get(url)
    assert page.status_code == 200 and "disabled" in page.content.decode()
    assert "Save house rules" not in page.content.decode()
    assert client.post(url, league_form_data(rule_middle_drop="10")).status_code == 403
    club.refresh_from_db()
    assert club.overrides == {}


def test_picking_another_preset_swaps_only_the_rules(scorer: Client, club: League) -> None:
    response = scorer.get(
        reverse("games:league_rules", args=[club.slug]),
        {"preset": "13-pool-201"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="preset-rules"')
    assert 'value="201"' in html  # the pool's ceiling


def test_an_owner_adds_members_changes_roles_and_removes_them(scorer: Client, club: League) -> None:
    ben = User.objects.create_user("Ben", password="x")
    detail = reverse("games:league_detail", args=[club.slug])

    added = scorer.post(
        reverse("games:member_add", args=[club.slug]), {"username": "ben", "role": "scorer"}
    )
    assert added["Location"] == f"{detail}#members-title"  # where Ben is now listed
    membership = Membership.objects.get(user=ben)
    assert membership.role == Role.SCORER
    page = scorer.get(detail).content.decode()
    assert 'data-member="Ben"' in page

    scorer.post(reverse("games:member_change", args=[club.slug, membership.pk]), {"role": "viewer"})
    membership.refresh_from_db()
    assert membership.role == Role.VIEWER

    scorer.post(reverse("games:member_change", args=[club.slug, membership.pk]), {"remove": "1"})
    assert not Membership.objects.filter(user=ben).exists()


@pytest.mark.parametrize(
    ("username", "message"),
    [("nobody", "Nobody has the username"), ("asha", "asha is already a member.")],
)
def test_adding_an_unknown_or_existing_member_says_why(
    scorer: Client, club: League, username: str, message: str
) -> None:
    response = scorer.post(
        reverse("games:member_add", args=[club.slug]), {"username": username, "role": "viewer"}
    )

    assert response.status_code == 422
    html = response.content.decode()
    assert f'name="username" value="{username}"' in html  # kept to correct
    assert message in html[html.index('id="id_username_error"') :]  # beside the field
    assert 'option value="viewer" selected' in html
    # Without JavaScript the answer opens at the form, however long the page above it.
    assert f'action="{reverse("games:member_add", args=[club.slug])}#add-member"' in html
    assert club.memberships.count() == 1


def test_the_last_owner_cannot_leave_or_step_down(scorer: Client, club: League) -> None:
    own = Membership.objects.get(league=club)
    change = reverse("games:member_change", args=[club.slug, own.pk])

    stepped = scorer.post(change, {"role": "viewer"}, follow=True)
    left = scorer.post(change, {"remove": "1"}, follow=True)

    for response in (stepped, left):
        assert "A league needs an owner" in response.content.decode()
    own.refresh_from_db()
    assert own.role == Role.OWNER


def test_with_a_second_owner_an_owner_may_leave(scorer: Client, club: League) -> None:
    member(club, "ben", Role.OWNER)
    own = Membership.objects.get(league=club, user__username="asha")

    response = scorer.post(
        reverse("games:member_change", args=[club.slug, own.pk]), {"remove": "1"}
    )

    assert response["Location"] == reverse("games:league_list")
    assert scorer.get(reverse("games:league_detail", args=[club.slug])).status_code == 404


@pytest.mark.parametrize("role", [Role.SCORER, Role.VIEWER])
def test_only_owners_manage_members(client: Client, club: League, role: str) -> None:
    client.force_login(member(club, "ben", role))
    own = Membership.objects.get(league=club, user__username="asha")

    add = client.post(reverse("games:member_add", args=[club.slug]), {"username": "ben"})
    change = client.post(
        reverse("games:member_change", args=[club.slug, own.pk]), {"role": "viewer"}
    )

    assert add.status_code == change.status_code == 403
    own.refresh_from_db()
    assert own.role == Role.OWNER


@pytest.mark.parametrize("role", [Role.OWNER, Role.VIEWER])
def test_opening_the_members_address_shows_the_members(
    client: Client, club: League, role: str
) -> None:
    client.force_login(member(club, "ben", role))
    members = reverse("games:member_add", args=[club.slug])

    response = client.get(members, follow=True)

    page = reverse("games:league_detail", args=[club.slug])
    assert response.redirect_chain == [(f"{page}#members-title", 302)]
    html = response.content.decode()
    assert '<h2 id="members-title">Members</h2>' in html and ">ben</" in html
    assert client.head(members).status_code == 302


def test_a_league_is_a_404_to_non_members_and_a_login_to_strangers(
    client: Client, club: League
) -> None:
    pages = [
        reverse("games:league_detail", args=[club.slug]),
        reverse("games:league_rules", args=[club.slug]),
        reverse("games:member_add", args=[club.slug]),
    ]
    for page in pages:
        assert client.get(page).status_code == 302  # to the sign-in page
    client.force_login(User.objects.create_user("eve", password="x"))
    for page in pages:
        assert client.get(page).status_code == 404
    assert client.post(reverse("games:member_add", args=[club.slug])).status_code == 404


def test_a_league_session_starts_from_the_league_house_rules(scorer: Client, user: User) -> None:
    club = create_league(
        user,
        name="Pool Club",
        preset="13-pool-201",
        overrides={"middle_drop": 45},
        money_per_point=None,
    )
    form_page = scorer.get(reverse("games:session_new"), {"league": club.pk})
    form = form_page.context_data["form"]
    assert form.initial["league"] == club.pk
    assert form["rule_middle_drop"].value() == 45 and form["preset"].value() == "13-pool-201"

    data = session_form_data("13-pool-201", seat_1="A", seat_2="B", league=club.pk)
    data["rule_middle_drop"] = "45"
    scorer.post(reverse("games:session_new"), data)

    session = GameSession.objects.get()
    assert session.league == club and session.preset == "13-pool-201"
    assert session.overrides == {"middle_drop": 45}
    assert PRESETS["13-pool-201"].middle_drop == 50


def test_the_league_page_lists_its_sessions(scorer: Client, club: League, user: User) -> None:
    from tests.support.builders import make_session

    make_session(user, name="Week 1", league=club)
    make_session(user, name="Elsewhere")

    html = scorer.get(reverse("games:league_detail", args=[club.slug])).content.decode()

    assert "Week 1" in html and "Elsewhere" not in html


def test_an_existing_paplu_league_adopts_the_rules_of_the_texts(scorer: Client, user: User) -> None:
    # As migration 0007 leaves a Paplu league started under the earlier preset: its
    # house rules page shows the earlier values, each option with its meaning.
    club = create_league(
        user,
        name="Paplu Club",
        preset="21-paplu",
        overrides=as_stored_before_exact_texts("21-paplu", {"hand_cap": 200}),
    )
    url = reverse("games:league_rules", args=[club.slug])
    response = scorer.get(url)
    form, html = response.context_data["form"], response.content.decode()
    assert form["rule_value_payments"].value() == "players_in"
    assert form["rule_deal_show"].value() is False
    assert form["rule_two_point_dublees"].value() == 6
    for name in ("value_payments", "default_win_drop", "deal_show_fixed"):
        assert option_help(name).replace("'", "&#x27;") in html

    # The owner sets the options that changed to the preset's values
    # (docs/rules/options.md, "Sessions keep the rules they were played under"),
    # keeping the league's own cap.
    data = league_form_data("21-paplu", rule_hand_cap="200")
    response = scorer.post(url, data)

    assert response.status_code == 302
    club.refresh_from_db()
    assert club.overrides == {"hand_cap": 200}
    assert get_ruleset(club.preset, club.overrides).value_payments == "drop_rules"
    assert set(BEFORE_EXACT_TEXTS["21-paplu"]) <= set(OPTION_NAMES)
