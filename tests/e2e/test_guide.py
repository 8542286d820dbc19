"""The players' guide (docs/players/), walked as a player walks it: each test is one
page of the guide, on a 390x844 phone with touch, and checks what that page says the
player sees. With GUIDE_SCREENSHOTS=1 (`make guide`) each test also saves the
pictures its page shows into docs/players/img/, so that the guide's pictures are what
the app shows today; tests/test_docs.py checks that every page of the guide has one
and that every picture it names is there."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from games.models import GameSession, Round, RoundChange
from games.services.sessions import create_session, set_stakes
from tests.support.builders import edit, make_session, play, pool_with_chen_out
from tests.support.club import build_club
from tests.support.hands import ROUND_1, SEED_BEN, SHOWN_8S, WIN_8S, shuffled
from tests.support.pages import (
    PASSWORD,
    PHONE_DEVICE,
    choose_outcome,
    fill_round,
    player,
    preview,
    seat_hands_in,
    sign_in,
    sign_in_on_the_page,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GUIDE_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "players" / "img"
# A phone turned on its side, as the table view is meant to be read across a table.
LANDSCAPE = {"width": 844, "height": 390}
# Back online, a round saved on the phone goes at once or on draft_queue.js's 10 s
# timer, plus as long as any expectation waits on a loaded machine.
SENT_MS = 25_000

Shoot = Callable[..., None]


@pytest.fixture
def shoot() -> Shoot:
    """Saves what the phone shows as docs/players/img/NAME.png when GUIDE_SCREENSHOTS=1;
    otherwise does nothing (encoding a picture checks nothing). ``at``: the part of
    the page the picture is about, scrolled to the top of the screen first (``block``:
    or to its middle, "center"). One
    screen, in CSS pixels: a phone's screen as a reader sees it, and a small file."""

    def save(page: Page, name: str, at: Locator | None = None, *, block: str = "start") -> None:
        if os.environ.get("GUIDE_SCREENSHOTS") != "1":
            return
        if at is not None:
            at.evaluate("(el, block) => el.scrollIntoView({block})", block)
        GUIDE_IMAGES.mkdir(parents=True, exist_ok=True)
        page.screenshot(
            path=GUIDE_IMAGES / f"{name}.png", scale="css", animations="disabled", caret="hide"
        )

    return save


def asha_with_friday(page: Page) -> tuple[User, GameSession]:
    """Asha signed in on the phone, with her Friday table of Asha, Ben and Chen."""
    user = sign_in(page, "asha")
    session = make_session(user, name="Friday")
    return user, session


# --- players/index.md: signing in, and your sessions ----------------------------------


def test_signing_in_shows_your_sessions(phone_page: Page, shoot: Shoot) -> None:
    page = phone_page
    user = User.objects.create_user("asha", password=PASSWORD)
    friday = make_session(user, name="Friday")
    play(friday, "8S", ROUND_1)
    make_session(user, players=("Asha", "Ben", "Chen", "Dev"), preset="13-pool-101")

    sign_in_on_the_page(page, "asha")
    page.goto("/")

    expect(page.get_by_role("heading", level=1)).to_have_text("Your sessions")
    sessions = page.locator(".session-list li")
    expect(sessions).to_have_count(2)
    named = sessions.filter(has_text="Friday")
    expect(named).to_contain_text("Asha, Ben, Chen")
    # A session left unnamed is called by its game and day.
    expect(sessions.filter(has_text="Dev")).to_contain_text("13-card pool 101")
    expect(page.get_by_role("link", name="Your account")).to_be_visible()
    shoot(page, "home")


# --- players/start-a-session.md -------------------------------------------------------


