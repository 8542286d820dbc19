"""Every page a player opens, in Hindi on a phone (390x844, touch), with players'
names in Devanagari where a page shows them: Hindi's words are often longer than
English's in buttons, badges and headings, and none of them pushes the page sideways
or runs past its box (tests/support/hindi.py); axe finds nothing wrong, in the light
theme and the dark (which changes colours only).

The round form's card picker, table mode's seat pages and the standings are left to
their own tests. With SCREENSHOTS=1 each page is saved as hindi-NAME.png."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page

from games.models import GameSession, Player
from games.services.leagues import claim_player, create_invite, join_by_invite
from games.services.sessions import create_session, rejoin
from tests.support import axe
from tests.support.builders import edit, play
from tests.support.hands import POOL_ROUNDS, ROUND_1
from tests.support.hindi import assert_drawn_in_hindi
from tests.support.page_worlds import a_league, finished_pool, friday
from tests.support.pages import LIVE_HOST, PASSWORD, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Names as a Hindi-speaking table writes them: long, and in Devanagari.
RAJ, VISH, ANA = "राजलक्ष्मी सुब्रह्मण्यम", "विश्वनाथ प्रताप", "अनन्या"
IN_HINDI = dict(zip(("Asha", "Ben", "Chen"), (RAJ, VISH, ANA), strict=True))


def in_hindi(page: Page) -> None:
    """The footer's choice, as a browser keeps it (Django's language cookie)."""
    page.context.add_cookies(
        [{"name": "django_language", "value": "hi", "domain": LIVE_HOST, "path": "/"}]
    )


def hindi_pool(user: User) -> GameSession:
    """A pool 101 of the three Devanagari names with a pot: Ananya out after round 2,
    then back in at 61 (the longest badge of the score table and the table view)."""
    session = create_session(
        user, preset="13-pool-101", overrides={}, players=[RAJ, VISH, ANA], buy_in=Decimal("100")
    )
    for hands in POOL_ROUNDS:
        play(session, "7C", {IN_HINDI[name]: hand for name, hand in hands.items()})
    rejoin(session, session.seats.get(player__name=ANA), user)
    return session


def welcome(page: Page) -> None:
    page.goto("/")


def sign_up(page: Page) -> None:
    page.goto("/accounts/signup/")


def password_reset(page: Page) -> None:
    page.goto("/accounts/password_reset/")


def account(page: Page) -> None:
    sign_in(page, "asha")
    page.goto("/accounts/")


def home(page: Page) -> None:
    user = sign_in(page, "asha")
    friday(user)
    finished_pool(user)
    page.goto("/")


def new_session(page: Page) -> None:
    a_league(sign_in(page, "asha"))  # known players' chips, the league's choice
    page.goto("/sessions/new/")


def session_pool(page: Page) -> None:
    """Score table, badges, the pot shared out, the leaving and joining folded open."""
    session = hindi_pool(sign_in(page, "asha"))
    page.goto(f"/sessions/{session.pk}/")
    page.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")


def session_over(page: Page) -> None:
    session = finished_pool(sign_in(page, "asha"))
    page.goto(f"/sessions/{session.pk}/")


def round_page(page: Page) -> None:
    session = friday(sign_in(page, "asha"))
    page.goto(f"/sessions/{session.pk}/rounds/{session.rounds.get(number=2).pk}/")


def history(page: Page) -> None:
    user = sign_in(page, "asha")
    session = friday(user)
    edit(session.rounds.get(number=1), "8S", ROUND_1 | {"Chen": ("middle_drop", "")}, user)
    page.goto(f"/sessions/{session.pk}/history/")


def league_list(page: Page) -> None:
    a_league(sign_in(page, "asha"))
    page.goto("/leagues/")


def league(page: Page) -> None:
    """The owner's page: members, a used invite link, the exports."""
    owner = sign_in(page, "asha")
    club = a_league(owner)
    invite = create_invite(club, owner, role="scorer", days=7)
    join_by_invite(invite, User.objects.create_user("gita", password=PASSWORD))
    page.goto(f"/leagues/{club.slug}/")


def house_rules(page: Page) -> None:
    club = a_league(sign_in(page, "asha"))
    page.goto(f"/leagues/{club.slug}/rules/")
    page.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")


def league_import(page: Page) -> None:
    sign_in(page, "asha")
    page.goto("/import/league/")


def player(page: Page) -> None:
    club = a_league(sign_in(page, "asha"))
    ben = Player.objects.get(name="Ben")
    claim_player(club, ben, User.objects.get(username="ben"))
    page.goto(f"/players/{ben.pk}/")


def shared(page: Page) -> None:
    session = hindi_pool(User.objects.create_user("asha", password=PASSWORD))
    page.goto(f"/shared/{session.share_token}/")


def table_view(page: Page) -> None:
    session = hindi_pool(User.objects.create_user("asha", password=PASSWORD))
    page.goto(f"/shared/{session.share_token}/big/")


def invite(page: Page) -> None:
    club = a_league(User.objects.create_user("owner", password=PASSWORD))
    link = create_invite(club, club.memberships.first().user, role="scorer", days=1)
    sign_in(page, "gita")
    page.goto(f"/invite/{link.token}/")


def not_found(page: Page) -> None:
    sign_in(page, "asha")
    page.goto("/sessions/999999/")


def offline(page: Page) -> None:
    page.goto("/offline/")


PAGES: dict[str, Callable[[Page], None]] = {
    "welcome": welcome,
    "sign-up": sign_up,
    "password-reset": password_reset,
    "account": account,
    "home": home,
    "new-session": new_session,
    "session-pool": session_pool,
    "session-over": session_over,
    "round": round_page,
    "history": history,
    "league-list": league_list,
    "league": league,
    "house-rules": house_rules,
    "league-import": league_import,
    "player": player,
    "shared": shared,
    "table-view": table_view,
    "invite": invite,
    "not-found": not_found,
    "offline": offline,
}


@pytest.mark.parametrize("name", PAGES)
def test_a_page_in_hindi_fits_a_phone(
    phone_page: Page, look_at: Callable[..., None], name: str
) -> None:
    page = phone_page
    in_hindi(page)
    PAGES[name](page)
    look_at(page, f"hindi-{name}")
    assert_drawn_in_hindi(page)
    axe.assert_no_violations(page)
