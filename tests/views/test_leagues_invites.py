"""Invite links on the league page and the link itself: owners make and
revoke them; whoever opens one signs in or up and comes back to "Join <league> as
<role>"; an expired or revoked link says so (410), a guessed one is a 404."""

from __future__ import annotations

import datetime
import re
import secrets
from unittest import mock
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import League, LeagueInvite, Membership
from games.services.leagues import LeagueError, create_invite, create_league

pytestmark = pytest.mark.django_db

Role = Membership.Role
NEW_PASSWORD = "a-brand-new-passphrase-42"


@pytest.fixture
def club(user: User) -> League:
    return create_league(user, name="Tuesday Club", preset="21-points", overrides={})


def signed_in_as(name: str, role: str | None = None, league: League | None = None) -> Client:
    person = User.objects.create_user(name, password="x")
    if role:
        Membership.objects.create(league=league, user=person, role=role)
    client = Client()
    client.force_login(person)
    return client


def link(invite: LeagueInvite) -> str:
    return reverse("games:invite", args=[invite.token])


def test_an_owner_makes_an_invite_link_and_sees_it_listed(scorer: Client, club: League) -> None:
    response = scorer.post(
        reverse("games:invite_create", args=[club.slug]), {"role": "scorer", "days": "30"}
    )
    assert response.status_code == 302
    invite = club.invites.get()
    assert invite.role == "scorer"
    assert invite.expires_at > timezone.now() + datetime.timedelta(days=29)
    text = scorer.get(reverse("games:league_detail", args=[club.slug])).content.decode()
    assert f"http://testserver{link(invite)}" in text
    assert 'aria-label="Invite link"' in text
    assert "Joins as scorer" in text
    assert "made by asha" in text
    assert "used 0 times" in text
    assert "not used up by the first person" in text


def _invite_form(html: str) -> str:
    return html.split('class="form invite-form"')[1].split("</form>")[0]


def test_the_invite_form_keeps_the_role_and_days_of_the_link_just_made(
    scorer: Client, club: League
) -> None:
    # A scorer link made for tonight's table: the next one is likely for the same.
    url = reverse("games:invite_create", args=[club.slug])

    response = scorer.post(url, {"role": "scorer", "days": "30"}, follow=True)

    form = _invite_form(response.content.decode())
    assert '<option value="scorer" selected>Scorer</option>' in form
    assert '<option value="30" selected>30 days</option>' in form
    # The page's address alone, or one with a choice it does not offer: the defaults.
    for query in ("", "?role=owner&days=2"):
        page = scorer.get(reverse("games:league_detail", args=[club.slug]) + query)
        form = _invite_form(page.content.decode())
        assert '<option value="viewer" selected>Viewer</option>' in form
        assert '<option value="7" selected>7 days</option>' in form


@pytest.mark.parametrize(
    ("data", "wrong", "told", "kept"),
    [
        ({"role": "owner", "days": "30"}, "role", "scorer or viewer", ("days", "30")),
        ({"role": "scorer", "days": "2"}, "days", "1, 7 or 30 days", ("role", "scorer")),
        ({"days": "1"}, "role", "scorer or viewer", ("days", "1")),
    ],
    ids=["owner", "two days", "no role"],
)
def test_a_choice_the_page_does_not_offer_is_told_on_the_invite_form_as_sent(
    scorer: Client, club: League, data: dict, wrong: str, told: str, kept: tuple
) -> None:
    """A forged or stale post: the league page again, at the invite form, what is
    wrong on top of it (a link to the field) and beside the field, the other choice
    as it was sent."""
    response = scorer.post(reverse("games:invite_create", args=[club.slug]), data)

    assert response.status_code == 422
    form = _invite_form(response.content.decode())
    assert "#invites-title" in form.split(">")[0]  # the page opens at the form
    summary = form.split('class="form-errors error-summary"')[1].split("</div>")[0]
    assert f'href="#invite_{wrong}"' in summary and told in summary
    beside = form.split(f'id="invite_{wrong}"')[1].split("<label")[0]
    assert 'class="errorlist"' in beside and told in beside
    field, value = kept
    assert re.search(rf'name="{field}"[^>]*>.*?<option value="{value}" selected>', form, re.S)
    # The wrong choice shows the default again (a viewer link, a week), never the
    # select's first option: a second tap must not make a scorer link unasked.
    default = {"role": "viewer", "days": "7"}[wrong]
    assert re.search(rf'name="{wrong}"[^>]*>.*?<option value="{default}" selected>', form, re.S)
    assert not club.invites.exists()


