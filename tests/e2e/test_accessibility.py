"""axe reports no violations on any page, in the states a player sees them: signed
out and signed in, with form errors, a typing mistake, a previewed round, a finished
pool, a folded share link, the 404 page, the outage message, the offline page and a
round kept on the phone until the network returns. On a phone (390x844, touch)
first, and on a desktop.

axe-core (4.14, tests/support/axe.py) runs with its default rules (WCAG 2.0/2.1 A
and AA, best practices) plus ``target-size`` (WCAG 2.2 AA, off by default): on a
phone every button and link is tapped with a thumb. A failure names the page and
lists every violation with the elements it concerns. With SCREENSHOTS=1 (`make
screenshots`) each page is also saved to tests/e2e/screenshots/ for a person to look
at.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from playwright.sync_api import Locator, Page, Route, expect

from games.models import GameSession, League, Membership, Player
from games.rules import Redraw, Toss, parse_card
from games.services.leagues import (
    claim_player,
    create_invite,
    create_league,
    join_by_invite,
    revoke_invite,
)
from games.services.sessions import create_session, rejoin, rematch
from games.services.table import TypedHand, claim_seat, open_table, write_hand
from games.transfer.league_export import export_league
from games.transfer.league_import import import_league
from tests.support import axe
from tests.support.big_league import LONG_NAME, big_league, long_session
from tests.support.builders import (
    edit,
    make_session,
    play,
    pool_with_chen_out,
    pool_with_chen_rejoined,
)
from tests.support.club import mixed_league
from tests.support.hands import (
    ONE_PURE,
    ROUND_1,
    SEVEN_DOUBLES,
    SHOWN_8S,
    WIN_8S,
    WIN_13,
    WIN_PLAIN,
)
from tests.support.league_files import build_changing_tables
from tests.support.page_worlds import (
    a_league,
    finished_pool,
    friday,
)
from tests.support.pages import (
    PASSWORD,
    choose_outcome,
    fill_round,
    seat_hands_in,
    seat_types,
    seat_types_unaware,
    sign_in,
    signed_in_as,
)
from tests.support.reads import copies_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RUN_OPTIONS = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}

# Ben's last card mistyped: 8C as 8X.
TYPO = SHOWN_8S.removesuffix("8C") + "8X"


# --- The data, built with the app's own services ----------------------------------------


def assert_thumb_sized(field: Locator) -> None:
    box = field.bounding_box()
    assert box is not None and box["height"] >= 44, f"{box} is not a thumb-sized target"


# --- The pages, each in the state a player sees it ---------------------------------------


def sign_in_page(page: Page) -> None:
    page.goto("/accounts/login/")


def sign_in_refused(page: Page) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("nobody")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".form-errors")).to_be_visible()


def welcome(page: Page) -> None:
    page.goto("/")


def sign_up(page: Page) -> None:
    page.goto("/accounts/signup/")


def password_reset(page: Page) -> None:
    page.goto("/accounts/password_reset/")


def account_refused(page: Page) -> None:
    """The account page after an e-mail address that is not one."""
    sign_in(page, "asha")
    page.goto("/accounts/")
    page.get_by_label("E-mail address").fill("asha at home")
    page.get_by_role("button", name="Save e-mail").click()
    expect(page.locator(".errorlist")).to_be_visible()


def password_change_refused(page: Page) -> None:
    """Change password with the old one wrong and a new one too short: both listed on
    top, each a link to its field."""
    sign_in(page, "asha")
    page.goto("/accounts/password_change/")
    page.get_by_label("Old password").fill("not the password")
    page.get_by_label("New password", exact=True).fill("short")
    page.get_by_label("New password confirmation").fill("short")
    page.get_by_role("button", name="Change password").click()
    expect(page.locator(".error-summary a")).to_have_count(2)


def home(page: Page) -> None:
    user = sign_in(page, "asha")
    friday(user)
    finished_pool(user)
    page.goto("/")
    expect(page.locator(".session-list li")).to_have_count(2)


def new_session_tossed(page: Page) -> None:
    user = sign_in(page, "asha")
    friday(user, rounds=0)  # known players are offered
    page.goto("/sessions/new/")
    for number, name in enumerate(["Asha", "Ben", "Chen"], start=1):
        page.get_by_label(f"Seat {number}", exact=True).fill(name)
    # Asha and Ben draw an ace each: the page says how the suit broke the tie; and
    # Ben and Chen had first drawn the very same queen (two decks), and drew again.
    seats = (("Asha", parse_card("AH")), ("Ben", parse_card("AC")), ("Chen", parse_card("5D")))
    tie = Toss(seats, (Redraw(("Ben", "Chen"), parse_card("QH")),))
    with mock.patch("games.views.sessions.toss_seats", return_value=tie):
        page.get_by_role("button", name="Toss for seats").click()
        expect(page.locator("[data-toss-card]")).to_have_count(3)
    expect(page.locator("[data-toss-tie]")).to_contain_text("so Asha sits before Ben")
    expect(page.locator("[data-toss-redraw]")).to_contain_text("so they drew again")
    # Seen on the screenshot, not by axe: the picks did not say who was seated.
    for name in ("Asha", "Ben", "Chen"):
        pick = page.get_by_role("button", name=name, exact=True)
        expect(pick).to_have_attribute("aria-pressed", "true")
    # And seats dealt a card were narrower than the rest.
    widths = [page.get_by_label(f"Seat {n}", exact=True).bounding_box() for n in (1, 4)]
    assert widths[0] and widths[1] and widths[0]["width"] == widths[1]["width"], widths


def new_session(page: Page) -> None:
    """After the toss, started with a ceiling below 1: the error beside the field."""
    new_session_tossed(page)
    page.get_by_label("Point ceiling").fill("-5")
    page.get_by_role("button", name="Start session").click()
    expect(page.locator(".errorlist").first).to_be_visible()
    # Seen on the screenshot, not by axe: the date was a bare 21 px field.
    assert_thumb_sized(page.get_by_label("Played on"))


def new_session_league_picked(page: Page) -> None:
    """The Friday club and its copy imported from its file (the same names, other
    players), the copy picked: each name one chip, the copy's players first, and a tap
    lights one chip."""
    user = sign_in(page, "asha")
    copy = moved_league(user)
    make_session(user, players=("Dev", "Asha"))  # an own table, with the clubs' Asha
    page.goto("/sessions/new/")
    chips = page.locator("[data-pick]")
    expect(chips).to_have_text(["Asha", "Dev", "Ben", "Chen"])
    page.get_by_label("League (optional)").select_option(str(copy.pk))
    expect(page.get_by_label("Point ceiling")).to_have_value("101")  # the league's pool
    expect(chips).to_have_text(["Asha", "Ben", "Chen", "Dev"])
    page.get_by_role("button", name="Asha", exact=True).click()
    expect(page.get_by_label("Seat 1", exact=True)).to_have_value("Asha")
    expect(page.locator('[data-pick][aria-pressed="true"]')).to_have_text(["Asha"])


def new_session_league_then_preset(page: Page) -> None:
    """The copy picked, then another game of it: its rules and its players (out of
    band, with the preset's answer) in place."""
    new_session_league_picked(page)
    page.locator('input[name="preset"][value="21-paplu"]').check()
    expect(page.locator('[name="rules_preset"]')).to_have_value("21-paplu")
    expect(page.locator("[data-pick]")).to_have_text(["Asha", "Ben", "Chen", "Dev"])


def session_with_a_typo(page: Page) -> None:
    user = sign_in(page, "asha")
    session = friday(user)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1 | {"Ben": ("shown", TYPO)})
    expect(page.locator('[data-hand-errors="Ben"]')).to_contain_text("'8X' is not a card")
    # Typing into Ben's groups: the card picker is open under them.
    page.locator('fieldset[data-player="Ben"]').get_by_label("Groups").focus()
    expect(page.locator('fieldset[data-player="Ben"] [data-picker]')).to_be_visible()


