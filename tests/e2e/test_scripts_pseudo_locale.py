"""The scripts say nothing in English of their own: with their catalogue in the
pseudo-locale (every message widened, tests/support/pseudo_scripts.py), each line a
script writes into the page, each name it gives a key and each question it asks has
no plain English word left outside the values put in it (names, numbers, card codes),
and what the page's templates gave it.

The card picker, the outages and the rounds kept on the phone, the offline page,
signing out, the live table's news of another phone, sharing, and the house rules'
and league import's notes. The pages' own words are the templates' (English here: the
server speaks its own catalogue), so only what the scripts write is read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from playwright.sync_api import Dialog, Locator, Page, Route, expect

from games.models import GameSession
from games.services.leagues import create_league
from games.services.sessions import create_session
from games.transfer.league_export import export_league
from tests.support.builders import play
from tests.support.hands import ROUND_1, SHOWN_8S
from tests.support.pages import (
    PHONE_DEVICE,
    choose_outcome,
    fill_round,
    player,
    sign_in,
    signed_in_as,
)
from tests.support.pseudo_locale import english_words
from tests.support.pseudo_scripts import serve_pseudo_catalogue

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

POLL_MS = 5_000  # the live table's poll (templates/games/session.html)
RETRY_MS = 10_000  # a round waiting on the phone is sent again (static/js/draft_queue.js)
OPENING = "⟦"  # how every message of the pseudo catalogue begins


def assert_scripts_words(text: str | None, *given: str) -> None:
    """``text`` came from the scripts' catalogue, and no English is left in it but the
    ``given`` values (names, the templates' words put in)."""
    text = text or ""
    assert OPENING in text, f"not from the scripts' catalogue: {text!r}"
    left = english_words(text, given)
    assert not left, f"English the scripts wrote: {left} in {text!r}"


def friday(page: Page) -> GameSession:
    """A 21-card session of three decks, its page open on this phone."""
    user = sign_in(page, "asha")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    page.goto(f"/sessions/{session.pk}/")
    return session


def said_by_script(locator: Locator) -> str:
    """The text once a script wrote it (pseudo-locale text begins so)."""
    expect(locator).to_contain_text(OPENING)
    return locator.text_content() or ""


def test_the_card_pickers_lines_and_keys(phone_page: Page) -> None:
    page = phone_page
    serve_pseudo_catalogue(page)
    friday(page)
    picker = page.locator("[data-picker]")
    line = picker.locator("[data-picker-for]")
    assert_scripts_words(said_by_script(line))  # "Tap the cut joker"

    picker.locator('[data-card="8S"]').tap()
    expect(line).to_contain_text("Asha")
    assert_scripts_words(line.text_content(), "Asha")  # "Cards for Asha: 0 of 21"

    # Asha declares with 21 cards that are no declaration: the picker goes on to Ben
    # and says her hand's problem at its top.
    choose_outcome(player(page, "Asha"), "declared")
    for code in SHOWN_8S.replace("|", " ").split():
        picker.locator(f'[data-card="{code}"]').tap()
    expect(line).to_contain_text("Ben")
    problem = picker.locator("[data-picker-problem]")
    expect(problem).to_contain_text("Asha")
    found = player(page, "Asha").evaluate(
        "hand => hand.querySelector('[data-hand-errors] li, [data-preview] .problem')"
        ".textContent.trim()"
    )
    assert_scripts_words(said_by_script(problem), "Asha", found)  # "Asha: ... Show Asha"

    # A key's name says how many of its copies are in: Asha holds two K♥ of three.
    king = picker.locator('[data-card="KH"]')
    assert_scripts_words(king.get_attribute("aria-label"), king.get_attribute("data-name") or "")
    # A card of which no copy is left says why it takes no tap.
    king.tap()  # Ben's: the third
    king.tap(force=True)
    assert_scripts_words(said_by_script(line))  # "All 3 K♥ are already used"
    eight = picker.locator('[data-card="8S"]')
    eight.tap()
    eight.tap()  # the cut joker is the third
    eight.tap(force=True)
    expect(line).to_contain_text("8♠")
    assert_scripts_words(line.text_content())  # "No 8♠ left: one is the cut joker"

    # Ben and Chen drop: every hand is in.
    choose_outcome(player(page, "Ben"), "middle_drop")
    choose_outcome(player(page, "Chen"), "middle_drop")
    expect(picker).to_have_class(re.compile(r"\bis-done\b"))
    assert_scripts_words(line.text_content())


def outage_words(form: Locator) -> tuple[str, str]:
    """What the page says an outage did not do and what to do, in its own words."""
    return form.evaluate(
        "form => { const place = form.closest('[data-outage-lead]') || form;"
        " return ['lead', 'keep'].map(name => place.getAttribute('data-outage-' + name)); }"
    )


def test_outages_and_a_round_sent_once_the_connection_is_back(fresh_phone_page: Page) -> None:
    page = fresh_phone_page
    serve_pseudo_catalogue(page)
    page.clock.install()
    session = friday(page)
    fill_round(page, "8S", ROUND_1)
    form = page.locator("form.round-form")
    rounds = re.compile(rf".*/sessions/{session.pk}/rounds/$")
    database_down = render_to_string("errors/database.html")

    def answer_503(route: Route) -> None:
        route.fulfill(status=503, body=database_down, content_type="text/html")

    page.route(rounds, answer_503)
    page.get_by_role("button", name="Save round 1").tap()
    lead, keep = outage_words(form)
    assert_scripts_words(said_by_script(form.locator("[data-outage]")), lead, keep)

    page.unroute(rounds)
    page.route(rounds, lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Save round 1").tap()
    assert_scripts_words(said_by_script(page.locator("[data-queued-note]")))

    poll = f"/sessions/{session.pk}/scoreboard/"
    page.route(lambda address: poll in address, lambda route: route.abort("internetdisconnected"))
    page.clock.fast_forward(POLL_MS)
    assert_scripts_words(said_by_script(page.locator("[data-offline]")))

    page.unroute_all(behavior="ignoreErrors")
    serve_pseudo_catalogue(page)
    page.clock.run_for(RETRY_MS)
    assert_scripts_words(said_by_script(page.locator("[data-sent]")))  # "Round 1 sent."


def test_drafts_signing_out_and_the_offline_page(fresh_phone_page: Page) -> None:
    page = fresh_phone_page
    serve_pseudo_catalogue(page)
    session = friday(page)
    page.get_by_label("Cut joker").fill("8S")
    page.reload()
    assert_scripts_words(said_by_script(page.locator("[data-draft-restored]")))

    # A round waits on the phone: signing out asks first.
    fill_round(page, "8S", ROUND_1)
    page.route(re.compile(rf".*/sessions/{session.pk}/rounds/$"), lambda route: route.abort())
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("[data-queued-note]")).to_be_visible()
    asked: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.get_by_role("button", name="Sign out").click()
    expect(page.locator("[data-queued-note]")).to_be_visible()
    assert len(asked) == 1
    assert_scripts_words(asked[0])  # "1 round not yet sent: sign out anyway?"

    page.goto("/offline/")
    assert_scripts_words(said_by_script(page.locator("[data-drafts-waiting]")))

    page.goto(f"/sessions/{session.pk}/")
    page.context.set_offline(True)
    page.get_by_role("button", name="Sign out").tap()
    assert_scripts_words(said_by_script(page.locator("[data-sign-out-offline]")))
    page.context.set_offline(False)


def test_the_live_tables_news_of_another_phone(new_context: Callable[..., object]) -> None:
    user = User.objects.create_user(username="asha", password="x")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    page = new_context(**PHONE_DEVICE, service_workers="block").new_page()
    serve_pseudo_catalogue(page)
    signed_in_as(page, user)
    page.clock.install()
    page.goto(f"/sessions/{session.pk}/")
    entry = page.locator("#round-entry")

    # An untouched form moves on to the next round.
    play(session, "8S", ROUND_1, user)
    page.clock.run_for(POLL_MS + 1_000)
    assert_scripts_words(said_by_script(entry.locator("[data-moved]")))
    assert_scripts_words(said_by_script(entry.locator("[data-round-title]")))
    assert_scripts_words(said_by_script(entry.locator("[data-save]")))
    dealer = page.locator("#scoreboard-live").get_attribute("data-dealer-next") or ""
    assert_scripts_words(said_by_script(entry.locator("[data-dealer]")), dealer)

    # One that holds a round keeps it, and says so at Save.
    fill_round(page, "8S", ROUND_1)
    play(session, "8S", ROUND_1, user)
    page.clock.run_for(POLL_MS + 1_000)
    assert_scripts_words(said_by_script(page.locator("form [data-moved]")))


# The page's clipboard, a stub that keeps what it was handed; no share sheet.
CLIPBOARD_ONLY = """
Object.defineProperty(navigator, "share", {configurable: true, value: undefined});
Object.defineProperty(navigator, "clipboard", {configurable: true, value: {
  writeText: text => Promise.resolve()
}});
"""


def test_copying_a_link_and_the_night(fresh_phone_page: Page) -> None:
    page = fresh_phone_page
    page.add_init_script(CLIPBOARD_ONLY)
    serve_pseudo_catalogue(page)
    session = friday(page)
    play(session, "8S", ROUND_1)
    page.reload()

    panel = page.locator("[data-share-panel]")
    panel.get_by_role("button", name="Copy link").click()
    assert_scripts_words(said_by_script(panel.get_by_role("status")))  # "Link copied"

    night = page.locator("[data-night]", has=page.locator("#night-text"))
    night.get_by_role("button", name="Share the night").tap()
    assert_scripts_words(said_by_script(night.locator("[data-night-status]")))


def test_a_house_rule_and_an_import_in_a_language_the_browser_does_not_speak(
    new_context: Callable[..., object],
) -> None:
    """The browser's own message for a number out of range is in the browser's
    language; where that is not the page's, the page says it from its catalogue."""
    page = new_context(**PHONE_DEVICE, service_workers="block", locale="fr-FR").new_page()
    serve_pseudo_catalogue(page)
    user = sign_in(page, "asha")
    # Its first drop changed: the house rules open on it.
    league = create_league(
        user, name="Tuesday Club", preset="21-points", overrides={"first_drop": 25}
    )
    page.goto(f"/leagues/{league.slug}/rules/")
    first_drop = page.get_by_label("First drop costs", exact=True)
    first_drop.fill("-5")
    assert_scripts_words(said_by_script(page.locator("#id_rule_first_drop_not_taken")))

    # The league's own file, imported again: its name is taken already.
    page.goto("/import/league/")
    page.get_by_label("League file").set_input_files(
        {
            "name": "tuesday.json",
            "mimeType": "application/json",
            "buffer": json.dumps(export_league(league)).encode(),
        }
    )
    taken = page.locator("[data-name-taken]")
    names = json.loads(page.locator("#names-taken").text_content() or "{}")
    assert_scripts_words(said_by_script(taken), "Tuesday Club", *names.values())
