"""The table view (shared/<token>/big/): the share link's totals, large, for a tablet
or a TV across the table. No sign-in, read-only, live through the share page's own
poll (``view=big``), its figures from the replayed score table."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import GameSession, Round
from games.services.scoreboard import load_scoreboard
from games.services.sessions import close_session
from tests.support.builders import (
    play,
    pool_with_chen_out,
    pool_with_chen_rejoined,
    pool_won_by_asha,
    round_data,
)
from tests.support.hands import ROUND_1
from tests.support.reads import copies_of

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def big(session: GameSession) -> str:
    return reverse("games:shared_big", args=[session.share_token])


def poll(session: GameSession) -> str:
    return reverse("games:shared_scoreboard", args=[session.share_token])


def totals_in(html: str) -> dict[str, int]:
    found = re.findall(
        r'data-big-player="([^"]+)">\s*<span class="big-name">[^<]*</span>\s*'
        r'<span class="big-total-box"><span class="big-total" data-big-total>(−?\d+)</span>',
        html,
    )
    return {name: int(total.replace("−", "-")) for name, total in found}


def test_anyone_with_the_share_link_sees_each_total_in_seat_order(
    client: Client, table: GameSession
) -> None:
    play(table, "8S", ROUND_1)

    response = client.get(big(table))

    html = response.content.decode()
    board = load_scoreboard(table)
    assert response.status_code == 200
    assert totals_in(html) == {c.name: c.total for c in board.columns}
    assert list(totals_in(html)) == ["Asha", "Ben", "Chen"]
    assert "After round <strong data-big-round>1</strong>" in html
    assert f"Next to deal: <strong>{board.next_dealer.player.name}</strong>" in html
    assert response["Referrer-Policy"] == "no-referrer"
    assert response["Cache-Control"] == "private, no-cache"
    # Read-only: nothing that writes, no way into the session's own pages (the
    # footer's choice of language, below the page, writes only the browser's cookie).
    assert "<form" not in html.split('<main class="content"')[1].split("</main>")[0]
    assert reverse("games:session_detail", args=[table.pk]) not in html


def test_before_the_first_round_it_says_so(client: Client, table: GameSession) -> None:
    html = client.get(big(table)).content.decode()
    assert "No rounds yet" in html
    assert totals_in(html) == {"Asha": 0, "Ben": 0, "Chen": 0}


def test_a_pool_shows_its_ceiling_who_is_out_and_how_far_the_others_have_to_go(
    client: Client, user: User
) -> None:
    pool = pool_with_chen_out(user)
    board = load_scoreboard(pool)

    html = client.get(big(pool)).content.decode()

    assert f"ceiling <strong data-big-ceiling>{board.ceiling}</strong>" in html
    chen = next(c for c in board.columns if c.name == "Chen")
    assert re.search(
        r'class="big-player is-out"[^>]*data-big-player="Chen".*?'
        rf"data-big-out>out in round {chen.eliminated_in}</span>",
        html,
        re.S,
    )
    for column in board.columns:
        if not column.eliminated_in:
            assert f"{column.distance} to go" in html


def test_a_player_who_rejoined_shows_the_total_they_rejoined_at(client: Client, user: User) -> None:
    pool = pool_with_chen_rejoined(user)

    html = client.get(big(pool)).content.decode()

    assert totals_in(html)["Chen"] == 81
    assert "data-big-rejoined>rejoined at 61 after round 2</span>" in html


def test_the_winner_is_named_when_the_session_is_over(client: Client, table: GameSession) -> None:
    play(table, "8S", ROUND_1)
    close_session(GameSession.objects.get(pk=table.pk))
    board = load_scoreboard(GameSession.objects.get(pk=table.pk))

    html = client.get(big(table)).content.decode()

    assert board.finished
    assert f"Session over: <strong>{' and '.join(board.winners)}</strong>" in html
    assert "Next to deal" not in html


def test_once_a_pool_is_over_the_winner_is_marked_with_nothing_to_go(
    client: Client, user: User
) -> None:
    pool = pool_won_by_asha(user)

    html = client.get(big(pool)).content.decode()

    asha = re.search(
        r'data-big-player="Asha">.*?<span class="big-notes">(.*?)</span>\s*</li>', html, re.S
    )
    assert asha[1].strip() == '<span class="badge badge-win">winner</span>'
    assert "to go" not in html


def test_it_follows_the_share_pages_poll_answered_unchanged_from_the_cache(
    client: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    html = client.get(big(table)).content.decode()
    stamp = re.search(r'data-stamp="(\d+)"', html)[1]
    assert f'hx-get="{poll(table)}?view=big&amp;v={stamp}"' in html

    with CaptureQueriesContext(connection) as queries:
        unchanged = client.get(poll(table), {"view": "big", "v": stamp}, headers=HTMX)
    with django_capture_on_commit_callbacks(execute=True):  # committed, as a save is
        play(table, "8S", ROUND_1)
    changed = client.get(poll(table), {"view": "big", "v": stamp}, headers=HTMX)

    assert unchanged.status_code == 204 and not queries.captured_queries
    body = changed.content.decode()
    assert changed.status_code == 200 and body.lstrip().startswith('<section id="big-board"')
    assert totals_in(body) == {c.name: c.total for c in load_scoreboard(table).columns}
    assert "<tr data-round" not in body  # the totals, not the score table


def test_it_costs_the_same_at_round_sixty_as_at_round_two(
    client: Client, table: GameSession
) -> None:
    copies_of(play(table, "8S", ROUND_1), 1)

    def queries_for() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(big(table)).status_code == 200
        return len(queries)

    short = queries_for()
    copies_of(Round.objects.get(session=table, number=1), 58)
    assert queries_for() == short


def test_it_cannot_write_and_a_wrong_token_is_a_404(client: Client, table: GameSession) -> None:
    assert client.post(big(table), round_data(table, "8S", ROUND_1)).status_code == 405
    assert not Round.objects.exists()
    assert client.get(big(table).replace(table.share_token, "x" * 22)).status_code == 404


def test_the_session_page_and_the_share_page_link_to_it(
    scorer: Client, client: Client, table: GameSession
) -> None:
    session_page = scorer.get(reverse("games:session_detail", args=[table.pk])).content.decode()
    share_page = client.get(reverse("games:shared_session", args=[table.share_token]))
    for html in (session_page, share_page.content.decode()):
        assert f'href="{big(table)}" data-big-link' in html


def test_the_share_and_table_links_come_with_copy_and_share_buttons(
    scorer: Client, table: GameSession
) -> None:
    scorer.post(reverse("games:table_link", args=[table.pk]), {"action": "open"})
    table.refresh_from_db()
    html = scorer.get(reverse("games:session_detail", args=[table.pk])).content.decode()

    boxes = re.findall(r"<div class=\"link-actions\".*?</div>", html, re.S)
    urls = [re.search(r'value="([^"]+)"', box)[1] for box in boxes]
    assert urls == [
        f"http://testserver/table/{table.table_token}/",
        f"http://testserver/shared/{table.share_token}/",
    ]
    for box in boxes:
        assert "data-copy-link>Copy link</button>" in box
        # Share waits for the script to find the system's share sheet.
        assert "data-share-link hidden>Share</button>" in box
        assert 'role="status" data-link-status' in box