def session_with_a_preview(page: Page) -> None:
    user = sign_in(page, "asha")
    session = friday(user)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    expect(page.locator('[data-settlement="Ben"]')).to_be_visible()


def session_refused(page: Page) -> None:
    """Saved with the typing mistake: the server's answer, beside Ben."""
    user = sign_in(page, "asha")
    session = friday(user)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1 | {"Ben": ("shown", TYPO)})
    page.get_by_role("button", name="Save round 3").click()
    expect(page.locator('[data-hand-errors="Ben"]')).to_contain_text("'8X' is not a card")


def session_refused_then_fixed_in_part(page: Page) -> None:
    """Saved with the typing mistake, then Ben's fixed and Chen's hand wrong: the list
    above Save, brought again by the preview, holds only what is left."""
    session_refused(page)
    problems = page.locator("[data-problems]")
    expect(problems).to_be_focused()
    page.locator('fieldset[data-player="Ben"]').get_by_label("Groups").fill(SHOWN_8S)
    choose_outcome(page.locator('fieldset[data-player="Chen"]'), "shown")
    expect(problems).to_contain_text("Chen: must show all 21 cards, not 0")
    expect(problems).not_to_contain_text("'8X' is not a card")


def session_false_declaration(page: Page) -> None:
    """Saved with a declaration that is not valid: why, for each way, above Save and
    beside Asha, whose loose cards and dublees are marked as such."""
    session = friday(sign_in(page, "asha"))
    page.goto(f"/sessions/{session.pk}/")
    false = "2C 3C 4C | 5D 6D 7D | 8S 9S 10S | QH QH | KC KC | JD JD | 3S 6C 9D 10H KH JH"
    fill_round(page, "8S", ROUND_1 | {"Asha": ("declared", false)})
    page.get_by_role("button", name="Save round 3").click()
    expect(page.locator("[data-problems]")).to_contain_text("3♠ 6♣ 9♦ 10♥ K♥ J♥ is no group")
    expect(page.locator('[data-preview="Asha"] .kind-invalid')).to_have_text("loose cards")


def session_deal_show(page: Page) -> None:
    """Paplu: Ben's deal show previewed, its groups' figures beside a fixed 60 and the
    line that says why."""
    session = make_session(sign_in(page, "asha"), preset="21-paplu")
    page.goto(f"/sessions/{session.pk}/")
    fill_round(
        page, "8S", ROUND_1 | {"Asha": ("declared", WIN_PLAIN), "Ben": ("deal_show", ONE_PURE)}
    )
    expect(page.locator('[data-preview="Ben"] [data-hand-rule]')).to_have_text(
        "Deal show: a fixed 60 whatever the cards"
    )


def round_free_hand(page: Page) -> None:
    """Kodai: the saved round of Ben's free hand, 0 hand points under groups that count."""
    session = make_session(sign_in(page, "asha"), preset="21-kodai")
    played = play(session, "8S", ROUND_1 | {"Ben": ("shown", SEVEN_DOUBLES)})
    page.goto(f"/sessions/{session.pk}/rounds/{played.pk}/")
    expect(page.locator('[data-player="Ben"] [data-hand-rule]')).to_have_text(
        "Free hand: 7 doubles — no points, no claims"
    )


def round_saved(page: Page) -> None:
    """Just saved: the next round's form under "Round 3 saved" and its Undo."""
    user = sign_in(page, "asha")
    session = friday(user)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    page.get_by_role("button", name="Save round 3").click()
    expect(page.locator("[data-saved]")).to_contain_text("Round 3 saved")


def round_undone(page: Page) -> None:
    """Undo tapped: round 3's cards back in the form, under what Undo did."""
    round_saved(page)
    page.locator("[data-saved]").get_by_role("button", name="Undo").click()
    expect(page.locator("[data-undone]")).to_contain_text("Its cards are back in the form")
    expect(page.locator('[data-settlement="Ben"]')).to_be_visible()


def pool_over(page: Page) -> None:
    user = sign_in(page, "asha")
    session = finished_pool(user)
    page.goto(f"/sessions/{session.pk}/")
    expect(page.locator("[data-winner]")).to_contain_text("Asha wins")


def session_fresh_six(page: Page) -> None:
    """A fresh six-player session: table mode, the share link and the table view in a
    row under the title, the first screen's."""
    user = sign_in(page, "asha")
    players = ["Asha", "Ben", "Chen", "Dev", "Esi", "Fay"]
    session = create_session(user, preset="21-points", overrides={}, players=players)
    page.goto(f"/sessions/{session.pk}/")
    expect(page.locator('[data-lead="table-view"]')).to_be_in_viewport()


def night_shared(page: Page) -> None:
    """The pool over, Share the night tapped at the top: said under the row."""
    pool_over(page)
    page.locator('[data-lead="night"]').click()
    expect(page.locator(".session-leads [data-night-status]")).not_to_be_empty()


def round_page(page: Page) -> None:
    user = sign_in(page, "asha")
    session = friday(user)
    page.goto(f"/sessions/{session.pk}/rounds/{session.rounds.get(number=1).pk}/")


