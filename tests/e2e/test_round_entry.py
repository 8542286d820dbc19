"""Entering a round on a phone, where the finger is: after Save every
problem is listed right above the button and in view, each linking to its player;
a saved round says so in view and can be undone; ending a session and replacing its
link ask first. (A round another phone saved meanwhile: test_two_phones_one_round.py.)"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, Route, expect

from games.models import GameSession, Round, RoundChange
from games.services.round_entries import edit_form_data
from games.services.sessions import create_session
from tests.support.builders import play
from tests.support.hands import ROUND_1, SHOWN_8S, WIN_8S
from tests.support.pages import (
    assert_in_view,
    boxes_once_they,
    choose_outcome,
    edge_looks_red,
    fill_round,
    hand_errors,
    player,
    preview,
    sign_in,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def open_session(page: Page, rounds: int = 0) -> GameSession:
    user = sign_in(page, "asha")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    for _ in range(rounds):
        play(session, "8S", ROUND_1)
    page.goto(f"/sessions/{session.pk}/")
    return session


# Each mistake a scorer makes, the round as typed, and what the list above Save says.
MISTAKES = {
    "typo": (
        "8S",
        ROUND_1 | {"Ben": ("shown", SHOWN_8S.removesuffix("8C") + "8X")},
        "'8X' is not a card",
    ),
    "short hand": (
        "8S",
        ROUND_1 | {"Ben": ("shown", SHOWN_8S.removesuffix(" 8C"))},
        "must show all 21 cards",
    ),
    "no winner": ("8S", ROUND_1 | {"Asha": ("shown", WIN_8S)}, "no winner"),
    "two winners": ("8S", ROUND_1 | {"Ben": ("declared", SHOWN_8S)}, "more than one winner"),
    "no cut joker": ("", ROUND_1, "Enter the cut joker"),
    "bad cut joker": ("8Z", ROUND_1, "Cut joker"),
    # Three at once: all said together, none hidden behind another.
    "empty, typo and short": (
        "8S",
        ROUND_1
        | {"Asha": ("declared", WIN_8S.replace("3D", "3X")), "Ben": ("shown", "")}
        | {"Chen": ("shown", SHOWN_8S.removesuffix(" 8C"))},
        ("'3X' is not a card", "must show all 21 cards, not 0", "must show all 21"),
    ),
    "invalid declaration": (
        "8S",
        ROUND_1 | {"Asha": ("declared", SHOWN_8S), "Ben": ("shown", WIN_8S)},
        "Asha",
    ),
}


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_every_mistake_is_said_right_above_save(
    phone_page: Page, look_at: Callable[..., None], mistake: str
) -> None:
    page = phone_page
    open_session(page, rounds=10)  # a long session: the form still comes first
    cut, hands, message = MISTAKES[mistake]
    fill_round(page, cut, hands)
    save = page.get_by_role("button", name="Save round 11")
    save.tap()
    problems = page.locator("[data-problems]")
    for each in (message,) if isinstance(message, str) else message:
        expect(problems).to_contain_text(each)
    # Both on the screen at once (the preview the tap cancelled may still land).
    assert_in_view(page, problems, page.get_by_role("button", name="Save round 11"))
    # Read out first: the list has the focus.
    expect(problems).to_be_focused()
    look_at(page, f"problems-{mistake.replace(' ', '-')}-phone", full_page=False)
    assert not Round.objects.filter(number=11).exists()


def save_refused(page: Page, cut: str, hands: dict, said: str) -> Locator:
    """A new session's first round typed with problems and Save tapped: the list above
    Save, once it says ``said`` and has the focus (read out first; the new form is live)."""
    open_session(page)
    fill_round(page, cut, hands)
    page.get_by_role("button", name="Save round 1").tap()
    problems = page.locator("[data-problems]")
    expect(problems).to_contain_text(said)
    expect(problems).to_be_focused()
    return problems


def test_the_list_of_problems_goes_once_they_are_fixed(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    typo = SHOWN_8S.replace("10C", "1C")
    hands = ROUND_1 | {"Ben": ("shown", typo), "Chen": ("shown", "2H 3H 4H")}
    problems = save_refused(page, "8S", hands, "Not saved: 2 things to fix")

    # Ben's typo fixed: only Chen's short hand is left on the list.
    player(page, "Ben").get_by_label("Groups").fill(SHOWN_8S)
    expect(problems).to_contain_text("Not saved: 1 thing to fix")
    expect(problems).not_to_contain_text("is not a card")
    expect(problems).to_contain_text("Chen: must show all 21 cards, not 3")
    # Typing goes on where it was: the list that follows the fixes takes no focus.
    expect(player(page, "Ben").get_by_label("Groups")).to_be_focused()
    problems.scroll_into_view_if_needed()
    look_at(page, "problems-left-phone", full_page=False)
    page.emulate_media(color_scheme="dark")
    look_at(page, "problems-left-phone-dark", full_page=False)
    page.emulate_media(color_scheme="light")

    # Chen dropped after all: nothing left, and the list goes.
    player(page, "Chen").get_by_label("Groups").fill("")
    choose_outcome(player(page, "Chen"), "first_drop")
    expect(page.locator("#settlement")).to_contain_text("Settlement")
    expect(problems).to_have_count(0)
    look_at(page, "problems-fixed-phone", full_page=False)
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("[data-saved]")).to_contain_text("Round 1 saved.")


def test_arrange_keeps_the_list_of_problems_left(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    hands = ROUND_1 | {"Chen": ("shown", "2H 3H 4H")}
    problems = save_refused(page, "8S", hands, "Not saved: 1 thing to fix")

    # Ben's cards arranged while Chen's short hand is still listed: the list stays, and
    # the finger stays on Arrange (the list is not read out, nor scrolled to, again).
    arrange = player(page, "Ben").get_by_role("button", name="Arrange")
    arrange.tap()
    expect(player(page, "Ben").get_by_label("Groups")).not_to_have_value(SHOWN_8S)
    expect(problems).to_contain_text("Chen: must show all 21 cards, not 3")
    expect(problems).not_to_be_focused()
    assert_in_view(page, player(page, "Ben").get_by_role("button", name="Arrange"))
    problems.scroll_into_view_if_needed()
    look_at(page, "problems-after-arrange-phone", full_page=False)
    # It still follows the fixes: Chen drops, and it goes.
    player(page, "Chen").get_by_label("Groups").fill("")
    choose_outcome(player(page, "Chen"), "first_drop")
    expect(problems).to_have_count(0)


def test_a_field_save_marked_wrong_is_unmarked_once_the_preview_finds_it_fine(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    typo = SHOWN_8S.replace("10C", "1C")
    problems = save_refused(page, "8X", ROUND_1 | {"Ben": ("shown", typo)}, "2 things to fix")
    cut = page.get_by_label("Cut joker")
    groups = player(page, "Ben").get_by_label("Groups")
    under_cut = page.locator("[data-cut-errors]")
    expect(under_cut).to_contain_text("Cut joker: '8X' is not a card")
    expect(cut).to_have_attribute("aria-invalid", "true")
    expect(groups).to_have_attribute("aria-invalid", "true")
    assert edge_looks_red(cut) and edge_looks_red(groups)  # marked where they stand
    cut.scroll_into_view_if_needed()
    look_at(page, "fields-marked-wrong-phone", full_page=False)

    cut.fill("8S")
    expect(under_cut).to_be_empty()
    expect(cut).not_to_have_attribute("aria-invalid", "true")
    assert not edge_looks_red(cut)
    expect(groups).to_have_attribute("aria-invalid", "true")  # still wrong: still marked
    groups.fill(SHOWN_8S)
    expect(groups).not_to_have_attribute("aria-invalid", "true")
    expect(problems).to_have_count(0)
    page.get_by_label("Cut joker").scroll_into_view_if_needed()
    look_at(page, "fixed-fields-unmarked-phone", full_page=False)


def test_an_error_that_stays_while_typing_is_read_out_once_not_at_each_check(
    phone_page: Page,
) -> None:
    page = phone_page
    open_session(page)
    page.get_by_label("Cut joker").fill("8S")
    groups = player(page, "Ben").get_by_label("Groups")
    alert = hand_errors(page, "Ben").get_by_role("alert")
    groups.fill("2C 3C 8X")
    expect(alert).to_contain_text("'8X' is not a card")
    # Marked by a property, not an attribute: the page compares what the alert holds.
    alert.evaluate("shown => { shown.seenBefore = true; }")

    def seen_before() -> bool:
        return alert.evaluate("shown => shown.seenBefore === true")

    # Another card typed, the same error: the live check leaves the alert as it was (a
    # screen reader reads out an alert put in again).
    with page.expect_response(lambda answer: "/preview/" in answer.url):
        groups.press_sequentially(" 4C")
    expect(alert).to_contain_text("'8X' is not a card")
    assert seen_before()
    # Another error: put in, and read out.
    with page.expect_response(lambda answer: "/preview/" in answer.url):
        groups.fill("2C 3C 8Y")
    expect(alert).to_contain_text("'8Y' is not a card")
    assert not seen_before()


def test_a_settlement_that_says_the_same_is_left_in_place_not_read_out_again(
    phone_page: Page,
) -> None:
    """The settlement's place is read out as it changes (aria-live): a live check that
    says there what the page says already leaves it, so it is not read out again at
    every pause in typing."""
    page = phone_page
    open_session(page)
    page.get_by_label("Cut joker").fill("8S")
    groups = player(page, "Ben").get_by_label("Groups")
    waiting = page.locator("#settlement [data-no-settlement]")
    with page.expect_response(lambda answer: "/preview/" in answer.url):
        groups.fill("2D 3D")
    expect(waiting).to_contain_text("once every hand is complete")
    waiting.evaluate("said => { said.seenBefore = true; }")

    with page.expect_response(lambda answer: "/preview/" in answer.url):
        groups.press_sequentially(" 4D")
    expect(preview(page, "Ben")).to_contain_text("4♦")  # the check came, and was shown
    assert waiting.evaluate("said => said.seenBefore === true")
    # Something new to say: said.
    fill_round(page, "8S", ROUND_1)
    expect(page.locator("#settlement")).to_contain_text("Settlement")
    expect(waiting).to_have_count(0)


def tapped_while_loading(
    page: Page, load: Callable[[], object], tap: Callable[[], object]
) -> Callable[[], None]:
    """A finger quicker than a slow phone: the page loaded with one of its scripts held
    back (DOMContentLoaded, htmx and the modules after it wait for it), ``tap`` made while it is
    drawn. Returns what lets the script go."""
    held: list[Route] = []
    page.route("**/js/share.js*", lambda route: held.append(route))
    load()
    tap()
    page.wait_for_timeout(1000)  # the tap is in, the page still loading: nothing heard it
    assert len(held) == 1

    def let_go() -> None:
        held[0].continue_()
        page.unroute("**/js/share.js*")

    return let_go


def test_a_tap_before_the_page_has_loaded_is_previewed(fresh_phone_page: Page) -> None:
    """A finger quicker than a slow phone: the page is drawn, but its scripts are still
    on their way when an outcome is tapped. The tap is not lost: once they run, the
    hand is previewed as tapped."""
    page = fresh_phone_page
    session = open_session(page, rounds=1)
    edit = reverse("games:round_edit", args=[session.pk, session.rounds.get().pk])
    let_go = tapped_while_loading(
        page,
        lambda: page.goto(edit, wait_until="commit"),
        lambda: choose_outcome(player(page, "Chen"), "middle_drop"),
    )
    expect(preview(page, "Chen")).to_contain_text("Hand points: 30")  # the first drop saved
    let_go()
    expect(preview(page, "Chen")).to_contain_text("Hand points: 70")


def test_a_tap_before_the_page_has_loaded_is_kept_on_the_phone(fresh_phone_page: Page) -> None:
    """The same quick finger: the tap made while the scripts were on their way is kept
    on the phone as typed (static/js/drafts.js) once they run, before any answer to
    its preview, so a reload brings it back."""
    page = fresh_phone_page
    session = open_session(page, rounds=1)
    previews: list[Route] = []
    page.route("**/preview/", lambda route: previews.append(route))  # never answered
    edit = reverse("games:round_edit", args=[session.pk, session.rounds.get().pk])
    tapped_while_loading(
        page,
        lambda: page.goto(edit, wait_until="commit"),
        lambda: choose_outcome(player(page, "Chen"), "middle_drop"),
    )()
    page.wait_for_function("() => document.readyState === 'complete'")
    page.unroute_all(behavior="ignoreErrors")

    page.reload()

    expect(page.locator("[data-draft-restored]")).to_be_visible()
    expect(player(page, "Chen").locator('input[value="middle_drop"]')).to_be_checked()
    expect(preview(page, "Chen")).to_contain_text("Hand points: 70")


def test_a_tap_before_the_page_has_loaded_stays_over_a_round_kept_before(
    fresh_phone_page: Page,
) -> None:
    """Reloaded over a round typed earlier: what was typed comes back, and a tap made
    while the scripts were on their way stays (the newer); both are kept for the next
    reload."""
    page = fresh_phone_page
    session = open_session(page, rounds=1)
    page.goto(reverse("games:round_edit", args=[session.pk, session.rounds.get().pk]))
    choose_outcome(player(page, "Ben"), "middle_drop")
    expect(preview(page, "Ben")).to_contain_text("Hand points: 70")
    tapped_while_loading(
        page,
        lambda: page.reload(wait_until="commit"),
        lambda: choose_outcome(player(page, "Chen"), "middle_drop"),
    )()
    expect(page.locator("[data-draft-restored]")).to_be_visible()
    expect(player(page, "Chen").locator('input[value="middle_drop"]')).to_be_checked()
    expect(player(page, "Ben").locator('input[value="middle_drop"]')).to_be_checked()

    page.reload()

    for name in ("Ben", "Chen"):
        expect(player(page, name).locator('input[value="middle_drop"]')).to_be_checked()
        expect(preview(page, name)).to_contain_text("Hand points: 70")


def test_a_page_loaded_untouched_asks_for_no_preview(fresh_phone_page: Page) -> None:
    page = fresh_phone_page
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    session = open_session(page, rounds=1)
    page.goto(reverse("games:round_edit", args=[session.pk, session.rounds.get().pk]))
    page.wait_for_timeout(800)  # longer than a preview waits after a change
    assert not [url for url in asked if "preview" in url]


def test_a_problem_links_to_its_player(phone_page: Page) -> None:
    page = phone_page
    open_session(page)
    cut, hands, _ = MISTAKES["typo"]
    fill_round(page, cut, hands)
    page.get_by_role("button", name="Save round 1").tap()
    page.locator("[data-problems]").get_by_role("link", name="Ben").tap()
    assert_in_view(page, player(page, "Ben").get_by_label("Groups"))
    expect(player(page, "Ben").get_by_label("Groups")).to_be_focused()


def test_a_hand_switched_to_a_drop_sets_its_cards_aside(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    """Editing a round: the declarer dropped after all, and another player won. Her
    21 cards fold away with the drop and count nowhere, neither in the picker's copies
    nor in the round's check, and are not saved; back to Declared, they come back."""
    page = phone_page
    session = open_session(page, rounds=1)
    page.goto(reverse("games:round_edit", args=[session.pk, session.rounds.get().pk]))
    picker = page.locator("[data-picker]")
    asha, chen = player(page, "Asha"), player(page, "Chen")
    two = picker.locator('[data-card="2H"] [data-count]')  # one 2♥, in Asha's hand
    expect(two).to_have_text("1/3")

    asha.locator("label.chip", has_text="Middle drop").tap()
    expect(asha.get_by_label("Groups")).to_be_hidden()
    expect(two).to_have_text("")
    asha.locator("label.chip", has_text="Declared").tap()  # a slip of the finger
    expect(asha.get_by_label("Groups")).to_have_value(WIN_8S)
    expect(two).to_have_text("1/3")
    asha.locator("label.chip", has_text="Middle drop").tap()

    # Chen declares the same cards: with Asha's and Ben's two, four K♥ were too many.
    chen.locator("label.chip", has_text="Declared").tap()
    chen.get_by_label("Groups").fill(WIN_8S)
    expect(preview(page, "Chen")).to_contain_text("Valid declaration")
    expect(picker.locator('[data-card="KH"] [data-count]')).to_have_text("3/3")
    expect(preview(page, "Asha")).to_contain_text("Hand points: 70")
    expect(page.get_by_text("entered 4 times")).to_have_count(0)
    look_at(page, "round-edit-drop-sets-cards-aside-phone", full_page=False)
    page.get_by_role("button", name="Save changes").tap()

    expect(page).to_have_url(f"/sessions/{session.pk}/")
    saved = {hand.player.name: hand for hand in session.rounds.get().entries.all()}
    assert (saved["Asha"].outcome, saved["Asha"].groups) == ("middle_drop", [])
    assert saved["Chen"].outcome == "declared"