def test_an_invite_the_league_refuses_is_told_on_top_of_the_invite_form(
    scorer: Client, club: League
) -> None:
    refused = LeagueError("This league takes no invite links now.")
    with mock.patch("games.views.leagues.create_invite", side_effect=refused):
        response = scorer.post(
            reverse("games:invite_create", args=[club.slug]), {"role": "scorer", "days": "30"}
        )

    assert response.status_code == 422
    form = _invite_form(response.content.decode())
    summary = form.split('class="form-errors error-summary"')[1].split("</div>")[0]
    assert "This league takes no invite links now." in summary
    assert '<option value="scorer" selected>' in form and '<option value="30" selected>' in form


def test_only_owners_make_or_revoke_invite_links(user: User, club: League) -> None:
    invite = create_invite(club, user, role="viewer", days=7)
    scorer = signed_in_as("sami", Role.SCORER, club)
    made = scorer.post(
        reverse("games:invite_create", args=[club.slug]), {"role": "scorer", "days": "7"}
    )
    revoked = scorer.post(reverse("games:invite_revoke", args=[club.slug, invite.pk]))
    assert (made.status_code, revoked.status_code) == (403, 403)
    assert club.invites.count() == 1
    assert LeagueInvite.objects.get(pk=invite.pk).revoked_at is None
    assert (
        "Invite links"
        not in scorer.get(reverse("games:league_detail", args=[club.slug])).content.decode()
    )


def test_a_revoked_link_leaves_the_list_and_says_so_when_opened(
    scorer: Client, user: User, club: League
) -> None:
    invite = create_invite(club, user, role="viewer", days=7)
    scorer.post(reverse("games:invite_revoke", args=[club.slug, invite.pk]))
    text = scorer.get(reverse("games:league_detail", args=[club.slug])).content.decode()
    assert link(invite) not in text
    response = signed_in_as("gita").get(link(invite))
    assert response.status_code == 410
    assert "revoked" in response.content.decode()
    joined = signed_in_as("hugo").post(link(invite))
    assert joined.status_code == 410
    assert club.memberships.count() == 1


def test_an_expired_link_says_so(user: User, club: League) -> None:
    invite = create_invite(club, user, role="viewer", days=1)
    LeagueInvite.objects.filter(pk=invite.pk).update(expires_at=timezone.now())
    for client in (Client(), signed_in_as("gita")):
        response = client.get(link(invite))
        assert response.status_code == 410
        assert "This invite link has expired" in response.content.decode()
    assert club.memberships.count() == 1


def test_a_guessed_token_is_a_404(user: User, club: League) -> None:
    invite = create_invite(club, user, role="viewer", days=7)
    client = signed_in_as("gita")
    for token in (secrets.token_urlsafe(16), invite.token[:-1] + "-", invite.token[:16]):
        assert client.get(f"/invite/{token}/").status_code == 404
        assert client.post(f"/invite/{token}/").status_code == 404
    assert client.get("/invite/short/").status_code == 404
    assert club.memberships.count() == 1


def test_signed_out_the_link_goes_to_sign_in_and_sign_up_and_back(user: User, club: League) -> None:
    invite = create_invite(club, user, role="scorer", days=7)
    client = Client()
    response = client.get(link(invite))
    assert response["Location"] == "/accounts/login/?next=" + quote(link(invite), safe="/")
    login_page = client.get(response["Location"]).content.decode()
    assert "Sign in, or create an account, to join Tuesday Club." in login_page
    signup_url = reverse("games:signup") + "?next=" + quote(link(invite), safe="/")
    assert signup_url in login_page

    assert f'name="next" value="{link(invite)}"' in client.get(signup_url).content.decode()
    made = client.post(
        signup_url,
        {
            "username": "newcomer",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
            "next": link(invite),
        },
    )
    assert made["Location"] == link(invite)
    page = client.get(link(invite)).content.decode()
    assert "Join Tuesday Club as scorer" in page
    client.post(link(invite))
    assert Membership.objects.get(league=club, user__username="newcomer").role == Role.SCORER