def round_edit(page: Page) -> None:
    user = sign_in(page, "asha")
    session = friday(user)
    page.goto(f"/sessions/{session.pk}/rounds/{session.rounds.get(number=1).pk}/edit/")
    expect(page.locator('[data-settlement="Ben"]')).to_be_visible()


def session_history(page: Page) -> None:
    user = sign_in(page, "asha")
    session = friday(user)
    page.goto(f"/sessions/{session.pk}/history/")


def round_history(page: Page) -> None:
    user = sign_in(page, "asha")
    session = friday(user)
    page.goto(f"/sessions/{session.pk}/rounds/{session.rounds.get(number=1).pk}/history/")


def shared_long(page: Page) -> None:
    user = User.objects.create_user("asha", password=PASSWORD)
    session = friday(user, rounds=1)
    copies_of(session.rounds.get(number=1), 24)
    page.goto(f"/shared/{session.share_token}/")
    expect(page.locator("[data-fold]")).to_contain_text("Rounds 1–15 are not shown.")


def history_folded(page: Page) -> None:
    """A history of 25 changes as it opens: the latest ten, then "Show 10 earlier
    changes" and "All 25 changes"."""
    user = sign_in(page, "asha")
    session = friday(user, rounds=1)
    copies_of(session.rounds.get(number=1), 24, recorded=True)
    page.goto(f"/sessions/{session.pk}/history/")
    expect(page.locator("[data-show-all]")).to_have_text("All 25 changes")


def history_edited(page: Page) -> None:
    """A round edited (Chen's first drop made a middle drop): what changed first, the
    whole round before and after unfolded under it."""
    user = sign_in(page, "asha")
    session = friday(user, rounds=1)
    edit(session.rounds.get(number=1), "8S", ROUND_1 | {"Chen": ("middle_drop", "")}, user)
    page.goto(f"/sessions/{session.pk}/history/")
    expect(page.locator("[data-what-changed]")).to_contain_text("Chen: First drop → Middle drop")
    page.get_by_text("The whole round before and after").click()
    expect(page.get_by_role("heading", name="Before")).to_be_visible()
    # The changes keep the measure of the line that names their clock, on a desktop too.
    zone_line = page.locator("p", has=page.locator("[data-zone]")).bounding_box()
    changes = page.locator("ol.history").bounding_box()
    assert (
        zone_line
        and changes
        and changes["x"] + changes["width"] <= zone_line["x"] + zone_line["width"] + 1
    )


def history_long(page: Page) -> None:
    """A history of 25 changes, an earlier ten opened: its links to earlier changes and
    back to the latest."""
    user = sign_in(page, "asha")
    session = friday(user, rounds=1)
    copies_of(session.rounds.get(number=1), 24, recorded=True)
    page.goto(f"/sessions/{session.pk}/history/")
    page.locator("[data-show-earlier]").click()
    expect(page.locator("[data-show-latest]")).to_be_visible()


def history_table_changes(page: Page) -> None:
    """Players joining and leaving between rounds, and the new seatings after, among
    the rounds' changes."""
    user = sign_in(page, "asha")
    session = build_changing_tables(user).sessions.get(name="Long table")
    page.goto(f"/sessions/{session.pk}/history/")
    expect(page.locator('[data-change="join"]')).to_contain_text("Kim joined after round 2")


def big_league_player(page: Page) -> None:
    """A player with a long name in a league with a long name: wide first columns."""
    user = sign_in(page, "asha")
    league = big_league(user)
    long_session(user, league, 3)
    page.goto(f"/players/{Player.objects.get(name=LONG_NAME).pk}/")
    expect(page.locator(".rounds-table")).to_be_visible()


def big_league_session(page: Page) -> None:
    """Eight players with long names and names in other scripts, 42 rounds: a score
    table wider than the phone (its scroll shadows, the fold's sticky buttons), the
    round form's thumb-high outcome buttons, a chart with its axis in thousands."""
    session = long_session(sign_in(page, "asha"), None, 42)
    page.goto(f"/sessions/{session.pk}/")
    expect(page.locator("[data-session-chart] img")).to_be_visible()


def big_league_round_edit(page: Page) -> None:
    """A played round of eight, edited: its settlement table, long names wrapped."""
    session = long_session(sign_in(page, "asha"), None, 8)
    page.goto(f"/sessions/{session.pk}/rounds/{session.rounds.get(number=8).pk}/edit/")
    expect(page.locator(".settlement-table")).to_be_visible()


def big_league_standings(page: Page) -> None:
    user = sign_in(page, "asha")
    league = big_league(user)
    long_session(user, league, 3)
    page.goto(f"/leagues/{league.slug}/standings/")
    expect(page.locator(".standings-table tbody th a")).to_have_count(8)


def table_view(page: Page) -> None:
    """The share link's table view of a pool with Chen out: big totals, how far each
    player still in has to go, the one who is out marked."""
    session = pool_with_chen_out(User.objects.create_user("asha", password=PASSWORD))
    page.goto(f"/shared/{session.share_token}/big/")
    expect(page.locator('[data-big-player="Chen"] [data-big-out]')).to_be_visible()


def pool_rejoined(page: Page) -> None:
    """A pool in which Chen rejoined after round 2, under a house rule: the rejoin's
    own line in the table, his card saying so, the house rules under the title."""
    user = sign_in(page, "asha")
    session = pool_with_chen_rejoined(user, overrides={"rejoin_cutoff": 70})
    page.goto(f"/sessions/{session.pk}/")
    expect(page.locator("tr.rejoin-row")).to_be_visible()


def pool_take_back(page: Page) -> None:
    """Chen has just rejoined, before the next round: the rejoin may be taken back."""
    user = sign_in(page, "asha")
    session = pool_with_chen_out(user)
    rejoin(session, session.seats.get(player__name="Chen"), user)
    page.goto(f"/sessions/{session.pk}/")
    expect(page.locator("[data-take-back]")).to_be_visible()


def pool_take_back_refused(page: Page) -> None:
    """A take back sent from a page left open past the next round: refused in words."""
    pool_take_back(page)
    session = GameSession.objects.get()
    play(
        session,
        "7C",
        {"Asha": ("declared", WIN_13), "Ben": ("first_drop", ""), "Chen": ("first_drop", "")},
    )
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("[data-take-back]").click()
    expect(page.locator(".message-error")).to_contain_text("can no longer be taken back")


def league_list(page: Page) -> None:
    a_league(sign_in(page, "asha"))
    page.goto("/leagues/")


def league_new(page: Page) -> None:
    sign_in(page, "asha")
    page.goto("/leagues/new/")


