"""The share link: a live, read-only score table for anyone holding the session's
unguessable token, and the polls that keep it (and the session page) current."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from games.models import GameSession, Round

from .conftest import SHOWN_8S, WIN_8S, play, round_data

pytestmark = pytest.mark.django_db

ROUND_1 = {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S), "Chen": ("first_drop", "")}
HTMX = {"HX-Request": "true"}


def shared(session: GameSession) -> str:
    return reverse("games:shared_session", args=[session.share_token])


def poll(session: GameSession) -> str:
    return reverse("games:shared_scoreboard", args=[session.share_token])


def stamp_in(html: str) -> str:
    return re.search(r'data-stamp="(\d+)"', html)[1]


def test_share_tokens_are_long_random_and_distinct(table: GameSession, user: User) -> None:
    other = services.create_session(user, preset="21-points", overrides={}, players=["A", "B"])
    # 16 random bytes in URL-safe base64: 22 characters, 128 bits.
    assert len(table.share_token) == 22 and re.fullmatch(r"[A-Za-z0-9_-]+", table.share_token)
    assert table.share_token != other.share_token


def test_anyone_with_the_link_sees_the_scores_without_signing_in(
    client: Client, table: GameSession
) -> None:
    play(table, "8S", ROUND_1)

    response = client.get(shared(table))

    html = response.content.decode()
    assert response.status_code == 200
    assert '<td class="total" data-total="Asha">122</td>' in html
    assert response["Referrer-Policy"] == "no-referrer"
    # Read-only: no round form, no edit links, no tools, no session id links.
    assert '<form class="round-form"' not in html
    assert reverse("games:round_edit", args=[table.pk, Round.objects.get().pk]) not in html
    assert reverse("games:session_detail", args=[table.pk]) not in html
    assert "data-share-panel" not in html and "Rejoin" not in html


def test_the_chart_is_fetched_by_token_on_the_share_page(
    client: Client, table: GameSession
) -> None:
    play(table, "8S", ROUND_1)
    html = client.get(shared(table)).content.decode()
    assert reverse("games:shared_totals_chart", args=[table.share_token]) in html


def test_a_wrong_or_replaced_token_is_a_404(client: Client, scorer: Client, table) -> None:
    old = shared(table)
    assert client.get(shared(table)[:-3] + "xyz/").status_code == 404
    assert client.get("/shared/short/").status_code == 404

    scorer.post(reverse("games:session_share_reset", args=[table.pk]))

    table.refresh_from_db()
    assert client.get(old).status_code == 404
    assert client.get(shared(table)).status_code == 200


def test_the_share_page_cannot_write(client: Client, table: GameSession) -> None:
    for target in (shared(table), poll(table)):
        assert client.post(target, round_data(table, "8S", ROUND_1)).status_code == 405
    assert not Round.objects.exists()


def test_the_poll_answers_204_until_a_round_is_saved(client: Client, table: GameSession) -> None:
    stamp = stamp_in(client.get(shared(table)).content.decode())

    unchanged = client.get(poll(table), {"v": stamp}, headers=HTMX)
    play(table, "8S", ROUND_1)
    changed = client.get(poll(table), {"v": stamp}, headers=HTMX)

    assert unchanged.status_code == 204 and unchanged.content == b""
    html = changed.content.decode()
    assert changed.status_code == 200 and html.lstrip().startswith('<section id="scoreboard"')
    assert '<td class="total" data-total="Ben">-92</td>' in html
    # The fresh table polls from its own stamp: the next poll is a 204 again.
    assert client.get(poll(table), {"v": stamp_in(html)}, headers=HTMX).status_code == 204


def test_the_session_page_polls_too_for_its_members(scorer: Client, table: GameSession) -> None:
    page = scorer.get(reverse("games:session_detail", args=[table.pk])).content.decode()
    url = reverse("games:session_scoreboard", args=[table.pk])
    assert f'hx-get="{url}?v={stamp_in(page)}"' in page

    assert scorer.get(url, {"v": stamp_in(page)}).status_code == 204
    play(table, "8S", ROUND_1)
    response = scorer.get(url, {"v": stamp_in(page)})
    assert response.status_code == 200 and "Next to deal" in response.content.decode()


def test_the_creator_sees_the_link_and_its_qr_code(scorer: Client, table: GameSession) -> None:
    html = scorer.get(reverse("games:session_detail", args=[table.pk])).content.decode()

    assert f"http://testserver/shared/{table.share_token}/" in html
    assert '<svg width="' in html and 'class="segno"' in html
