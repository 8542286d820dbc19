"""At the table without signal: the app installs, its service worker shows
the offline page when the network is gone, and a round typed on a phone survives a
reload and a dead connection: a Save without network waits on the phone, is sent by
itself when the connection returns, and is stored exactly once (or, if another phone
saved that round meanwhile, the conflict view says so)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Dialog, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.models import GameSession, HandEntry, Membership, Round, TableHand
from games.services.leagues import create_league
from games.services.round_saves import delete_round
from games.services.sessions import create_session
from games.services.table import open_table
from tests.support.builders import play
from tests.support.hands import ROUND_1, WIN_8S
from tests.support.pages import (
    PASSWORD,
    PHONE_DEVICE,
    WAIT_MS,
    assert_round_as_typed,
    fill_round,
    player,
    sign_in,
    sign_in_on_the_page,
    sign_out,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A phone whose pages may register the service worker (the kept pages may not:
# tests/e2e/conftest.py).
PHONE_WITH_WORKER = PHONE_DEVICE
QUEUED = "Saved on this phone — will send when back online."
# Back online, a waiting round goes at once (the "online" event) or, failing that, on
# static/js/draft_queue.js's 10 s timer; on a busy machine the answer's page load adds
# seconds of its own (as long as any expectation waits).
RETRY_MS = 10_000
SENT_MS = RETRY_MS + WAIT_MS


def friday(page: Page) -> tuple[User, GameSession]:
    user = sign_in(page, "asha")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    return user, session


def with_worker(new_context: Callable[..., Any]) -> Page:
    return new_context(**PHONE_WITH_WORKER).new_page()


def worker_ready(page: Page) -> None:
    """The service worker is installed, active and controls the page."""
    state = page.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)")
    assert state in {"activating", "activated"}
    # A function, not an expression: Playwright polls an expression with eval(), which
    # the app's Content-Security-Policy refuses whenever the first look is not enough.
    page.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'")


def submission(page: Page) -> str:
    return page.locator('form[data-draft] input[name="submission"]').input_value()


# The keys of the drafts this phone keeps under a prefix, and whether they are these.
_DRAFTS = "prefix => Object.keys(localStorage).filter(key => key.startsWith(prefix)).sort()"
_DRAFTS_ARE = f"([prefix, keys]) => JSON.stringify(({_DRAFTS})(prefix)) === JSON.stringify(keys)"


def assert_drafts(page: Page, session: GameSession, expected: list[str]) -> None:
    """The drafts this phone keeps for the session's rounds are these, once the answer
    that writes or removes them has been handled (a form swapped in is kept under its
    round as it settles). Only this session's: a kept page's earlier test may leave
    one, written by a late answer after the storage was cleared."""
    prefix = f"scorekeeper:draft:session-{session.pk}-"
    with suppress(PlaywrightTimeoutError):  # said below, with the keys the phone keeps
        page.wait_for_function(_DRAFTS_ARE, arg=[prefix, expected], timeout=WAIT_MS)
    assert page.evaluate(_DRAFTS, prefix) == expected


def draft_key(session: GameSession, number: int, username: str = "asha") -> str:
    """The key a signed-in account's draft of a round is kept under on the phone
    (static/js/draft_forms.js: each account's under keys of its own)."""
    owner = User.objects.get(username=username).pk
    return f"scorekeeper:draft:session-{session.pk}-round@u{owner}:{number}"


def assert_stored_once(session: GameSession, token: str) -> None:
    rounds = Round.objects.filter(session=session)
    assert [(r.number, r.submission) for r in rounds] == [(1, token)]
    assert HandEntry.objects.filter(round__session=session).count() == 3


# --- Installable ----------------------------------------------------------------------


def test_the_app_installs_and_shows_the_offline_page_without_a_network(
    new_context: Callable[..., Any], live_server
) -> None:
    page = with_worker(new_context)
    _, session = friday(page)
    page.goto(f"/sessions/{session.pk}/")

    manifest = page.request.get("/manifest.webmanifest")
    assert manifest.ok
    fields = json.loads(manifest.text())
    assert {"name", "short_name", "icons", "start_url", "display", "theme_color"} <= set(fields)
    assert fields["display"] == "standalone"
    worker_ready(page)
    # What Chromium checks before it offers "Install app": nothing missing.
    cdp = page.context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    cdp.detach()

    page.context.set_offline(True)
    page.goto(f"/sessions/{session.pk}/history/")
    expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")
    expect(page.locator("main")).to_contain_text(
        "rounds typed here are kept on this phone and sent when the connection returns"
    )
    # Styled from the worker's cache: the header is the felt green of base.css.
    header = page.locator(".site-header").evaluate("e => getComputedStyle(e).backgroundColor")
    assert header == "rgb(20, 83, 45)"

    # Back online, the page asked for opens by itself.
    page.context.set_offline(False)
    expect(page.get_by_role("heading", level=1)).not_to_have_text("You are offline")
    assert page.url == f"{live_server.url}/sessions/{session.pk}/history/"


# --- A round survives a dead connection ---------------------------------------------------


def test_the_offline_page_is_in_the_language_of_the_last_page_seen(
    new_context: Callable[..., Any], live_server, settings
) -> None:
    """Hindi chosen in the footer of a phone set up in English: the worker keeps the
    offline page in every language and shows it in the last page's, with the
    scripts' words of that language."""
    page = with_worker(new_context)
    _, session = friday(page)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "hi", "url": live_server.url}]
    )
    page.goto(f"/sessions/{session.pk}/")
    worker_ready(page)
    waiting = "JSON.stringify({values: {}, at: Date.now(), queued: true})"
    page.evaluate(
        f"key => localStorage.setItem(key, {waiting})",
        f"scorekeeper:draft:session-{session.pk}-round:1",
    )
    page.goto(f"/sessions/{session.pk}/history/")  # a page the worker sees come, in Hindi
    expect(page.locator("html")).to_have_attribute("lang", "hi")

    page.context.set_offline(True)
    page.goto(f"/sessions/{session.pk}/")

    expect(page.locator("body[data-offline-page]")).to_have_count(1)
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    expect(page.locator("[data-drafts-waiting]")).to_have_text(
        "1 राउंड इस फ़ोन में रुका है: उसका पेज खुलते ही और कनेक्शन लौटते ही भेज दिया जाएगा।"
    )
    page.context.set_offline(False)


