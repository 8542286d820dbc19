"""A whole league as JSON (games/transfer/league_export.py): the league, its sessions,
who joined and left their tables, rounds and hands, and the share links for owners
only."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import (
    GameSession,
    League,
    Rejoin,
)
from games.transfer.league_export import export_league
from games.transfer.league_import import import_league
from tests.support.league_files import (
    build_changing_tables,
    wipe,
)

pytestmark = pytest.mark.django_db


def test_only_owners_export_the_share_links_and_an_import_makes_new_ones(
    client: Client, league: League
) -> None:
    ben = User.objects.get(username="ben")  # a scorer of the league
    client.force_login(ben)
    data = json.loads(client.get(reverse("games:league_export", args=[league.slug])).content)
    old_tokens = set(league.sessions.values_list("share_token", flat=True))
    assert {session["share_token"] for session in data["sessions"]} == {None}

    wipe()
    imported = import_league(json.dumps(data)).league

    tokens = list(imported.sessions.values_list("share_token", flat=True))
    assert len(set(tokens)) == len(tokens) == len(data["sessions"])
    assert not set(tokens) & old_tokens and all(len(token) == 22 for token in tokens)


def test_json_export_holds_the_league_its_sessions_rounds_and_hands(
    scorer: Client, league: League
) -> None:
    response = scorer.get(reverse("games:league_export", args=[league.slug]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    today = timezone.localdate().isoformat()
    assert response["Content-Disposition"] == f'attachment; filename="club-{today}.json"'
    data = json.loads(response.content)
    assert (data["format"], data["version"]) == ("scorekeeper-league", 6)
    assert data["league"] == {
        "name": "Friday club",
        "slug": "club",
        "preset": "13-pool-101",
        "overrides": {"first_drop": 25},
        "money_per_point": "0.50",
        "table_auto_save": True,
        "time_zone": "UTC",  # the site's: the league picked none
        "language": "",  # each browser's
        "currency": "",  # its language's default: none named in English
    }
    assert data["members"] == [
        {"username": "asha", "role": "owner"},
        {"username": "ben", "role": "scorer"},
        {"username": "chen", "role": "viewer"},
    ]
    # Who is who among the members is said by the claims alone.
    assert data["players"] == [{"name": "Asha"}, {"name": "Ben"}, {"name": "Chen"}]
    assert data["claims"] == [{"player": "Asha", "user": "asha"}, {"player": "Ben", "user": "ben"}]
    sessions = data["sessions"]
    # A rematch names the session it followed by its number in the file.
    assert [s["rematch_of"] for s in sessions] == [None, None, None, 1, None, None]
    assert [s["played_on"] for s in sessions] == [
        "2024-01-05",
        "2024-02-10",
        "2024-03-15",
        "2024-03-15",
        "2024-04-20",
        "2024-04-20",
    ]
    rejoined = sessions[3]
    made = Rejoin.objects.get(session__share_token=rejoined["share_token"]).created_at
    assert rejoined["rejoins"] == [
        {"player": "Ben", "after_round": 2, "created_at": made.isoformat(), "created_by": None}
    ]
    assert [len(r["entries"]) for r in rejoined["rounds"]] == [3, 3, 3, 2]
    closed = sessions[4]
    assert closed["closed_at"] is not None and closed["buy_in"] == "10.00"
    assert (closed["money_per_point"], closed["created_by"]) == ("1.25", "ben")
    assert closed["overrides"] == {"first_drop": 25} and closed["first_dealer"] == "Chen"
    assert [seat["player"] for seat in closed["seats"]] == ["Asha", "Ben", "Chen"]
    played = GameSession.objects.get(share_token=closed["share_token"]).rounds.get()
    # Its version (1) and times are left out: the history says them.
    assert closed["rounds"] == [
        {
            "number": 1,
            "dealer": played.dealer.player.name,
            "cut_joker": "8S",
            "entered_by": "ben",
            "entries": [
                # A declaration of none, value points and claims of 0 left out.
                {
                    "player": "Asha",
                    "outcome": "declared",
                    "groups": played.entries.get(player__name="Asha").groups,
                    "declaration": "three_pure",
                    "hand_points": 0,
                    "value_points": -10,
                    "score": 117,
                },
                {
                    "player": "Ben",
                    "outcome": "shown",
                    "groups": played.entries.get(player__name="Ben").groups,
                    "hand_points": 102,
                    "value_points": 10,
                    "score": -92,
                },
                {
                    "player": "Chen",
                    "outcome": "first_drop",
                    "groups": [],
                    "hand_points": 25,  # the house rules' first drop
                    "score": -25,
                },
            ],
        }
    ]
    # Its history: who entered it and when; the round after is the round above.
    change = played.changes.get()
    assert closed["changes"] == [
        {
            "round": 1,
            "number": 1,
            "action": "created",
            "changed_by": "ben",
            "changed_at": change.changed_at.isoformat(),
        }
    ]
    # Table mode's choice: a session's own, only where it does not follow the league.
    assert [s.get("table_auto_save") for s in sessions] == [None] * 5 + [False]
    kodai = sessions[5]["rounds"][0]["entries"]
    # Hands in seat order; the losers pay claims for their jokers.
    assert [(entry["player"], entry.get("claims", 0)) for entry in kodai] == [
        ("Chen", 10),
        ("Asha", 0),
        ("Ben", 10),
    ]


def test_json_export_holds_who_joined_and_left_and_the_seatings_after(user: User) -> None:
    league = build_changing_tables(user)
    points = league.sessions.get(name="Long table")
    changes = list(points.seat_changes.order_by("after_round", "pk"))
    # The tosses the rules called for after each change, as the app dealt them.
    tossed = [[points.seats.get(pk=pk).player.name for pk in c.seats] for c in changes[1::2]]

    data = export_league(league)

    exported = next(s for s in data["sessions"] if s["name"] == "Long table")
    # Kim sits after the others, on a seat of her own.
    assert [seat["player"] for seat in exported["seats"]] == ["Asha", "Ben", "Chen", "Ravi", "Kim"]
    times = [change.created_at.isoformat() for change in changes]
    assert exported["seat_changes"] == [
        {
            "kind": "join",
            "player": "Kim",
            "after_round": 2,
            "created_at": times[0],
            "created_by": "asha",
        },
        {
            "kind": "seats",
            "after_round": 2,
            "seats": tossed[0],
            "created_at": times[1],
            "created_by": "asha",
        },
        {
            "kind": "leave",
            "player": "Ravi",
            "after_round": 3,
            "created_at": times[2],
            "created_by": "ben",
        },
        {
            "kind": "seats",
            "after_round": 3,
            "seats": tossed[1],
            "created_at": times[3],
            "created_by": "ben",
        },
    ]
    assert sorted(tossed[0]) == ["Asha", "Ben", "Chen", "Kim", "Ravi"]
    assert sorted(tossed[1]) == ["Asha", "Ben", "Chen", "Kim"]