def league_detail(page: Page) -> None:
    league = a_league(sign_in(page, "asha"))
    page.goto(f"/leagues/{league.slug}/")


def league_detail_which_player(page: Page) -> None:
    league_detail(page)
    page.get_by_text("Which player are you?").tap()
    expect(page.locator("[data-which-player] a.chip").first).to_be_visible()


def league_rules(page: Page) -> None:
    league = a_league(sign_in(page, "asha"))
    page.goto(f"/leagues/{league.slug}/rules/")


def league_rules_changed(page: Page) -> None:
    """A league whose rules differ from the preset: their headings open, one option
    wrong after Save (the list of errors on top), then the preset's rules put back."""
    league = create_league(
        sign_in(page, "asha"), name="Tuesdays", preset="21-points", overrides={"first_drop": 25}
    )
    page.goto(f"/leagues/{league.slug}/rules/")
    page.get_by_label("First drop costs", exact=True).fill("-1")
    page.get_by_role("button", name="Save house rules").click()
    expect(page.locator(".error-summary")).to_be_visible()


def league_rules_changed_here(page: Page) -> None:
    """Options changed on the page, not yet saved: their headings recount, the changed
    one marked beside its field, the one put back at the preset's no longer; and a
    number its rule does not take, said beside its field as it was typed."""
    league = create_league(
        sign_in(page, "asha"), name="Tuesdays", preset="21-points", overrides={"first_drop": 25}
    )
    page.goto(f"/leagues/{league.slug}/rules/")
    page.get_by_text("19 more, as the preset").click()
    page.get_by_label("Middle drop costs").fill("65")
    page.get_by_label("First drop costs", exact=True).fill("30")
    expect(page.locator("[data-changed]:visible")).to_have_text("Changed: the preset's is 70.")
    page.get_by_label("Maximum hand points").fill("80.5")
    expect(page.locator("#id_rule_hand_cap_not_taken")).not_to_be_empty()


def league_rules_reset(page: Page) -> None:
    league_rules_changed(page)
    page.get_by_role("button", name="Reset to the preset's rules").click()
    expect(page.get_by_role("status")).to_contain_text("set back")


def league_rules_read_only(page: Page) -> None:
    """A scorer sees the house rules but cannot change them."""
    owner = User.objects.create_user("owner", password=PASSWORD)
    league = a_league(owner)
    User.objects.get(username="ben").delete()
    user = sign_in(page, "ben")
    Membership.objects.create(league=league, user=user, role=Membership.Role.SCORER)
    page.goto(f"/leagues/{league.slug}/rules/")


def standings(page: Page) -> None:
    league = a_league(sign_in(page, "asha"))
    page.goto(f"/leagues/{league.slug}/standings/")
    expect(page.locator("svg[data-chart='league-ratings']")).to_be_visible()


def standings_pool_tab(page: Page) -> None:
    """A points league that also played a pool, on the pool's tab."""
    league, _, _ = mixed_league(sign_in(page, "asha"))
    page.goto(f"/leagues/{league.slug}/standings/?game=13-pool-101")
    expect(page.locator(".game-tabs [aria-current='page']")).to_have_text("13-card pool 101")


def player_page(page: Page) -> None:
    league = a_league(sign_in(page, "asha"))
    page.goto(f"/leagues/{league.slug}/standings/")
    page.get_by_role("link", name="Ben", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ben")


def import_refused(page: Page) -> None:
    sign_in(page, "asha")
    page.goto("/import/league/")
    page.get_by_label("File", exact=False).set_input_files(
        {"name": "league.json", "mimeType": "application/json", "buffer": b"not json"}
    )
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".form-errors")).to_be_visible()
    # Seen on the screenshot, not by axe: the browser's own small "Choose File".
    assert_thumb_sized(page.get_by_label("League file"))


def import_file_chosen(page: Page) -> None:
    """A league's own file chosen again: its name is filled in, to keep or change."""
    league = a_league(sign_in(page, "asha"))
    page.goto("/import/league/")
    page.get_by_label("League file").set_input_files(
        {
            "name": "friday.json",
            "mimeType": "application/json",
            "buffer": json.dumps(export_league(league)).encode(),
        }
    )
    expect(page.get_by_label("League name")).to_have_value("Friday club")
    assert_thumb_sized(page.get_by_label("League name"))
    # Asha has that league here (the server it came from): said before she imports.
    taken = page.locator("[data-name-taken]")
    expect(taken).to_contain_text("You already have a league called “Friday club”.")
    expect(taken).to_contain_text("Importing adds a second league, “Friday club (imported")
    page.get_by_label("League name").fill("Friday club copy")
    expect(taken).to_be_empty()
    page.get_by_label("League name").fill("friday CLUB")
    expect(taken).to_contain_text("You already have a league called “friday CLUB”.")


def not_found(page: Page) -> None:
    sign_in(page, "asha")
    response = page.goto("/sessions/999999/")
    assert response is not None and response.status == 404


def forbidden(page: Page) -> None:
    """A league's viewer opening a round's edit page: a 403, said as a page of the app."""
    owner = User.objects.create_user("owner", password=PASSWORD)
    league = a_league(owner)
    session = GameSession.objects.filter(league=league).first()
    user = sign_in(page, "viewer")
    Membership.objects.create(league=league, user=user, role=Membership.Role.VIEWER)
    played = session.rounds.get(number=1)
    response = page.goto(f"/sessions/{session.pk}/rounds/{played.pk}/edit/")
    assert response is not None and response.status == 403


def outage(page: Page) -> None:
    user = sign_in(page, "asha")
    session = friday(user)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    database_down = render_to_string("errors/database.html")

    def answer_503(route: Route) -> None:
        route.fulfill(status=503, body=database_down, content_type="text/html")

    page.route(
        lambda url: url.split("?")[0].endswith(f"/sessions/{session.pk}/rounds/"), answer_503
    )
    page.get_by_role("button", name="Save round 3").click()
    expect(page.locator("form.round-form").get_by_role("alert")).to_contain_text("Not saved")


def _home_answered_with(page: Page, status: int, template: str) -> None:
    """The home page as a full page load meets it when the server answers with
    ``template`` alone."""
    body = render_to_string(template)
    page.route(
        "**/",
        lambda route: route.fulfill(status=status, body=body, content_type="text/html"),
    )
    page.goto("/")


def database_down_page(page: Page) -> None:
    """The page itself, as a full page load meets it."""
    _home_answered_with(page, 503, "errors/database.html")


def server_error_page(page: Page) -> None:
    _home_answered_with(page, 500, "500.html")