def test_a_round_typed_is_back_after_a_reload_and_gone_once_saved(phone_page: Page) -> None:
    page = phone_page
    _, session = friday(page)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    token = submission(page)

    page.reload()

    assert_round_as_typed(page, "8S", ROUND_1)
    expect(page.locator("[data-draft-restored]")).to_have_text(
        "What you typed on this phone before is back."
    )
    # The same submission: a save sent before the reload and this one store one round.
    assert submission(page) == token
    # The preview follows what came back: the settlement is shown.
    expect(page.locator("#settlement")).to_contain_text("Settlement")

    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#round-entry")).to_contain_text("Round 1 saved.")
    assert_stored_once(session, token)
    assert_drafts(page, session, [])
    page.reload()
    expect(page.get_by_label("Cut joker")).to_have_value("")


def test_a_save_without_network_waits_on_the_phone_and_is_sent_once_when_back(
    new_context: Callable[..., Any],
) -> None:
    page = with_worker(new_context)
    _, session = friday(page)
    page.goto(f"/sessions/{session.pk}/")
    worker_ready(page)  # the worker controls the page: it must let the POST through
    fill_round(page, "8S", ROUND_1)
    expect(page.locator("#settlement")).to_contain_text("Settlement")
    token = submission(page)

    page.context.set_offline(True)
    page.get_by_role("button", name="Save round 1").tap()

    note = page.locator("[data-queued-note]")
    expect(note).to_have_text(QUEUED)
    expect(note).to_be_in_viewport()
    expect(page.locator("form.round-form").get_by_role("alert")).to_have_count(0)
    assert Round.objects.count() == 0
    assert_round_as_typed(page, "8S", ROUND_1)

    page.context.set_offline(False)

    expect(page.locator("[data-sent]")).to_have_text("Round 1 sent.", timeout=SENT_MS)
    expect(page.locator("#round-entry")).to_contain_text("Round 1 saved.")
    expect(page.locator("[data-queued-note]")).to_have_count(0)
    expect(page.locator("tr[data-round]")).to_have_count(1)
    assert_stored_once(session, token)
    assert_drafts(page, session, [])


