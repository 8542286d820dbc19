"""A latecomer and a leaver through a whole night, read on the scorer's phone: the
latecomer joins and another player goes home through the session page, the rounds
are saved through the services (the round form is tested elsewhere), and the test
reads what a club reads at the end: each round's running totals with the rounds a
player was not at the table marked, who was put out and when, the winner, who pays
whom (the leaver too), the rounds file and the league's standings."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from games.models import GameSession, League, Membership
from games.services.sessions import create_session
from tests.support.axe import assert_no_violations
from tests.support.builders import play
from tests.support.hands import ROUND_1, WIN_8S, WIN_13
from tests.support.pages import horizontal_overflow, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NOT_HERE = "–"  # a cell of a round the player sat out: out, or not at the table


def a_night(user: User, preset: str, **stakes: object) -> GameSession:
    """Asha, Ben and Chen sit down at the club's table (a league of ``preset``)."""
    league = League.objects.create(name="Thursday club", slug="thursday", preset=preset)
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    players = ["Asha", "Ben", "Chen"]
    return create_session(
        user, preset=preset, overrides={}, players=players, league=league, **stakes
    )


def join_on_the_page(page: Page, session: GameSession, name: str, starts_at: str) -> None:
    page.goto(f"/sessions/{session.pk}/")
    page.locator("[data-table-changes] summary").tap()
    expect(page.locator("label[for=join-name]")).to_have_text(f"A latecomer joins at {starts_at}")
    page.locator("[data-join-name]").fill(name)
    page.locator("[data-join]").tap()
    expect(page.locator(f'[data-player="{name}"] [data-joined]')).to_be_visible()


def leave_on_the_page(page: Page, session: GameSession, name: str) -> None:
    page.goto(f"/sessions/{session.pk}/")
    page.locator("[data-table-changes] summary").tap()
    page.once("dialog", lambda dialog: dialog.accept())  # a leave asks first
    page.locator(f'[data-leave="{name}"]').tap()
    expect(page.locator(f'[data-player="{name}"] [data-left]')).to_be_visible()


def score_rows(page: Page) -> list[list[str]]:
    """Each round's cells as a player reads them: the running total, the round's score
    and "out"; a dash for a round sat out."""
    rows = page.locator("#score-rows tr[data-round]")
    return [
        [" ".join(text.split()) for text in rows.nth(i).locator("td").all_inner_texts()]
        for i in range(rows.count())
    ]


def sat_out(page: Page, number: int, column: int) -> Locator:
    """The dash of a round a player sat out (``column`` counts the players from 1)."""
    return (
        page.locator(f'#score-rows tr[data-round="{number}"] td')
        .nth(column - 1)
        .locator(".sat-out")
    )


def rounds_file(page: Page) -> list[dict[str, str]]:
    """The session's rounds file as the browser downloads it, a row a round."""
    with page.expect_download() as download:
        page.get_by_role("link", name="Rounds (CSV)").click()
    text = Path(download.value.path()).read_text("utf-8-sig")
    header, *rows = list(csv.reader(io.StringIO(text)))
    return [dict(zip(header, row, strict=True)) for row in rows]


def standings(page: Page, league: League) -> dict[str, dict[str, str]]:
    """The league's standings as the page shows them, by player in the page's order."""
    page.goto(f"/leagues/{league.slug}/standings/")
    rows = page.locator(".standings-table tbody tr")
    expect(rows.first).to_be_visible()
    read = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        cells = ("won", "total", "money", "sessions", "rounds")
        read[row.get_attribute("data-player")] = {
            cell: row.locator(f"[data-{cell}]").inner_text().strip() for cell in cells
        }
    return read


