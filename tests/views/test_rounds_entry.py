"""Entering a round on the session page (games/views/rounds.py): the live preview beside
each player and saving, over HTMX and without JavaScript."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, Round
from games.rules import PRESETS, PlayerHand, arrange, parse_card, parse_cards, score_round
from tests.support.builders import make_session, play, round_data
from tests.support.hands import (
    FIVE_DUBLEES,
    LOOSE_148,
    ROUND_1,
    SEED_BEN,
    SHOWN_8S,
    WIN_8S,
    shuffled,
)
from tests.support.urls import create, detail, preview

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def test_session_page_rejects_post_and_round_create_rejects_get(scorer: Client, table) -> None:
    assert scorer.post(detail(table)).status_code == 405
    assert scorer.get(create(table)).status_code == 405


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


def test_a_round_tapped_in_card_by_card_saves_as_the_solver_groups_it(
    scorer: Client, table: GameSession
) -> None:
    hands = {
        "Asha": ("declared", shuffled(WIN_8S)),
        "Ben": ("shown", shuffled(SEED_BEN)),
        "Chen": ("shown", shuffled(FIVE_DUBLEES)),
    }

    response = scorer.post(create(table), round_data(table, "8S", hands), headers=HTMX)

    assert response.status_code == 200 and "Round 1 saved." in response.content.decode()
    ruleset, cut = PRESETS["21-points"], parse_card("8S")
    solved = [
        PlayerHand(name, outcome, arrange(ruleset, cut, parse_cards(text)).groups)
        for name, (outcome, text) in hands.items()
    ]
    expected = score_round(ruleset, cut, solved)
    entries = {e.player.name: e for e in Round.objects.get().entries.all()}
    assert {name: e.score for name, e in entries.items()} == {
        p.name: p.score for p in expected.players
    }
    assert entries["Asha"].declaration == "three_pure"
    assert entries["Ben"].groups == [[card.code for card in g] for g in solved[1].groups]


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
    assert '<span class="points">not counted</span>' in ben
    assert "Hand points: <strong>102</strong>" in ben
    # Short of cards while typing: a problem in the preview, not yet an error.
    asha = html.split('data-preview="Asha"')[1].split("</div>")[0]
    assert "must show all 21 cards, not 3" in asha
    errors = html.split('data-hand-errors="Asha"')[1].split("</div>")[0]
    assert 'hx-swap-oob="true"' in errors and "<li>" not in errors
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
    assert '<td class="round-score">−92</td>' in html
    assert "<td>+10</td>" in html  # Ben's value points
    assert not Round.objects.exists()  # a preview saves nothing


def test_preview_without_a_cut_joker_asks_for_it(scorer: Client, table: GameSession) -> None:
    hands = {"Ben": ("shown", "2D 3D 4D"), "Chen": ("first_drop", "")}
    response = scorer.post(preview(table), round_data(table, "", hands))

    previews = response.content.decode().split('data-preview="')
    said = {
        part.split('"')[0]: "Enter the cut joker to see the groups." in part
        for part in previews[1:]
    }
    # Asked of a hand with cards, not of a player who dropped and shows none.
    assert said["Ben"] and not said["Chen"]


def test_preview_of_an_earlier_round_uses_that_rounds_players(scorer: Client, table) -> None:
    played = play(table, "8S", ROUND_1)
    url = reverse("games:round_edit_preview", args=[table.pk, played.pk])

    response = scorer.post(url, round_data(table, "8S", ROUND_1), headers=HTMX)

    assert response.status_code == 200
    assert [p.result.score for p in response.context_data["form"].check.players] == [122, -92, -30]


def test_a_paplu_default_win_previews_each_drop_at_what_it_pays(scorer: Client, user) -> None:
    # docs/rules §5: in a Paplu default win every drop pays the winner 30, whatever kind
    # of drop it was; a middle drop alone would count 60. The figure beside the
    # player is the settlement's, not the hand's alone.
    paplu = make_session(user, players=("Asha", "Ben", "Chen"), preset="21-paplu")
    hands = {"Asha": ("default_win", ""), "Ben": ("first_drop", ""), "Chen": ("middle_drop", "")}

    response = scorer.post(preview(paplu), round_data(paplu, "8S", hands), headers=HTMX)

    result = response.context_data["form"].check.result
    assert [p.hand_points for p in result.players] == [0, 30, 30]
    chen = response.content.decode().split('data-preview="Chen"')[1].split("</div>")[0]
    assert "Hand points: <strong>30</strong>" in chen
