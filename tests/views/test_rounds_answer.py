"""What a save answers over HTMX (games/views/rounds.py): one replay of the session,
and, when the phone showed the table as it was just before, only what the round
changed (the new row, the totals, the next form) rather than the whole table."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.figures import points
from games.models import GameSession, Membership
from games.services import scoreboard
from games.services.leagues import create_league
from games.views import rounds as views
from tests.support.builders import edit, make_session, play, round_data
from tests.support.hands import LOOSE_148, ROUND_1, SHOWN_8S, WIN_8S

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def page(client: Client, session: GameSession) -> str:
    return client.get(reverse("games:session_detail", args=[session.pk])).content.decode()


def shown_stamp(html: str) -> str:
    """The live stamp the round form sends along: the table the phone shows."""
    return re.search(r'<input type="hidden" name="shown" value="(\d+)">', html)[1]


def save(client: Client, session: GameSession, shown: str | None, hands=ROUND_1):
    data = round_data(session, "8S", hands)
    if shown is not None:
        data["shown"] = shown
    return client.post(reverse("games:round_create", args=[session.pk]), data, headers=HTMX)


def test_a_save_from_the_current_table_answers_with_the_new_row_and_totals_only(
    scorer: Client, table: GameSession
) -> None:
    play(table, "8S", ROUND_1)
    play(table, "8S", ROUND_1)

    response = save(scorer, table, shown_stamp(page(scorer, table)))

    assert response.status_code == 200
    assert response.template_name == "games/session.html#saved_round"
    html = response.content.decode()
    # The next form, with "Round 3 saved." and the next dealer.
    assert html.lstrip().startswith('<section id="round-entry"')
    assert "Round 3 saved." in html and "Round 4</h2>" in html
    # The new row goes below the others; the older rows are not sent again.
    assert '<tbody hx-swap-oob="beforeend:#score-rows">' in html
    assert re.findall(r'<tr data-round="(\d+)"', html) == ["3"]
    assert '<section id="scoreboard"' not in html
    # Three rounds of ROUND_1: Asha 3 × 122, Ben 3 × -92, Chen 3 × -30, everywhere a
    # total shows (the table's footer, the standings, the totals line above the form).
    for name, total in {"Asha": 366, "Ben": -276, "Chen": -90}.items():
        assert f'data-total="{name}">{points(total)}</td>' in html
        assert re.search(
            rf'data-strip="{name}">\s*<span class="strip-name">{name}</span> '
            rf'<strong class="strip-total">{points(total)}</strong>',
            html,
        )
    assert '<tfoot id="score-totals" hx-swap-oob="true">' in html
    assert '<div id="board-summary" hx-swap-oob="true">' in html
    assert "Next to deal: <strong>Asha</strong>" in html  # round 4 is Asha's deal
    # The live poll moves on to the table after the save: its next poll is a 204.
    table.refresh_from_db()
    stamp = scoreboard.live_stamp(table)
    assert re.search(
        rf'<div id="scoreboard-live"[^>]*data-stamp="{stamp}"[^>]*'
        r'data-rounds="3"[^>]*hx-swap-oob="true"',
        html,
        re.S,
    )
    poll = scorer.get(reverse("games:session_scoreboard", args=[table.pk]), {"v": stamp})
    assert poll.status_code == 204


def test_the_rows_answered_in_place_add_up_to_the_full_page(
    scorer: Client, table: GameSession
) -> None:
    play(table, "8S", ROUND_1)
    answer = save(scorer, table, shown_stamp(page(scorer, table))).content.decode()

    row = re.search(r'<tr data-round="2">.*?</tr>', answer, re.S)[0]
    full = page(scorer, table)
    assert row in full  # the same markup the page shows for round 2


def test_a_save_from_a_table_older_than_the_session_answers_with_the_whole_table(
    scorer: Client, table: GameSession
) -> None:
    play(table, "8S", ROUND_1)
    stale = shown_stamp(page(scorer, table))
    play(table, "8S", ROUND_1)  # another phone's round, not yet shown on this one

    response = save(scorer, table, stale)

    assert response.template_name == "games/session.html#form_and_table"
    html = response.content.decode()
    assert re.search(r'<section id="scoreboard"[^>]*hx-swap-oob="true"', html)
    assert re.findall(r'<tr data-round="(\d+)"', html) == ["1", "2", "3"]


@pytest.mark.parametrize("shown", [None, "", "12x"])
def test_a_save_that_says_no_table_answers_with_the_whole_table(
    scorer: Client, table: GameSession, shown: str | None
) -> None:
    play(table, "8S", ROUND_1)

    response = save(scorer, table, shown)

    assert response.template_name == "games/session.html#form_and_table"


def test_the_first_round_answers_with_the_table_and_the_end_button(
    scorer: Client, table: GameSession
) -> None:
    response = save(scorer, table, shown_stamp(page(scorer, table)))

    assert response.template_name == "games/session.html#form_and_table"
    html = response.content.decode()
    # The table was "No rounds yet": it comes whole, and ending by hand is now possible.
    assert re.findall(r'<tr data-round="(\d+)"', html) == ["1"]
    assert re.search(r'<div id="session-closing" hx-swap-oob="true">\s*<form', html)
    assert "End the session now" in html


def test_a_save_that_ends_the_session_answers_with_the_whole_table(
    scorer: Client, user: User
) -> None:
    session = make_session(user, players=("Asha", "Ben"), ceiling=100)
    hands = {"Asha": ("declared", WIN_8S), "Ben": ("shown", LOOSE_148)}
    play(session, "8S", {"Asha": ("declared", WIN_8S), "Ben": ("first_drop", "")})

    response = save(scorer, session, shown_stamp(page(scorer, session)), hands)

    assert response.template_name == "games/session.html#form_and_table"
    html = response.content.decode()
    assert "Session over:" in html and "No more rounds" in html
    # Play again is offered where the finger is: under "No more rounds".
    entry = html.split("</section>")[0]
    assert entry.index("No more rounds") < entry.index("data-rematch-button")


def test_a_save_that_ends_the_session_reads_and_replays_it_once(
    scorer: Client, user: User, counted_replays: list[int]
) -> None:
    session = make_session(user, players=("Asha", "Ben"), ceiling=100)
    play(session, "8S", {"Asha": ("declared", WIN_8S), "Ben": ("first_drop", "")})
    shown = shown_stamp(page(scorer, session))
    counted_replays.clear()

    response = save(
        scorer, session, shown, {"Asha": ("declared", WIN_8S), "Ben": ("shown", LOOSE_148)}
    )

    assert "Session over:" in response.content.decode()
    assert counted_replays == [session.pk]


def test_a_save_reads_and_replays_the_session_once(
    scorer: Client, table: GameSession, counted_replays: list[int]
) -> None:
    for _ in range(3):
        play(table, "8S", ROUND_1)
    shown = shown_stamp(page(scorer, table))
    counted_replays.clear()

    response = save(scorer, table, shown)

    assert response.template_name == "games/session.html#saved_round"
    assert counted_replays == [table.pk]


def test_a_save_into_a_session_changed_meanwhile_replays_it_as_it_now_is(
    scorer: Client, table: GameSession, user: User, counted_replays: list[int]
) -> None:
    # Round 1 is edited on another phone after this save read the session but before
    # it took the lock: the board it read is stale, so the save reads the session
    # again (once, under the lock) and the new round's totals follow the edit.
    play(table, "8S", ROUND_1)
    shown = shown_stamp(page(scorer, table))
    original = views.load_scoreboard

    def board_then_an_edit(session):
        board = original(session)
        swapped = {
            "Asha": ("shown", SHOWN_8S),
            "Ben": ("declared", WIN_8S),
            "Chen": ("first_drop", ""),
        }
        edit(session.rounds.get(number=1), "8S", swapped, user)
        counted_replays.clear()
        return board

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(views, "load_scoreboard", board_then_an_edit)
        response = save(scorer, table, shown)

    assert response.status_code == 200
    assert counted_replays == [table.pk]  # read again under the lock, once
    # Round 1 now: Asha -92, Ben 122, Chen -30; round 2: Asha 122, Ben -92, Chen -30.
    totals = dict(table.seats.values_list("player__name", "total"))
    assert totals == {"Asha": 30, "Ben": 30, "Chen": -60}
    # The phone showed round 1 as it was before the edit: the whole table comes.
    assert response.template_name == "games/session.html#form_and_table"
    assert 'data-total="Asha">30</td>' in response.content.decode()


def test_the_query_count_of_a_save_does_not_grow_with_the_session(
    scorer: Client, table: GameSession
) -> None:
    counts = []
    for rounds in (2, 12):
        while table.rounds.count() < rounds:
            play(table, "8S", ROUND_1)
        shown = shown_stamp(page(scorer, table))
        with CaptureQueriesContext(connection) as queries:
            response = save(scorer, table, shown)
        assert response.template_name == "games/session.html#saved_round"
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_session_page_asks_the_role_and_reads_the_rejoins_once(
    client: Client, user: User
) -> None:
    league = create_league(user, name="Club", preset="21-points", overrides={})
    session = make_session(user, league=league)
    play(session, "8S", ROUND_1)
    client.force_login(user)

    with CaptureQueriesContext(connection) as queries:
        html = page(client, session)

    sql = [query["sql"] for query in queries]
    membership = Membership._meta.db_table
    assert len([q for q in sql if f'FROM "{membership}"' in q]) == 1
    assert len([q for q in sql if 'FROM "games_rejoin"' in q]) == 1
    assert "End the session now" in html and "Share the live score table" in html


def test_a_save_answered_in_place_keeps_the_older_rounds_the_reader_opened(
    scorer: Client, table: GameSession
) -> None:
    for _ in range(12):
        play(table, "8S", ROUND_1)
    url = reverse("games:session_detail", args=[table.pk])
    opened = scorer.get(f"{url}?from=1").content.decode()  # "Show earlier rounds", tapped
    assert re.findall(r'<tr data-round="(\d+)"', opened)[0] == "1"
    data = round_data(table, "8S", ROUND_1) | {"shown": shown_stamp(opened)}
    data |= dict(re.findall(r'<input type="hidden" name="(from)" value="(\d+)">', opened))

    answer = scorer.post(reverse("games:round_create", args=[table.pk]), data, headers=HTMX)

    html = answer.content.decode()
    assert answer.template_name == "games/session.html#saved_round"
    # The next poll still asks for every round from the first, not the latest ten.
    assert re.search(r'id="scoreboard-live"[^>]*hx-get="[^"]*\?v=\d+&amp;from=1"', html)


def test_a_save_that_puts_a_player_out_says_so_beside_round_n_saved(
    scorer: Client, user: User
) -> None:
    from tests.support.hands import POOL_ROUNDS

    pool = make_session(user, preset="13-pool-101")
    play(pool, "7C", POOL_ROUNDS[0])  # Chen 80

    data = round_data(pool, "7C", POOL_ROUNDS[1])  # Chen 40 more: 120, out
    response = scorer.post(reverse("games:round_create", args=[pool.pk]), data, headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    saved = re.search(r'<div class="message saved-message".*?</div>', html, re.S)[0]
    assert re.search(r"Round 2 saved\. <strong data-went-out>Chen is out\.</strong>", saved)