def test_a_latecomer_and_a_leaver_through_a_whole_pool(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    user = sign_in(page, "olga")
    pool = a_night(user, "13-pool-101", buy_in=Decimal("5.00"))
    declares, first, middle = ("declared", WIN_13), ("first_drop", ""), ("middle_drop", "")
    play(pool, "7C", {"Asha": declares, "Ben": middle, "Chen": first}, user)

    # Dev comes after round 1 and buys in as a rejoin would: Ben's 40, plus one.
    join_on_the_page(page, pool, "Dev", "41")
    play(
        pool,
        "7C",
        {"Asha": middle, "Ben": declares, "Chen": ("invalid_declaration", ""), "Dev": first},
        user,
    )
    leave_on_the_page(page, pool, "Ben")  # at 40, after round 2
    play(pool, "7C", {"Asha": declares, "Chen": first, "Dev": first}, user)  # Chen out

    # Chen may not buy back in: the latecomer's total is above the cutoff.
    page.goto(f"/sessions/{pool.pk}/")
    expect(page.locator('.standing[data-player="Chen"] [data-rejoin-refused]')).to_have_text(
        "No rejoining: Dev is still in at 81, above the cutoff of 79."
    )
    play(pool, "7C", {"Asha": declares, "Dev": middle}, user)  # Dev out: Asha wins

    page.goto(f"/sessions/{pool.pk}/")
    expect(page.locator("[data-winner]")).to_have_text("Session over: Asha wins.")
    # Asha, Ben, Chen, Dev: a running total and the round's score in each cell.
    assert score_rows(page) == [
        ["0 0", "40 +40", "20 +20", NOT_HERE],
        ["40 +40", "40 0", "100 +80", "61 +20"],
        ["40 0", NOT_HERE, "120 +20 out", "81 +20"],
        ["40 0", NOT_HERE, NOT_HERE, "121 +40 out"],
    ]
    expect(sat_out(page, 1, 4)).to_have_attribute("title", "not at the table")  # Dev, not yet
    expect(sat_out(page, 3, 2)).to_have_attribute("title", "not at the table")  # Ben, gone
    expect(sat_out(page, 4, 3)).to_have_attribute("title", "out")  # Chen, out in round 3
    badges = {
        "Asha": ["winner"],
        "Ben": ["left after round 2"],
        "Chen": ["out in round 3"],
        "Dev": ["joined at 41 after round 1", "out in round 4"],
    }
    for name, words in badges.items():
        expect(page.locator(f'.standing[data-player="{name}"] .badge')).to_have_text(words)
    # The pot: each of the four seats bought in once, the leaver's and the latecomer's too.
    expect(page.locator("#money-title")).to_have_text("The pot: 20.00")
    expect(page.locator("[data-pot-winner]")).to_have_text("Asha takes the pot.")
    assert horizontal_overflow(page) <= 0
    look_at(page, "whole-pool-seat-changes-phone")

    by_round = rounds_file(page)
    assert [row["Dev: outcome"] for row in by_round] == [
        "not yet at the table",
        "First drop",
        "First drop",
        "Middle drop",
    ]
    assert [row["Dev: total"] for row in by_round] == ["", "61", "81", "121"]
    assert [row["Ben: outcome"] for row in by_round][2:] == ["left the table"] * 2
    assert [row["Ben: total"] for row in by_round] == ["40", "40", "40", "40"]

    assert_no_violations(page)

    # The standings count both: Dev's three rounds and 121, Ben's two and 40. A leaver
    # ranks as though put out by the last round they played: after Chen and Dev.
    table = standings(page, pool.league)
    assert list(table) == ["Asha", "Dev", "Chen", "Ben"]
    assert {name: line["total"] for name, line in table.items()} == {
        "Asha": "40",
        "Dev": "121",
        "Chen": "120",
        "Ben": "40",
    }
    assert {name: line["rounds"] for name, line in table.items()} == {
        "Asha": "4",
        "Dev": "3",
        "Chen": "3",
        "Ben": "2",
    }
    assert [line["won"] for line in table.values()] == ["1", "0", "0", "0"]
    assert {line["sessions"] for line in table.values()} == {"1"}
    look_at(page, "whole-pool-seat-changes-standings-phone")


def test_a_latecomer_and_a_leaver_through_a_whole_points_night_with_a_ceiling(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    user = sign_in(page, "olga")
    # Play to a loss of 150: the round that takes anyone there ends the night.
    night = a_night(user, "21-points", ceiling=150, money_per_point=Decimal("0.50"))
    play(night, "8S", ROUND_1, user)  # Asha 122, Ben -92, Chen -30

    join_on_the_page(page, night, "Dev", "0")
    drops = {"Asha": ("first_drop", ""), "Ben": ("first_drop", ""), "Chen": ("middle_drop", "")}
    play(night, "8S", {"Dev": ("declared", WIN_8S), **drops}, user)  # Dev +130
    leave_on_the_page(page, night, "Chen")  # at -100, after round 2
    last = {"Asha": ("declared", WIN_8S), "Ben": ("middle_drop", ""), "Dev": ("first_drop", "")}
    play(night, "8S", last, user)  # Ben at -192: past 150, the night is over

    page.goto(f"/sessions/{night.pk}/")
    expect(page.locator("[data-winner]")).to_have_text("Session over: Asha wins.")
    assert score_rows(page) == [
        ["122 +122", "−92 −92", "−30 −30", NOT_HERE],
        ["92 −30", "−122 −30", "−100 −70", "130 +130"],
        ["192 +100", "−192 −70", NOT_HERE, "100 −30"],
    ]
    expect(sat_out(page, 1, 4)).to_have_attribute("title", "not at the table")
    expect(sat_out(page, 3, 3)).to_have_attribute("title", "not at the table")
    expect(page.locator('.standing[data-player="Chen"] .badge')).to_have_text(
        ["left after round 2"]
    )
    expect(page.locator('.standing[data-player="Dev"] .badge')).to_have_text(
        ["joined at 0 after round 1"]
    )
    # The fewest transfers at 0.50 a point: Chen, gone home at −100, still pays his part.
    expect(page.locator("[data-payment]")).to_have_text(
        ["Ben pays Asha 96.00", "Chen pays Dev 50.00"]
    )
    assert horizontal_overflow(page) <= 0
    look_at(page, "whole-points-seat-changes-phone")

    by_round = rounds_file(page)
    assert [row["Dev: outcome"] for row in by_round] == [
        "not yet at the table",
        "Declared",
        "First drop",
    ]
    assert [row["Dev: total"] for row in by_round] == ["", "130", "100"]
    assert [row["Chen: outcome"] for row in by_round] == [
        "First drop",
        "Middle drop",
        "left the table",
    ]
    assert [row["Chen: total"] for row in by_round] == ["-30", "-100", "-100"]

    assert_no_violations(page)

    # Places as the rules give them: a leaver ranks below everyone still in, so Chen,
    # gone home at −100, comes after Ben, who played on to −192.
    table = standings(page, night.league)
    assert list(table) == ["Asha", "Dev", "Ben", "Chen"]
    assert {name: (line["total"], line["rounds"], line["won"]) for name, line in table.items()} == {
        "Asha": ("192", "3", "1"),
        "Ben": ("−192", "3", "0"),
        "Chen": ("−100", "2", "0"),
        "Dev": ("100", "2", "0"),
    }
    assert {name: line["money"] for name, line in table.items()} == {
        "Asha": "+96.00",
        "Ben": "−96.00",
        "Chen": "−50.00",
        "Dev": "+50.00",
    }
    look_at(page, "whole-points-seat-changes-standings-phone")