# --- Table mode: a seat's phone and the scorer's live view -----------------------------


def _at_table(user: User) -> GameSession:
    """Friday in table mode, round 3: Asha's hand in from a phone, Ben's phone still
    typing, Chen's hand refused (a typo), nobody else yet."""
    session = friday(user)
    open_table(session)
    seats = {seat.player.name: seat for seat in session.seats.select_related("player")}
    for name in ("Asha", "Ben", "Chen"):
        claim_seat(session, seats[name])

    def hand(outcome: str, text: str) -> TypedHand:
        return TypedHand(3, outcome=outcome, text=text, cut_text="8S", edit=1)

    write_hand(session, seats["Asha"], hand("declared", WIN_8S), final=True)
    write_hand(session, seats["Ben"], hand("shown", SHOWN_8S[:30]), final=False)
    write_hand(session, seats["Chen"], hand("shown", TYPO), final=True)
    return session


def _seat_phone(page: Page, session: GameSession, name: str) -> None:
    page.goto(f"/table/{session.table_token}/")
    page.get_by_role("button", name=name, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{name}'s hand")


def table_seats(page: Page) -> None:
    """Picking a seat, Ben's taken on another phone."""
    session = friday(User.objects.create_user("asha", password=PASSWORD))
    open_table(session)
    claim_seat(session, session.seats.get(player__name="Ben"))
    page.goto(f"/table/{session.table_token}/")
    expect(page.locator("[data-taken]")).to_contain_text("taken on another phone")


def table_hand(page: Page) -> None:
    """A seat's phone with its hand half tapped in: the picker and the live check."""
    session = friday(User.objects.create_user("asha", password=PASSWORD))
    open_table(session)
    _seat_phone(page, session, "Ben")
    page.locator('[data-picker] [data-card="8S"]').click()
    for code in ("2D", "3D", "4D", "9C", "10C", "JC"):
        page.locator(f'[data-picker] [data-card="{code}"]').click()
    expect(page.locator('[data-preview="Ben"]')).to_contain_text("must show all 21 cards, not 6")


def table_hand_refused(page: Page) -> None:
    """Handed in with a typing mistake: said above Hand in and beside the cards."""
    session = friday(User.objects.create_user("asha", password=PASSWORD))
    open_table(session)
    _seat_phone(page, session, "Ben")
    page.get_by_label("Cut joker").fill("8S")
    page.get_by_label("Cards").fill(TYPO)
    page.get_by_role("button", name="Hand in").click()
    expect(page.locator("[data-problems]")).to_contain_text("'8X' is not a card")


def table_hand_in(page: Page) -> None:
    session = friday(User.objects.create_user("asha", password=PASSWORD))
    open_table(session)
    _seat_phone(page, session, "Asha")
    page.get_by_label("Cut joker").fill("8S")
    choose_outcome(page.locator('fieldset[data-player="Asha"]'), "declared")
    page.get_by_label("Cards").fill(WIN_8S)
    page.get_by_role("button", name="Hand in").click()
    expect(page.locator("[data-handed-in]")).to_be_visible()


def table_late(page: Page) -> None:
    """A hand sent after the scorer saved the round: said, and the next round shown."""
    session = friday(User.objects.create_user("asha", password=PASSWORD))
    open_table(session)
    ben = session.seats.get(player__name="Ben")
    claim_seat(session, session.seats.get(player__name="Asha"))
    typed = TypedHand(3, outcome="shown", text=SHOWN_8S, cut_text="8S", edit=1)
    write_hand(session, ben, typed, final=False)
    # Before this phone's poll notices (it would bring round 4 by itself).
    page.route("**/hand/status/**", lambda route: route.fulfill(status=204))
    _seat_phone(page, session, "Ben")
    play(session, "8S", ROUND_1)  # saved meanwhile, from another phone
    page.get_by_role("button", name="Hand in").click()
    expect(page.locator("[data-moved]")).to_contain_text("Round 3 is already saved")


def table_closed(page: Page) -> None:
    """A hand handed in just as the scorer closed table mode: said above the hand,
    which stays on the screen as typed, and the phone stops asking the table."""

    from games.services import table as services

    session = friday(User.objects.create_user("asha", password=PASSWORD))
    open_table(session)
    _seat_phone(page, session, "Ben")
    page.get_by_label("Cut joker").fill("8S")
    page.get_by_label("Cards").fill(SHOWN_8S)

    def closing_first(session, *args, **kwargs):  # the scorer's tap lands in between
        if kwargs["final"]:  # Hand in, not the live check of what was typed
            services.close_table(GameSession.objects.get(pk=session.pk))
        return services.write_hand(session, *args, **kwargs)

    # From here the phone's polls hear nothing new: one answered after Hand in would
    # find the table closed and put its own words, without "Not handed in.", in place.
    page.route("**/hand/status/**", lambda route: route.fulfill(status=204))
    expect(page.locator(".htmx-request")).to_have_count(0)  # none in flight
    with mock.patch("games.views.table.write_hand", closing_first):
        page.get_by_role("button", name="Hand in").click()
        told = page.locator("[data-table-closed]")
        expect(told).to_contain_text("Not handed in. The scorer closed table mode")
    expect(page.get_by_label("Cards")).to_have_value(SHOWN_8S)
    expect(page.get_by_role("button", name="Hand in")).to_have_count(0)


def table_link_replaced(page: Page) -> None:
    """A hand handed in from a page older than the scorer's new table link: said
    above the hand, which stays on the screen as typed."""
    from games.services.table import replace_table_link

    session = friday(User.objects.create_user("asha", password=PASSWORD))
    open_table(session)
    _seat_phone(page, session, "Ben")
    seat_types_unaware(page, "Ben", SHOWN_8S)
    replace_table_link(session)
    page.get_by_role("button", name="Hand in").click()
    expect(page.locator("[data-table-closed]")).to_contain_text("The scorer made a new table link")
    expect(page.get_by_label("Cards")).to_have_value(SHOWN_8S)


def table_left_gone(page: Page) -> None:
    """ "Leave this seat" tapped on a page older than the scorer's new table link: said
    above the hand, which stays on the screen as typed."""
    from games.services.table import replace_table_link

    session = friday(User.objects.create_user("asha", password=PASSWORD))
    open_table(session)
    _seat_phone(page, session, "Ben")
    seat_types_unaware(page, "Ben", SHOWN_8S[:20])
    replace_table_link(session)
    page.get_by_role("button", name="Not Ben? Leave this seat").click()
    expect(page.locator("[data-table-closed]")).to_contain_text("this phone has none to leave")
    expect(page.get_by_label("Cards")).to_have_value(SHOWN_8S[:20])


def table_closed_followed(page: Page) -> None:
    """A phone typing its hand as the scorer closes table mode: its status says so,
    the hand stays to be read out, its fields disabled, the picker and Hand in gone."""
    from games.services.table import close_table

    session = friday(User.objects.create_user("asha", password=PASSWORD))
    open_table(session)
    _seat_phone(page, session, "Ben")
    expect(seat_types(page, "Ben", SHOWN_8S[:20])).to_contain_text("must show all 21 cards")
    close_table(session)
    expect(page.locator("[data-table-closed]")).to_contain_text("The scorer closed table mode")
    expect(page.get_by_label("Cards")).to_be_disabled()


def table_link_gone_reloaded(page: Page) -> None:
    """The same phone reloaded at its old link: the hand as typed on it, only shown."""
    table_closed_followed(page)
    page.reload()
    expect(page.locator("[data-table-closed]")).to_contain_text("The scorer closed table mode")
    expect(page.get_by_label("Cards")).to_have_value(SHOWN_8S[:20])
    expect(page.get_by_label("Cards")).to_be_disabled()


def table_handed_in_gone_reloaded(page: Page) -> None:
    """A hand handed in, table mode closed, the phone reloaded at its old link: the
    hand as handed in, only shown, under one message that says it was handed in."""
    from games.services.table import close_table

    session = friday(User.objects.create_user("asha", password=PASSWORD))
    open_table(session)
    _seat_phone(page, session, "Asha")
    choose_outcome(page.locator('fieldset[data-player="Asha"]'), "declared")
    seat_hands_in(page, "8S", WIN_8S)
    close_table(session)
    page.reload()
    expect(page.locator("[data-table-closed]")).to_contain_text("You had handed this hand in.")
    expect(page.get_by_label("Cards")).to_have_value(WIN_8S)
    expect(page.get_by_label("Cards")).to_be_disabled()


def table_scorer(page: Page) -> None:
    """The scorer's page: one seat in, one typing, one with a problem."""
    _at_table(sign_in(page, "asha"))
    page.goto(f"/sessions/{GameSession.objects.get().pk}/")
    expect(page.locator('[data-table-seat="Chen"]')).to_have_attribute("data-state", "problem")


def table_scorer_all_in(page: Page) -> None:
    """Every hand in: the round's check and its one-tap Save."""
    session = friday(sign_in(page, "asha"))
    open_table(session)
    for seat in session.seats.select_related("player"):
        outcome, text = ROUND_1[seat.player.name]
        typed = TypedHand(3, outcome=outcome, text=text, cut_text="8S", edit=1)
        write_hand(session, seat, typed, final=True)
    page.goto(f"/sessions/{session.pk}/")
    expect(page.get_by_role("button", name="Save round 3")).to_be_visible()


def table_correct(page: Page) -> None:
    """The scorer corrects Chen's refused hand."""
    session = _at_table(sign_in(page, "asha"))
    chen = session.seats.get(player__name="Chen")
    page.goto(f"/sessions/{session.pk}/table/hands/{chen.pk}/")
    expect(page.locator('[data-hand-errors="Chen"]')).to_contain_text("'8X' is not a card")


def signed_in_admin(page: Page) -> User:
    """A superuser, signed in on the page: the admin's pages are theirs."""
    boss = User.objects.create_superuser("boss", "boss@example.com", "pw")
    signed_in_as(page, boss)
    return boss


def admin_round_refused(page: Page) -> None:
    """The admin's page of a round, its hands edited into a round the rules refuse
    (nobody won): Django's admin with our stylesheet after its own."""
    boss = signed_in_admin(page)
    played = friday(boss, rounds=1).rounds.get()
    page.goto(f"/admin/games/round/{played.pk}/change/")
    page.get_by_label("Outcome").first.select_option("shown")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".errorlist").first).to_contain_text("no winner")


