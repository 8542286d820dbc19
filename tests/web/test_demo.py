"""`manage.py demo`: demo data entered through the services, scored by the rules."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from games.models import GameSession, HandEntry
from games.rules import PlayerHand, get_ruleset, parse_card, score_round
from games.services.scoreboard import load_scoreboard

pytestmark = pytest.mark.django_db


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_demo_creates_a_user_and_two_sessions_scored_by_the_rules() -> None:
    output = run_demo()

    assert "Sign in as 'demo' with password 'rummy-at-the-table'." in output
    # django-axes checks every sign-in against a request, as the login view has one.
    request = RequestFactory().post("/accounts/login/")
    assert authenticate(request, username="demo", password="rummy-at-the-table") is not None
    pool = GameSession.objects.get(preset="13-pool-101")
    points = GameSession.objects.get(preset="21-points")
    pool_board = load_scoreboard(pool)
    assert pool_board.finished and pool_board.winners == ("Asha",)
    assert pool.status == GameSession.Status.FINISHED
    points_board = load_scoreboard(points)
    assert not points_board.finished and len(points_board.rows) == 3
    assert "Demo: pool 101: 3 rounds, won by Asha" in output

    # Every stored score is what the rules service gives for the stored hands.
    for played in [row.round for board in (pool_board, points_board) for row in board.rows]:
        ruleset = get_ruleset(played.session.preset, played.session.overrides)
        position = {s.player_id: s.position for s in played.session.seats.all()}
        entries = sorted(
            played.entries.select_related("player"), key=lambda e: position[e.player_id]
        )
        hands = [
            PlayerHand(
                e.player.name,
                e.outcome,
                tuple(tuple(parse_card(c) for c in group) for group in e.groups),
            )
            for e in entries
        ]
        result = score_round(ruleset, parse_card(played.cut_joker), hands)
        assert {p.name: p.score for p in result.players} == {
            e.player.name: e.score for e in entries
        }


def test_demo_can_run_again() -> None:
    run_demo()
    run_demo()

    assert GameSession.objects.count() == 2
    assert HandEntry.objects.filter(round__session__in=GameSession.objects.all()).exists()
