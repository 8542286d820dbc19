"""A Kodai winner on the deal entered on a phone: "Won on the deal" shows
beside a player only once Declared is tapped (CSS alone, no script), and a round
saved with it ticked is a win on the deal."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.models import HandEntry
from games.services.sessions import create_session
from tests.support.hands import SEVEN_DOUBLES, shuffled
from tests.support.pages import fill_round, player, preview, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_won_on_the_deal_is_offered_to_the_declared_player_and_saved(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    user = sign_in(page, "asha")
    session = create_session(
        user, preset="21-kodai", overrides={}, players=["Asha", "Ben", "Chen"], name="Kodai"
    )
    page.goto(f"/sessions/{session.pk}/")
    boxes = {name: player(page, name).get_by_label("Won on the deal") for name in ("Asha", "Ben")}
    for box in boxes.values():
        expect(box).to_be_hidden()

    hands = {
        "Asha": ("declared", shuffled(SEVEN_DOUBLES)),
        "Ben": ("middle_drop", ""),
        "Chen": ("first_drop", ""),
    }
    fill_round(page, "8S", hands)
    expect(boxes["Ben"]).to_be_hidden()  # a middle drop wins nothing on the deal
    expect(boxes["Asha"]).to_be_visible()
    boxes["Asha"].check()
    # Seven dublees declare once the box is ticked: the rules arrange them as dealt.
    expect(preview(page, "Asha")).to_contain_text("Valid declaration: dublees.")
    player(page, "Asha").scroll_into_view_if_needed()
    look_at(page, "round-on-deal-phone", full_page=False)
    page.get_by_role("button", name="Save round").click()

    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    asha = HandEntry.objects.get(player__name="Asha")
    assert (asha.on_deal, asha.declaration, asha.score) == (True, "dublees", 0)
