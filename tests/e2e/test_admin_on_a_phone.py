"""The Django admin on a phone, signed in as a superuser: its change lists fit the
screen (a table wider than the phone scrolls inside its own box, never the page),
and a long list's page links are all within reach."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tests.support.big_league import big_league, long_session
from tests.support.club import build_club
from tests.support.pages import horizontal_overflow, signed_in_as

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def signed_in_admin(page: Page) -> User:
    boss = User.objects.create_superuser("boss", "boss@example.com", "pw")
    signed_in_as(page, boss)
    return boss


def test_the_change_lists_scroll_their_tables_not_the_page(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    page = phone_page
    boss = signed_in_admin(page)
    build_club(boss, slug="friday")
    long_session(boss, big_league(boss), 8)  # long names, a long league name
    for model in ("round", "handentry", "gamesession"):
        page.goto(f"/admin/games/{model}/")
        results = page.locator("#changelist .results")
        expect(results).to_be_visible()
        assert horizontal_overflow(page) <= 0, model
        # Its columns are wider than the phone: they scroll inside their own box.
        assert results.evaluate("el => el.scrollWidth > el.clientWidth"), model
        look_at(page, f"admin-{model}-phone", full_page=False)


def test_a_long_change_lists_page_links_are_all_on_the_screen(
    phone_page: Page, look_at: Callable[..., None]
) -> None:
    """Django's page links stand on one line, and the line hides what does not fit:
    on a phone, in the middle of a long list, the last pages' links and the count
    were cut off at the screen's edge, out of reach."""
    page = phone_page
    boss = signed_in_admin(page)
    long_session(boss, None, 140)  # 1,120 hands: twelve pages of a hundred
    page.goto("/admin/games/handentry/?p=6")
    paginator = page.locator("#changelist .paginator")
    expect(paginator).to_contain_text("1120 hand entries")
    last = paginator.get_by_role("link", name="12", exact=True)
    assert last.bounding_box()["x"] + last.bounding_box()["width"] <= page.viewport_size["width"]
    assert paginator.evaluate("el => el.scrollWidth <= el.clientWidth")  # nothing hidden
    assert horizontal_overflow(page) <= 0
    paginator.scroll_into_view_if_needed()
    look_at(page, "admin-handentry-pages-phone", full_page=False)