def test_a_waiting_round_survives_a_reload_offline_and_is_sent_when_back(
    new_context: Callable[..., Any],
) -> None:
    page = with_worker(new_context)
    _, session = friday(page)
    page.goto(f"/sessions/{session.pk}/")
    worker_ready(page)
    fill_round(page, "8S", ROUND_1)
    token = submission(page)
    page.context.set_offline(True)
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("[data-queued-note]")).to_have_text(QUEUED)

    page.reload()  # no network: the worker's offline page, which knows what waits

    expect(page.get_by_role("heading", level=1)).to_have_text("You are offline")
    expect(page.locator("[data-drafts-waiting]")).to_contain_text("1 round waits on this phone")

    page.context.set_offline(False)  # the session page comes back and sends the round

    expect(page.locator("[data-sent]")).to_have_text("Round 1 sent.", timeout=SENT_MS)
    expect(page.locator("tr[data-round]")).to_have_count(1)
    assert_stored_once(session, token)


def test_a_server_out_of_reach_is_tried_again_by_itself(fresh_phone_page: Page) -> None:
    page = fresh_phone_page
    page.clock.install()  # time runs as usual; the retry's 10 s are skipped below
    _, session = friday(page)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    token = submission(page)
    saves = re.compile(rf".*/sessions/{session.pk}/rounds/$")
    # The phone thinks it is online, but the server cannot be reached.
    page.route(saves, lambda route: route.abort("internetdisconnected"))

    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("[data-queued-note]")).to_have_text(QUEUED)
    page.unroute(saves)

    # static/js/draft_queue.js tries again every 10 s while a round waits.
    page.clock.run_for(RETRY_MS)
    expect(page.locator("[data-sent]")).to_have_text("Round 1 sent.", timeout=SENT_MS)
    assert_stored_once(session, token)


def test_a_round_saved_meanwhile_on_another_phone_shows_the_conflict(phone_page: Page) -> None:
    page = phone_page
    user, session = friday(page)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    page.context.set_offline(True)
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("[data-queued-note]")).to_have_text(QUEUED)
    play(session, "8S", ROUND_1, user)  # round 1, saved from another phone

    page.context.set_offline(False)

    expect(page.locator("[data-theirs]")).to_contain_text("Their round 1", timeout=SENT_MS)
    expect(page.locator("#round-entry")).to_contain_text(
        "Round 1 was saved on another phone by asha meanwhile"
    )
    expect(page.locator("[data-queued-note]")).to_have_count(0)
    assert Round.objects.filter(session=session).count() == 1
    # What was typed stays, kept now for round 2, the number a Save would give it.
    assert_round_as_typed(page, "8S", ROUND_1)
    assert_drafts(page, session, [draft_key(session, 2)])
    # It is their round again: not offered for saving, only to be discarded.
    clash = page.locator("[data-clash]")
    expect(clash).to_contain_text("Yours is the same round")
    expect(clash.get_by_role("button", name="Save mine as round 2")).to_have_count(0)
    clash.get_by_role("link", name="Discard mine").tap()
    expect(page.get_by_role("button", name="Save round 2")).to_be_visible()
    expect(page.get_by_label("Cut joker")).to_have_value("")
    assert_drafts(page, session, [])
    assert Round.objects.filter(session=session).count() == 1