def test_sign_up_sends_nobody_to_another_site(client: Client) -> None:
    made = client.post(
        reverse("games:signup") + "?next=https://evil.example/",
        {"username": "newcomer", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert made["Location"] == reverse("games:home")


def test_joining_makes_a_member_with_the_links_role_and_counts_the_use(
    user: User, club: League
) -> None:
    invite = create_invite(club, user, role="scorer", days=7)
    for name in ("gita", "hugo"):  # the same link, a second person: it still works
        client = signed_in_as(name)
        page = client.get(link(invite)).content.decode()
        assert "Join Tuesday Club as scorer" in page
        response = client.post(link(invite), follow=True)
        assert response.redirect_chain[-1][0] == reverse("games:league_detail", args=[club.slug])
        assert "Welcome to Tuesday Club: you joined as scorer." in response.content.decode()
        assert Membership.objects.get(league=club, user__username=name).role == Role.SCORER
    assert LeagueInvite.objects.get(pk=invite.pk).uses == 2


def test_a_member_is_told_they_are_already_in_and_keeps_their_role(
    scorer: Client, user: User, club: League
) -> None:
    invite = create_invite(club, user, role="viewer", days=7)
    page = scorer.get(link(invite)).content.decode()
    assert "You are already in Tuesday Club, as owner." in page
    assert "data-join" not in page
    response = scorer.post(link(invite), follow=True)
    assert "You are already in Tuesday Club, as owner." in response.content.decode()
    assert Membership.objects.get(league=club, user=user).role == Role.OWNER


def test_a_viewer_following_a_scorer_link_is_raised(user: User, club: League) -> None:
    invite = create_invite(club, user, role="scorer", days=7)
    viewer = signed_in_as("vera", Role.VIEWER, club)
    page = viewer.get(link(invite)).content.decode()
    assert "joining with this link makes you scorer" in page
    response = viewer.post(link(invite), follow=True)
    assert "You are now scorer in Tuesday Club." in response.content.decode()
    assert Membership.objects.get(league=club, user__username="vera").role == Role.SCORER


def test_removing_a_member_replaces_the_links_they_could_rejoin_with_and_says_so(
    scorer: Client, user: User, club: League
) -> None:
    scorers = create_invite(club, user, role="scorer", days=7)
    viewers = create_invite(club, user, role="viewer", days=30)
    gita = signed_in_as("gita")
    gita.post(link(scorers))  # she joined through the club's chat's link, and keeps it
    membership = Membership.objects.get(league=club, user__username="gita")
    before = scorer.get(reverse("games:league_detail", args=[club.slug])).content.decode()
    assert "Removing a member replaces the working invite links with new ones" in before

    response = scorer.post(
        reverse("games:member_change", args=[club.slug, membership.pk]),
        {"remove": "1"},
        follow=True,
    )

    page = response.content.decode()
    assert (
        "gita is no longer a member. The league&#x27;s 2 invite links stopped working, so "
        "they cannot rejoin with one: new links with the same roles and end dates are under "
        "Invite links below."
    ) in page
    new = list(club.invites.filter(revoked_at__isnull=True).order_by("created_at", "pk"))
    assert [(invite.role, invite.expires_at) for invite in new] == [
        ("scorer", scorers.expires_at),
        ("viewer", viewers.expires_at),
    ]
    for invite in new:
        assert f"http://testserver{link(invite)}" in page
    for old in (scorers, viewers):
        assert link(old) not in page
        for someone in (gita, signed_in_as(f"new-{old.role}")):
            assert someone.get(link(old)).status_code == 410
            assert someone.post(link(old)).status_code == 410
    assert list(club.memberships.values_list("user__username", flat=True)) == ["asha"]
    # The new link is the one that works now, for whoever it is handed to.
    hugo = signed_in_as("hugo")
    assert hugo.post(link(new[0])).status_code == 302
    assert Membership.objects.get(league=club, user__username="hugo").role == Role.SCORER


def test_removing_a_member_says_nothing_of_links_where_none_was_open(
    scorer: Client, club: League
) -> None:
    signed_in_as("gita", Role.VIEWER, club)
    membership = Membership.objects.get(league=club, user__username="gita")

    response = scorer.post(
        reverse("games:member_change", args=[club.slug, membership.pk]),
        {"remove": "1"},
        follow=True,
    )

    page = response.content.decode()
    assert "gita is no longer a member.</" in page
    assert "Removing a member replaces" not in page  # no link to replace
    assert not club.invites.exists()
