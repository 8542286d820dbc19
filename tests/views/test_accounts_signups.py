"""Who may create an account (games/views/accounts.py, settings.SIGNUPS): anyone while
sign-ups are open; by invitation, only someone who came by a league's invite link
that still works, and no page offers an account to anyone else."""

from __future__ import annotations

import datetime
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import League, LeagueInvite, Membership
from games.services.leagues import create_invite, create_league

pytestmark = pytest.mark.django_db

SIGNUP = reverse("games:signup")
PASSWORD = "a-brand-new-passphrase-42"
BY_INVITATION = "Sign-ups here are by invitation."


@pytest.fixture
def invite_only(settings) -> None:
    settings.SIGNUPS = "invite"


@pytest.fixture
def club(user: User) -> League:
    return create_league(user, name="Tuesday Club", preset="21-points", overrides={})


@pytest.fixture
def invite(user: User, club: League) -> LeagueInvite:
    return create_invite(club, user, role="viewer", days=7)


def link(invite: LeagueInvite) -> str:
    return reverse("games:invite", args=[invite.token])


def newcomer(**extra: str) -> dict[str, str]:
    return {"username": "newcomer", "password1": PASSWORD, "password2": PASSWORD, **extra}


def offers_an_account(html: str) -> bool:
    return f'href="{SIGNUP}' in html


# --- Open (the default) -------------------------------------------------------------------


def test_open_sign_ups_let_anyone_create_an_account(client: Client) -> None:
    page = client.get(SIGNUP)
    made = client.post(SIGNUP, newcomer())

    assert page.status_code == 200
    assert 'name="password1"' in page.content.decode()
    assert made.status_code == 302
    assert User.objects.filter(username="newcomer").exists()


def test_open_sign_ups_are_offered_on_the_sign_in_and_home_pages(client: Client) -> None:
    assert offers_an_account(client.get(reverse("login")).content.decode())
    assert offers_an_account(client.get(reverse("games:home")).content.decode())


# --- By invitation --------------------------------------------------------------------------


def test_by_invitation_the_sign_up_page_says_so_and_has_no_form(
    invite_only: None, client: Client
) -> None:
    page = client.get(SIGNUP)

    assert page.status_code == 403
    html = page.content.decode()
    assert BY_INVITATION in html
    assert 'name="password1"' not in html
    assert f'action="{SIGNUP}"' not in html


def test_by_invitation_a_posted_form_makes_no_account(invite_only: None, client: Client) -> None:
    made = client.post(SIGNUP, newcomer())

    assert made.status_code == 403
    assert BY_INVITATION in made.content.decode()
    assert not User.objects.filter(username="newcomer").exists()


def test_by_invitation_no_page_offers_an_account(invite_only: None, client: Client) -> None:
    sign_in = client.get(reverse("login")).content.decode()
    home = client.get(reverse("games:home")).content.decode()

    assert not offers_an_account(sign_in)
    assert "Sign-ups are by invitation" in sign_in
    assert not offers_an_account(home)


def test_by_invitation_an_invite_link_leads_to_an_account_and_into_the_league(
    invite_only: None, club: League, invite: LeagueInvite
) -> None:
    client = Client()
    to_sign_in = client.get(link(invite))["Location"]
    sign_in = client.get(to_sign_in).content.decode()
    signup_url = f"{SIGNUP}?next={quote(link(invite), safe='/')}"

    assert signup_url in sign_in  # offered on this path only
    form = client.get(signup_url)
    assert form.status_code == 200
    assert 'name="password1"' in form.content.decode()
    made = client.post(signup_url, newcomer(next=link(invite)))
    assert made["Location"] == link(invite)
    client.post(link(invite))
    assert Membership.objects.get(league=club, user__username="newcomer").role == "viewer"


def test_by_invitation_a_link_that_no_longer_works_opens_no_account(
    invite_only: None, invite: LeagueInvite
) -> None:
    client = Client()
    revoked = create_invite(invite.league, invite.created_by, role="viewer", days=7)
    LeagueInvite.objects.filter(pk=revoked.pk).update(revoked_at=timezone.now())
    LeagueInvite.objects.filter(pk=invite.pk).update(
        expires_at=timezone.now() - datetime.timedelta(seconds=1)
    )

    for dead in (invite, revoked):
        sign_in = client.get(f"{reverse('login')}?next={link(dead)}").content.decode()
        page = client.get(f"{SIGNUP}?next={link(dead)}")
        made = client.post(f"{SIGNUP}?next={link(dead)}", newcomer(next=link(dead)))

        assert not offers_an_account(sign_in)
        assert page.status_code == 403
        assert made.status_code == 403
    assert not User.objects.filter(username="newcomer").exists()


def test_by_invitation_another_next_page_or_a_guessed_token_opens_no_account(
    invite_only: None, club: League, invite: LeagueInvite
) -> None:
    client = Client()
    guessed = "/invite/" + "A" * 22 + "/"
    elsewhere = (
        reverse("games:league_detail", args=[club.slug]),
        guessed,
        f"https://evil.example{link(invite)}",
        "/invite/",
    )

    for next_page in elsewhere:
        made = client.post(f"{SIGNUP}?next={quote(next_page)}", newcomer(next=next_page))

        assert made.status_code == 403, next_page
    assert not User.objects.filter(username="newcomer").exists()
