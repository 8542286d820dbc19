"""The score table is read as one snapshot: a round saved, edited
or deleted by another phone while a page reads the table never mixes two states of
the session, so the page never fails and its figures always add up.

The other phone's change is injected between the table's first read of the rounds
and whatever the read does next, on the same connection (tests/support/reads.py).
The same races with real concurrent connections, on PostgreSQL, are in
tests/security/test_concurrency.py."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession
from games.services.round_saves import delete_round
from games.services.scoreboard import load_scoreboard
from tests.support.builders import edit, play
from tests.support.hands import ROUND_1, SHOWN_8S, THREE_PURE
from tests.support.reads import after_first_read_of_rounds, figures

pytestmark = pytest.mark.django_db

BEN_WINS = {
    "Asha": ("shown", SHOWN_8S),
    "Ben": ("declared", THREE_PURE),
    "Chen": ("first_drop", ""),
}


def test_a_round_saved_while_the_table_is_read_does_not_break_it(table: GameSession) -> None:
    play(table, "8S", ROUND_1)
    before = figures(load_scoreboard(table))

    with after_first_read_of_rounds(lambda: play(table, "8S", ROUND_1)):
        board = load_scoreboard(table)

    # The table as it was when the read began: one round, whole.
    assert figures(board) == before
    assert len(figures(load_scoreboard(table))["rows"]) == 2


def test_a_round_edited_while_the_table_is_read_shows_one_version_of_it(
    table: GameSession,
) -> None:
    played = play(table, "8S", ROUND_1)
    before = figures(load_scoreboard(table))

    with after_first_read_of_rounds(lambda: edit(played, "9S", BEN_WINS)):
        board = load_scoreboard(table)

    # Never the new scores under the old cut joker (or the reverse).
    assert figures(board) == before
    after = figures(load_scoreboard(table))
    assert after["rows"][0][1] == "9S" and after["totals"]["Ben"] > 0


def test_a_round_deleted_while_the_table_is_read_does_not_break_it(table: GameSession) -> None:
    play(table, "8S", ROUND_1)
    second = play(table, "8S", BEN_WINS)
    before = figures(load_scoreboard(table))

    with after_first_read_of_rounds(lambda: delete_round(second, table.created_by)):
        board = load_scoreboard(table)

    assert figures(board) == before


@pytest.mark.parametrize("page", ["session", "session_poll", "shared", "shared_poll"])
def test_every_page_with_the_table_survives_a_save_in_the_middle(
    page: str, table: GameSession, user: User, client: Client
) -> None:
    play(table, "8S", ROUND_1)
    client.force_login(user)
    url = {
        "session": reverse("games:session_detail", args=[table.pk]),
        "session_poll": reverse("games:session_scoreboard", args=[table.pk]),
        "shared": reverse("games:shared_session", args=[table.share_token]),
        "shared_poll": reverse("games:shared_scoreboard", args=[table.share_token]),
    }[page]

    with after_first_read_of_rounds(lambda: play(table, "8S", ROUND_1)):
        response = client.get(url)

    html = response.content.decode()
    assert response.status_code == 200
    # One round, whole: its scores and the totals agree.
    assert '<td class="total" data-total="Asha">122</td>' in html