def test_a_saved_round_says_so_in_view_and_can_be_undone(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    session = open_session(page, rounds=4)
    fill_round(page, "8S", ROUND_1)
    page.get_by_role("button", name="Save round 5").tap()
    saved = page.locator("[data-saved]")
    expect(saved).to_contain_text("Round 5 saved.")
    assert_in_view(page, saved)
    expect(page.get_by_role("heading", name="Round 6")).to_be_visible()
    look_at(page, "round-saved-phone", full_page=False)

    as_saved = edit_form_data(session.rounds.get(number=5))
    saved.get_by_role("button", name="Undo").tap()
    undone = page.locator("[data-undone]")
    expect(undone).to_have_text(
        "Round 5 deleted. Its cards are back in the form below, to fix and save again."
    )
    assert_in_view(page, undone)
    expect(page.get_by_role("heading", name="Round 5")).to_be_visible()
    assert session.rounds.count() == 4
    # Recorded in the history like any delete.
    assert RoundChange.objects.filter(session=session, action="deleted").count() == 1
    # The round is back in the form, previewed, to fix and save again.
    expect(page.get_by_label("Cut joker")).to_have_value("8S")
    groups = as_saved[f"groups_{session.seats.get(player__name='Ben').pk}"]
    expect(player(page, "Ben").get_by_label("Groups")).to_have_value(groups)
    expect(page.locator('[data-settlement="Ben"]')).to_be_visible()
    look_at(page, "round-undone-phone", full_page=False)
    page.get_by_role("button", name="Save round 5").tap()
    expect(page.locator("[data-saved]")).to_contain_text("Round 5 saved.")
    assert session.rounds.count() == 5


def test_a_save_replaces_what_the_page_said_before(phone_page: Page) -> None:
    page = phone_page
    session = open_session(page, rounds=4)
    page.goto(f"/sessions/{session.pk}/rounds/{session.rounds.get(number=4).pk}/edit/")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Delete round 4").tap()
    # The last round: no later round moves up, and neither question nor message says so.
    expect(page.locator(".messages")).to_have_text("Round 4 deleted.")
    assert asked == ["Delete round 4?"]

    fill_round(page, "8S", ROUND_1)
    page.get_by_role("button", name="Save round 4").tap()
    expect(page.locator("[data-saved]")).to_contain_text("Round 4 saved.")
    expect(page.locator(".messages")).to_have_count(0)


def test_a_saved_round_joins_the_table_without_the_table_being_sent_again(
    fresh_phone_page: Page,
) -> None:
    # The answer to a save from the current table holds the new row, the totals and
    # the next form only, so it does not grow with the session; on the phone the table
    # reads as if reloaded.
    page = fresh_phone_page
    page.clock.install()  # time runs as usual; the wait for the next poll is skipped
    session = open_session(page, rounds=4)
    stamp = page.locator("#scoreboard-live").get_attribute("data-stamp")
    fill_round(page, "8S", ROUND_1)
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name="Save round 5").tap()
    assert '<section id="scoreboard"' not in answer.value.text()
    expect(page.get_by_role("heading", name="Round 6")).to_be_visible()

    rows = page.locator("#score-rows tr[data-round]")
    expect(rows).to_have_count(5)
    assert [rows.nth(i).get_attribute("data-round") for i in range(5)] == list("12345")
    for name, total in {"Asha": "610", "Ben": "−460", "Chen": "−150"}.items():
        expect(page.locator(f'td[data-total="{name}"]')).to_have_text(total)
        expect(page.locator(f'[data-player="{name}"] [data-standing-total]')).to_have_text(total)
        expect(page.locator(f'[data-strip="{name}"] .strip-total')).to_have_text(total)
    expect(page.locator("[data-next-dealer]")).to_contain_text("Chen")  # round 6 is hers
    live = page.locator("#scoreboard-live")
    expect(live).to_have_attribute("data-rounds", "5")
    session.refresh_from_db()
    assert live.get_attribute("data-stamp") != stamp
    # The page's own save is not news to its poll: "unchanged", and the table stays.
    with page.expect_response(lambda r: "/scoreboard/" in r.url) as poll:
        page.clock.run_for(6_000)
    assert poll.value.status == 204
    expect(rows).to_have_count(5)
    assert page.locator("#score-rows tr[data-round]").count() == session.rounds.count()


