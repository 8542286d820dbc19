"""Two phones fill in the same round, or edit the same round, and the first saves it.
The second phone's Save never stores it again by accident: it shows, at the Save
button where the finger is, their round beside its own and the ways on, and each
does what it says. What the clash says and offers is pinned by
tests/views/test_rounds_clash.py; here, what a phone does with it: in view and
focused, Discard mine forgetting what the phone kept, Save mine saving what was
typed. The first phone's save is the services' (its page is not the point)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from games.models import GameSession, HandEntry, Round
from games.services.sessions import create_session
from tests.support import axe
from tests.support.builders import edit, play
from tests.support.hands import ROUND_1, SEED_BEN, SHOWN_8S, WIN_8S
from tests.support.pages import (
    PHONE_DEVICE,
    assert_in_view,
    assert_round_as_typed,
    fill_round,
    player,
    signed_in_as,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Round 2 of the evening: Ben declares, Asha shows, Chen drops in the middle.
ROUND_2 = {"Asha": ("shown", SHOWN_8S), "Ben": ("declared", WIN_8S), "Chen": ("middle_drop", "")}
# The same round with Asha's cards as another phone read them: another round.
ROUND_2_OTHER = ROUND_2 | {"Asha": ("shown", SEED_BEN)}
# Every script of the page has set up its forms: a draft this phone kept is back by now.
DRAFTS_SET_UP = "() => [...document.querySelectorAll('form[data-draft]')].every(f => f._draftReady)"


@pytest.fixture
def evening() -> tuple[User, GameSession]:
    """Friday, round 1 played: both phones open round 2."""
    user = User.objects.create_user(username="asha", password="x")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    play(session, "8S", ROUND_1, user)
    return user, session


def opened(page: Page, user: User, address: str) -> Page:
    signed_in_as(page, user)
    page.goto(address)
    return page


def ticking_phone(new_context: Callable[..., object], user: User, session: GameSession) -> Page:
    """A phone on the session page whose live table polls when the test moves its
    clock on (a page of its own: a kept one keeps no fake clock)."""
    page = new_context(**PHONE_DEVICE, service_workers="block").new_page()
    signed_in_as(page, user)
    page.clock.install()
    page.goto(f"/sessions/{session.pk}/")
    return page


def clash_at_save(page: Page, save: str) -> Locator:
    """Tap ``save``: the clash stands where it was, its choices in view (all of it
    where it fits), and is focused (a screen reader reads it from its start)."""
    page.get_by_role("button", name=save).tap()
    clash = page.locator("[data-clash]")
    expect(clash.get_by_role("link", name="Discard mine")).to_be_in_viewport(ratio=1)
    expect(clash).to_be_focused()
    return clash


def second_phone_clashes(page: Page, evening: tuple[User, GameSession], mine: dict) -> Locator:
    """The second phone types ``mine`` as round 2; the first saves ROUND_2 meanwhile."""
    user, session = evening
    opened(page, user, f"/sessions/{session.pk}/")
    fill_round(page, "8S", mine)
    play(session, "8S", ROUND_2, user)
    return clash_at_save(page, "Save round 2")


def test_the_same_round_from_the_second_phone_is_discarded_and_forgotten_on_the_phone(
    phone_page: Page, evening: tuple[User, GameSession], look_at: Callable[..., None]
) -> None:
    page = phone_page
    clash = second_phone_clashes(page, evening, ROUND_2)
    assert_in_view(
        page, clash.get_by_role("heading"), clash.get_by_role("link", name="Discard mine")
    )
    expect(page.locator("[data-save]")).to_have_count(0)  # theirs again: nothing to save
    assert_round_as_typed(page, "8S", ROUND_2)  # mine stays until discarded
    look_at(page, "two-phones-same-round-phone", full_page=False)

    clash.get_by_role("link", name="Discard mine").tap()

    expect(page.get_by_role("heading", name="Round 3")).to_be_in_viewport()
    expect(page.locator("[data-clash]")).to_have_count(0)
    expect(page.get_by_label("Cut joker")).to_have_value("")
    expect(player(page, "Asha").get_by_label("Groups")).to_have_value("")
    look_at(page, "two-phones-discarded-phone", full_page=False)
    # Forgotten on this phone too: a reload does not bring mine back.
    page.reload()
    page.wait_for_function(DRAFTS_SET_UP)
    expect(page.get_by_role("button", name="Save round 3")).to_be_visible()
    expect(page.get_by_label("Cut joker")).to_have_value("")
    expect(page.locator("[data-draft-restored]")).to_have_count(0)
    assert Round.objects.count() == 2 and HandEntry.objects.count() == 6


def test_another_round_from_the_second_phone_is_saved_as_the_next_when_asked(
    phone_page: Page, evening: tuple[User, GameSession], look_at: Callable[..., None]
) -> None:
    page = phone_page
    clash = second_phone_clashes(page, evening, ROUND_2_OTHER)
    expect(clash.locator('[data-clash-row="Asha"]')).to_have_class("is-different")
    save_mine = clash.get_by_role("button", name="Save mine as round 3")
    assert_in_view(page, clash.get_by_role("link", name="Discard mine"), save_mine)
    look_at(page, "two-phones-other-round-phone", full_page=False)
    axe.assert_no_violations(page)

    save_mine.tap()

    expect(page.locator("[data-saved]")).to_contain_text("Round 3 saved.")
    ashas = Round.objects.get(number=3).entries.get(player__name="Asha").groups
    assert sorted(code for group in ashas for code in group) == sorted(
        SEED_BEN.replace("|", " ").split()
    )  # mine, as typed on the second phone (grouped best by the rules)
    assert Round.objects.count() == 3


def test_an_edit_made_meanwhile_on_another_phone_is_shown_beside_mine_and_discarded(
    phone_page: Page, evening: tuple[User, GameSession], look_at: Callable[..., None]
) -> None:
    user, session = evening
    played = session.rounds.get()
    page = opened(phone_page, user, f"/sessions/{session.pk}/rounds/{played.pk}/edit/")
    player(page, "Ben").get_by_label("Groups").fill(SEED_BEN)
    # Meanwhile Ben's phone marks Chen's drop a middle one.
    edit(played, "8S", ROUND_1 | {"Chen": ("middle_drop", "")}, User.objects.create_user("ben"))

    clash = clash_at_save(page, "Save changes")

    expect(clash).to_contain_text("Round 1 was changed on another phone")
    expect(clash.locator("[data-clash-differs]")).to_contain_text("Yours differs: Ben, Chen.")
    save_over = clash.get_by_role("button", name="Save mine over theirs")
    assert_in_view(page, clash.get_by_role("link", name="Discard mine"), save_over)
    expect(page.get_by_role("heading", name="As saved on the other phone")).to_be_attached()
    look_at(page, "two-phones-edit-clash-phone", full_page=False)
    axe.assert_no_violations(page)

    clash.get_by_role("link", name="Discard mine").tap()

    # Their round 1, from the top of its page; mine is forgotten on this phone.
    expect(page.get_by_role("heading", name="Round 1", exact=True)).to_be_in_viewport()
    expect(page.locator('[data-player="Chen"] h3')).to_contain_text("Middle drop")
    page.get_by_role("link", name="Edit round 1").tap()
    page.wait_for_function(DRAFTS_SET_UP)
    expect(player(page, "Ben").get_by_label("Groups")).to_have_value(SHOWN_8S)
    expect(page.locator("[data-draft-restored]")).to_have_count(0)
    assert Round.objects.get(pk=played.pk).version == 2


def test_a_form_overtaken_by_another_phone_keeps_its_number_and_says_so_at_save(
    new_context: Callable[..., object],
    evening: tuple[User, GameSession],
    look_at: Callable[..., None],
) -> None:
    """The club's night: the live table told the second phone, at the top of its form,
    that round 2 was saved, and moved it on to round 3; one tap on Save round 3 stored
    the same round again. Now the form keeps its round, says so at Save, and Save
    shows the two rounds."""
    user, session = evening
    second = ticking_phone(new_context, user, session)
    fill_round(second, "8S", ROUND_2)
    play(session, "8S", ROUND_2, user)

    second.clock.run_for(6_000)

    said = second.locator("form [data-moved]")
    expect(said).to_contain_text("Round 2 was just saved on another phone. Save shows it")
    save = second.get_by_role("button", name="Save round 2")
    expect(second.locator("[data-moved] + [data-save]")).to_have_count(1)  # right above Save
    expect(second.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    save.scroll_into_view_if_needed()
    look_at(second, "two-phones-overtaken-phone", full_page=False)
    save.tap()
    expect(second.locator("[data-clash-same]")).to_be_visible()
    assert Round.objects.count() == 2


def test_an_untouched_form_moves_on_when_another_phone_saves_its_round(
    new_context: Callable[..., object], evening: tuple[User, GameSession]
) -> None:
    user, session = evening
    second = ticking_phone(new_context, user, session)
    play(session, "8S", ROUND_2, user)

    second.clock.run_for(6_000)

    expect(second.locator("[data-moved]")).to_contain_text(
        "Round 2 was just saved on another phone: this form is for round 3 now."
    )
    expect(second.get_by_role("heading", name="Round 3")).to_be_visible()
    fill_round(second, "8S", ROUND_1)
    second.get_by_role("button", name="Save round 3").tap()
    expect(second.locator("[data-saved]")).to_contain_text("Round 3 saved.")
    assert Round.objects.count() == 3
