"""What the admin changes, the standings and ratings follow (issue 10): an admin save
or delete goes through the one function every write path calls."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import (
    HandEntry,
    League,
    Membership,
    Rating,
    RatingChange,
    Round,
    Seat,
)
from games.queries.standings import standings_of
from tests.support.builders import make_session, play

pytestmark = pytest.mark.django_db

WIN = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7D | KC KD KS"
LOOSE = "4C 8D 9H 2S | 5S 6H QH JD | 10C 3D 4H KH AS"  # 80 points under cut 7C


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "pw"))
    return client


@pytest.fixture
def finished(user: User):
    """A league pool 101 that Asha won: Ben showed 80 twice (160, out)."""
    league = League.objects.create(name="Club", slug="club", preset="13-pool-101")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    session = make_session(user, preset="13-pool-101", players=("Asha", "Ben"), league=league)
    for _ in range(2):
        play(session, "7C", {"Asha": ("declared", WIN), "Ben": ("shown", LOOSE)})
    return session


def standing(league: League) -> dict[str, tuple[int, int]]:
    """Each player's (sessions won, points) as the standings page shows them."""
    return {row.player.name: (row.sessions_won, row.points) for row in standings_of(league)}


def change_form_data(entry: HandEntry, **changes: object) -> dict:
    data = {
        "round": entry.round_id,
        "player": entry.player_id,
        "outcome": entry.outcome,
        "groups": json.dumps(entry.groups),
        "declaration": entry.declaration,
        "hand_points": entry.hand_points if entry.hand_points is not None else "",
        "value_points": entry.value_points,
        "claims": entry.claims,
        "score": entry.score,
        "breakdown": json.dumps(entry.breakdown),
    }
    return data | changes


def test_an_admin_edit_of_a_hand_moves_the_standings_and_the_ratings(
    admin_client: Client, finished
) -> None:
    league = finished.league
    assert standing(league) == {"Asha": (1, 0), "Ben": (0, 160)}
    assert RatingChange.objects.count() == 2 and Rating.objects.count() == 2

    # Ben's second hand was really a first drop worth nothing: corrected by hand.
    entry = HandEntry.objects.get(round__number=2, player__name="Ben")
    url = reverse("admin:games_handentry_change", args=[entry.pk])
    response = admin_client.post(url, change_form_data(entry, score=0, hand_points=0))
    assert response.status_code == 302, response.content.decode()[:2000]

    # Ben is on 80: nobody is out, the pool is on again, nobody won it.
    assert standing(league) == {"Asha": (0, 0), "Ben": (0, 80)}
    assert not Seat.objects.filter(session=finished, won=True).exists()
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_round_deleted_in_the_admin_is_deleted_as_the_round_page_deletes_it(
    admin_client: Client, finished
) -> None:
    first, second = finished.rounds.order_by("number")
    url = reverse("admin:games_round_delete", args=[first.pk])

    response = admin_client.post(url, {"post": "yes"})

    assert response.status_code == 302
    second.refresh_from_db()
    assert second.number == 1  # later rounds move up
    assert finished.changes.filter(action="deleted", number=1).exists()  # in the history
    assert standing(finished.league) == {"Asha": (0, 0), "Ben": (0, 80)}
    assert not RatingChange.objects.exists()
    assert Round.objects.filter(session=finished).count() == 1


def test_a_session_deleted_in_the_admin_leaves_the_standings(
    admin_client: Client, finished
) -> None:
    league = finished.league
    url = reverse("admin:games_gamesession_delete", args=[finished.pk])

    response = admin_client.post(url, {"post": "yes"})

    assert response.status_code == 302
    assert standing(league) == {}
    assert not Rating.objects.filter(league=league).exists()