def at_seat(page: Page, name: str) -> GameSession:
    """Friday in table mode, this phone holding ``name``'s seat."""
    _, session = friday(page)
    open_table(session)
    session.refresh_from_db()
    page.goto(f"/table/{session.table_token}/")
    page.get_by_role("button", name=name, exact=True).tap()
    return session


def test_a_seat_phones_hand_survives_a_reload(phone_page: Page) -> None:
    page = phone_page
    at_seat(page, "Ben")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ben's hand")
    # The server never hears of it (the connection is poor): only the phone keeps it.
    previews = re.compile(r".*/hand/preview/$")
    page.route(previews, lambda route: route.abort("internetdisconnected"))
    for code in ("8S", "2D", "3D", "4D"):  # the cut joker, then Ben's first cards
        page.locator(f'[data-picker] [data-card="{code}"]').tap()
    typed = page.get_by_label("Cards").input_value()
    assert typed == "2D 3D 4D"

    page.unroute(previews)
    page.reload()

    expect(page.get_by_label("Cards")).to_have_value(typed)
    expect(page.get_by_label("Cut joker")).to_have_value("8S")
    # Back on the phone, the check runs again and the table keeps the hand too.
    expect(page.locator('[data-preview="Ben"]')).to_contain_text("not 3")
    assert TableHand.objects.get(seat__player__name="Ben").text == typed


def test_an_edit_saved_without_network_is_sent_once_when_back(phone_page: Page) -> None:
    page = phone_page
    user, session = friday(page)
    played = play(session, "8S", ROUND_1, user)
    page.goto(f"/sessions/{session.pk}/rounds/{played.pk}/edit/")
    player(page, "Chen").locator('input[value="middle_drop"]').check()
    expect(page.locator('[data-preview="Chen"]')).to_contain_text("Hand points: 70")

    page.context.set_offline(True)
    page.get_by_role("button", name="Save changes").tap()
    expect(page.locator("[data-queued-note]")).to_have_text(QUEUED)
    page.context.set_offline(False)

    expect(page.locator("[data-sent]")).to_have_text("Round 1 sent.", timeout=SENT_MS)
    expect(page.locator(".messages")).to_contain_text("Round 1 saved; later totals follow it.")
    played.refresh_from_db()
    # One edit over the version it was opened with: version 2, not 3.
    assert played.version == 2
    assert played.entries.get(player__name="Chen").outcome == "middle_drop"
    assert_drafts(page, session, [])


def test_a_hand_handed_in_without_network_is_sent_when_back(phone_page: Page) -> None:
    page = phone_page
    at_seat(page, "Asha")
    page.get_by_label("Cut joker").fill("8S")
    player(page, "Asha").locator('input[value="declared"]').check()
    page.get_by_label("Cards").fill(WIN_8S)
    expect(page.locator('[data-preview="Asha"]')).to_contain_text("Valid declaration")

    page.context.set_offline(True)
    page.get_by_role("button", name="Hand in").tap()
    expect(page.locator("[data-queued-note]")).to_have_text(QUEUED)
    page.context.set_offline(False)

    expect(page.locator("[data-sent]")).to_have_text(
        "Your hand for round 1 was sent.", timeout=SENT_MS
    )
    expect(page.locator("[data-handed-in]")).to_be_visible()
    assert TableHand.objects.get(seat__player__name="Asha").status == TableHand.Status.IN


