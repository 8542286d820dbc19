"""Rematch on the session page: offered on a finished session with the
seat order it will use, one tap starts it and lands on it, an unfinished session is
refused with a message, a second tap goes to the same rematch."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import GameSession, Membership
from games.services.leagues import create_league
from tests.support.builders import finished_session, make_session

pytestmark = pytest.mark.django_db


def page(client: Client, session: GameSession) -> str:
    response = client.get(reverse("games:session_detail", args=[session.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_finished_session_offers_a_rematch_saying_who_sits_where(
    scorer: Client, user: User
) -> None:
    done = finished_session(user, name="Friday")
    text = page(scorer, done)
    assert "data-rematch-button" in text
    assert "Everyone moves one seat on (Ben now sits first, Asha last): Ben, Chen, Asha" in text


def test_rematch_lands_on_the_new_session_with_seats_rotated(scorer: Client, user: User) -> None:
    done = finished_session(user, name="Friday")
    response = scorer.post(reverse("games:session_rematch", args=[done.pk]), follow=True)
    new = GameSession.objects.get(rematch_of=done)
    assert response.redirect_chain[-1][0] == reverse("games:session_detail", args=[new.pk])
    text = response.content.decode()
    assert "Rematch started" in text
    assert "Friday (rematch)" in text
    assert "rematch of" in text
    assert [s.player.name for s in new.seats.select_related("player")] == ["Ben", "Chen", "Asha"]
    # The finished session now leads to its rematch instead of offering another.
    again = page(scorer, done)
    assert "Go to the rematch" in again
    assert "data-rematch-button" not in again


def test_a_second_tap_goes_to_the_same_rematch(scorer: Client, user: User) -> None:
    done = finished_session(user)
    url = reverse("games:session_rematch", args=[done.pk])
    first = scorer.post(url)
    second = scorer.post(url, follow=True)
    assert GameSession.objects.filter(rematch_of=done).count() == 1
    assert second.redirect_chain[0][0] == first["Location"]
    assert "already started" in second.content.decode()


def test_a_session_still_played_is_refused_with_a_message(scorer: Client, user: User) -> None:
    playing = make_session(user)
    text = page(scorer, playing)
    assert "data-rematch-button" not in text
    response = scorer.post(reverse("games:session_rematch", args=[playing.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:session_detail", args=[playing.pk])
    assert "not finished yet" in response.content.decode()
    assert GameSession.objects.count() == 1


def test_a_viewer_sees_no_rematch_and_may_not_start_one(user: User, client: Client) -> None:
    league = create_league(user, name="Tuesday Club", preset="21-points", overrides={})
    done = finished_session(user, league=league)
    viewer = User.objects.create_user("vera", password="x")
    Membership.objects.create(league=league, user=viewer, role=Membership.Role.VIEWER)
    client.force_login(viewer)
    assert "data-rematch-button" not in page(client, done)
    response = client.post(reverse("games:session_rematch", args=[done.pk]))
    assert response.status_code == 403
    assert GameSession.objects.count() == 1


def test_over_htmx_the_rematch_loads_as_a_page(scorer: Client, user: User) -> None:
    done = finished_session(user)
    response = scorer.post(
        reverse("games:session_rematch", args=[done.pk]), headers={"HX-Request": "true"}
    )
    new = GameSession.objects.get(rematch_of=done)
    assert response["HX-Redirect"] == reverse("games:session_detail", args=[new.pk])
