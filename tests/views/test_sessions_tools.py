"""The session page's money and table tools (games/views/sessions.py): who pays whom,
rejoining a pool, ending a points game by hand, the stakes, and who may use each."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, League, Membership, Rejoin
from games.services.money import money_of
from games.services.round_entries import new_round_entry
from games.services.scoreboard import load_scoreboard
from games.services.sessions import rejoin
from tests.support.builders import (
    CHEN_REJOINED_CELLS,
    PLAYED_ON_REJOINS,
    make_session,
    play,
    pool_with_chen_out,
    pool_with_chen_rejoined,
)
from tests.support.hands import ROUND_1, WIN_13
from tests.support.score_rows import score_rows

pytestmark = pytest.mark.django_db


def url(name: str, session: GameSession) -> str:
    return reverse(f"games:{name}", args=[session.pk])


def test_the_session_page_says_who_pays_whom(scorer: Client, user: User) -> None:
    table = make_session(user, money_per_point=Decimal("0.10"))
    play(table, "8S", ROUND_1)

    html = scorer.get(url("session_detail", table)).content.decode()

    assert "Settle up" in html
    assert (
        '<strong>Ben</strong> pays <strong>Asha</strong> <span class="amount">9.20</span>' in html
    )


def test_a_points_only_session_shows_no_money(scorer: Client, table: GameSession) -> None:
    play(table, "8S", ROUND_1)

    assert money_of(load_scoreboard(table)) is None
    assert "data-money" not in scorer.get(url("session_detail", table)).content.decode()


def test_an_eliminated_player_rejoins_at_the_highest_total_still_in_plus_one(
    scorer: Client, user: User
) -> None:
    pool = pool_with_chen_out(user)
    chen = pool.seats.get(player__name="Chen")
    page = scorer.get(url("session_detail", pool)).content.decode()
    assert "Rejoin at 61" in page  # Ben's 60 is the highest total still in

    response = scorer.post(url("session_rejoin", pool), {"seat": chen.pk})

    assert response.status_code == 302
    board = load_scoreboard(pool)
    assert board.state.totals["Chen"] == 61 and "Chen" not in board.state.eliminated_in
    assert [s.player.name for s in board.playing_seats] == ["Asha", "Ben", "Chen"]
    assert Rejoin.objects.get().after_round == 2


def test_a_rejoin_keeps_the_total_that_put_the_player_out_and_shows_its_own_line(
    scorer: Client, user: User
) -> None:
    pool = pool_with_chen_rejoined(user)

    html = scorer.get(url("session_detail", pool)).content.decode()

    rows = score_rows(html)
    assert [row[0] for row in rows] == ["1 ✎ 7♣", "2 ✎ 7♣", "Rejoin", "3 ✎ 7♣"]
    assert [row[1:] for row in rows] == CHEN_REJOINED_CELLS
    assert '<span class="badge">rejoined at 61 after round 2</span>' in html


def test_rejoining_asks_first_as_it_buys_in_again(scorer: Client, user: User) -> None:
    pool = pool_with_chen_out(user)

    html = scorer.get(url("session_detail", pool)).content.decode()

    rejoin_form = re.search(r'<form class="rejoin-form".*?</form>', html, re.S)[0]
    assert 'hx-confirm="Rejoin Chen at 61? That is a new buy-in (you can take it back)."' in (
        rejoin_form
    )


def test_no_rejoin_once_a_player_still_in_is_above_the_cutoff(scorer: Client, user: User) -> None:
    pool = make_session(user, preset="13-pool-101", players=("Asha", "Ben", "Chen", "Dev"))
    # Chen 80 + 40 = 120 (out); Ben 40 + 40 = 80, above the cutoff of 79.
    play(
        pool,
        "7C",
        {
            "Asha": ("declared", WIN_13),
            "Ben": ("middle_drop", ""),
            "Chen": ("invalid_declaration", ""),
            "Dev": ("first_drop", ""),
        },
    )
    play(
        pool,
        "7C",
        {
            "Asha": ("declared", WIN_13),
            "Ben": ("middle_drop", ""),
            "Chen": ("middle_drop", ""),
            "Dev": ("first_drop", ""),
        },
    )

    page = scorer.get(url("session_detail", pool)).content.decode()
    response = scorer.post(
        url("session_rejoin", pool), {"seat": pool.seats.get(player__name="Chen").pk}, follow=True
    )

    assert "No rejoining: Ben is still in at 80, above the cutoff of 79." in page
    assert "Chen may not rejoin: Ben is still in at 80, above the cutoff of 79." in (
        response.content.decode()
    )
    assert not Rejoin.objects.exists()


def test_a_rejoin_can_be_taken_back_until_the_next_round_asking_first(
    scorer: Client, user: User
) -> None:
    pool = pool_with_chen_out(user)
    made = rejoin(pool, pool.seats.get(player__name="Chen"), user)
    page = scorer.get(url("session_detail", pool)).content.decode()
    take_back = re.search(
        r'<form[^>]*>(?:(?!</form>).)*data-take-back="Chen".*?</form>', page, re.S
    )
    assert (
        "hx-confirm=\"Take back Chen's rejoin? Chen is out again, and the pot loses "
        'that buy-in."' in take_back[0]
    )

    response = scorer.post(url("session_rejoin", pool), {"cancel": made.pk}, follow=True)

    assert "Rejoin taken back." in response.content.decode()
    assert not Rejoin.objects.exists()
    assert load_scoreboard(pool).state.eliminated_in == {"Chen": 2}


@pytest.mark.parametrize(("build", "why"), PLAYED_ON_REJOINS)
def test_a_rejoin_played_on_offers_no_take_back_and_a_stale_one_is_refused_in_words(
    scorer: Client, user: User, build, why: str
) -> None:
    pool = build(user)
    made = Rejoin.objects.get()
    assert "data-take-back" not in scorer.get(url("session_detail", pool)).content.decode()

    # A page left open since the rejoin (or a forged post), over htmx as a tap sends it.
    response = scorer.post(url("session_rejoin", pool), {"cancel": made.pk}, HTTP_HX_REQUEST="true")

    assert response.status_code == 422
    assert response["HX-Replace-Url"] == url("session_detail", pool)
    page = response.content.decode()
    assert (
        '<li class="message message-error">Chen&#x27;s rejoin after round 2 can no longer be '
        f"taken back: {why}.</li>"
    ) in page
    assert "data-take-back" not in page
    assert Rejoin.objects.get() == made


def test_points_games_do_not_rejoin(scorer: Client, table: GameSession) -> None:
    play(table, "8S", ROUND_1)
    response = scorer.post(
        url("session_rejoin", table), {"seat": table.seats.get(player__name="Chen").pk}, follow=True
    )
    assert "Chen may not rejoin" in response.content.decode()
    assert not Rejoin.objects.exists()


@pytest.mark.parametrize("body", [{}, {"seat": "x"}, {"seat": "9" * 30}, {"cancel": "abc"}])
def test_a_rejoin_without_a_valid_seat_is_a_bad_request(
    scorer: Client, user: User, body: dict
) -> None:
    pool = pool_with_chen_out(user)
    assert scorer.post(url("session_rejoin", pool), body).status_code == 400


def test_ending_a_points_game_makes_the_best_total_the_winner(
    scorer: Client, table: GameSession
) -> None:
    play(table, "8S", ROUND_1)
    assert "End the session now" in scorer.get(url("session_detail", table)).content.decode()

    scorer.post(url("session_close", table))

    table.refresh_from_db()
    board = load_scoreboard(table)
    assert table.status == GameSession.Status.FINISHED and board.winners == ("Asha",)
    assert new_round_entry(table).finished

    scorer.post(url("session_close", table), {"reopen": "1"})
    table.refresh_from_db()
    assert table.status == GameSession.Status.ACTIVE and table.closed_at is None


def test_ending_a_session_by_hand_reads_and_replays_it_once(
    scorer: Client, table: GameSession, counted_replays: list[int]
) -> None:
    play(table, "8S", ROUND_1)
    counted_replays.clear()

    scorer.post(url("session_close", table))

    assert counted_replays == [table.pk]
    assert dict(table.seats.values_list("player__name", "won")) == {
        "Asha": True,
        "Ben": False,
        "Chen": False,
    }


def test_a_pool_cannot_be_ended_by_hand(scorer: Client, user: User) -> None:
    pool = pool_with_chen_out(user)
    response = scorer.post(url("session_close", pool), HTTP_HX_REQUEST="true")
    # Refused as any change is (Take back too): the session page as it is, saying why.
    assert response.status_code == 422
    assert response["HX-Replace-Url"] == url("session_detail", pool)
    assert "Only a points game with a round played can be ended here." in (
        response.content.decode()
    )
    pool.refresh_from_db()
    assert pool.closed_at is None


def test_the_creator_sets_the_stakes_the_rules_use(scorer: Client, user: User) -> None:
    table = make_session(user)
    page = scorer.get(url("session_detail", table)).content.decode()
    assert 'name="money_per_point"' in page and 'name="buy_in"' not in page

    scorer.post(url("session_stakes", table), {"money_per_point": "0.25", "buy_in": "50"})

    table.refresh_from_db()
    assert table.money_per_point == Decimal("0.25") and table.buy_in is None


def test_bad_stakes_come_back_as_typed_with_the_error_beside_them(
    scorer: Client, table: GameSession
) -> None:
    response = scorer.post(url("session_stakes", table), {"money_per_point": "-3"})

    assert response.status_code == 422
    html = response.content.decode()
    assert "<h1" in html  # the whole session page, without htmx
    stakes = html[html.index('id="stakes"') :]
    assert 'name="money_per_point" value="-3"' in stakes  # as typed
    assert 'id="id_money_per_point_error"' in stakes  # beside the field
    assert 'href="#id_money_per_point">Money per point</a>' in stakes  # and on top
    # The answer opens at the stakes, at the foot of a long page.
    assert f'action="{url("session_stakes", table)}#stakes"' in html
    table.refresh_from_db()
    assert table.money_per_point is None


def test_bad_stakes_over_htmx_come_back_in_place(scorer: Client, table: GameSession) -> None:
    response = scorer.post(
        url("session_stakes", table), {"money_per_point": "lots"}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 422
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#stakes", "outerHTML")
    html = response.content.decode()
    assert html.lstrip().startswith('<form class="form stakes" id="stakes"')
    assert 'name="money_per_point" value="lots"' in html
    assert "Enter a number." in html


def test_a_league_scorer_scores_but_only_owners_manage(client: Client, user: User) -> None:
    league = League.objects.create(name="Club", slug="club")
    scorer = User.objects.create_user("ben", password="x")
    Membership.objects.create(league=league, user=scorer, role=Membership.Role.SCORER)
    table = make_session(user, league=league)
    play(table, "8S", ROUND_1)
    client.force_login(scorer)

    page = client.get(url("session_detail", table)).content.decode()
    assert "End the session now" in page and "data-share-panel" not in page
    assert client.post(url("session_stakes", table), {"money_per_point": "1"}).status_code == 403
    assert client.post(url("session_share_reset", table)).status_code == 403
    assert client.post(url("session_close", table)).status_code == 302


def test_a_viewer_can_neither_end_nor_rejoin(client: Client, user: User) -> None:
    league = League.objects.create(name="Club", slug="club")
    viewer = User.objects.create_user("dev", password="x")
    Membership.objects.create(league=league, user=viewer, role=Membership.Role.VIEWER)
    pool = pool_with_chen_out(user, league=league)
    client.force_login(viewer)

    page = client.get(url("session_detail", pool)).content.decode()

    assert "may rejoin at 61" in page and "Rejoin at 61" not in page
    chen = pool.seats.get(player__name="Chen").pk
    assert client.post(url("session_rejoin", pool), {"seat": chen}).status_code == 403
    assert client.post(url("session_close", pool)).status_code == 403


def test_strangers_get_404_for_every_tool(client: Client, user: User) -> None:
    table = make_session(user)
    client.force_login(User.objects.create_user("eve", password="x"))
    for name in ("session_stakes", "session_close", "session_rejoin", "session_share_reset"):
        assert client.post(url(name, table)).status_code == 404
    assert client.get(url("session_scoreboard", table)).status_code == 404
