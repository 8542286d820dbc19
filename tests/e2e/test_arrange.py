"""Cards in any order in the browser at phone size: the preview arranges a hand typed
without groups, or with cards left loose that group better, and Arrange puts that
grouping in the field."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games.rules import PRESETS, parse_card, parse_cards
from games.rules.arrange import arrange
from games.services.sessions import create_session
from tests.support.hands import SEED_BEN, WIN_8S
from tests.support.pages import (
    PASSWORD,
    PLAYERS,
    choose_outcome,
    horizontal_overflow,
    player,
    preview,
    sign_in_on_the_page,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_arrange_on_a_phone(phone_page: Page, look_at: Callable[..., None]) -> None:
    page = phone_page
    user = User.objects.create_user(username="arranger", password=PASSWORD)
    session = create_session(
        user, preset="21-points", overrides={}, players=list(PLAYERS), name="Arranged"
    )
    sign_in_on_the_page(page, "arranger")
    page.goto(f"/sessions/{session.pk}/")

    scrambled = [card.code for card in parse_cards(WIN_8S)]
    random.Random(5).shuffle(scrambled)
    page.get_by_label("Cut joker").fill("8S")
    choose_outcome(player(page, "Asha"), "declared")
    player(page, "Asha").get_by_label("Groups").fill(" ".join(scrambled))
    choose_outcome(player(page, "Ben"), "shown")
    player(page, "Ben").get_by_label("Groups").fill(SEED_BEN)
    choose_outcome(player(page, "Chen"), "first_drop")

    # Scrambled, Asha's cards are arranged into a declaration at once...
    expect(preview(page, "Asha")).to_contain_text("Valid declaration: three pure sequences")
    # ...and Ben's, typed with cards left loose (102), grouped best: 81.
    expect(preview(page, "Ben")).to_contain_text("Hand points: 81")
    expect(preview(page, "Ben")).not_to_contain_text("less than as typed")
    expect(page.locator('[data-settlement="Ben"] .round-score')).to_have_text("−71")

    # Arrange puts the grouping in the field, where the scorer may still change it.
    ruleset, cut = PRESETS["21-points"], parse_card("8S")
    for name, hand in (("Asha", WIN_8S), ("Ben", SEED_BEN)):
        page.locator(f'[data-arrange="{name}"]').click()
        best = arrange(ruleset, cut, parse_cards(hand))
        expected_text = " | ".join(" ".join(c.code for c in group) for group in best.groups)
        expect(player(page, name).get_by_label("Groups")).to_have_value(expected_text)
    expect(preview(page, "Asha")).to_contain_text("Valid declaration: three pure sequences")
    expect(preview(page, "Ben")).to_contain_text("Hand points: 81")
    expect(page.locator('[data-settlement="Ben"] .round-score')).to_have_text("−71")
    assert horizontal_overflow(page) <= 0
    look_at(page, "round-arranged-phone")

    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#round-entry")).to_contain_text("Round 1 saved.")
    # Ben: −81 + 10 value points; Asha: 81 + 30 − 10.
    expect(page.locator('[data-total="Ben"]')).to_have_text("−71")
    expect(page.locator('[data-total="Asha"]')).to_have_text("101")
