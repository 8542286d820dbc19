"""The Content-Security-Policy in a real browser: every main page,
with htmx swapping parts of it, loads and works without Chromium reporting a single
violation, so the policy is on and nothing of ours needs it relaxed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games.models import League, Membership
from games.services.sessions import create_session
from tests.support.builders import play
from tests.support.hands import ROUND_1
from tests.support.pages import fill_round, preview, sign_in, sign_out

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Collects what the browser refuses, from the first script of every page on.
LISTEN = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(
    `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`
  );
});
"""


def _watch(page: Page) -> list[str]:
    reported: list[str] = []
    page.add_init_script(LISTEN)
    page.on(
        "console",
        lambda message: (
            reported.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return reported


def _open(page: Page, url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy, (url, policy)
    # goto waited for the load event: every script, style and image of the page has
    # been fetched or refused by then (no htmx request starts on load). A refusal's
    # event is queued as a task; one more task and frame let it be dispatched.
    page.evaluate("new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")


def _violations(page: Page, reported: list[str]) -> list[str]:
    return reported + page.evaluate("window.cspViolations || []")


def test_the_main_pages_run_under_the_policy_without_a_violation(
    fresh_phone_page: Page,
) -> None:
    page = fresh_phone_page
    reported = _watch(page)
    user = sign_in(page, "asha")
    league = League.objects.create(name="Friday Club", slug="friday-club", preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    session = create_session(
        user,
        preset="21-points",
        overrides={},
        players=["Asha", "Ben", "Chen"],
        name="Friday",
        league=league,
    )
    played = play(session, "8S", ROUND_1, user)
    asha = session.seats.get(player__name="Asha").player

    pages = [
        "/",
        "/sessions/new/",
        f"/sessions/{session.pk}/rounds/{played.pk}/",
        f"/sessions/{session.pk}/rounds/{played.pk}/edit/",
        f"/sessions/{session.pk}/history/",
        "/leagues/",
        f"/leagues/{league.slug}/",
        f"/leagues/{league.slug}/rules/",
        f"/leagues/{league.slug}/standings/",
        f"/players/{asha.pk}/",
        f"/shared/{session.share_token}/",
        "/accounts/password_change/",
    ]
    for url in pages:
        _open(page, url)
        assert _violations(page, reported) == [], url

    # The session page with htmx at work: a round typed is previewed and saved.
    _open(page, f"/sessions/{session.pk}/")
    fill_round(page, "8S", ROUND_1)
    expect(preview(page, "Ben")).to_contain_text("102")
    page.get_by_role("button", name="Save round 2").click()
    expect(page.locator("#round-entry")).to_contain_text("Round 2 saved.")
    expect(page.locator(".session-chart img")).to_be_visible()
    assert _violations(page, reported) == []

    # Signed out: the sign-in, sign-up and password reset pages.
    sign_out(page)  # signed out before the next address is asked for
    for url in ("/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"):
        _open(page, url)
        assert _violations(page, reported) == [], url
    assert User.objects.count() == 1