def test_starting_a_session_with_a_toss_and_a_house_rule(phone_page: Page, shoot: Shoot) -> None:
    page = phone_page
    sign_in(page, "asha")
    page.goto("/sessions/new/")
    page.get_by_label("Name (optional)").fill("Friday")
    for number, name in enumerate(("Asha", "Ben", "Chen"), start=1):
        page.get_by_label(f"Seat {number}", exact=True).fill(name)
    page.get_by_role("button", name="Toss for seats").click()

    # Each player is dealt a card; the lowest deals first.
    expect(page.locator("[data-toss-card]")).to_have_count(3)
    seated = [page.get_by_label(f"Seat {n}", exact=True).input_value() for n in (1, 2, 3)]
    assert sorted(seated) == ["Asha", "Ben", "Chen"]
    expect(page.locator('input[name="first_dealer"][value="3"]')).to_be_checked()
    shoot(page, "new-session", at=page.get_by_label("Seat 1", exact=True))

    page.locator("summary", has_text="House rules").click()
    hand_points = page.locator(
        "details.rule-section", has=page.locator("summary", has_text="Hand points")
    )
    hand_points.locator("summary").first.click()
    page.get_by_label("First drop costs", exact=True).fill("25")
    expect(hand_points.locator("summary").first).to_contain_text("1 changed")
    expect(page.locator("[data-changed]:visible")).to_contain_text("the preset's is 30")
    shoot(page, "house-rules", at=hand_points)

    page.get_by_role("button", name="Start session").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday")
    expect(page.locator("main")).to_contain_text("First drop costs 25 (preset 30)")
    expect(page.locator("[data-next-dealer]")).to_contain_text(seated[2])
    session = GameSession.objects.get()
    assert session.overrides == {"first_drop": 25}


# --- players/enter-a-round.md ---------------------------------------------------------


