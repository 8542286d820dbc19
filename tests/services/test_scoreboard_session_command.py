"""The app's score table agrees with the rules command line's ``session`` on random
sessions: pools with eliminations and rejoins, points games with and without a
ceiling, ended by hand or not, with players joining and leaving between rounds and
the seating each toss deals after it. Both replay through ``session_state``; this
checks that what the app stores (rounds, dealers, rejoins, joins, leaves, seatings,
the ceiling, the end) reaches it as the command line's JSON says.

The table's changes are made through the app's services, as the session page makes
them; where a service refuses one, the command line must refuse it too. The rounds'
hands are written with their scores as the rules service would have given them (the
scoreboard reads only the scores), dealt by the dealer and to the players the score
table names, so that a session of many rounds costs a few inserts, not a scored hand
per player."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import GameSession, HandEntry, Round, Seat, SeatChange
from games.rules import PRESETS, RulesError, get_ruleset, session_request
from games.services.errors import EntryRejected
from games.services.results import refresh_session
from games.services.scoreboard import Scoreboard, load_scoreboard
from games.services.sessions import can_close, close_session, join, leave, rejoin
from tests.support.builders import make_session
from tests.support.profiles import examples

pytestmark = pytest.mark.django_db

NAMES = ("Asha", "Ben", "Chen", "Dev")
# Who may come late: two newcomers, and the names already seated (which the app and
# the command line both refuse).
JOINERS = ("Esi", "Femi", *NAMES)
POOLS = [name for name, rules in PRESETS.items() if rules.rejoin_cutoff is not None]
# Penalty scores as a 13-card table writes them (a declaration, a first or middle drop,
# a full count), one player out of luck: a pool puts them out while the others are
# still under the rejoin cutoff, which a rejoin needs.
IN_LUCK, OUT_OF_LUCK = (0, 0, 20, 40), (40, 80)


@dataclass
class Played:
    """A session as the command line reads it: what the test did through the app."""

    preset: str
    overrides: dict[str, object]
    ceiling: int | None
    players: list[str]
    first: int
    unlucky: str
    rounds: list[dict[str, int]] = field(default_factory=list)
    changes: list[dict[str, object]] = field(default_factory=list)
    ended: bool = False

    def request(self, *more: dict[str, object]) -> dict[str, Any]:
        """The ``session`` command's input, with ``more`` changes after the others."""
        preset = PRESETS[self.preset]
        ceiling = {} if self.ceiling == preset.ceiling else {"ceiling": self.ceiling}
        return {
            "ruleset": self.preset,
            "overrides": self.overrides | ceiling,
            "players": self.players,
            "first_dealer": self.players[self.first],
            "rounds": self.rounds,
            "changes": [*self.changes, *more],
            "ended": self.ended,
        }


def play_round(
    session: GameSession, board: Scoreboard, played: Played, draw: st.DrawFn
) -> dict[str, int]:
    """A round as a save writes it: dealt by the dealer the table names, a hand for
    each player it says plays; the scores as drawn."""
    scores = {}
    for seat in board.playing_seats:
        name = seat.player.name
        if board.ruleset.totals == "net":
            scores[name] = draw(st.integers(-120, 120))
        else:
            scores[name] = draw(st.sampled_from(OUT_OF_LUCK if name == played.unlucky else IN_LUCK))
    done = Round.objects.create(
        session=session, number=len(board.rows) + 1, dealer=board.next_dealer, cut_joker="8S"
    )
    HandEntry.objects.bulk_create(
        HandEntry(round=done, player=seat.player, outcome="shown", score=scores[seat.player.name])
        for seat in board.playing_seats
    )
    return scores


def change_the_table(
    user: User, session: GameSession, played: Played, draw: st.DrawFn, made: list[str]
) -> bool:
    """One change after the last round through the services, as the session page
    makes it: someone leaves, joins or rejoins (``made``: this gap's so far); or
    False, the table plays on. The toss a change calls for is the app's to deal; the
    seating it stored goes to the command line as it is."""
    board = load_scoreboard(session)
    offered = [column.seat for column in board.columns if column.rejoin_at is not None]
    # Mostly the table plays on (a leave soon ends a small table); with a rejoin on
    # offer, mostly it does not. (Hypothesis favours the first of a list.)
    if not draw(st.sampled_from([True, True, False] if offered else [False, False, True])):
        return False
    # A rejoin the table offers is taken more often than not, most of all after a join
    # or a leave of the same gap: the order of a gap's changes moves the totals.
    boost = (4 if {"join", "leave"} & set(made) else 1) if offered else 0
    kind = draw(st.sampled_from([*["rejoin"] * boost, "join", "leave", "rejoin"]))
    # Mostly a change the table would make (a player still in leaves, one who is
    # offered a rejoin takes it), sometimes any seat: the app's refusals are checked too.
    likely = offered if kind == "rejoin" else board.playing_seats
    rng = random.Random(draw(st.integers(0, 2**16)))  # the toss's cards
    tossed = set(session.seat_changes.filter(kind="seats").values_list("pk", flat=True))
    try:
        if kind == "join":
            name = draw(st.sampled_from(JOINERS))
            join(session, name, user, rng)
        else:
            seat = draw(st.sampled_from(likely or board.seats) | st.sampled_from(board.seats))
            name = seat.player.name
            if kind == "leave":
                leave(session, seat, user, rng)
            else:
                rejoin(session, seat, user)
    except EntryRejected:
        with pytest.raises(RulesError):  # refused by the command line too
            session_request(played.request({"after_round": len(played.rounds), kind: name}))
        return True
    played.changes.append({"after_round": len(played.rounds), kind: name})
    made.append(kind)
    name_of = dict(session.seats.values_list("pk", "player__name"))
    for seating in session.seat_changes.filter(kind="seats").exclude(pk__in=tossed):
        seated = [name_of[pk] for pk in seating.seats]
        played.changes.append({"after_round": seating.after_round, "seats": seated})
    return True


