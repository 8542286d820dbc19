"""When the network or the database fails, the phone says so.

htmx swaps nothing for a 5xx, a dropped connection or a timeout, so a tap on
*Save round* used to seem to do nothing at all. Here the server answers 503 (the real
database-down page), is unreachable, loses its answer after saving, or does not
answer in time; each time the phone shows why beside the Save button, keeps every
card typed, and once the network is back a tap on Save stores the round exactly once.
When no answer comes at all, the round waits on the phone and says so
(tests/e2e/test_offline.py: it is sent by itself once the connection returns).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from urllib.parse import parse_qs

import pytest
from django.template.loader import render_to_string
from playwright.sync_api import Locator, Page, Route, expect

from games.models import GameSession, HandEntry, Round
from games.services.sessions import create_session
from tests.support.hands import ROUND_1, SHOWN_8S
from tests.support.pages import (
    Box,
    assert_round_as_typed,
    boxes_once_they,
    choose_outcome,
    fill_round,
    in_view,
    player,
    sign_in,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

KEPT = "Your round is still here — tap Save again"
QUEUED = "Saved on this phone — will send when back online."

# How often the session page polls for other phones' rounds, and a failed preview is
# asked for again (templates/games/session.html, static/js/outages.js).
POLL_MS = 5_000
RETRY_MS = 5_000


def open_session(page: Page) -> GameSession:
    user = sign_in(page, "asha")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    page.goto(f"/sessions/{session.pk}/")
    return session


@contextmanager
def saving_fails(page: Page, session: GameSession, handler: Callable[[Route], None]) -> Iterator:
    """Every POST of the round form meets ``handler`` instead of a working network;
    previews and the live table still get through. The submission tokens sent are
    collected."""
    url = f"/sessions/{session.pk}/rounds/"
    tokens: list[str] = []

    def route(route: Route) -> None:
        tokens.extend(parse_qs(route.request.post_data or "").get("submission", []))
        handler(route)

    matches = lambda address: address.split("?")[0].endswith(url)  # noqa: E731
    page.route(matches, route)
    yield tokens
    page.unroute(matches, route)


def save_button(page: Page) -> Locator:
    return page.get_by_role("button", name="Save round 1")


def queued_note(page: Page) -> Locator:
    return page.locator("form.round-form [data-queued-note]")


def outage_alert(page: Page) -> Locator:
    return page.locator("form.round-form").get_by_role("alert")


def assert_beside_the_save_button(page: Page, said: Locator) -> None:
    """Readable where the thumb is: in the viewport, just under the tapped button, once
    the page has settled (the preview the tap cancelled may still be coming back)."""

    def beside(boxes: list[Box]) -> bool:
        button, note = boxes
        return in_view(page, boxes, wholly=False) and 0 <= note["y"] - button["bottom"] <= 48

    boxes = boxes_once_they(page, [save_button(page), said], beside)
    button, note = boxes
    assert in_view(page, boxes, wholly=False), f"not both on the screen: {boxes}"
    assert 0 <= note["y"] - button["bottom"] <= 48, f"the message is not under Save: {boxes}"
    assert note["height"] >= 40 and note["width"] >= 300  # a readable block, not a sliver


def save_once_the_network_is_back(page: Page, tokens: list[str]) -> None:
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/rounds/")) as sent:
        save_button(page).click()
    expect(page.locator("#round-entry")).to_contain_text("Round 1 saved.")
    expect(page.get_by_role("alert")).to_have_count(0)  # the message has gone
    # The retry is the same submission as the failed tap: it can only save once.
    assert parse_qs(sent.value.post_data or "")["submission"] == tokens[-1:]
    expect(page.locator("tr[data-round]")).to_have_count(1)
    assert Round.objects.count() == 1 and HandEntry.objects.count() == 3


def test_a_database_outage_is_said_beside_save_and_the_round_kept(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    session = open_session(page)
    fill_round(page, "8S", ROUND_1)
    database_down = render_to_string("errors/database.html")

    def answer_503(route: Route) -> None:
        route.fulfill(
            status=503, body=database_down, content_type="text/html", headers={"Retry-After": "5"}
        )

    with saving_fails(page, session, answer_503) as tokens:
        save_button(page).click()
        alert = outage_alert(page)
        expect(alert).to_contain_text("Not saved: the server is having trouble")
        expect(alert).to_contain_text(KEPT)
        assert_beside_the_save_button(page, alert)
        assert_round_as_typed(page, "8S", ROUND_1)
        # The preview the tap cancelled comes back: the settlement of what is typed.
        expect(page.locator('[data-settlement="Ben"]')).to_be_visible()
        look_at(page, "outage-503-phone", full_page=False)
        assert not Round.objects.exists()

    save_once_the_network_is_back(page, tokens)


def test_an_unreachable_server_is_said_beside_save_and_the_round_kept(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    session = open_session(page)
    fill_round(page, "8S", ROUND_1)

    with saving_fails(page, session, lambda route: route.abort("internetdisconnected")) as tokens:
        save_button(page).click()
        # No answer at all: the round waits on the phone (static/js/draft_queue.js).
        note = queued_note(page)
        expect(note).to_have_text(QUEUED)
        expect(outage_alert(page)).to_have_count(0)
        assert_beside_the_save_button(page, note)
        assert_round_as_typed(page, "8S", ROUND_1)
        look_at(page, "outage-unreachable-phone", full_page=False)
        # Tapping again while still offline says it again, once, in the same place
        # (waited for until that second try has met the dead network, too).
        with page.expect_event("requestfailed", lambda request: request.method == "POST"):
            save_button(page).click()
        expect(queued_note(page)).to_have_count(1)
        assert not Round.objects.exists()

    assert len(tokens) >= 2 and set(tokens) == {tokens[0]}
    save_once_the_network_is_back(page, tokens)


def test_a_retry_after_a_lost_answer_finds_the_round_already_saved(phone_page: Page) -> None:
    page = phone_page
    session = open_session(page)
    fill_round(page, "8S", ROUND_1)

    def save_then_drop_the_answer(route: Route) -> None:
        route.fetch()  # the request reaches the server, which saves the round...
        route.abort("connectionreset")  # ...but its answer never reaches the phone

    with saving_fails(page, session, save_then_drop_the_answer) as tokens:
        save_button(page).click()
        expect(queued_note(page)).to_have_text(QUEUED)
        assert_round_as_typed(page, "8S", ROUND_1)
        assert Round.objects.count() == 1  # saved, though the phone cannot know it

    # Tapping Save again answers with the round already saved, not a second one.
    save_once_the_network_is_back(page, tokens)
    expect(page.get_by_label("Cut joker")).to_have_value("")  # a fresh form for round 2
    expect(page.get_by_role("button", name="Save round 2")).to_be_visible()


def test_a_server_that_does_not_answer_in_time_is_said_too(phone_page: Page) -> None:
    page = phone_page
    session = open_session(page)
    fill_round(page, "8S", ROUND_1)
    # The page gives up on a request after 15 s; a test waits less than that.
    assert page.evaluate("htmx.config.timeout") == 15_000
    page.evaluate("htmx.config.timeout = 1000")
    held: list[Route] = []

    with saving_fails(page, session, held.append) as tokens:
        save_button(page).click()
        alert = outage_alert(page)
        expect(alert).to_contain_text("Not saved: the server took too long to answer")
        expect(alert).to_contain_text(KEPT)
        assert_beside_the_save_button(page, alert)
        assert_round_as_typed(page, "8S", ROUND_1)
        for route in held:
            route.abort()

    save_once_the_network_is_back(page, tokens)


def test_the_live_table_says_offline_quietly_and_recovers(
    fresh_phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = fresh_phone_page
    # The page's clock is the test's: each poll (every 5 s) comes when the test moves
    # the clock on, not after seconds of waiting.
    page.clock.install()
    session = open_session(page)
    poll = f"/sessions/{session.pk}/scoreboard/"
    matches = lambda address: poll in address  # noqa: E731
    page.route(matches, lambda route: route.abort("internetdisconnected"))
    note = page.locator("[data-offline]")
    page.clock.fast_forward(POLL_MS)
    expect(note).to_have_text("Offline — retrying…")
    expect(note).to_have_attribute("role", "status")  # quiet: a poll is no alert
    # Polls keep failing: still one quiet note, never an alert (looked at once the
    # next poll has met the dead network too).
    with page.expect_event("requestfailed", lambda request: poll in request.url):
        page.clock.fast_forward(POLL_MS)
    expect(note).to_have_count(1)
    expect(page.get_by_role("alert")).to_have_count(0)
    look_at(page, "outage-offline-table-phone", full_page=False)

    page.unroute(matches)
    page.clock.fast_forward(POLL_MS)
    expect(note).to_have_count(0)  # the next poll that answers clears it


def test_an_edit_that_cannot_reach_the_server_keeps_the_change(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    session = open_session(page)
    fill_round(page, "8S", ROUND_1)
    save_button(page).click()
    expect(page.locator("#round-entry")).to_contain_text("Round 1 saved.")
    played = Round.objects.get()
    page.get_by_role("link", name="Edit round 1").click()
    choose_outcome(player(page, "Chen"), "middle_drop")
    expect(page.locator('[data-preview="Chen"]')).to_contain_text("Hand points: 70")
    edit = f"/sessions/{session.pk}/rounds/{played.pk}/edit/"
    matches = lambda address: address.endswith(edit)  # noqa: E731

    page.route(matches, lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Save changes").click()
    note = queued_note(page)
    expect(note).to_have_text(QUEUED)
    expect(note).to_be_in_viewport()
    expect(player(page, "Chen").locator('input[value="middle_drop"]')).to_be_checked()
    expect(player(page, "Ben").get_by_label("Groups")).to_have_value(SHOWN_8S)
    look_at(page, "outage-edit-phone", full_page=False)
    played.refresh_from_db()
    assert played.version == 1

    page.unroute(matches)
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 saved; later totals follow it.")
    played.refresh_from_db()
    assert played.version == 2 and played.entries.get(player__name="Chen").outcome == "middle_drop"


def test_stakes_that_meet_a_database_outage_are_said_and_kept(phone_page: Page) -> None:
    page = phone_page
    session = open_session(page)
    stakes = f"/sessions/{session.pk}/stakes/"
    matches = lambda address: address.endswith(stakes)  # noqa: E731
    database_down = render_to_string("errors/database.html")
    page.route(matches, lambda route: route.fulfill(status=503, body=database_down))

    page.get_by_label("Money per point").fill("0.25")
    page.get_by_role("button", name="Save stakes").click()
    alert = page.locator("form.stakes").get_by_role("alert")
    expect(alert).to_contain_text("Stakes not saved: the server is having trouble")
    expect(alert).to_be_in_viewport()
    expect(page.get_by_label("Money per point")).to_have_value("0.25")

    page.unroute(matches)
    page.get_by_role("button", name="Save stakes").click()
    expect(page.locator(".messages")).to_contain_text("Stakes saved.")
    session.refresh_from_db()
    assert str(session.money_per_point) == "0.25"


def test_a_refused_edit_still_shows_the_error_beside_the_player(phone_page: Page) -> None:
    """The edit form is sent by htmx now (so a failure can be said): a 422 still
    comes back as the page with the error and the text as typed."""
    page = phone_page
    open_session(page)
    fill_round(page, "8S", ROUND_1)
    save_button(page).click()
    expect(page.locator("#round-entry")).to_contain_text("Round 1 saved.")
    page.get_by_role("link", name="Edit round 1").click()
    # Marked on the edit page itself, not on the page the click leaves.
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    page.evaluate("window.noReload = true")
    typo = SHOWN_8S.removesuffix("8C") + "8X"
    player(page, "Ben").get_by_label("Groups").fill(typo)

    page.get_by_role("button", name="Save changes").click()

    expect(page.locator('[data-hand-errors="Ben"] [role="alert"]')).to_contain_text(
        "'8X' is not a card"
    )
    expect(player(page, "Ben").get_by_label("Groups")).to_have_value(typo)
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    assert page.evaluate("window.noReload") is True  # swapped in, not reloaded
    assert Round.objects.get().version == 1


def test_arrange_without_a_server_says_so_under_its_row(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    session = open_session(page)
    fill_round(page, "8S", ROUND_1)
    arrange = f"/sessions/{session.pk}/rounds/arrange/"
    matches = lambda address: address.endswith(arrange)  # noqa: E731
    page.route(matches, lambda route: route.abort("internetdisconnected"))

    ben = player(page, "Ben")
    ben.get_by_role("button", name="Arrange").click()

    alert = ben.get_by_role("alert")
    expect(alert).to_have_text(
        "Not arranged: the server could not be reached. "
        "The cards typed are still here — tap Arrange again."
    )
    # In one look once settled: the message, the button (both in sight) and the field.
    measured = [alert, ben.get_by_role("button", name="Arrange"), ben.get_by_label("Groups")]

    def above_the_field(boxes: list[Box]) -> bool:
        said, _button, field = boxes
        return in_view(page, boxes[:2], wholly=False) and said["bottom"] <= field["y"]

    boxes = boxes_once_they(page, measured, above_the_field)
    said, _button, field = boxes
    assert in_view(page, boxes[:2], wholly=False), f"message and Arrange not in sight: {boxes}"
    assert said["bottom"] <= field["y"], f"the message is not above the field: {boxes}"
    assert said["width"] >= 300  # its own row, not squeezed beside the button
    expect(ben.get_by_label("Groups")).to_have_value(SHOWN_8S)
    look_at(page, "outage-arrange-phone", full_page=False)


def test_the_preview_goes_quiet_offline_and_catches_up_by_itself(
    fresh_phone_page: Page,
) -> None:
    page = fresh_phone_page
    page.clock.install()  # the retry (every 5 s) comes when the test moves the clock on
    session = open_session(page)
    previews = f"/sessions/{session.pk}/rounds/preview/"
    matches = lambda address: address.endswith(previews)  # noqa: E731
    page.route(matches, lambda route: route.abort("internetdisconnected"))

    fill_round(page, "8S", ROUND_1)
    note = page.locator("form.round-form [data-offline]")
    expect(note).to_have_text("Offline — retrying…")
    expect(page.get_by_role("alert")).to_have_count(0)  # typing is not interrupted by alerts
    expect(page.locator("[data-settlement]")).to_have_count(0)

    page.unroute(matches)
    # Nobody types again: the preview is asked for again until it gets through.
    settled = page.locator('[data-settlement="Ben"] .round-score')
    page.clock.fast_forward(RETRY_MS)
    expect(settled).to_have_text("−92")
    expect(note).to_have_count(0)
