"""The share link: a live, read-only score table for anyone holding the session's
unguessable token, and the polls that keep it (and the session page) current."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import GameSession, Round
from games.services.sessions import create_session
from tests.support.builders import (
    CHEN_REJOINED_CELLS,
    make_session,
    play,
    pool_with_chen_rejoined,
    round_data,
)
from tests.support.hands import ROUND_1
from tests.support.reads import copies_of
from tests.support.score_rows import score_rows

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def shared(session: GameSession) -> str:
    return reverse("games:shared_session", args=[session.share_token])


def poll(session: GameSession) -> str:
    return reverse("games:shared_scoreboard", args=[session.share_token])


def stamp_in(html: str) -> str:
    return re.search(r'data-stamp="(\d+)"', html)[1]


def test_share_tokens_are_long_random_and_distinct(table: GameSession, user: User) -> None:
    other = create_session(user, preset="21-points", overrides={}, players=["A", "B"])
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


def test_the_poll_answers_204_until_a_round_is_saved(
    client: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    stamp = stamp_in(client.get(shared(table)).content.decode())

    unchanged = client.get(poll(table), {"v": stamp}, headers=HTMX)
    with django_capture_on_commit_callbacks(execute=True):  # committed, as a save is
        play(table, "8S", ROUND_1)
    changed = client.get(poll(table), {"v": stamp}, headers=HTMX)

    assert unchanged.status_code == 204 and unchanged.content == b""
    html = changed.content.decode()
    assert changed.status_code == 200 and html.lstrip().startswith('<section id="scoreboard"')
    assert '<td class="total" data-total="Ben">−92</td>' in html
    # The fresh table polls from its own stamp: the next poll is a 204 again.
    assert client.get(poll(table), {"v": stamp_in(html)}, headers=HTMX).status_code == 204


def test_the_session_page_polls_too_for_its_members(
    scorer: Client, table: GameSession, django_capture_on_commit_callbacks
) -> None:
    page = scorer.get(reverse("games:session_detail", args=[table.pk])).content.decode()
    url = reverse("games:session_scoreboard", args=[table.pk])
    assert f'hx-get="{url}?v={stamp_in(page)}"' in page

    assert scorer.get(url, {"v": stamp_in(page)}).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):  # committed, as a save is
        play(table, "8S", ROUND_1)
    response = scorer.get(url, {"v": stamp_in(page)})
    assert response.status_code == 200 and "Next to deal" in response.content.decode()


def test_the_creator_sees_the_link_and_its_qr_code(scorer: Client, table: GameSession) -> None:
    html = scorer.get(reverse("games:session_detail", args=[table.pk])).content.decode()

    assert f"http://testserver/shared/{table.share_token}/" in html
    assert '<svg width="' in html and 'class="segno"' in html


# --- A long session: the latest rounds, older ones a tap away ---------------------------


def rounds_in(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr data-round="(\d+)"', html)]


def long_session(table: GameSession, rounds: int) -> GameSession:
    copies_of(play(table, "8S", ROUND_1), rounds - 1)
    return GameSession.objects.get(pk=table.pk)


def test_a_long_session_shares_its_latest_ten_rounds_and_the_totals(
    client: Client, table: GameSession
) -> None:
    table = long_session(table, 25)

    html = client.get(shared(table)).content.decode()

    assert rounds_in(html) == list(range(16, 26))
    assert '<td class="total" data-total="Asha">3,050</td>' in html  # 25 × 122
    assert "Rounds 1–15 are not shown." in html
    assert f'href="{shared(table)}?from=6"' in html  # ten earlier, without JavaScript
    assert f'href="{shared(table)}?from=1"' in html  # all of them


def test_older_rounds_are_one_tap_away_without_javascript(
    client: Client, table: GameSession
) -> None:
    table = long_session(table, 25)

    earlier = client.get(shared(table), {"from": "6"}).content.decode()
    everything = client.get(shared(table), {"from": "1"}).content.decode()

    assert rounds_in(earlier) == list(range(6, 26))
    assert "Rounds 1–5 are not shown." in earlier
    assert f'href="{shared(table)}"' in earlier  # back to the latest rounds
    assert rounds_in(everything) == list(range(1, 26))
    assert "are not shown" not in everything
    for html in (earlier, everything):
        assert '<td class="total" data-total="Asha">3,050</td>' in html


def test_older_rounds_are_one_tap_away_with_htmx(client: Client, table: GameSession) -> None:
    table = long_session(table, 25)
    page = client.get(shared(table)).content.decode()
    # The button fetches the table from the poll's address and swaps it in place.
    assert f'hx-get="{poll(table)}?from=6"' in page

    response = client.get(poll(table), {"from": "6"}, headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<section id="scoreboard"')
    assert rounds_in(html) == list(range(6, 26))
    # It goes on polling for the same rounds, so the next save does not fold it again.
    assert f'hx-get="{poll(table)}?v={stamp_in(html)}&amp;from=6"' in html


def test_the_poll_of_a_long_session_stays_folded_after_a_save(
    client: Client, table: GameSession
) -> None:
    table = long_session(table, 25)
    latest = client.get(shared(table)).content.decode()
    earlier = client.get(shared(table), {"from": "6"}).content.decode()

    play(table, "8S", ROUND_1)
    after_latest = client.get(poll(table), {"v": stamp_in(latest)}, headers=HTMX)
    after_earlier = client.get(poll(table), {"v": stamp_in(earlier), "from": "6"}, headers=HTMX)

    assert rounds_in(after_latest.content.decode()) == list(range(17, 27))
    assert "Rounds 1–16 are not shown." in after_latest.content.decode()
    assert rounds_in(after_earlier.content.decode()) == list(range(6, 27))
    for response in (after_latest, after_earlier):
        assert '<td class="total" data-total="Asha">3,172</td>' in response.content.decode()


@pytest.mark.parametrize("asked", ["0", "-3", "99999", "x", "1" * 30])
def test_a_strange_first_round_shows_the_latest_rounds(
    client: Client, table: GameSession, asked: str
) -> None:
    table = long_session(table, 25)
    response = client.get(shared(table), {"from": asked})
    assert response.status_code == 200
    assert rounds_in(response.content.decode())[-10:] == list(range(16, 26))


def test_the_share_page_reads_no_more_the_longer_the_session(
    client: Client, user: User, table: GameSession
) -> None:
    other = create_session(user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"])
    short, long = long_session(table, 12), long_session(other, 60)

    def cost(session: GameSession) -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            html = client.get(shared(session)).content.decode()
        return len(queries), len(rounds_in(html))

    (short_queries, short_rows), (long_queries, long_rows) = cost(short), cost(long)
    assert short_queries == long_queries
    assert short_rows == long_rows == 10


def test_the_share_page_keeps_the_out_total_in_its_round_and_the_rejoin_on_its_own_line(
    client: Client, user: User
) -> None:
    pool = pool_with_chen_rejoined(user)

    html = client.get(shared(pool)).content.decode()

    rows = score_rows(html)
    assert [row[0] for row in rows] == ["1 7♣", "2 7♣", "Rejoin", "3 7♣"]
    assert [row[1:] for row in rows] == CHEN_REJOINED_CELLS
    assert '<span class="badge">rejoined at 61 after round 2</span>' in html


def test_the_share_page_says_the_house_rules(client: Client, user: User) -> None:
    session = make_session(user, overrides={"first_drop": 25})

    html = client.get(shared(session)).content.decode()

    assert "House rules: First drop costs 25 (preset 30)</p>" in html