def test_undo_is_offered_for_five_minutes(fresh_phone_page: Page) -> None:
    page = fresh_phone_page
    open_session(page)
    page.clock.install()
    page.reload()
    fill_round(page, "8S", ROUND_1)
    page.get_by_role("button", name="Save round 1").tap()
    undo = page.locator("[data-saved]").get_by_role("button", name="Undo")
    expect(undo).to_be_visible()
    page.clock.run_for(4 * 60_000)
    expect(undo).to_be_visible()
    page.clock.run_for(61_000)
    expect(undo).to_have_count(0)
    expect(page.locator("[data-saved]")).to_contain_text("Round 1 saved.")


def test_ending_the_session_and_a_new_link_ask_first(fresh_phone_page: Page) -> None:
    page = fresh_phone_page
    session = open_session(page, rounds=1)
    asked: list[str] = []

    def refuse(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", refuse)
    page.get_by_role("button", name="End the session now").tap()
    token = session.share_token
    page.get_by_role("button", name="Make a new link").tap()
    expect(page.get_by_role("button", name="End the session now")).to_be_visible()
    session.refresh_from_db()
    assert session.closed_at is None and session.share_token == token  # nothing done
    assert len(asked) == 2 and "End the session" in asked[0] and "old link" in asked[1]

    page.remove_listener("dialog", refuse)
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="End the session now").tap()
    expect(page.locator(".messages")).to_contain_text("Session ended")