def admin_session_saved(page: Page) -> None:
    """A session's admin page saved and shown again: its seats stacked, each date and
    time box named, its rounds as a table headed by their links."""
    boss = signed_in_admin(page)
    session = friday(boss, rounds=2)
    page.goto(f"/admin/games/gamesession/{session.pk}/change/")
    page.get_by_label("Name:").fill("Friday late")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".messagelist")).to_contain_text("was changed successfully")
    expect(page.get_by_role("link", name="2", exact=True)).to_be_visible()


def admin_league(page: Page) -> None:
    """A league's admin page: its members stacked under it."""
    boss = signed_in_admin(page)
    league = a_league(boss)
    page.goto(f"/admin/games/league/{league.pk}/change/")


def admin_seat_new(page: Page) -> None:
    """A seat's admin page, to add one: its player's search-as-you-type box empty."""
    signed_in_admin(page)
    page.goto("/admin/games/seat/add/")
    expect(page.get_by_text("Choose the player")).to_be_visible()


def admin_sessions_filtered(page: Page) -> None:
    """The admin's list of sessions, filtered and searched: its filters' links and the
    count that links back to the whole list."""
    boss = signed_in_admin(page)
    friday(boss, rounds=1)
    GameSession.objects.filter(pk=friday(boss, rounds=1).pk).update(name="Saturday")
    page.goto("/admin/games/gamesession/?status__exact=active&q=Friday")
    expect(page.get_by_role("link", name="2 total")).to_be_visible()


def admin_group(page: Page) -> None:
    """A new group's admin page: its permissions a plain labelled list."""
    signed_in_admin(page)
    page.goto("/admin/auth/group/add/")
    expect(page.get_by_label("Permissions")).to_be_visible()


def admin_account(page: Page) -> None:
    """An account's admin page (Django's, its dates named, its groups a plain list)."""
    boss = signed_in_admin(page)
    page.goto(f"/admin/auth/user/{boss.pk}/change/")


def admin_hand_refused(page: Page) -> None:
    """The admin's page of one hand, cards that are no cards typed in its groups."""
    boss = signed_in_admin(page)
    hand = friday(boss, rounds=1).rounds.get().entries.first()
    page.goto(f"/admin/games/handentry/{hand.pk}/change/")
    page.get_by_label("Groups").fill('[["XX"]]')
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".errorlist").first).to_contain_text("'XX' is not a card code")


# --- Without a network ---------------------------------------------------------------


