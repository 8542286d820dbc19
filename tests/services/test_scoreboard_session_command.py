"""The app's score table agrees with the rules command line's ``session`` on random
sessions: pools with eliminations and rejoins, points games with and without a
ceiling, ended by hand or not. Both replay through ``session_state``; this checks
that what the app stores (rounds, dealers, rejoins, the ceiling, the end) reaches it
as the command line's JSON says.

Sessions here have no joins or leaves: the app stores none yet. The rounds' hands are
written with their scores as the rules service would have given them (the
scoreboard reads only the scores), so that a session of many rounds costs a few
inserts, not a scored hand per player."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import HandEntry, Rejoin, Round
from games.rules import PRESETS, get_ruleset, session_request, session_state
from games.services.scoreboard import load_scoreboard
from games.services.sessions import close_session
from tests.support.builders import make_session
from tests.support.profiles import examples

pytestmark = pytest.mark.django_db

NAMES = ("Asha", "Ben", "Chen", "Dev")


@st.composite
def sessions(draw: st.DrawFn) -> dict[str, Any]:
    """A session as a table plays it: each round scores the players still in and is
    dealt by the player the rules say deals next; in a pool, players who are out
    rejoin where the rules allow it."""
    preset = draw(st.sampled_from(list(PRESETS)))
    rules = get_ruleset(preset)
    net = rules.totals == "net"
    ceiling = draw(st.sampled_from([None, 150, 300])) if net else rules.ceiling
    players = list(NAMES[: draw(st.integers(2, 4))])
    first = draw(st.integers(0, len(players) - 1))
    score = st.integers(-120, 120) if net else st.integers(0, 80)
    rounds: list[dict[str, int]] = []
    dealers: list[str] = []
    rejoins: list[tuple[str, int]] = []

    def replay():
        return session_state(
            rules,
            players,
            rounds,
            ceiling=ceiling,
            first_dealer=players[first],
            dealers=dealers,
            rejoins=rejoins,
        )

    for number in range(1, draw(st.integers(0, 6)) + 1):
        state = replay()
        if state.finished:
            break
        assert state.next_dealer is not None
        dealers.append(state.next_dealer)
        rounds.append({player: draw(score) for player in state.active})
        for player in replay().eliminated_in:
            state = replay()
            if state.rejoin_problem(player) is None and draw(st.booleans()):
                rejoins.append((player, number))
    state = replay()
    pool = ceiling is not None and rules.ceiling_mode != "game_ends"
    ended = bool(rounds) and not pool and not state.finished and draw(st.booleans())
    return dict(
        preset=preset,
        ceiling=ceiling,
        players=players,
        first=first,
        rounds=rounds,
        dealers=dealers,
        rejoins=rejoins,
        ended=ended,
    )


def stored(user: User, played: dict[str, Any]):
    """The session saved as the app keeps it, and its score table."""
    session = make_session(
        user,
        players=tuple(played["players"]),
        preset=played["preset"],
        ceiling=played["ceiling"],
        first_dealer=played["first"],
    )
    seats = {seat.player.name: seat for seat in session.seats.select_related("player")}
    for number, (scores, dealer) in enumerate(
        zip(played["rounds"], played["dealers"], strict=True), start=1
    ):
        done = Round.objects.create(
            session=session, number=number, dealer=seats[dealer], cut_joker="8S"
        )
        HandEntry.objects.bulk_create(
            HandEntry(round=done, player=seats[name].player, outcome="shown", score=points)
            for name, points in scores.items()
        )
        for name, after in played["rejoins"]:
            if after == number:
                Rejoin.objects.create(session=session, seat=seats[name], after_round=after)
    if played["ended"]:
        close_session(session)
        session.refresh_from_db()
    return load_scoreboard(session)


def command_line(played: dict[str, Any]) -> dict[str, Any]:
    """What ``python -m games.rules session`` prints for the same session."""
    preset = PRESETS[played["preset"]]
    overrides = {} if played["ceiling"] == preset.ceiling else {"ceiling": played["ceiling"]}
    return session_request(
        {
            "ruleset": played["preset"],
            "overrides": overrides,
            "players": played["players"],
            "first_dealer": played["players"][played["first"]],
            "rounds": played["rounds"],
            "changes": [
                {"after_round": after, "rejoin": name} for name, after in played["rejoins"]
            ],
            "ended": played["ended"],
        }
    )


@settings(
    max_examples=examples(100),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(sessions())
def test_the_score_table_is_what_the_session_command_prints(user: User, played) -> None:
    with transaction.atomic():
        board = stored(user, played)
        printed = command_line(played)
        transaction.set_rollback(True)  # each example starts from an empty table

    names = played["players"]
    assert board.warnings == ()
    for row, line in zip(board.rows, printed["rounds"], strict=True):
        assert row.dealer == line["dealer"]
        assert [cell.score for cell in row.cells] == [line["scores"][name] for name in names]
        assert [cell.total for cell in row.cells] == [line["totals"][name] for name in names]
        assert [cell.out for cell in row.cells] == [name in line["out"] for name in names]
        assert [cell.rejoined for cell in row.cells] == [
            line["rejoined"].get(name) for name in names
        ]
    offers = {offer["player"]: offer for offer in printed["rejoin_offers"]}
    standings = {player["name"]: player for player in printed["players"]}
    for column in board.columns:
        assert column.total == standings[column.name]["total"]
        assert column.eliminated_in == printed["out"].get(column.name)
        assert column.winner == (column.name in printed["winners"])
        assert column.deals_next == (column.name == printed["next_dealer"])
        offer = offers.get(column.name, {})
        assert column.rejoin_at == offer.get("total")
        assert column.rejoin_refused == offer.get("problem")
    assert board.state.finished == printed["finished"]