def test_eight_players_fit_a_phone_with_the_round_column_kept(phone_page: Page) -> None:
    page = phone_page
    user = sign_in(page, "asha")
    names = ["Asha", "Ben", "Chen", "Dev", "Esi", "Femi", "Gita", "Hari"]
    session = create_session(user, preset="21-points", overrides={}, players=names, name="Big")
    hands = {"Asha": ("declared", WIN_8S)} | {name: ("middle_drop", "") for name in names[1:]}
    for _ in range(3):
        play(session, "8S", hands)
    page.goto(f"/sessions/{session.pk}/")
    table = page.locator(".scores")
    expect(table).to_be_visible()
    # The page never scrolls sideways; the table scrolls in its box with the round
    # numbers kept at the left, and each cell leads with the running total.
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    first = table.locator("tbody th").first
    assert first.evaluate("el => getComputedStyle(el).position") == "sticky"
    cell = table.locator('tr[data-round="3"] td').first
    running = cell.locator(".running")
    assert running.evaluate("el => parseFloat(getComputedStyle(el).fontSize)") > cell.locator(
        ".score"
    ).evaluate("el => parseFloat(getComputedStyle(el).fontSize)")


# Six long names, one a single long word: the settlement's widest first column.
LONG_NAMES = [
    "Venkataraghavan Subramaniam",
    "Bartholomew Fitzgerald-Smythe",
    "Gopalakrishnan Ramasubramanian",
    "Wolfeschlegelsteinhausen",
    "Maximiliana Featherstonehaugh",
    "Anastasia Papadopoulou",
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_settlement_shows_every_score_on_a_phone(
    phone_page: Page, look_at: Callable[..., None], scheme: str
) -> None:
    # The settlement previewed under the form, with a wrong declaration (the longest
    # outcome) and long names: the Score column, the figure players care about, is
    # on the screen whole, and the table has nothing to scroll to.
    page = phone_page
    page.emulate_media(color_scheme=scheme)
    user = sign_in(page, "asha")
    session = create_session(
        user, preset="21-points", overrides={}, players=LONG_NAMES, name="Long names"
    )
    page.goto(f"/sessions/{session.pk}/")
    asha, ben, chen, dev, esha, femi = LONG_NAMES
    hands = {
        asha: ("declared", WIN_8S),
        ben: ("invalid_declaration", ""),
        chen: ("shown", SHOWN_8S),
        dev: ("first_drop", ""),
        esha: ("middle_drop", ""),
        femi: ("invalid_declaration", ""),
    }
    fill_round(page, "8S", hands)
    settlement = page.locator("#settlement .settlement-table")
    expect(settlement.locator("[data-settlement]")).to_have_count(6)
    expect(settlement).to_contain_text("Invalid declaration")
    scores = [settlement.locator("thead th").last]
    scores += [
        settlement.locator(f'[data-settlement="{name}"] .round-score') for name in LONG_NAMES
    ]
    width = page.viewport_size["width"]
    boxes = boxes_once_they(
        page, scores, lambda boxes: all(box["x"] + box["width"] <= width for box in boxes)
    )
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= width for box in boxes), boxes
    box = page.locator("#settlement .table-scroll")
    assert box.evaluate("el => el.scrollWidth <= el.clientWidth")
    settlement.scroll_into_view_if_needed()
    look_at(page, f"settlement-long-names-{scheme}", full_page=False)
