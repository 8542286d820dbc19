"""The session page: the score table, who may see and score it, and entering rounds
(the live preview and saving, over HTMX and without JavaScript)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, League, Membership, Round

from .conftest import (
    LOOSE_148,
    SHOWN_8S,
    THREE_PURE,
    WIN_8S,
    WIN_13,
    expected_totals,
    make_session,
    play,
    round_data,
    seat_pk,
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
ROUND_1 = {"Asha": ("declared", WIN_8S), "Ben": ("shown", SHOWN_8S), "Chen": ("first_drop", "")}


def detail(session: GameSession) -> str:
    return reverse("games:session_detail", args=[session.pk])


def create(session: GameSession) -> str:
    return reverse("games:round_create", args=[session.pk])


def preview(session: GameSession) -> str:
    return reverse("games:round_preview", args=[session.pk])


# --- The page --------------------------------------------------------------------------


def test_session_page_shows_the_score_table_from_session_state(
    scorer: Client, table: GameSession
) -> None:
    round_2 = {
        "Asha": ("middle_drop", ""),
        "Ben": ("declared", THREE_PURE),
        "Chen": ("shown", LOOSE_148),
    }
    play(table, "8S", ROUND_1)
    play(table, "5H", round_2)

    response = scorer.get(detail(table))

    assert response.status_code == 200
    assert response.template_name == "games/session.html"
    board = response.context_data["board"]
    expected = expected_totals(
        "21-points", ("Asha", "Ben", "Chen"), [("8S", ROUND_1), ("5H", round_2)]
    )
    assert {c.name: c.total for c in board.columns} == expected.totals
    html = response.content.decode()
    for name, total in expected.totals.items():
        assert f'data-total="{name}">{total}</td>' in html
    assert '<span class="score">+122</span>' in html  # Asha's round 1, signed
    assert 'title="8S">8♠</span>' in html  # the cut joker with its suit symbol
    assert 'class="card suit-h" title="5H">5♥</span>' in html  # hearts are styled red
    assert "Next to deal: <strong>Chen</strong>" in html
    assert reverse("games:round_edit", args=[table.pk, table.rounds.get(number=1).pk]) in html
    # The form for round 3 lists every player, with only the outcomes the rules allow.
    form = response.context_data["form"]
    assert [row.seat.player.name for row in form.rows()] == ["Asha", "Ben", "Chen"]
    assert "deal_show" in dict(form.fields[f"outcome_{seat_pk(table, 'Asha')}"].choices)
    assert "Round 3" in html and "data-keypad" in html


def test_thirteen_card_sessions_offer_only_their_outcomes(scorer: Client, user: User) -> None:
    session = make_session(user, preset="13-points")

    form = scorer.get(detail(session)).context_data["form"]

    outcomes = dict(form.fields[f"outcome_{seat_pk(session, 'Asha')}"].choices)
    assert "deal_show" not in outcomes and "declare_timeout" not in outcomes
    assert "declared" in outcomes and "middle_drop" in outcomes


def test_distance_to_the_ceiling_and_eliminations_are_shown(scorer: Client, user: User) -> None:
    pool = make_session(user, preset="13-pool-101")
    play(
        pool,
        "7C",
        {
            "Asha": ("declared", WIN_13),
            "Ben": ("middle_drop", ""),
            "Chen": ("invalid_declaration", ""),
        },
    )
    play(
        pool,
        "7C",
        {"Asha": ("declared", WIN_13), "Ben": ("first_drop", ""), "Chen": ("middle_drop", "")},
    )

    html = scorer.get(detail(pool)).content.decode()

    # Ben: 60 of 101, Chen out with 120; the bar's value is what is left.
    assert 'max="101" value="41"' in html and "41 to go" in html
    assert "out in round 2" in html
    assert '<span class="badge badge-out">out</span>' in html
    # The next round is for Asha and Ben only.
    assert 'data-player="Chen"' not in html.split('id="round-entry"')[1]


def test_a_finished_session_shows_the_winner_and_no_form(scorer: Client, user: User) -> None:
    session = make_session(user, players=("Asha", "Ben"), ceiling=100)
    play(session, "8S", {"Asha": ("declared", WIN_8S), "Ben": ("shown", LOOSE_148)})

    response = scorer.get(detail(session))

    html = response.content.decode()
    assert "Session over: <strong>Asha</strong> wins." in html
    assert "No more rounds" in html
    assert "Save round" not in html


# --- Who may see and score -------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_sign_in(client: Client, table: GameSession) -> None:
    for response in (client.get(detail(table)), client.post(create(table), {})):
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))


def test_strangers_get_a_404_for_sessions_they_cannot_see(
    client: Client, table: GameSession
) -> None:
    client.force_login(User.objects.create_user("stranger"))

    assert client.get(detail(table)).status_code == 404
    assert client.post(create(table), round_data(table, "8S", ROUND_1)).status_code == 404
    assert client.post(preview(table), {}).status_code == 404
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    ("role", "may_score"), [("owner", True), ("scorer", True), ("viewer", False)]
)
def test_league_members_see_and_owners_or_scorers_score(
    client: Client, table: GameSession, role: str, may_score: bool
) -> None:
    league = League.objects.create(name="Tuesdays", slug="tuesdays")
    table.league = league
    table.save()
    member = User.objects.create_user("member")
    Membership.objects.create(league=league, user=member, role=role)
    client.force_login(member)

    page = client.get(detail(table))
    response = client.post(create(table), round_data(table, "8S", ROUND_1))

    assert page.status_code == 200
    assert page.context_data["writer"] is may_score
    assert ("Save round" in page.content.decode()) is may_score
    assert response.status_code == (302 if may_score else 403)
    assert Round.objects.count() == (1 if may_score else 0)


def test_unknown_and_absurd_session_ids_are_404s(scorer: Client) -> None:
    assert scorer.get("/sessions/999999/").status_code == 404
    assert scorer.get("/sessions/" + "9" * 18 + "/").status_code == 404
    assert scorer.get("/sessions/" + "9" * 40 + "/").status_code == 404
    assert scorer.get("/sessions/-1/").status_code == 404


def test_session_page_rejects_post_and_round_create_rejects_get(scorer: Client, table) -> None:
    assert scorer.post(detail(table)).status_code == 405
    assert scorer.get(create(table)).status_code == 405


# --- Saving a round --------------------------------------------------------------------


def test_saving_over_htmx_swaps_the_form_and_the_scoreboard(
    scorer: Client, table: GameSession
) -> None:
    response = scorer.post(create(table), round_data(table, "8s", ROUND_1), headers=HTMX)

    assert response.status_code == 200
    assert response.template_name == "games/session.html#form_and_table"
    context = response.context_data
    assert context["saved"].number == 1
    assert context["entry"].number == 2 and context["entry"].dealer.player.name == "Ben"
    assert not context["form"].is_bound  # a fresh form for the next round
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="round-entry"')
    assert re.search(r'<section id="scoreboard"[^>]*hx-swap-oob="true"', html)
    assert "Round 1 saved." in html and "Round 2</h2>" in html
    assert "Next to deal: <strong>Ben</strong>" in html
    assert "<html" not in html
    scores = {e.player.name: e.score for e in Round.objects.get().entries.all()}
    assert scores == {"Asha": 122, "Ben": -92, "Chen": -30}


def test_saving_without_javascript_redirects_back_to_the_page(
    scorer: Client, table: GameSession
) -> None:
    response = scorer.post(create(table), round_data(table, "8S", ROUND_1))

    assert response.status_code == 302
    assert response.url == detail(table)
    page = scorer.get(response.url).content.decode()
    assert "Round 1 saved." in page
    assert 'data-total="Asha">122</td>' in page


def test_saving_the_last_round_ends_the_session(scorer: Client, user: User) -> None:
    session = make_session(user, players=("Asha", "Ben"), ceiling=100)
    data = round_data(session, "8S", {"Asha": ("declared", WIN_8S), "Ben": ("shown", LOOSE_148)})

    response = scorer.post(create(session), data, headers=HTMX)

    html = response.content.decode()
    assert "No more rounds" in html
    assert "Session over: <strong>Asha</strong> wins." in html
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    # A finished session takes no new rounds, even from a stale form.
    again = scorer.post(create(session), data, headers=HTMX)
    assert again.status_code == 422
    assert "This session is over" in again.content.decode()
    assert session.rounds.count() == 1


# --- The live preview ------------------------------------------------------------------


def test_preview_classifies_groups_and_shows_points_beside_each_player(
    scorer: Client, table: GameSession
) -> None:
    data = round_data(table, "8S", {"Ben": ("shown", SHOWN_8S), "Asha": ("declared", "2H 3H 4H")})

    response = scorer.post(preview(table), data, headers=HTMX)

    assert response.status_code == 200
    assert response.template_name == "partials/round_fields.html#preview"
    html = response.content.decode()
    ben = html.split('data-preview="Ben"')[1].split("</div>")[0]
    assert 'hx-swap-oob="true"' in ben
    assert '<span class="kind kind-pure_sequence">pure sequence</span>' in ben
    assert '<span class="points">left out</span>' in ben
    assert "Hand points: <strong>102</strong>" in ben
    asha = html.split('data-preview="Asha"')[1].split("</div>")[0]
    assert "Asha must show all 21 cards, not 3" in asha
    # The jokers of the cut, out of band; no settlement until every hand is complete.
    key = response.context_data["form"].form_key
    assert f'<p id="jokers-{key}" class="jokers" data-jokers hx-swap-oob="true">' in html
    assert 'title="9S">9♠</span>' in html
    assert "once every hand is complete" in html
    assert response.context_data["form"].check.result is None
    assert not Round.objects.exists()


def test_preview_settles_the_round_once_every_hand_is_complete(scorer: Client, table) -> None:
    response = scorer.post(preview(table), round_data(table, "8S", ROUND_1), headers=HTMX)

    result = response.context_data["form"].check.result
    assert [p.score for p in result.players] == [122, -92, -30]
    html = response.content.decode()
    assert '<tr data-settlement="Ben">' in html
    assert '<td class="round-score">-92</td>' in html
    assert "<td>+10</td>" in html  # Ben's value points
    assert not Round.objects.exists()  # a preview saves nothing


def test_preview_without_a_cut_joker_asks_for_it(scorer: Client, table: GameSession) -> None:
    response = scorer.post(preview(table), round_data(table, "", {"Ben": ("shown", "2D 3D 4D")}))

    assert "Enter the cut joker to see the groups." in response.content.decode()


def test_preview_of_an_earlier_round_uses_that_rounds_players(scorer: Client, table) -> None:
    played = play(table, "8S", ROUND_1)
    url = reverse("games:round_edit_preview", args=[table.pk, played.pk])

    response = scorer.post(url, round_data(table, "8S", ROUND_1), headers=HTMX)

    assert response.status_code == 200
    assert [p.result.score for p in response.context_data["form"].check.players] == [122, -92, -30]
