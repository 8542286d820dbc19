"""A phone passed round the table shows nothing of the last account's pages
(scorekeeper/private_pages.py): a signed-in page is never stored by the browser, and
signing out clears what it kept; anonymous pages keep their own caching."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession
from games.services.leagues import create_league

pytestmark = pytest.mark.django_db


def _directives(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


def test_every_signed_in_page_is_never_stored(scorer: Client, user: User, table: GameSession):
    league = create_league(user, name="Fridays", preset="21-points", overrides={})
    pages = [
        reverse("games:home"),
        reverse("games:session_detail", args=[table.pk]),
        reverse("games:league_detail", args=[league.slug]),
        reverse("games:league_standings", args=[league.slug]),
        reverse("games:account"),
        reverse("games:session_new"),
        # Its own share link, opened while signed in: the page shows the account.
        reverse("games:shared_session", args=[table.share_token]),
    ]
    for page in pages:
        response = scorer.get(page)
        assert response.status_code == 200, page
        assert "no-store" in _directives(response), page
    # A region swapped in over htmx is of the same page.
    swapped = scorer.get(pages[3], headers={"HX-Request": "true"})
    assert "no-store" in _directives(swapped)


def test_anonymous_pages_keep_the_caching_their_views_chose(table: GameSession) -> None:
    anonymous = Client()

    shared = anonymous.get(reverse("games:shared_session", args=[table.share_token]))
    sign_in = anonymous.get(reverse("login"))

    assert shared.status_code == 200
    assert shared["Cache-Control"] == "private, no-cache"  # games/http.py's private()
    assert "Clear-Site-Data" not in shared
    # Django's own sign-in page says never_cache; nothing is added to it.
    assert _directives(sign_in) == {
        "max-age=0",
        "no-cache",
        "no-store",
        "must-revalidate",
        "private",
    }


def test_signing_out_clears_the_browsers_cache_of_the_site(scorer: Client) -> None:
    response = scorer.post(reverse("logout"))

    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache"'
    assert "no-store" in _directives(response)
    # Signed out now: the next page is anyone's, and nothing more is cleared.
    home = scorer.get(reverse("games:home"), follow=True)
    assert "Clear-Site-Data" not in home
    assert "Clear-Site-Data" not in scorer.post(reverse("logout"))
