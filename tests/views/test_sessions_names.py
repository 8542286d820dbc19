"""Players' names as people type them at the table: any script, any case, and
look-alike letters, without a server error and without seating one person twice."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, League, Membership, Player
from tests.support.builders import make_session, session_form_data

pytestmark = pytest.mark.django_db


def test_names_in_any_script_are_seated_and_shown_as_typed(scorer: Client) -> None:
    names = ["Zoë", "José Ñúñez", "زهرة", "Ли́за", "Dev 🃏"]
    data = session_form_data(**{f"seat_{n}": name for n, name in enumerate(names, start=1)})

    response = scorer.post(reverse("games:session_new"), data)

    assert response.status_code == 302
    session = GameSession.objects.get()
    assert [s.player.name for s in session.seats.order_by("position")] == names
    html = scorer.get(response.url).content.decode()
    for name in names:
        assert f'<li class="standing" data-player="{name}">' in html


def test_markup_in_a_name_is_shown_as_text(scorer: Client) -> None:
    data = session_form_data(seat_1="<b>Asha</b>", seat_2="Ben")

    response = scorer.post(reverse("games:session_new"), data)

    html = scorer.get(response.url).content.decode()
    assert "&lt;b&gt;Asha&lt;/b&gt;" in html
    assert "<b>Asha</b>" not in html


def test_a_look_alike_of_a_known_name_seats_the_known_player(scorer: Client, user) -> None:
    kim = make_session(user, players=("kim", "Ben")).seats.get(position=1).player
    kelvin_kim = "\u212aim"  # KELVIN SIGN, as some keyboards' autocorrect produces

    response = scorer.post(
        reverse("games:session_new"), session_form_data(seat_1=kelvin_kim, seat_2="Ben")
    )

    assert response.status_code == 302
    seat = GameSession.objects.order_by("pk").last().seats.get(position=1)
    assert seat.player == kim and Player.objects.count() == 2  # kim and Ben


def _suggested(html: str) -> set[str]:
    """Names offered while seating: the seat fields' datalist and the chips to tap."""
    datalist = re.search(r'<datalist id="known-players">(.*?)</datalist>', html, re.S)
    offered = re.findall(r'<option value="([^"]*)">', datalist.group(1)) if datalist else []
    return set(offered) | set(re.findall(r'data-pick="([^"]*)"', html))


def test_seating_suggests_only_players_of_the_users_own_sessions_and_leagues(
    scorer: Client, user
) -> None:
    mine = League.objects.create(name="Friday Club", slug="friday", preset="21-points")
    Membership.objects.create(league=mine, user=user, role=Membership.Role.VIEWER)
    captain = User.objects.create_user("captain", password="a-long-pass-phrase")
    Membership.objects.create(league=mine, user=captain, role=Membership.Role.OWNER)
    make_session(captain, players=("Kiran", "Lena"), league=mine)
    make_session(user, players=("Ben", "Chen"))
    # Another league, and someone else's own table: the user is at neither.
    theirs = League.objects.create(name="Other Club", slug="other", preset="21-points")
    olga = User.objects.create_user("olga", password="a-long-pass-phrase")
    Membership.objects.create(league=theirs, user=olga, role=Membership.Role.OWNER)
    make_session(olga, players=("Asha", "Zed"), league=theirs)
    make_session(olga, players=("Yusuf", "Xia"))

    page = scorer.get(reverse("games:session_new")).content.decode()
    tossed = scorer.post(
        reverse("games:session_new"),
        session_form_data(action="toss", seat_1="asha", seat_2="Ben"),
        headers={"HX-Request": "true"},
    ).content.decode()

    assert _suggested(page) == {"Ben", "Chen", "Kiran", "Lena"}
    assert _suggested(tossed) == {"Ben", "Chen", "Kiran", "Lena"}


def _chips(html: str) -> list[str]:
    return re.findall(r'data-pick="([^"]*)"', html)


def _listed(html: str) -> list[str]:
    datalist = re.search(r'<datalist id="known-players"[^>]*>(.*?)</datalist>', html, re.S)
    return re.findall(r'<option value="([^"]*)">', datalist.group(1))


def test_names_two_leagues_share_are_offered_once_the_chosen_leagues_first(
    scorer: Client, user
) -> None:
    make_session(user, players=("asha", "Zoë"))  # the user's own table
    # A club and its copy imported from its file: the same names, other players.
    friday = League.objects.create(name="Friday", slug="friday", preset="21-points")
    copy = League.objects.create(name="Friday (copy)", slug="friday-copy", preset="21-points")
    for league, players in ((friday, ("Asha", "Ben", "Chen")), (copy, ("ASHA", "Ben", "Dev"))):
        Membership.objects.create(league=league, user=user, role=Membership.Role.SCORER)
        owner = User.objects.create_user(f"owner-{league.slug}", password="a-long-pass-phrase")
        Membership.objects.create(league=league, user=owner, role=Membership.Role.OWNER)
        make_session(owner, players=players, league=league)
    assert Player.objects.count() == 8  # three Ashas, two Bens

    anywhere = scorer.get(reverse("games:session_new")).content.decode()
    in_copy = scorer.get(reverse("games:session_new"), {"league": copy.pk}).content.decode()
    # Picking the league on the page brings its players first, out of band.
    picked = scorer.get(
        reverse("games:session_new"), {"league": copy.pk}, headers={"HX-Request": "true"}
    ).content.decode()

    # As a typed name is matched: the league's, then the user's own tables', then those
    # of their other leagues; each name once, spelt as the player a tap seats.
    assert _chips(anywhere) == _listed(anywhere) == ["asha", "Zoë", "Ben", "Chen", "Dev"]
    assert _chips(in_copy) == _listed(in_copy) == ["ASHA", "Ben", "Dev", "Zoë", "Chen"]
    assert _chips(picked) == _listed(picked) == ["ASHA", "Ben", "Dev", "Zoë", "Chen"]
    assert picked.count('hx-swap-oob="true"') == 2 and 'id="game-rules"' in picked
    # A preset picked while the league's answer was on its way drops that answer
    # (hx-sync): the preset's brings the league's players first in its stead.
    preset = scorer.get(
        reverse("games:session_new"),
        {"league": copy.pk, "preset": "21-paplu"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert preset.lstrip().startswith('<div id="preset-rules"')
    assert _chips(preset) == _listed(preset) == ["ASHA", "Ben", "Dev", "Zoë", "Chen"]
    assert preset.count('hx-swap-oob="true"') == 2 and 'id="game-rules"' not in preset
