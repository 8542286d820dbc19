"""Forms on a phone after a mistake and on the house rules: the toss and its first
dealer survive a form error, the house rules fold under their headings with what
differs from the preset in sight, and Reset to the preset's rules works in place
(htmx) and without JavaScript."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Route, expect

from games.models import GameSession, League
from games.services.leagues import create_league
from tests.support.axe import assert_no_violations
from tests.support.pages import PHONE, PLAYERS, console_errors, horizontal_overflow, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def seat(page: Page, number: int):
    return page.get_by_label(f"Seat {number}", exact=True)


def rule_section(page: Page, title: str):
    return page.locator("details.rule-section", has=page.locator("summary", has_text=title))


def tuesday_club(user) -> League:
    return create_league(
        user, name="Tuesday Club", preset="21-points", overrides={"first_drop": 25}
    )


def test_the_toss_and_its_dealer_survive_a_mistake_elsewhere(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    sign_in(page, "asha")
    page.goto("/sessions/new/")
    for number, name in enumerate(PLAYERS, start=1):
        seat(page, number).fill(name)
    page.get_by_role("button", name="Toss for seats").click()
    expect(page.locator("[data-toss-card]")).to_have_count(3)
    cards = page.locator("[data-toss-card]").all_inner_texts()
    seated = [seat(page, n).input_value() for n in (1, 2, 3)]
    # A house rule the rules refuse: the form comes back.
    page.locator("summary", has_text="House rules").click()
    rule_section(page, "Cards and jokers").locator("summary").click()
    decks = page.get_by_role("spinbutton", name="Number of decks")
    decks.fill("9")
    page.get_by_role("button", name="Start session").click()

    summary = page.locator(".error-summary")
    expect(summary).to_contain_text("Number of decks")
    expect(summary).to_be_in_viewport()  # at the top, where the eye is
    assert page.locator("[data-toss-card]").all_inner_texts() == cards
    assert [seat(page, n).input_value() for n in (1, 2, 3)] == seated
    expect(page.locator('input[name="first_dealer"][value="3"]')).to_be_checked()
    expect(decks).to_be_visible()  # its heading open
    assert horizontal_overflow(page) == 0
    look_at(page, "forms-toss-kept-after-an-error")

    summary.get_by_role("link", name="Number of decks").click()
    expect(decks).to_be_in_viewport()
    decks.fill("3")
    page.get_by_role("button", name="Start session").click()
    expect(page.locator("[data-next-dealer]")).to_contain_text(seated[2])
    session = GameSession.objects.get()
    assert [s.player.name for s in session.seats.order_by("position")] == seated


def test_the_league_rules_fold_and_reset_in_place(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    league = tuesday_club(sign_in(page, "asha"))
    page.goto(f"/leagues/{league.slug}/rules/")
    look_at(page, "forms-league-rules")

    # Only the heading with a change is open, the change beside its field.
    expect(page.locator("details.rule-section[open]")).to_have_count(1)
    hand_points = rule_section(page, "Hand points")
    expect(hand_points.locator("summary").first).to_contain_text("1 changed")
    expect(page.get_by_label("First drop costs", exact=True)).to_have_value("25")
    expect(page.locator("[data-changed]:visible")).to_contain_text("the preset's is 30")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 4 * PHONE["height"], height  # it was eleven screens
    # Every option still one tap away, by keyboard too.
    page.get_by_text("19 more, as the preset").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_label("Middle drop costs")).to_be_visible()

    page.get_by_label("Name").fill("Thursday Club")
    page.get_by_label("Middle drop costs").fill("65")
    page.evaluate("window.notReloaded = true")
    page.get_by_role("button", name="Reset to the preset's rules").click()

    expect(page.get_by_role("status")).to_contain_text("House rules set back to the preset's")
    expect(page.get_by_label("First drop costs", exact=True)).to_have_value("30")
    expect(page.get_by_label("Middle drop costs")).to_have_value("70")
    expect(page.locator("[data-changed]:visible")).to_have_count(0)
    expect(page.get_by_label("Name")).to_have_value("Thursday Club")
    assert page.evaluate("window.notReloaded") is True  # in place
    look_at(page, "forms-league-rules-reset")
    league.refresh_from_db()
    assert league.overrides == {"first_drop": 25}  # nothing saved until Save

    page.get_by_role("button", name="Save house rules").click()
    expect(page.get_by_text("House rules saved")).to_be_visible()
    league.refresh_from_db()
    assert (league.name, league.overrides) == ("Thursday Club", {})


def test_as_the_preset_follows_an_option_as_it_is_changed(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    """Each heading says how many of its options differ from the preset while they are
    changed, not only once the form comes back: never "as the preset" of a value that
    is not, each changed option marked beside its field."""
    page = phone_page
    league = tuesday_club(sign_in(page, "asha"))
    page.goto(f"/leagues/{league.slug}/rules/")
    hand_points = rule_section(page, "Hand points").locator("summary").first
    more = page.locator("summary", has_text="19 more")
    changed = page.locator("[data-changed]:visible")
    expect(hand_points).to_have_text("Hand points · 1 changed", use_inner_text=True)
    more.click()
    middle_drop = page.get_by_label("Middle drop costs")

    middle_drop.fill("65")

    expect(more).to_have_text("19 more, 1 changed", use_inner_text=True)
    expect(hand_points).to_have_text("Hand points · 2 changed", use_inner_text=True)
    expect(hand_points).to_match_aria_snapshot("- text: Hand points · 2 changed")  # as read out
    expect(changed).to_have_text(["Changed: the preset's is 30.", "Changed: the preset's is 70."])
    hand_points.evaluate("summary => summary.scrollIntoView()")
    look_at(page, "forms-league-rules-changed-here", full_page=False)

    middle_drop.fill("70")  # the preset's again

    expect(more).to_have_text("19 more, as the preset", use_inner_text=True)
    expect(hand_points).to_have_text("Hand points · 1 changed", use_inner_text=True)
    page.get_by_label("First drop costs", exact=True).fill("30")
    expect(hand_points).to_have_text("Hand points · as the preset", use_inner_text=True)
    expect(changed).to_have_count(0)

    # A box, and a list typed its own way: as the preset when it says the same.
    cards = rule_section(page, "Cards and jokers")
    cards.locator("summary").click()
    cards.get_by_label("Upper and lower jokers", exact=True).uncheck()
    expect(cards.locator("summary")).to_have_text(
        "Cards and jokers · 1 changed", use_inner_text=True
    )
    cards.get_by_label("Upper and lower jokers", exact=True).check()
    expect(cards.locator("summary")).to_have_text(
        "Cards and jokers · as the preset", use_inner_text=True
    )
    values = rule_section(page, "Value cards")
    values.locator("summary").click()
    values.get_by_label("Cut card values").fill("10,30, 050")
    expect(values.locator("summary")).to_have_text(
        "Value cards · as the preset", use_inner_text=True
    )
    values.get_by_label("Cut card values").fill("10, 30")
    expect(values.locator("summary")).to_have_text("Value cards · 1 changed", use_inner_text=True)
    values.get_by_label("Cut card values").fill("10|30|50")  # the server takes no "|" here
    expect(values.locator("summary")).to_have_text("Value cards · 1 changed", use_inner_text=True)


def test_as_the_preset_reads_a_list_of_cards_as_the_server_does(phone_page: Page) -> None:
    """Cards may be split by "|" too, but their case counts, as the server reads them."""
    page = phone_page
    user = sign_in(page, "asha")
    league = create_league(user, name="Paplu Club", preset="21-paplu", overrides={})
    page.goto(f"/leagues/{league.slug}/rules/")
    values = rule_section(page, "Value cards")
    values.locator("summary").click()
    extra = values.get_by_label("Other value cards")

    extra.fill("as 2c")
    expect(values.locator("summary").first).to_contain_text("1 changed")
    extra.fill("AS | 2C")
    expect(values.locator("summary").first).to_contain_text("as the preset")


def test_as_the_preset_follows_the_values_back_brings_again(phone_page: Page) -> None:
    """Back to the house rules, the browser fills the form again with what was typed:
    the marks follow those values, not the ones the server drew them for."""
    page = phone_page
    league = tuesday_club(sign_in(page, "asha"))
    page.goto(f"/leagues/{league.slug}/rules/")
    page.locator("summary", has_text="19 more").click()
    page.get_by_label("Middle drop costs").fill("65")
    page.get_by_label("First drop costs", exact=True).fill("30")  # the preset's again

    page.goto("/leagues/")
    page.go_back()

    expect(page.get_by_label("Middle drop costs")).to_have_value("65")  # kept by the browser
    hand_points = rule_section(page, "Hand points").locator("summary").first
    expect(hand_points).to_have_text("Hand points · 1 changed", use_inner_text=True)
    changed = page.locator("[data-changed]:not([hidden])")
    expect(changed).to_have_text(["Changed: the preset's is 70."])


def test_a_number_not_taken_is_said_again_when_back_brings_it(phone_page: Page) -> None:
    """Back to the house rules, the browser fills in again a number typed that its rule
    does not take: it is said again, as it was before the player left."""
    page = phone_page
    league = tuesday_club(sign_in(page, "asha"))
    page.goto(f"/leagues/{league.slug}/rules/")
    page.get_by_label("First drop costs", exact=True).fill("-4")

    page.goto("/leagues/")
    page.go_back()

    first_drop = page.get_by_label("First drop costs", exact=True)
    expect(first_drop).to_have_value("-4")  # kept by the browser
    expect(page.locator("#id_rule_first_drop_not_taken")).to_have_text(
        re.compile(r"greater than or equal to 0")
    )
    expect(first_drop).to_have_attribute("aria-invalid", "true")


def test_reset_works_without_javascript(new_context: Callable[..., object]) -> None:
    page = new_context(viewport=PHONE, java_script_enabled=False).new_page()
    sign_in(page, "asha")
    page.goto("/sessions/new/")
    seat(page, 1).fill("Asha")
    page.get_by_label("Name (optional)").fill("Friday")
    page.locator("summary", has_text="House rules").click()
    rule_section(page, "Hand points").locator("summary").click()
    page.get_by_label("Maximum hand points").fill("99")

    page.get_by_role("button", name="Reset to the preset's rules").click()

    expect(page.get_by_role("status")).to_contain_text("set back to the preset's")
    expect(page.get_by_label("Maximum hand points")).to_have_value("120")
    expect(seat(page, 1)).to_have_value("Asha")
    expect(page.get_by_label("Name (optional)")).to_have_value("Friday")
    expect(page.locator(".error-summary")).to_have_count(0)  # nothing judged yet


def test_a_reset_takes_the_rules_problems_off_the_list_at_the_top(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    sign_in(page, "asha")
    page.goto("/sessions/new/")
    seat(page, 1).fill("Asha")  # one player: a problem the reset does not touch
    page.locator("summary", has_text="House rules").click()
    rule_section(page, "Cards and jokers").locator("summary").click()
    page.get_by_role("spinbutton", name="Number of decks").fill("9")
    page.get_by_role("button", name="Start session").click()
    summary = page.locator(".error-summary")
    expect(summary).to_contain_text("Number of decks")
    players_problem = summary.inner_text().replace("Number of decks", "")
    assert players_problem.strip(), "the seats' problem is listed too"

    page.get_by_role("button", name="Reset to the preset's rules").click()

    expect(page.get_by_role("status")).to_contain_text("House rules set back to the preset's")
    expect(summary).not_to_contain_text("Number of decks")  # the decks are the preset's again
    expect(summary).to_be_visible()  # the seats are still wrong, and it still says so
    look_at(page, "forms-reset-prunes-the-problems")
    seat(page, 2).fill("Ben")
    page.get_by_role("button", name="Start session").click()
    expect(page.locator("[data-next-dealer]")).to_be_visible()


@pytest.mark.parametrize("where", ["new league", "league rules", "new session, no league"])
def test_another_game_picked_brings_its_rules_without_an_error(
    phone_page: Page, where: str
) -> None:
    """The preset radios sent the league select's value with their own: where the
    page has none (a league's pages; a new session of someone in no league), htmx said
    in the console at each pick that it found nothing to send."""
    page = phone_page
    user = sign_in(page, "asha")
    if where == "league rules":
        url = f"/leagues/{tuesday_club(user).slug}/rules/"
    else:
        url = "/leagues/new/" if where == "new league" else "/sessions/new/"
    paplu = page.get_by_role("radio", name=re.compile("21-card paplu"))

    with console_errors(page) as errors:
        page.goto(url)
        expect(page.locator('[name="rules_preset"]')).to_have_value("21-points")
        paplu.tap()
        expect(page.locator('[name="rules_preset"]')).to_have_value("21-paplu")

    expect(paplu).to_be_checked()
    assert errors == []


def test_a_game_picked_while_the_leagues_rules_load_is_the_game_started(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    """A quick tapper picks the league, then 21-card paplu before the league's rules
    have come back: the league's late answer must not put its 21-card points back."""
    page = phone_page
    league = tuesday_club(sign_in(page, "asha"))
    page.goto("/sessions/new/")
    held: list[Route] = []  # the league's answer, held back until paplu is picked

    def hold_the_league(route: Route) -> None:
        if "preset=" in route.request.url:
            route.continue_()
        else:
            held.append(route)

    page.route(re.compile(r"/sessions/new/\?(.*&)?league="), hold_the_league)
    page.get_by_label("League (optional)").select_option(str(league.pk))
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the league's rules were never asked for"
    for number, name in enumerate(("Asha", "Ben", "Chen", "Dev"), start=1):
        seat(page, number).fill(name)
    paplu = page.get_by_role("radio", name=re.compile("21-card paplu"))
    paplu.tap()
    expect(page.locator('[name="rules_preset"]')).to_have_value("21-paplu")
    # The league's answer arrives late (unless the page dropped it: nothing to arrive).
    with contextlib.suppress(PlaywrightError):
        held[0].continue_()
    page.wait_for_timeout(500)
    expect(paplu).to_be_checked()
    expect(page.locator('[name="rules_preset"]')).to_have_value("21-paplu")
    expect(page.get_by_label("League (optional)")).to_have_value(str(league.pk))
    assert horizontal_overflow(page) == 0
    look_at(page, "forms-preset-picked-while-the-league-loads")
    page.unroute_all()
    page.get_by_role("button", name="Start session").click()
    expect(page).to_have_url(re.compile(r"/sessions/\d+/$"))
    session = GameSession.objects.get()
    assert (session.preset, session.league_id) == ("21-paplu", league.pk)


def test_a_number_its_rule_does_not_take_is_said_as_it_is_typed(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    """A number outside what its rule takes is said beside its field as it is typed
    (a lone "-" is not: it may become "-5" or be cleared), read with the field, and
    unsaid as soon as it is fixed. Save then works at the first tap (nothing appears
    when the field is left to move it), and what the server says stays until the next
    Save."""
    page = phone_page
    league = tuesday_club(sign_in(page, "asha"))
    page.goto(f"/leagues/{league.slug}/rules/")
    first_drop = page.get_by_label("First drop costs", exact=True)
    said = page.locator("#id_rule_first_drop_not_taken")

    first_drop.fill("")
    page.keyboard.insert_text("-")  # as a phone's keyboard types: text, no key codes
    assert first_drop.evaluate("field => field.validity.badInput")  # "-" is no number yet
    expect(said).to_be_empty()
    page.keyboard.insert_text("5")

    expect(said).to_have_text(re.compile(r"greater than or equal to 0"))
    expect(first_drop).to_have_attribute("aria-invalid", "true")
    expect(first_drop).to_have_accessible_description(re.compile(r"greater than or equal to 0"))
    first_drop.evaluate("field => field.scrollIntoView({block: 'center'})")
    look_at(page, "forms-house-rule-not-taken", full_page=False)

    first_drop.fill("2e1")  # a number to the browser, not a whole one to the server
    expect(said).to_have_text("Enter a whole number.")
    first_drop.fill("5")

    expect(said).to_be_empty()
    expect(first_drop).not_to_have_attribute("aria-invalid", "true")
    expect(first_drop).to_have_accessible_description(re.compile(r"dropping before the first pick"))

    first_drop.fill("-1")
    page.get_by_role("button", name="Save house rules").tap()

    server_said = page.locator('[data-option="rule_first_drop"] .errorlist')
    expect(server_said).to_have_text("First drop costs must be at least 0, not -1.")
    first_drop.fill("-2")
    expect(said).to_have_text(re.compile(r"greater than or equal to 0"))
    first_drop.fill("25")
    expect(said).to_be_empty()
    expect(server_said).to_be_visible()
    expect(first_drop).to_have_attribute("aria-invalid", "true")  # the server's, till Save


def test_a_club_that_counts_at_the_table_says_so_once_for_its_sessions(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    """The owner picks "Counts first" and trusts the table's show on the league's house
    rules, each marked changed as it is picked; a new session of the league opens on
    them, and its page says them under its title."""
    page = phone_page
    user = sign_in(page, "asha")
    league = create_league(user, name="Tuesday Club", preset="13-points", overrides={})
    page.goto(f"/leagues/{league.slug}/rules/")
    entering = rule_section(page, "Entering hands")
    heading = entering.locator("summary").first
    expect(heading).to_have_text("Entering hands · as the preset", use_inner_text=True)

    heading.tap()
    entering.get_by_label("Cards or counts").select_option(label="Counts first")
    entering.get_by_label("Trust the table's show").tap()

    expect(heading).to_have_text("Entering hands · 2 changed", use_inner_text=True)
    expect(entering.locator("[data-changed]:visible")).to_have_text(
        ["Changed: the preset's is Cards only.", "Changed: the preset's is off."]
    )
    heading.evaluate("summary => summary.scrollIntoView()")
    look_at(page, "forms-house-rules-counts", full_page=False)
    assert horizontal_overflow(page) == 0
    assert_no_violations(page)
    page.get_by_role("button", name="Save house rules").tap()
    expect(page.get_by_text("House rules saved")).to_be_visible()
    league.refresh_from_db()
    assert league.overrides == {"hand_entry": "counts_first", "trust_show": True}

    page.goto("/sessions/new/")
    page.get_by_label("League (optional)").select_option(str(league.pk))
    expect(page.locator('[name="rules_preset"]')).to_have_value("13-points")
    page.locator("summary", has_text="House rules").tap()
    entering = rule_section(page, "Entering hands")
    expect(entering).to_have_attribute("open", "")  # changed from the preset: in sight
    expect(entering.get_by_label("Cards or counts")).to_have_value("counts_first")
    expect(entering.get_by_label("Trust the table's show")).to_be_checked()
    entering.evaluate("section => section.scrollIntoView()")
    look_at(page, "forms-new-session-counts", full_page=False)
    assert_no_violations(page)
    for number, name in enumerate(PLAYERS, start=1):
        seat(page, number).fill(name)
    page.get_by_role("button", name="Start session").tap()

    expect(page.locator("[data-house-rules]")).to_have_text(
        "House rules: Cards or counts: Counts first (preset Cards only) · "
        "Trust the table's show: on (preset off)"
    )
    look_at(page, "forms-session-counts", full_page=False)
