"""The share link of a long session on a phone: the latest ten
rounds and the totals, older rounds one tap away, with htmx and without JavaScript,
and the live table keeps the rounds the spectator opened when a round is saved."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from games.models import GameSession
from tests.support.builders import make_session, play
from tests.support.hands import ROUND_1
from tests.support.pages import PASSWORD, PHONE
from tests.support.reads import copies_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHARE_POLL_MS = 3_000  # games/views/sharing.py


def long_session(rounds: int) -> GameSession:
    from django.contrib.auth.models import User

    user = User.objects.create_user("asha", password=PASSWORD)
    session = make_session(user, name="A long night")
    copies_of(play(session, "8S", ROUND_1), rounds - 1)
    return GameSession.objects.get(pk=session.pk)


def shown(page: Page) -> list[str]:
    return page.locator("tr[data-round]").evaluate_all("rows => rows.map(r => r.dataset.round)")


def test_a_spectator_opens_older_rounds_and_the_table_stays_live(
    new_context, look_at: Callable[..., None]
) -> None:
    session = long_session(25)
    spectator = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    spectator.clock.install()  # its polls come when the test moves its clock on
    spectator.goto(f"/shared/{session.share_token}/")
    assert shown(spectator) == [str(n) for n in range(16, 26)]
    expect(spectator.locator("[data-fold]")).to_contain_text("Rounds 1–15 are not shown.")
    expect(spectator.locator('[data-total="Asha"]')).to_have_text("3,050")
    spectator.evaluate("window.notReloaded = true")

    spectator.locator("[data-show-earlier]").click()

    expect(spectator.locator("tr[data-round]")).to_have_count(20)
    expect(spectator.locator("[data-fold]")).to_contain_text("Rounds 1–5 are not shown.")
    # The address follows (htmx pushes it after the swap): a reload shows the same rounds.
    expect(spectator).to_have_url(re.compile(r"\?from=6$"))
    assert spectator.evaluate("window.notReloaded") is True  # swapped in, not reloaded

    play(session, "8S", ROUND_1)  # another phone saves round 26

    spectator.clock.fast_forward(SHARE_POLL_MS)
    expect(spectator.locator('[data-total="Asha"]')).to_have_text("3,172")
    assert shown(spectator) == [str(n) for n in range(6, 27)]
    look_at(spectator, "shared-long-phone")


def test_older_rounds_open_without_javascript(new_context) -> None:
    session = long_session(25)
    page = new_context(viewport=PHONE, java_script_enabled=False).new_page()
    page.goto(f"/shared/{session.share_token}/")

    page.locator("[data-show-earlier]").click()

    page.wait_for_url(f"**/shared/{session.share_token}/?from=6")
    assert shown(page) == [str(n) for n in range(6, 26)]
    page.locator("[data-show-latest]").click()
    page.wait_for_url(f"**/shared/{session.share_token}/")
    assert shown(page) == [str(n) for n in range(16, 26)]