def test_an_edit_of_a_round_deleted_meanwhile_is_refused_not_sent(phone_page: Page) -> None:
    page = phone_page
    user, session = friday(page)
    played = play(session, "8S", ROUND_1, user)
    page.goto(f"/sessions/{session.pk}/rounds/{played.pk}/edit/")
    player(page, "Chen").locator('input[value="middle_drop"]').check()
    page.context.set_offline(True)
    page.get_by_role("button", name="Save changes").tap()
    expect(page.locator("[data-queued-note]")).to_have_text(QUEUED)
    delete_round(played, user, version=played.version)  # on another phone

    page.context.set_offline(False)

    # The round is gone (a 404): said beside Save as any refusal; it waits no longer.
    expect(page.locator("form.round-form").get_by_role("alert")).to_contain_text(
        "Not saved: the server refused it (error 404)", timeout=SENT_MS
    )
    expect(page.locator("[data-queued-note]")).to_have_count(0)
    expect(page.locator("[data-sent]")).to_have_count(0)
    assert not Round.objects.filter(session=session).exists()


# --- A phone passed round the table ---------------------------------------------------

APP_KEYS = "() => Object.keys(localStorage).filter(key => key.startsWith('scorekeeper:'))"


def a_shared_session(page: Page) -> GameSession:
    """Friday in a league where Ben scores too: his account opens the same round form,
    so a draft left on the phone would come back for him."""
    asha = sign_in(page, "asha")
    league = create_league(asha, name="Friday Club", preset="21-points", overrides={})
    ben = User.objects.create_user(username="ben", password=PASSWORD)
    Membership.objects.create(league=league, user=ben, role=Membership.Role.SCORER)
    return create_session(
        asha, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], league=league
    )


def test_signing_out_leaves_nothing_typed_for_the_next_person(phone_page: Page) -> None:
    page = phone_page
    session = a_shared_session(page)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    assert_drafts(page, session, [draft_key(session, 1)])

    sign_out(page)

    assert page.evaluate(APP_KEYS) == []
    # Ben signs in on the same phone and opens the same session: an empty round.
    sign_in_on_the_page(page, "ben")
    page.goto(f"/sessions/{session.pk}/")
    expect(page.get_by_role("button", name="Save round 1")).to_be_visible()
    expect(page.get_by_label("Cut joker")).to_have_value("")
    expect(player(page, "Ben").get_by_label("Groups")).to_have_value("")
    expect(page.locator("[data-draft-restored]")).to_have_count(0)
    assert page.evaluate(APP_KEYS) == []


def test_a_round_waiting_to_be_sent_is_asked_about_before_signing_out(
    fresh_phone_page: Page,
) -> None:
    page = fresh_phone_page
    _, session = friday(page)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    # The phone thinks it is online, but the server cannot be reached: the round waits.
    page.route(re.compile(rf".*/sessions/{session.pk}/rounds/$"), lambda route: route.abort())
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("[data-queued-note]")).to_have_text(QUEUED)
    asked: list[str] = []

    def answer(accept: bool) -> Callable[[Dialog], None]:
        def handle(dialog: Dialog) -> None:
            asked.append(dialog.message)
            if accept:
                dialog.accept()
            else:
                dialog.dismiss()

        return handle

    page.once("dialog", answer(accept=False))
    page.get_by_role("button", name="Sign out").click()
    assert asked == ["1 round not yet sent: sign out anyway?"]
    # Not signed out: the round still waits, as typed.
    expect(page.locator("[data-queued-note]")).to_have_text(QUEUED)
    assert_round_as_typed(page, "8S", ROUND_1)
    assert_drafts(page, session, [draft_key(session, 1)])

    page.once("dialog", answer(accept=True))
    sign_out(page)
    assert len(asked) == 2
    assert page.evaluate(APP_KEYS) == []
    assert not Round.objects.exists()