def play_a_session(user: User, draw: st.DrawFn) -> tuple[GameSession, Played]:
    """A session as a table plays it: each round scores the players the app says are
    in, then up to three changes to the table; a points game may be ended by hand."""
    # Pools half the time or more: they need rounds to put anyone out and offer rejoins.
    preset = draw(st.sampled_from(POOLS) | st.sampled_from(list(PRESETS)))
    rules = get_ruleset(preset)
    optional = {
        "toss_on_change": st.booleans(),
        "join_total": st.sampled_from(["zero", "worst", "rejoin"]),
    }
    players = list(NAMES[: draw(st.integers(2, 4))])
    played = Played(
        preset=preset,
        overrides=draw(st.fixed_dictionaries({}, optional=optional)),
        ceiling=draw(st.sampled_from([None, 150, 300])) if rules.totals == "net" else rules.ceiling,
        players=players,
        first=draw(st.integers(0, len(players) - 1)),
        unlucky=draw(st.sampled_from(players)),
    )
    session = make_session(
        user,
        players=tuple(players),
        preset=preset,
        overrides=played.overrides,
        ceiling=played.ceiling,
        first_dealer=played.first,
    )
    # Up to nine rounds, the most first, for a pool needs rounds to put anyone out (a
    # session that ends sooner stops there).
    for _ in range(draw(st.sampled_from(range(9, -1, -1)))):
        board = load_scoreboard(session)
        if board.finished:
            break
        played.rounds.append(play_round(session, board, played, draw))
        made: list[str] = []  # this gap's changes
        for _ in range(3):  # a change or a try at one, three at most
            if not change_the_table(user, session, played, draw, made):
                break
    refresh_session(session)  # as a save of the last round would
    if can_close(load_scoreboard(session)) and draw(st.booleans()):
        close_session(session)
        played.ended = True
    return session, played


@settings(
    max_examples=examples(100),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_the_score_table_is_what_the_session_command_prints(user: User, data) -> None:
    with transaction.atomic():
        session, played = play_a_session(user, data.draw)
        session.refresh_from_db()
        board = load_scoreboard(session)
        stored = {
            seat.player.name: (seat.total, seat.place, seat.won)
            for seat in Seat.objects.filter(session=session).select_related("player")
        }
        seatings = session.seat_changes.filter(kind=SeatChange.Kind.SEATING).count()
        transaction.set_rollback(True)  # each example starts from an empty table
    printed = session_request(played.request())

    assert board.warnings == ()
    standings = {player["name"]: player for player in printed["players"]}
    names = [column.name for column in board.columns]
    assert names == list(standings)  # the first seats, then the latecomers as they came
    for row, line in zip(board.rows, printed["rounds"], strict=True):
        assert row.dealer == line["dealer"]
        for name, cell in zip(names, row.cells, strict=True):
            assert cell.away == (name not in line["scores"])
            assert cell.score == line["scores"].get(name)
            if name in line["totals"]:  # a latecomer has no total before they come
                assert cell.total == line["totals"][name]
            assert cell.out == (name in line["out"])
            assert cell.rejoined == line["rejoined"].get(name)
    offers = {offer["player"]: offer for offer in printed["rejoin_offers"]}
    for column in board.columns:
        standing = standings[column.name]
        assert column.total == standing["total"]
        assert column.eliminated_in == printed["out"].get(column.name)
        assert column.left_after == printed["left"].get(column.name)
        assert column.joined_after == standing.get("joined_after")
        assert column.winner == (column.name in printed["winners"])
        assert column.deals_next == (column.name == printed["next_dealer"])
        offer = offers.get(column.name, {})
        assert column.rejoin_at == offer.get("total")
        assert column.rejoin_refused == offer.get("problem")
        # What the standings and the settlement read: a leaver is settled too.
        won = printed["finished"] and column.name in printed["winners"]
        assert stored[column.name] == (standing["total"], standing["place"], won)
    in_now = {player["name"] for player in printed["players"] if player["status"] == "in"}
    assert {seat.player.name for seat in board.playing_seats} == in_now
    assert board.finished == printed["finished"]
    next_dealer = board.next_dealer.player.name if board.next_dealer else None
    assert next_dealer == printed["next_dealer"]
    assert board.join_at == (printed["join_total"] if board.rows else None)
    # The app deals the toss a change calls for at once: none is ever left due.
    assert printed["toss_due"] is False
    assert seatings == sum("seats" in change for change in played.changes)
