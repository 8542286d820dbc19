"""The session page (games/views/sessions.py): the score table, who may see and score
it, and what it offers once the session is finished."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.figures import points
from games.models import GameSession, League, Membership, Round
from tests.support.builders import (
    expected_totals,
    make_session,
    play,
    pool_with_chen_out,
    pool_won_by_asha,
    round_data,
    seat_pk,
)
from tests.support.hands import LOOSE_148, ROUND_1, THREE_PURE, WIN_8S
from tests.support.reads import copies_of
from tests.support.urls import create, detail, preview

pytestmark = pytest.mark.django_db


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
        assert f'data-total="{name}">{points(total)}</td>' in html
    assert '<span class="score">+122</span>' in html  # Asha's round 1, signed
    assert 'title="8S">8♠</span>' in html  # the cut joker with its suit symbol
    assert 'class="card suit-h" title="5H">5♥</span>' in html  # hearts are styled red
    assert "Next to deal: <strong>Chen</strong>" in html
    assert reverse("games:round_edit", args=[table.pk, table.rounds.get(number=1).pk]) in html
    # The form for round 3 lists every player, with only the outcomes the rules allow.
    form = response.context_data["form"]
    assert [row.seat.player.name for row in form.rows()] == ["Asha", "Ben", "Chen"]
    assert "deal_show" in dict(form.fields[f"outcome_{seat_pk(table, 'Asha')}"].choices)
    assert "Round 3" in html and "data-picker" in html


def test_thirteen_card_sessions_offer_only_their_outcomes(scorer: Client, user: User) -> None:
    session = make_session(user, preset="13-points")

    form = scorer.get(detail(session)).context_data["form"]

    outcomes = dict(form.fields[f"outcome_{seat_pk(session, 'Asha')}"].choices)
    assert "deal_show" not in outcomes and "declare_timeout" not in outcomes
    assert "declared" in outcomes and "middle_drop" in outcomes


def test_a_distance_to_the_ceiling_is_grouped_as_a_total_is(scorer: Client, user: User) -> None:
    session = pool_with_chen_out(user, ceiling=25000)

    html = scorer.get(detail(session)).content.decode()

    # Ben: 60 of 25,000, so 24,940 left, written as the totals are.
    assert "24,940 to go" in html and "24940 to go" not in html


def test_distance_to_the_ceiling_and_eliminations_are_shown(scorer: Client, user: User) -> None:
    pool = pool_with_chen_out(user)

    html = scorer.get(detail(pool)).content.decode()

    # Ben: 60 of 101, Chen out with 120; the bar's value is what is left.
    assert 'max="101" value="41"' in html and "41 to go" in html
    assert "out in round 2" in html
    assert '<span class="badge badge-out">out</span>' in html
    # Chen is out: his card says so, with no distance to the ceiling ("0 to go").
    chen = re.search(r'<li class="standing is-out" data-player="Chen">.*?</li>', html, re.S)[0]
    assert "to go" not in chen and "<meter" not in chen
    # The next round is for Asha and Ben only.
    round_entry = html.split('id="round-entry"')[1].split('id="scoreboard"')[0]
    assert 'data-player="Chen"' not in round_entry


def test_once_a_pool_is_over_nobody_has_points_to_go(scorer: Client, user: User) -> None:
    pool = pool_won_by_asha(user)

    html = scorer.get(detail(pool)).content.decode()

    # Asha won at 0: she is marked the winner, with no "101 to go" nor its bar.
    asha = re.search(
        r'<li class="standing is-winner" data-player="Asha">\s*'
        r'<span class="standing-name">(.*?)</span>\s*'
        r'<span class="standing-total" data-standing-total>0</span>\s*</li>',
        html,
        re.S,
    )
    assert asha and " ".join(asha[1].split()) == 'Asha <span class="badge badge-win">winner</span>'
    assert "to go" not in html and "<meter" not in html


def test_a_finished_session_shows_the_winner_and_no_form(scorer: Client, user: User) -> None:
    session = make_session(user, players=("Asha", "Ben"), ceiling=100)
    play(session, "8S", {"Asha": ("declared", WIN_8S), "Ben": ("shown", LOOSE_148)})

    response = scorer.get(detail(session))

    html = response.content.decode()
    assert "Session over: <strong>Asha</strong> wins." in html
    assert "No more rounds" in html
    assert "Save round" not in html


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


# --- A long session: the latest ten rounds, the rest one tap away ----------------------


def test_a_long_session_page_shows_its_latest_ten_rounds_and_older_ones_on_request(
    scorer: Client, table: GameSession
) -> None:
    copies_of(play(table, "8S", ROUND_1), 24)
    page = reverse("games:session_detail", args=[table.pk])
    poll = reverse("games:session_scoreboard", args=[table.pk])

    html = scorer.get(page).content.decode()
    earlier = scorer.get(page, {"from": "6"}).content.decode()
    polled = scorer.get(poll, {"from": "6"}, headers={"HX-Request": "true"}).content.decode()

    assert rounds_in(html) == list(range(16, 26))
    assert '<td class="total" data-total="Asha">3,050</td>' in html  # 25 × 122
    assert "Rounds 1–15 are not shown." in html
    assert f'href="{page}?from=6"' in html and f'hx-get="{poll}?from=6"' in html
    assert rounds_in(earlier) == rounds_in(polled) == list(range(6, 26))
    assert "Save round 26" in html  # the form still follows the whole session


def rounds_in(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr data-round="(\d+)"', html)]


def test_the_house_rules_stay_in_sight_under_the_title_once_play_starts(
    scorer: Client, user: User
) -> None:
    changed = make_session(user, overrides={"first_drop": 25})
    play(changed, "8S", ROUND_1)
    plain = make_session(user)

    html = scorer.get(detail(changed)).content.decode()

    assert (
        '<p class="meta session-rules" data-house-rules>'
        "House rules: First drop costs 25 (preset 30)</p>"
    ) in html
    assert "data-house-rules" not in scorer.get(detail(plain)).content.decode()


def test_many_house_rules_fold_behind_their_count(scorer: Client, user: User) -> None:
    session = make_session(user, overrides={"first_drop": 25, "middle_drop": 50, "hand_cap": 100})

    html = scorer.get(detail(session)).content.decode()

    assert "<summary>House rules: 3 changes from the preset</summary>" in html
    assert "<li>Middle drop costs 50 (preset 70)</li>" in html


@pytest.mark.parametrize(("preset", "keeps"), [("21-paplu", True), ("21-points", False)])
def test_the_picker_keeps_a_drops_cards_only_where_the_rules_count_them(
    scorer: Client, user: User, preset: str, keeps: bool
) -> None:
    # Under Paplu's drop rules a drop's cards are its value cards: static/js/picker.js
    # must not set them aside when a hand is switched to a drop, as it does elsewhere.
    session = make_session(user, preset=preset)

    html = scorer.get(reverse("games:session_detail", args=[session.pk])).content.decode()

    picker = re.search(r"<div class=\"picker\" data-picker[^>]*>", html)
    assert picker is not None
    assert ("data-drops-keep-cards" in picker[0]) is keeps
