"""Standings and player pages in the browser, on a phone: the table scrolls inside
its own box (never the page), the date filter narrows it in place, a name leads to
the player's page with their rating chart, and a session's chart loads as an image.
On a desktop the standings and the score table are whole, the page's width used."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.models import Membership
from tests.support.big_league import EIGHT, big_league, long_session
from tests.support.club import FEB, build_club, mixed_league
from tests.support.pages import contrast, horizontal_overflow, ratio, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_standings_and_player_pages_on_a_phone(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    user = sign_in(page, "captain")
    league, sessions = build_club(user, slug="friday")
    assert Membership.objects.filter(league=league, user=user).exists()

    page.goto(f"/leagues/{league.slug}/standings/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday club: standings")
    rows = page.locator(".standings-table tbody tr")
    expect(rows).to_have_count(3)
    assert horizontal_overflow(page) <= 0  # the table scrolls inside its own box
    scroller = page.locator(".standings-scroll").first
    assert scroller.evaluate("el => el.scrollWidth > el.clientWidth")  # 10 columns at 390 px
    chart = page.locator("svg[data-chart='league-ratings']")
    expect(chart).to_be_visible()
    assert chart.bounding_box()["width"] <= 390
    link = page.get_by_role("link", name="Ben", exact=True)
    assert link.bounding_box()["height"] >= 32
    look_at(page, "standings-phone")

    # The filter narrows the table in place and the address keeps the dates.
    page.evaluate("window.noReload = true")
    page.get_by_label("From", exact=True).fill(FEB.isoformat())
    page.get_by_label("To", exact=True).fill(FEB.isoformat())
    page.get_by_role("button", name="Show").click()
    expect(page.locator("[data-range]")).to_contain_text("10 Feb 2024 to 10 Feb 2024")
    expect(rows).to_have_count(2)
    expect(page).to_have_url(re.compile(r"from=2024-02-10"))  # pushed after the swap
    assert page.evaluate("window.noReload") is True

    # A start after the end is told beside the form, not a crash.
    page.get_by_label("From", exact=True).fill("2024-03-01")
    page.get_by_label("To", exact=True).fill("2024-01-01")
    page.get_by_role("button", name="Show").click()
    expect(page.locator(".form-errors")).to_contain_text("The start date is after the end date.")
    page.get_by_role("link", name="All dates").click()
    expect(rows).to_have_count(3)

    # A name leads to the player's page: sessions, rating chart, recent rounds.
    page.get_by_role("link", name="Ben", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ben")
    expect(page.locator(".player-session-list li")).to_have_count(3)
    expect(page.locator("figure[data-league='friday'] svg")).to_be_visible()
    expect(page.locator(".rounds-table tbody tr")).to_have_count(6)
    assert horizontal_overflow(page) <= 0
    look_at(page, "player-phone")

    # A session's running totals chart is an SVG image the browser draws.
    size = page.evaluate(
        """async (src) => {
            const img = new Image();
            img.src = src;
            await img.decode();
            return [img.naturalWidth, img.naturalHeight];
        }""",
        f"/sessions/{sessions[1].pk}/totals.svg",
    )
    assert size[0] > 300 and size[1] > 200


def test_a_points_league_on_a_phone_shows_its_points_and_a_tab_for_its_pool(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    user = sign_in(page, "captain")
    league, _, _ = mixed_league(user)
    page.goto(f"/leagues/{league.slug}/standings/")
    scroller = page.locator(".standings-scroll").first
    box = scroller.bounding_box()
    # What the rows are ranked by is in view without scrolling: the rating, the
    # sessions won and the points per round (a points club's points).
    for heading in ("Rating", "Won", "Pts/rd"):
        cell = page.locator(".standings-table thead th", has_text=heading).first
        assert cell.bounding_box()["x"] + cell.bounding_box()["width"] <= box["x"] + box["width"]
    ben = page.locator("tr[data-player='Ben'] [data-average]")
    expect(ben).to_have_text("−92.0")  # the points rounds only, not the pool's
    assert ben.bounding_box()["x"] + ben.bounding_box()["width"] <= box["x"] + box["width"]
    expect(page.locator("tr[data-player='Farah']")).to_have_count(0)
    assert horizontal_overflow(page) <= 0
    look_at(page, "standings-points-phone")

    # The pool's own standings, a tap away, swapped in place: low totals best.
    page.evaluate("window.noReload = true")
    page.get_by_role("link", name="13-card pool 101", exact=True).click()
    expect(page.locator("[data-game-line]")).to_contain_text("penalty totals")
    names = page.locator(".standings-table tbody tr")
    expect(names).to_have_count(3)
    # Ranked by the pool's own results (Ben's rating from the points session aside).
    assert names.evaluate_all("rows => rows.map(r => r.dataset.player)") == [
        "Dev",
        "Ben",
        "Farah",
    ]
    expect(page).to_have_url(re.compile(r"game=13-pool-101"))
    assert page.evaluate("window.noReload") is True
    expect(page.get_by_role("link", name="13-card pool 101", exact=True)).to_have_attribute(
        "aria-current", "page"
    )
    assert horizontal_overflow(page) <= 0
    look_at(page, "standings-pool-phone")
    page.emulate_media(color_scheme="dark")
    look_at(page, "standings-pool-phone-dark")


# Each value written beside a point of the rating chart: its text, whether it lies
# inside the drawing, and the other texts of the chart (axes, legend, values) it
# touches, as the browser lays them out.
_VALUE_LABELS = """svg => {
    const inside = (a, b) => a.left >= b.left && a.right <= b.right
        && a.top >= b.top && a.bottom <= b.bottom;
    const touch = (a, b) => a.left < b.right && b.left < a.right
        && a.top < b.bottom && b.top < a.bottom;
    const drawing = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll("text")];
    return [...svg.querySelectorAll(".chart-value")].map(label => {
        const box = label.getBoundingClientRect();
        return {
            text: label.textContent.replace("\u200e", ""),
            inside: inside(box, drawing),
            touches: texts.filter(other => other !== label
                && touch(box, other.getBoundingClientRect())).map(other => other.textContent),
        };
    });
}"""


def test_a_newcomers_one_rated_session_is_named_and_rated_beside_its_point(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    """The Friday club's Asha (January) and Chen (February) each have one rated session,
    beside Ben's line through both: each lone point says whose it is and its rating,
    inside the chart and clear of its other words, in the light and in the dark."""
    page = phone_page
    user = sign_in(page, "captain")
    league, _ = build_club(user, slug="friday")
    page.goto(f"/leagues/{league.slug}/standings/")
    chart = page.locator("svg[data-chart='league-ratings']")
    expect(chart.locator(".chart-value")).to_have_count(2)
    labels = chart.evaluate(_VALUE_LABELS)
    assert labels == [
        {"text": "Asha 3.4", "inside": True, "touches": []},
        {"text": "Chen −2.1", "inside": True, "touches": []},
    ]
    description = chart.locator("desc")
    expect(description).to_contain_text("Asha 3.4 after one rated session (5 Jan 2024)")
    expect(description).to_contain_text("Chen −2.1 after one rated session (10 Feb 2024)")
    chart.scroll_into_view_if_needed()
    look_at(page, "standings-newcomers-phone", full_page=False)

    page.emulate_media(color_scheme="dark")
    # Outlined in the dark surface's colour, not in a white glow.
    halo = chart.locator(".chart-value").first.evaluate("el => getComputedStyle(el).stroke")
    assert halo == "rgb(27, 31, 36)"
    look_at(page, "standings-newcomers-phone-dark", full_page=False)


DARK_SURFACE = [0x1B, 0x1F, 0x24]  # base.css's --surface in the dark, under the image


def test_in_the_dark_every_chart_line_stands_out_from_the_page(phone_page: Page) -> None:
    """WCAG asks 3:1 of lines and marks: the charts' dark theme (charts-dark.css) lightens
    them, on the standings page, where the chart is drawn inline, and in a session's
    chart, an image that carries the theme itself (opened here on its own, its lines
    measured against the surface the session page shows it on)."""
    page = phone_page
    page.emulate_media(color_scheme="dark")
    user = sign_in(page, "captain")
    league = big_league(user)
    session = long_session(user, league, 1, ceiling=50)
    session.refresh_from_db()
    assert session.status == "finished"

    page.goto(f"/leagues/{league.slug}/standings/")
    lines = page.locator("svg[data-chart='league-ratings'] .chart-line")
    expect(lines).to_have_count(5)  # the five best-rated
    for line in lines.all():
        assert contrast(line)[0] >= 3, line.get_attribute("data-series")

    page.goto(f"/sessions/{session.pk}/totals.svg")
    lines = page.locator(".chart-line")
    expect(lines).to_have_count(len(EIGHT))
    for line in lines.all():
        colour = line.evaluate("el => getComputedStyle(el).color.match(/[\\d.]+/g).map(Number)")
        assert ratio(colour[:3], DARK_SURFACE) >= 3, line.get_attribute("data-series")


# Each wide table on the page: how much wider its content is than its box (0: whole).
_CUT = "els => els.map(el => el.scrollWidth - el.clientWidth)"


def test_on_a_desktop_the_standings_and_the_score_table_are_whole(
    desktop_page: Page, look_at: Callable[..., None]
) -> None:
    """At 1280x800 the pages use the width: a league of long names' standings and an
    eight-player session's score table show every column without scrolling sideways
    (both were cut off in a 728 px column beside 500 px of empty page)."""
    page = desktop_page
    user = sign_in(page, "captain")
    league = big_league(user)
    session = long_session(user, league, 12)

    page.goto(f"/leagues/{league.slug}/standings/")
    expect(page.locator(".standings-table tbody th a")).to_have_count(len(EIGHT))
    look_at(page, "standings-desktop", full_page=False)
    assert page.locator(".standings-scroll").evaluate_all(_CUT) == [0], "standings cut off"
    assert horizontal_overflow(page) <= 0

    page.goto(f"/sessions/{session.pk}/")
    look_at(page, "session-desktop", full_page=False)
    assert page.locator(".table-scroll").evaluate_all(_CUT) == [0], "score table cut off"
    assert horizontal_overflow(page) <= 0
