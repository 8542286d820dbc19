"""The night in one message (games/services/night.py): the totals best first and who
pays whom, as the session page's Share the night hands it to a chat app."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from games.models import GameSession
from games.services.leagues import create_league
from games.services.money import money_of
from games.services.night import night_text
from games.services.scoreboard import load_scoreboard
from games.services.sessions import close_session
from tests.support.builders import make_session, play, pool_with_chen_out
from tests.support.hands import ROUND_1

pytestmark = pytest.mark.django_db

FRIDAY = datetime.date(2026, 3, 13)


def text_of(session: GameSession, link: str | None = None) -> str:
    board = load_scoreboard(GameSession.objects.get(pk=session.pk))  # as a request reads it
    return night_text(board, money_of(board), link)


def test_an_ended_night_gives_the_winner_the_totals_best_first_and_who_pays_whom(
    user: User,
) -> None:
    friday = make_session(user, name="Friday", played_on=FRIDAY, money_per_point=Decimal("0.10"))
    play(friday, "8S", ROUND_1)
    play(friday, "8S", ROUND_1)
    close_session(friday)

    text = text_of(friday, "https://club.example/shared/abc/")

    assert text == (
        "Friday, 13 Mar 2026\n"
        "Asha wins.\n"
        "1. Asha 244\n"
        "2. Chen −60\n"
        "3. Ben −184\n"
        "\n"
        "Settle up at 0.10 a point:\n"
        "Ben pays Asha 18.40\n"
        "Chen pays Asha 6.00\n"
        "\n"
        "Live scores: https://club.example/shared/abc/"
    )


def test_a_night_still_playing_says_where_it_stands_and_what_it_would_cost(
    user: User,
) -> None:
    friday = make_session(user, name="Friday", played_on=FRIDAY, money_per_point=Decimal("0.10"))
    play(friday, "8S", ROUND_1)

    lines = text_of(friday).splitlines()

    assert lines[1] == "After round 1, still playing:"
    assert "Settle up at 0.10 a point, if it ended now:" in lines
    assert not any("Live scores" in line for line in lines)  # no link given


def test_a_night_for_points_only_has_no_money_lines_and_an_unnamed_one_its_day(
    user: User,
) -> None:
    night = make_session(user, played_on=FRIDAY)
    play(night, "8S", ROUND_1)
    close_session(night)

    assert text_of(night) == (
        "21-card points, 13 Mar 2026\nAsha wins.\n1. Asha 122\n2. Chen −30\n3. Ben −92"
    )


def test_a_pool_says_who_is_out_and_who_takes_the_pot(user: User) -> None:
    pool = pool_with_chen_out(user, name="Pool", played_on=FRIDAY, buy_in=Decimal("5"))

    lines = text_of(pool).splitlines()

    assert lines[2:5] == ["1. Asha 0", "2. Ben 60", "3. Chen 120 (out in round 2)"]
    assert lines[5:8] == ["", "The pot: 15.00", "If the players still in split it now:"]
    assert [line.split()[0] for line in lines[8:]] == ["Asha", "Ben"]


def test_players_level_on_points_share_their_place(user: User) -> None:
    night = make_session(user, name="Friday", played_on=FRIDAY)
    level = {"Asha": ("first_drop", ""), "Ben": ("first_drop", ""), "Chen": ROUND_1["Asha"]}
    play(night, "8S", level)

    lines = text_of(night).splitlines()

    assert lines[2:5] == ["1. Chen 60", "2. Asha −30", "2. Ben −30"]


def test_nothing_to_tell_before_the_first_round(user: User) -> None:
    assert text_of(make_session(user)) == ""


def test_a_hindi_leagues_night_is_told_in_rupees_grouped_in_lakhs(user: User) -> None:
    club = create_league(user, name="Club", preset="21-points", overrides={}, language="hi")
    friday = make_session(
        user, name="Friday", played_on=FRIDAY, league=club, money_per_point=Decimal("5000")
    )
    play(friday, "8S", ROUND_1)
    close_session(friday)

    with translation.override("hi"):
        lines = text_of(friday).splitlines()

    assert lines[0] == "Friday, 13 मार्च 2026"
    assert lines[6:] == [
        "₹5,000.00 प्रति पॉइंट से हिसाब:",
        "Ben से Asha को ₹4,60,000.00",
        "Chen से Asha को ₹1,50,000.00",
    ]
