"""Two phones fill in the same round and the first saves it. The second phone's
Save never stores it again by accident: it shows, at the Save button, their round
beside its own and two ways on, discard mine or save mine as the next round, and
each does what it says. A round that is theirs again is not offered for saving."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, expect

from games.models import GameSession, HandEntry, Round
from games.services.sessions import create_session
from tests.support import axe
from tests.support.builders import play
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


@pytest.fixture
def evening() -> tuple[User, GameSession]:
    """Friday, round 1 played: both phones open round 2."""
    user = User.objects.create_user(username="asha", password="x")
    session = create_session(
        user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"], name="Friday"
    )
    play(session, "8S", ROUND_1, user)
    return user, session


def phone(new_context: Callable[..., object], user: User, session: GameSession) -> Page:
    page = new_context(**PHONE_DEVICE, service_workers="block").new_page()
    signed_in_as(page, user)
    page.goto(f"/sessions/{session.pk}/")
    return page


def clash(page: Page) -> Locator:
    return page.locator("[data-clash]")


def first_saves_round_2(first: Page) -> None:
    fill_round(first, "8S", ROUND_2)
    first.get_by_role("button", name="Save round 2").tap()
    expect(first.locator("[data-saved]")).to_contain_text("Round 2 saved.")


def test_the_same_round_from_the_second_phone_is_shown_beside_theirs_and_discarded(
    new_context: Callable[..., object],
    evening: tuple[User, GameSession],
    look_at: Callable[..., None],
) -> None:
    user, session = evening
    first, second = phone(new_context, user, session), phone(new_context, user, session)
    fill_round(second, "8S", ROUND_2)
    first_saves_round_2(first)

    second.get_by_role("button", name="Save round 2").tap()

    shown = clash(second)
    expect(shown).to_contain_text("Round 2 was saved on another phone")
    expect(shown).to_contain_text("Yours is the same round")
    expect(shown.locator("[data-theirs]")).to_have_text("Their round 2, saved by asha")
    expect(shown.locator("[data-clash-row]")).to_have_count(3)
    for name, score in {"Asha": "−92", "Ben": "+162", "Chen": "−70"}.items():
        expect(shown.locator(f'[data-clash-row="{name}"] .hand-score')).to_have_text([score, score])
    discard = shown.get_by_role("link", name="Discard mine")
    assert_in_view(second, shown.get_by_role("heading"), discard)
    expect(shown).to_be_focused()
    # Theirs again: nothing to save, so nothing offers it.
    expect(second.get_by_role("button", name="Save mine as round 3")).to_have_count(0)
    expect(second.locator("[data-save]")).to_have_count(0)
    assert_round_as_typed(second, "8S", ROUND_2)  # mine stays until discarded
    look_at(second, "two-phones-same-round-phone", full_page=False)
    axe.assert_no_violations(second)
    assert Round.objects.count() == 2 and HandEntry.objects.count() == 6

    discard.tap()

    expect(second.get_by_role("heading", name="Round 3")).to_be_in_viewport()
    expect(clash(second)).to_have_count(0)
    expect(second.get_by_label("Cut joker")).to_have_value("")
    expect(player(second, "Asha").get_by_label("Groups")).to_have_value("")
    look_at(second, "two-phones-discarded-phone", full_page=False)
    # Forgotten on this phone too: a reload does not bring mine back.
    second.reload()
    expect(second.get_by_role("button", name="Save round 3")).to_be_visible()
    second.wait_for_timeout(300)  # restored drafts come back at load: none must
    expect(second.get_by_label("Cut joker")).to_have_value("")
    expect(second.locator("[data-draft-restored]")).to_have_count(0)
    assert Round.objects.count() == 2


def test_another_round_from_the_second_phone_is_saved_as_the_next_when_asked(
    new_context: Callable[..., object],
    evening: tuple[User, GameSession],
    look_at: Callable[..., None],
) -> None:
    user, session = evening
    first, second = phone(new_context, user, session), phone(new_context, user, session)
    fill_round(second, "8S", ROUND_2_OTHER)
    first_saves_round_2(first)

    second.get_by_role("button", name="Save round 2").tap()

    shown = clash(second)
    expect(shown).to_contain_text("Yours differs: Asha.")
    expect(shown.locator('[data-clash-row="Asha"]')).to_have_class("is-different")
    expect(shown.locator('[data-clash-row="Asha"] .clash-cards')).to_have_count(2)
    save_mine = shown.get_by_role("button", name="Save mine as round 3")
    assert_in_view(second, shown.get_by_role("link", name="Discard mine"), save_mine)
    look_at(second, "two-phones-other-round-phone", full_page=False)
    axe.assert_no_violations(second)
    assert Round.objects.count() == 2

    save_mine.tap()

    expect(second.locator("[data-saved]")).to_contain_text("Round 3 saved.")
    ashas = Round.objects.get(number=3).entries.get(player__name="Asha").groups
    assert sorted(code for group in ashas for code in group) == sorted(
        SEED_BEN.replace("|", " ").split()
    )  # mine, as typed on the second phone (grouped best by the rules)
    assert Round.objects.count() == 3


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
    first = phone(new_context, user, session)
    second = phone(new_context, user, session)
    second.clock.install()  # its live table polls when the test moves its clock on
    second.reload()
    fill_round(second, "8S", ROUND_2)
    first_saves_round_2(first)

    second.clock.run_for(6_000)

    said = second.locator("form [data-moved]")
    expect(said).to_contain_text("Round 2 was just saved on another phone. Save shows it")
    save = second.get_by_role("button", name="Save round 2")
    expect(second.locator("[data-moved] + [data-save]")).to_have_count(1)  # right above Save
    expect(second.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    save.scroll_into_view_if_needed()
    look_at(second, "two-phones-overtaken-phone", full_page=False)
    save.tap()
    expect(clash(second)).to_contain_text("Yours is the same round")
    assert Round.objects.count() == 2


def test_an_untouched_form_moves_on_when_another_phone_saves_its_round(
    new_context: Callable[..., object], evening: tuple[User, GameSession]
) -> None:
    user, session = evening
    first = phone(new_context, user, session)
    second = phone(new_context, user, session)
    second.clock.install()
    second.reload()
    first_saves_round_2(first)

    second.clock.run_for(6_000)

    expect(second.locator("[data-moved]")).to_contain_text(
        "Round 2 was just saved on another phone: this form is for round 3 now."
    )
    expect(second.get_by_role("heading", name="Round 3")).to_be_visible()
    fill_round(second, "8S", ROUND_1)
    second.get_by_role("button", name="Save round 3").tap()
    expect(second.locator("[data-saved]")).to_contain_text("Round 3 saved.")
    assert Round.objects.count() == 3