def test_a_draft_is_shown_only_to_the_account_that_typed_it(fresh_phone_page: Page) -> None:
    page = fresh_phone_page
    session = a_shared_session(page)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    key = draft_key(session, 1)
    assert_drafts(page, session, [key])

    # Asha's sign-in runs out (no Sign out tap) and Ben signs in on the same phone.
    page.context.clear_cookies()
    sign_in_on_the_page(page, "ben")
    page.goto(f"/sessions/{session.pk}/")
    expect(page.get_by_role("button", name="Save round 1")).to_be_visible()
    expect(page.get_by_label("Cut joker")).to_have_value("")
    expect(player(page, "Asha").get_by_label("Groups")).to_have_value("")
    expect(page.locator("[data-draft-restored]")).to_have_count(0)

    # Asha signs in again: what she typed is back.
    page.context.clear_cookies()
    sign_in_on_the_page(page, "asha")
    page.goto(f"/sessions/{session.pk}/")
    expect(page.locator("[data-draft-restored]")).to_be_visible()
    assert_round_as_typed(page, "8S", ROUND_1)


def test_a_waiting_round_is_sent_only_by_the_account_that_saved_it(
    fresh_phone_page: Page,
) -> None:
    page = fresh_phone_page
    session = a_shared_session(page)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    rounds = re.compile(rf".*/sessions/{session.pk}/rounds/$")
    page.route(rounds, lambda route: route.abort())
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("[data-queued-note]")).to_have_text(QUEUED)
    page.unroute(rounds)

    page.context.clear_cookies()
    sign_in_on_the_page(page, "ben")
    sent: list[str] = []
    page.on(
        "request", lambda request: sent.append(request.url) if rounds.match(request.url) else None
    )
    page.goto(f"/sessions/{session.pk}/")
    expect(page.get_by_role("button", name="Save round 1")).to_be_visible()
    # Asha's round would go half a second after the page is ready (the "online" retry
    # uses the same call): give it well over that, then look.
    page.wait_for_timeout(2_000)
    assert sent == []
    expect(page.locator("[data-queued-note]")).to_have_count(0)
    assert not Round.objects.exists()
    # Ben types into the same round: his draft is his own, and Asha's still waits.
    page.get_by_label("Cut joker").fill("5H")
    assert_drafts(page, session, sorted([draft_key(session, 1), draft_key(session, 1, "ben")]))

    page.context.clear_cookies()
    sign_in_on_the_page(page, "asha")
    page.goto(f"/sessions/{session.pk}/")
    expect(page.locator("[data-sent]")).to_have_text("Round 1 sent.", timeout=SENT_MS)
    saved = Round.objects.get(session=session)
    assert saved.entered_by.username == "asha"


def test_signing_out_without_a_network_says_so_and_clears_nothing(
    fresh_phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = fresh_phone_page
    _, session = friday(page)
    page.goto(f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    key = draft_key(session, 1)
    assert_drafts(page, session, [key])

    page.context.set_offline(True)
    page.get_by_role("button", name="Sign out").tap()
    note = page.locator("[data-sign-out-offline]")
    expect(note).to_contain_text("you are still signed in")
    expect(note).to_be_in_viewport()
    look_at(page, "sign-out-offline-phone", full_page=False)
    assert_round_as_typed(page, "8S", ROUND_1)
    assert_drafts(page, session, [key])

    page.context.set_offline(False)
    sign_out(page)
    assert page.evaluate(APP_KEYS) == []


def test_a_draft_kept_before_drafts_named_their_account_comes_back_as_its_own(
    fresh_phone_page: Page,
) -> None:
    page = fresh_phone_page
    _, session = friday(page)
    page.goto(f"/sessions/{session.pk}/")
    legacy = f"scorekeeper:draft:session-{session.pk}-round:1"
    page.evaluate(
        "key => localStorage.setItem(key, JSON.stringify("
        "{values: {cut_joker: '8S'}, at: Date.now(), queued: false}))",
        legacy,
    )

    page.reload()

    expect(page.locator("[data-draft-restored]")).to_be_visible()
    expect(page.get_by_label("Cut joker")).to_have_value("8S")
    assert_drafts(page, session, [draft_key(session, 1)])
