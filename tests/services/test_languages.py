"""The languages the database keeps: an account's choice, and the league whose page a
route is, looked at only where the visitor may see that league."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone

from games.models import AccountSettings, League, LeagueInvite
from games.services.languages import (
    account_language,
    league_language_for,
    save_account_language,
    supported,
)
from games.services.leagues import create_league
from tests.support.builders import make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def hindi_league(user: User) -> League:
    return create_league(user, name="Ghar", preset="21-points", overrides={}, language="hi")


def test_a_regional_variant_is_its_language_and_anything_else_no_language() -> None:
    assert supported("hi-IN") == "hi"
    assert supported("en") == "en"
    assert supported("xx") == ""
    assert supported(None) == ""


def test_an_account_keeps_its_language_and_can_go_back_to_none(user: User) -> None:
    assert account_language(user) == ""
    save_account_language(user, "hi")
    assert account_language(user) == "hi"
    save_account_language(user, "")
    assert account_language(user) == ""
    assert AccountSettings.objects.filter(user=user).count() == 1


def test_a_language_off_the_list_is_refused_and_one_stored_earlier_is_no_choice(
    user: User,
) -> None:
    with pytest.raises(ValueError):
        save_account_language(user, "xx")
    AccountSettings.objects.create(user=user, language="xx")  # a language since removed
    assert account_language(user) == ""
    assert account_language(AnonymousUser()) == ""


def test_the_league_sets_the_language_of_its_own_pages_for_its_members(
    user: User, hindi_league: League
) -> None:
    session = make_session(user, league=hindi_league)
    slug = {"slug": hindi_league.slug}
    assert league_language_for("games:league_detail", slug, user) == "hi"
    assert league_language_for("games:league_standings", slug, user) == "hi"
    assert league_language_for("games:session_detail", {"pk": session.pk}, user) == "hi"
    assert league_language_for("games:round_create", {"pk": session.pk}, user) == "hi"
    assert league_language_for("games:table_panel", {"pk": session.pk}, user) == "hi"


def test_a_link_sets_its_league_language_for_whoever_holds_it(
    user: User, hindi_league: League
) -> None:
    session = make_session(user, league=hindi_league)
    session.table_token = "t" * 22
    session.save(update_fields=["table_token"])
    invite = LeagueInvite.objects.create(
        league=hindi_league, created_by=user, expires_at=timezone.now() + timedelta(days=7)
    )
    nobody = AnonymousUser()
    share = {"token": session.share_token}
    assert league_language_for("games:shared_session", share, nobody) == "hi"
    assert league_language_for("games:shared_big", share, nobody) == "hi"
    assert league_language_for("games:table_seats", {"token": "t" * 22}, nobody) == "hi"
    assert league_language_for("games:invite", {"token": invite.token}, nobody) == "hi"


def test_an_outsider_is_not_told_the_language_of_a_league_they_cannot_see(
    user: User, hindi_league: League
) -> None:
    # Their "not found" reads as for a league that does not exist.
    session = make_session(user, league=hindi_league)
    outsider = User.objects.create_user(username="mallory", password="x")
    assert league_language_for("games:league_detail", {"slug": hindi_league.slug}, outsider) == ""
    assert league_language_for("games:session_detail", {"pk": session.pk}, outsider) == ""
    assert league_language_for("games:session_detail", {"pk": session.pk}, AnonymousUser()) == ""


def test_pages_of_no_league_have_no_league_language(user: User, hindi_league: League) -> None:
    own = make_session(user)
    player = own.seats.first().player_id
    assert league_language_for("games:session_detail", {"pk": own.pk}, user) == ""
    assert league_language_for("games:player_detail", {"pk": player}, user) == ""
    assert league_language_for("games:home", {}, user) == ""
    assert league_language_for("admin:index", {}, user) == ""
    assert league_language_for("games:shared_session", {"token": "n" * 22}, user) == ""