def offline_page(page: Page) -> None:
    """What the service worker shows for a page asked for offline, a round waiting."""
    page.goto("/offline/")
    page.evaluate(
        "localStorage.setItem('scorekeeper:draft:session-1-round:1',"
        " JSON.stringify({values: {}, at: Date.now(), queued: true}))"
    )
    page.reload()
    expect(page.locator("[data-drafts-waiting]")).to_contain_text("1 round waits")


def round_queued(page: Page) -> None:
    """Save tapped without a network: kept on the phone, said beside the button."""
    session = friday(sign_in(page, "asha"))
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    expect(page.locator("#settlement")).to_contain_text("Settlement")
    page.context.set_offline(True)
    page.get_by_role("button", name="Save round 3").click()
    expect(page.locator("[data-queued-note]")).to_contain_text("Saved on this phone")


def league_invites(page: Page) -> None:
    """The owner's invite links: one working, made by them, used once."""
    owner = sign_in(page, "asha")
    league = a_league(owner)
    invite = create_invite(league, owner, role="scorer", days=7)
    join_by_invite(invite, User.objects.create_user("gita", password=PASSWORD))
    page.goto(f"/leagues/{league.slug}/")
    expect(page.locator("[data-uses]")).to_have_text("used 1 time")


def league_invite_refused(page: Page) -> None:
    """The invite form sent from a stale page that offered owners: the page again at
    the form, the problem on top of it and beside "Joins as", 30 days kept."""
    league = a_league(sign_in(page, "asha"))
    page.goto(f"/leagues/{league.slug}/")
    page.get_by_label("Works for").select_option("30")
    page.get_by_label("Joins as").evaluate(
        "select => select.add(new Option('Owner', 'owner', true, true))"
    )
    page.get_by_role("button", name="Make an invite link").click()
    expect(page.locator(".invite-form .error-summary")).to_contain_text("scorer or viewer")
    expect(page.get_by_label("Works for")).to_have_value("30")


def invite_join(page: Page) -> None:
    """An invite link opened by someone signed in: "Join … as scorer"."""
    league = a_league(User.objects.create_user("owner", password=PASSWORD))
    invite = create_invite(league, league.memberships.first().user, role="scorer", days=1)
    sign_in(page, "gita")
    page.goto(f"/invite/{invite.token}/")
    expect(page.get_by_role("button", name="Join Friday club")).to_be_visible()


def invite_gone(page: Page) -> None:
    """A revoked invite link says so."""
    owner = User.objects.create_user("owner", password=PASSWORD)
    league = a_league(owner)
    invite = create_invite(league, owner, role="viewer", days=1)
    revoke_invite(invite)
    sign_in(page, "gita")
    page.goto(f"/invite/{invite.token}/")
    expect(page.locator("[data-invite-problem]")).to_contain_text("revoked")


def player_claimed(page: Page) -> None:
    """Ben's page after Ben claimed it, as the owner sees it (Undo this claim)."""
    league = a_league(sign_in(page, "asha"))
    ben = Player.objects.get(name="Ben")
    claim_player(league, ben, User.objects.get(username="ben"))
    page.goto(f"/players/{ben.pk}/")
    expect(page.locator("[data-claimed-by]")).to_contain_text("claimed by ben")


def rematch_started(page: Page) -> None:
    """A finished session whose rematch was started: the link to it."""
    session = finished_pool(sign_in(page, "asha"))
    rematch(session, session.created_by)
    page.goto(f"/sessions/{session.pk}/")
    expect(page.get_by_role("link", name="Go to the rematch")).to_be_visible()


def moved_league(owner: User) -> League:
    """The Friday club in which Ben said "this is me", exported and imported again as
    another league by its owner (at an address of its own): Ben is listed, not added,
    with his claim."""
    league = a_league(owner)
    claim_player(league, Player.objects.get(name="Ben"), User.objects.get(username="ben"))
    return import_league(json.dumps(export_league(league)), owner=owner).league


def league_imported(page: Page) -> None:
    """The owner's page of a league she imported under the name of one she has: a
    warning that it came in as a second league, the file's members with their claims."""
    league = a_league(sign_in(page, "asha"))
    claim_player(league, Player.objects.get(name="Ben"), User.objects.get(username="ben"))
    page.goto("/import/league/")
    league_file = json.dumps(export_league(league)).encode()
    page.get_by_label("League file").set_input_files(
        {"name": "friday.json", "mimeType": "application/json", "buffer": league_file}
    )
    page.get_by_role("button", name="Import").click()
    warning = page.locator(".message-warning")
    expect(warning).to_contain_text("You already have a league called “Friday club”")
    expect(page.locator('[data-invitable="ben"]')).to_contain_text("this is me")
    # Told apart from the news that all went well (the info beside it) at a glance.
    background = "el => getComputedStyle(el).backgroundColor"
    assert warning.evaluate(background) != page.locator(".message-info").first.evaluate(background)


def league_file_claim(page: Page) -> None:
    """Ben, added to the imported league, is offered his claim back."""
    league = moved_league(User.objects.create_user("asha", password=PASSWORD))
    User.objects.get(username="ben").delete()  # sign_in makes him again, signed in
    ben = sign_in(page, "ben")
    Membership.objects.create(league=league, user=ben, role=Membership.Role.SCORER)
    page.goto(f"/leagues/{league.slug}/")
    expect(page.locator("[data-file-claim]")).to_contain_text("says you are Ben")