def test_entering_a_round_with_the_picker_previews_and_problems(
    phone_page: Page, shoot: Shoot
) -> None:
    page = phone_page
    _, session = asha_with_friday(page)
    page.goto(f"/sessions/{session.pk}/")

    # The picker sits under the field it fills and starts at the cut joker.
    page.get_by_label("Cut joker").focus()
    picker = page.locator("[data-picker]:visible")
    expect(picker).to_be_visible()
    picker.locator('[data-card="8S"]').tap()
    expect(page.get_by_label("Cut joker")).to_have_value("8S")
    choose_outcome(player(page, "Asha"), "declared")
    player(page, "Asha").get_by_label("Groups").focus()
    for code in ("2H", "3H", "4H"):
        picker.locator(f'[data-card="{code}"]').tap()
    expect(player(page, "Asha").get_by_label("Groups")).to_have_value("2H 3H 4H")
    # Each card says how many copies the round holds already.
    expect(picker.locator('[data-card="2H"]')).to_contain_text("1/3")  # three decks
    shoot(page, "card-picker", at=player(page, "Asha"))

    # Cards in any order: a whole hand typed without "|" is arranged by the rules.
    player(page, "Asha").get_by_label("Groups").fill(shuffled(WIN_8S))
    choose_outcome(player(page, "Ben"), "shown")
    player(page, "Ben").get_by_label("Groups").fill(SEED_BEN.replace("8C", "8X"))
    choose_outcome(player(page, "Chen"), "first_drop")
    expect(preview(page, "Asha")).to_contain_text("Valid declaration: three pure sequences")

    page.get_by_role("button", name="Save round 1").tap()
    problems = page.locator("[data-problems]")
    expect(problems).to_contain_text("'8X' is not a card")
    expect(problems.get_by_role("link", name="Ben")).to_be_visible()
    shoot(page, "round-problems", at=player(page, "Chen"))
    assert not Round.objects.exists()

    player(page, "Ben").get_by_label("Groups").fill(SEED_BEN)
    expect(problems).to_have_count(0)
    expect(preview(page, "Ben")).to_contain_text("Hand points: 81")
    expect(page.locator('[data-settlement="Ben"] .round-score')).to_have_text("−71")
    shoot(page, "round-preview", at=preview(page, "Ben"), block="center")

    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("[data-saved]")).to_contain_text("Round 1 saved.")
    expect(page.get_by_role("button", name="Undo", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Save round 2")).to_be_visible()
    # Ben's 81, less the 10 his value card wins back; Chen's first drop 30; Asha takes both.
    expect(page.locator('[data-total="Asha"]')).to_have_text("101")
    expect(page.locator('[data-total="Ben"]')).to_have_text("−71")
    expect(page.locator('[data-total="Chen"]')).to_have_text("−30")
    shoot(page, "score-table", at=page.locator("#scoreboard"))


# --- players/table-mode.md ------------------------------------------------------------


def test_in_table_mode_a_player_hands_in_on_their_own_phone(
    new_context: Callable[..., Any], shoot: Shoot
) -> None:
    scorer = new_context(**PHONE_DEVICE).new_page()
    user = sign_in(scorer, "olga")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    scorer.goto(f"/sessions/{session.pk}/")
    scorer.get_by_role("button", name="Open table mode").tap()
    expect(scorer.get_by_role("heading", name="Table mode: round 1")).to_be_visible()
    link = scorer.locator(".table-link [data-link-url]").input_value()

    ben = new_context(**PHONE_DEVICE).new_page()  # no account needed
    ben.goto(link)
    ben.get_by_role("button", name="Ben").tap()
    expect(ben.get_by_role("heading", level=1)).to_have_text("Ben's hand")
    seat_hands_in(ben, "8S", SHOWN_8S)
    expect(ben.locator('[data-preview="Ben"]')).to_contain_text("Hand points: 102")
    shoot(ben, "table-seat", at=ben.get_by_role("heading", level=1))

    seat = scorer.locator('[data-table-seat="Ben"]')
    expect(seat).to_have_attribute("data-state", "in")
    expect(scorer.locator('[data-table-seat="Asha"]')).to_have_attribute("data-state", "waiting")
    shoot(scorer, "table-scorer", at=scorer.get_by_role("heading", name="Table mode: round 1"))


# --- players/leagues.md ---------------------------------------------------------------


def test_a_league_ranks_its_players_and_invites_by_link(phone_page: Page, shoot: Shoot) -> None:
    page = phone_page
    user = sign_in(page, "captain")
    league, _sessions = build_club(user, slug="friday")

    page.goto(f"/leagues/{league.slug}/standings/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday club: standings")
    expect(page.locator(".standings-table tbody tr")).to_have_count(3)
    expect(page.locator(".standings-table thead")).to_contain_text("Rating")
    shoot(page, "standings")

    page.goto(f"/leagues/{league.slug}/")
    page.get_by_label("Joins as").select_option("scorer")
    page.get_by_label("Works for").select_option("7")
    page.get_by_role("button", name="Make an invite link").tap()
    invite = page.locator("[data-invite]")
    expect(invite).to_contain_text("Joins as scorer")
    expect(invite).to_contain_text("used 0 times")
    expect(invite.get_by_role("button", name="Copy link")).to_be_visible()
    shoot(page, "league-invites", at=page.locator("#invites-title"))


# --- players/money.md -----------------------------------------------------------------


def test_money_per_point_says_who_pays_whom(phone_page: Page, shoot: Shoot) -> None:
    page = phone_page
    _, session = asha_with_friday(page)
    play(session, "8S", ROUND_1)
    page.goto(f"/sessions/{session.pk}/")

    page.get_by_label("Money per point").fill("0.50")
    page.get_by_role("button", name="Save stakes").tap()
    money = page.locator("[data-money]")
    expect(money).to_contain_text("Settle up")
    # Asha +122, Ben −92, Chen −30: the fewest transfers, both to Asha.
    expect(money.locator("[data-payment]")).to_have_count(2)
    expect(money.locator("[data-payment]").first).to_contain_text("Ben pays Asha")
    shoot(page, "money", at=money)


def test_a_pool_shows_the_pot_and_a_rejoin(fresh_phone_page: Page, shoot: Shoot) -> None:
    page = fresh_phone_page
    user = sign_in(page, "asha")
    pool = pool_with_chen_out(user, name="Pool night")
    set_stakes(pool, money_per_point=None, buy_in=Decimal("10.00"))
    page.goto(f"/sessions/{pool.pk}/")

    expect(page.locator("[data-money]")).to_contain_text("The pot: 30.00")
    rejoin = page.locator('[data-rejoin="Chen"]')
    expect(rejoin).to_have_text("Rejoin at 61")  # Ben's 60, the highest still in, plus one
    shoot(page, "pool-rejoin", at=rejoin, block="center")

    page.once("dialog", lambda dialog: dialog.accept())  # it asks first: a new buy-in
    rejoin.tap()
    expect(page.locator("[data-take-back='Chen']")).to_be_visible()
    expect(page.locator("[data-money]")).to_contain_text("The pot: 40.00")


# --- players/offline.md ---------------------------------------------------------------


def test_a_round_saved_without_signal_is_sent_when_back(
    new_context: Callable[..., Any], shoot: Shoot
) -> None:
    page = new_context(**PHONE_DEVICE).new_page()  # the service worker allowed
    _, session = asha_with_friday(page)
    page.goto(f"/sessions/{session.pk}/")
    page.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'")
    fill_round(page, "8S", ROUND_1)
    expect(page.locator("#settlement")).to_contain_text("Settlement")

    page.context.set_offline(True)
    page.get_by_role("button", name="Save round 1").tap()
    note = page.locator("[data-queued-note]")
    expect(note).to_have_text("Saved on this phone — will send when back online.")
    assert not Round.objects.exists()
    shoot(page, "offline-saved", at=player(page, "Chen"))

    page.context.set_offline(False)
    expect(page.locator("[data-sent]")).to_have_text("Round 1 sent.", timeout=SENT_MS)
    expect(page.locator("tr[data-round]")).to_have_count(1)
    assert Round.objects.count() == 1


# --- players/sharing.md ---------------------------------------------------------------


def test_the_share_link_and_the_table_view_need_no_sign_in(
    new_context: Callable[..., Any], shoot: Shoot
) -> None:
    user = User.objects.create_user("asha", password=PASSWORD)
    session = make_session(user, name="Friday")
    play(session, "8S", ROUND_1)

    phone = new_context(**PHONE_DEVICE).new_page()  # nobody signed in
    phone.goto(f"/shared/{session.share_token}/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Friday")
    expect(phone.locator('[data-total="Asha"]')).to_have_text("122")
    expect(phone.get_by_role("button", name="Save round 2")).to_have_count(0)  # read-only
    shoot(phone, "shared")

    tv = new_context(**PHONE_DEVICE | {"viewport": LANDSCAPE}).new_page()
    tv.goto(f"/shared/{session.share_token}/big/")
    expect(tv.locator("[data-big-player]")).to_have_count(3)
    expect(tv.locator('[data-big-player="Asha"] [data-big-total]')).to_have_text("122")
    expect(tv.locator("[data-big-round]")).to_have_text("1")
    shoot(tv, "table-view")


# --- players/history-and-downloads.md -------------------------------------------------


def test_the_history_says_what_an_edit_changed_and_the_rounds_download(
    phone_page: Page, shoot: Shoot
) -> None:
    page = phone_page
    user, session = asha_with_friday(page)
    played = play(session, "8S", ROUND_1)
    edit(played, "8S", ROUND_1 | {"Chen": ("middle_drop", "")}, user)

    page.goto(f"/sessions/{session.pk}/history/")
    changes = page.locator("main")
    expect(changes).to_contain_text("Chen: First drop → Middle drop")
    assert RoundChange.objects.filter(round__session=session).count() == 2
    shoot(page, "history")

    page.goto(f"/sessions/{session.pk}/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Rounds (CSV)").click()
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text("utf-8-sig"))))
    header, first = rows[0], dict(zip(rows[0], rows[1], strict=True))
    assert header[:3] == ["Round", "Dealer", "Cut joker"]
    # A row per round: edited once, and each player's outcome and total as they are now.
    assert (first["Round"], first["Edits"]) == ("1", "1")
    chen = {column: first[f"Chen: {column}"] for column in ("outcome", "total")}
    assert chen == {"outcome": "Middle drop", "total": "-70"}
