"""The session chart's image (games/views/sessions.py and the share link's in
games/views/sharing.py): an SVG of the session's totals, for those who may see the
session, and on its page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, League, Membership
from games.services.scoreboard import load_scoreboard
from tests.support.builders import make_session, play
from tests.support.hands import ROUND_1
from tests.support.svg import SVG, assert_linear, lines_of, parse


@pytest.mark.django_db
def test_the_session_chart_is_an_svg_of_the_sessions_totals(
    scorer: Client, table: GameSession
) -> None:
    play(table, "8S", ROUND_1)
    response = scorer.get(reverse("games:session_totals_chart", args=[table.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert "default-src 'none'" in response["Content-Security-Policy"]
    board = load_scoreboard(table)
    root = parse(response.content.decode())
    drawn = lines_of(root)
    values = [0, board.state.totals["Asha"], 0, board.state.totals["Ben"]]
    assert_linear(values, [y for _, y in drawn["Asha"][0] + drawn["Ben"][0]])
    desc = root.find(f"{SVG}desc").text
    for column in board.columns:
        assert f"{column.name} {column.total}".replace("-", "−") in desc


@pytest.mark.django_db
def test_the_session_chart_is_hidden_from_those_who_may_not_see_the_session(
    client: Client, table: GameSession
) -> None:
    url = reverse("games:session_totals_chart", args=[table.pk])
    assert client.get(url).status_code == 302  # to sign in
    stranger = User.objects.create_user("stranger", password="x")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    assert client.get("/sessions/99999999999999999/totals.svg").status_code == 404
    assert client.get("/sessions/999999999999999999999/totals.svg").status_code == 404


@pytest.mark.django_db
def test_a_league_viewer_sees_the_chart(client: Client, user: User) -> None:
    league = League.objects.create(name="Club", slug="club")
    session = make_session(user, league=league)
    viewer = User.objects.create_user("viewer", password="x")
    Membership.objects.create(league=league, user=viewer, role=Membership.Role.VIEWER)
    client.force_login(viewer)
    assert client.get(reverse("games:session_totals_chart", args=[session.pk])).status_code == 200


@pytest.mark.django_db
def test_the_share_link_shows_the_chart_without_signing_in(
    client: Client, table: GameSession
) -> None:
    play(table, "8S", ROUND_1)
    response = client.get(reverse("games:shared_totals_chart", args=[table.share_token]))
    assert response.status_code == 200
    assert "Asha" in lines_of(parse(response.content.decode()))
    assert client.get("/shared/not-a-token/totals.svg").status_code == 404
    assert (
        client.post(reverse("games:shared_totals_chart", args=[table.share_token])).status_code
        == 405
    )


@pytest.mark.django_db
def test_the_session_page_shows_the_running_totals_chart(scorer, table: GameSession) -> None:
    play(table, "8S", ROUND_1)
    html = scorer.get(reverse("games:session_detail", args=[table.pk])).content.decode()
    src = reverse("games:session_totals_chart", args=[table.pk])
    assert f'src="{src}?rounds=1&amp;totals=' in html and "data-session-chart" in html