PAGES: dict[str, Callable[[Page], None]] = {
    "welcome": welcome,
    "sign-in": sign_in_page,
    "sign-in-refused": sign_in_refused,
    "sign-up": sign_up,
    "password-reset": password_reset,
    "account-refused": account_refused,
    "password-change-refused": password_change_refused,
    "home": home,
    "new-session-tossed": new_session_tossed,
    "new-session": new_session,
    "session-typo": session_with_a_typo,
    "session-preview": session_with_a_preview,
    "session-refused": session_refused,
    "session-refused-fixed-in-part": session_refused_then_fixed_in_part,
    "session-false-declaration": session_false_declaration,
    "session-deal-show": session_deal_show,
    "round-saved": round_saved,
    "round-free-hand": round_free_hand,
    "round-undone": round_undone,
    "pool-over": pool_over,
    "session-fresh-six": session_fresh_six,
    "night-shared": night_shared,
    "round": round_page,
    "round-edit": round_edit,
    "session-history": session_history,
    "round-history": round_history,
    "shared-long": shared_long,
    "history-folded": history_folded,
    "history-long": history_long,
    "history-edited": history_edited,
    "history-table-changes": history_table_changes,
    "big-league-player": big_league_player,
    "big-league-session": big_league_session,
    "big-league-round-edit": big_league_round_edit,
    "big-league-standings": big_league_standings,
    "table-view": table_view,
    "pool-rejoined": pool_rejoined,
    "pool-take-back": pool_take_back,
    "pool-take-back-refused": pool_take_back_refused,
    "league-list": league_list,
    "league-new": league_new,
    "league-detail": league_detail,
    "league-detail-which-player": league_detail_which_player,
    "league-rules": league_rules,
    "league-rules-read-only": league_rules_read_only,
    "league-rules-changed": league_rules_changed,
    "league-rules-changed-here": league_rules_changed_here,
    "league-rules-reset": league_rules_reset,
    "standings": standings,
    "standings-pool-tab": standings_pool_tab,
    "player": player_page,
    "new-session-league-picked": new_session_league_picked,
    "new-session-league-then-preset": new_session_league_then_preset,
    "import-refused": import_refused,
    "import-file-chosen": import_file_chosen,
    "not-found": not_found,
    "forbidden": forbidden,
    "outage": outage,
    "database-down": database_down_page,
    "server-error": server_error_page,
    "table-seats": table_seats,
    "table-hand": table_hand,
    "table-hand-refused": table_hand_refused,
    "table-hand-in": table_hand_in,
    "table-late": table_late,
    "table-closed": table_closed,
    "table-link-replaced": table_link_replaced,
    "table-left-gone": table_left_gone,
    "table-closed-followed": table_closed_followed,
    "table-link-gone-reloaded": table_link_gone_reloaded,
    "table-handed-in-gone-reloaded": table_handed_in_gone_reloaded,
    "table-scorer": table_scorer,
    "table-scorer-all-in": table_scorer_all_in,
    "table-correct": table_correct,
    "admin-round-refused": admin_round_refused,
    "admin-hand-refused": admin_hand_refused,
    "admin-session-saved": admin_session_saved,
    "admin-league": admin_league,
    "admin-seat-new": admin_seat_new,
    "admin-sessions-filtered": admin_sessions_filtered,
    "admin-group": admin_group,
    "admin-account": admin_account,
    "offline": offline_page,
    "round-queued": round_queued,
    "league-invites": league_invites,
    "league-invite-refused": league_invite_refused,
    "invite-join": invite_join,
    "invite-gone": invite_gone,
    "player-claimed": player_claimed,
    "rematch-started": rematch_started,
    "league-imported": league_imported,
    "league-file-claim": league_file_claim,
}

# The desktop layout differs from the phone's in a few places only (base.css's and
# picker.css's media queries: heading sizes and margins, the keypad's ranks in one row; tables
# wide enough not to scroll): the pages with those are checked on a desktop too.
ON_A_DESKTOP = (
    "home",
    "history-edited",
    "new-session",
    "session-typo",
    "pool-over",
    "shared-long",
    "history-table-changes",
    "table-view",
    "standings",
)
# The dark theme (prefers-color-scheme: dark) over the states that show each of its
# colours: the suits in the card picker, chips, badges, error and success messages,
# the winner, players who are out, the charts, the error pages. Not every page: the
# rest share these pages' pieces.
IN_THE_DARK = frozenset(
    {
        "home",
        "history-edited",
        "history-table-changes",
        "new-session",
        "league-rules-changed",
        "sign-in-refused",
        "session-typo",
        "session-preview",
        "session-false-declaration",
        "session-deal-show",
        "round-saved",
        "round-free-hand",
        "pool-over",
        "session-fresh-six",
        "night-shared",
        "pool-rejoined",
        "round",
        "shared-long",
        "big-league-session",
        "big-league-standings",
        "table-view",
        "league-detail",
        "league-imported",
        "standings",
        "standings-pool-tab",
        "table-hand",
        "table-hand-in",
        "table-closed-followed",
        "table-handed-in-gone-reloaded",
        "table-scorer",
        "not-found",
        "database-down",
        "round-queued",
    }
)
assert not IN_THE_DARK - PAGES.keys(), "a page checked in the dark that is not in PAGES"
CASES = [pytest.param(name, "phone", id=f"{name}-phone") for name in PAGES] + [
    pytest.param(name, "desktop", id=f"{name}-desktop") for name in ON_A_DESKTOP
]

# The dark theme changes colours and nothing else (base.css's, standings.css's and
# charts-dark.css's dark blocks set colours only, and no script reads the theme), so a
# page is checked in it in the state it was just checked in, by the rules that read
# colours. Building the state again in a test of its own cost about a second of CPU a
# page.
DARK_OPTIONS = {"resultTypes": ["violations"], "runOnly": ["color-contrast", "link-in-text-block"]}


# WCAG 2.5.3, label in name (experimental in axe 4.12, on by default in 4.14), over
# every control but the card picker's buttons. Those show a card in the players'
# notation and how many of its copies are used ("A♠", "PJ", "1/3"), and are named in
# words ("ace of spades, 1 of 3 used"), as players say a card and as a screen reader
# should read it. The notation is symbols standing for the card, which the rule's own
# definition leaves out (W3C's ACT rule 2ee8b8: characters "used to express non-text
# content"); "1/3" in a name would be read as a fraction.
CONFIGURE = (
    "axe.configure({rules: [{id: 'label-content-name-mismatch', selector: ':not([data-card])'}]})"
)


def violations(page: Page, options: dict = RUN_OPTIONS) -> list[dict]:
    """axe-core's violations on the page (axe put in it already, ``axe.SCRIPT`` and
    CONFIGURE), without the rules that passed or did not apply: the test reads none,
    and sending them to Python cost Chromium and Python about 0.05 s of CPU a run."""
    return page.evaluate("options => axe.run(options).then(r => r.violations)", options)


@pytest.mark.parametrize(("name", "size"), CASES)
def test_axe_finds_no_violations(
    request: pytest.FixtureRequest, look_at: Callable[..., None], name: str, size: str
) -> None:
    page = request.getfixturevalue(f"{size}_page")
    PAGES[name](page)
    look_at(page, f"axe-{name}-{size}")
    page.evaluate(f"{axe.SCRIPT};\n{CONFIGURE}")
    found = {"light": violations(page)}
    if size == "phone" and name in IN_THE_DARK:
        page.emulate_media(color_scheme="dark")  # the kept page forgets it (conftest's _as_new)
        look_at(page, f"axe-{name}-{size}-dark")
        found["dark"] = violations(page, DARK_OPTIONS)
    failures = [f"{theme}:\n{axe.report(found[theme])}" for theme in found if found[theme]]
    assert not failures, f"{name} ({size}), " + "\n".join(failures)
