"""Each seat's result and the league's ratings follow every round written."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import League, Membership, Rating, RatingChange, Seat
from games.services.ratings import replay
from games.services.round_saves import delete_round
from tests.support.builders import expected_totals, make_session, play
from tests.support.hands import LOOSE_148, ROUND_1, THREE_PURE

pytestmark = pytest.mark.django_db

ROUND_2 = {
    "Asha": ("middle_drop", ""),
    "Ben": ("declared", THREE_PURE),
    "Chen": ("shown", LOOSE_148),
}


def seat(session, name: str) -> Seat:
    return Seat.objects.get(session=session, player__name=name)


def test_seat_results_follow_the_rounds(user: User) -> None:
    session = make_session(user)
    play(session, "8S", ROUND_1)
    play(session, "5H", ROUND_2)
    state = expected_totals(
        "21-points", ("Asha", "Ben", "Chen"), [("8S", ROUND_1), ("5H", ROUND_2)]
    )
    asha, ben, chen = (seat(session, n) for n in ("Asha", "Ben", "Chen"))
    assert [s.total for s in (asha, ben, chen)] == [
        state.totals[n] for n in ("Asha", "Ben", "Chen")
    ]
    assert (asha.rounds_played, asha.rounds_won, asha.drops) == (2, 1, 1)
    assert (chen.rounds_played, chen.rounds_won, chen.drops) == (2, 0, 1)
    assert asha.points == state.totals["Asha"]
    # Net totals: best is the highest round score, worst the lowest.
    scores = [line.scores["Ben"] for line in state.lines]
    assert (ben.best_round, ben.worst_round) == (max(scores), min(scores))
    assert {s.place for s in (asha, ben, chen)} <= {1, 2, 3}
    assert not any(s.won for s in (asha, ben, chen))  # no ceiling: not finished


def test_in_penalty_totals_the_best_round_is_the_lowest(user: User) -> None:
    session = make_session(user, preset="13-pool-101", players=("Asha", "Ben"))
    win = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7D | KC KD KS"
    loose = "4C 8D 9H 2S | 5S 6H QH JD | 10C 3D 4H KH AS"
    play(session, "7C", {"Asha": ("declared", win), "Ben": ("shown", loose)})  # Ben 80
    play(session, "7C", {"Asha": ("declared", win), "Ben": ("first_drop", "")})  # Ben 20

    ben = seat(session, "Ben")
    assert (ben.total, ben.rounds_played, ben.drops) == (100, 2, 1)
    assert (ben.best_round, ben.worst_round) == (20, 80)


def test_a_finished_league_session_rates_its_players(user: User) -> None:
    league = League.objects.create(name="Club", slug="club", preset="13-pool-101")
    Membership.objects.create(league=league, user=user, role=Membership.Role.OWNER)
    session = make_session(user, preset="13-pool-101", players=("Asha", "Ben"), league=league)
    # Ben shows 80 twice: 160 ≥ 101, he is out and Asha wins.
    win = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7D | KC KD KS"
    loose = "4C 8D 9H 2S | 5S 6H QH JD | 10C 3D 4H KH AS"
    play(session, "7C", {"Asha": ("declared", win), "Ben": ("shown", loose)})
    assert not RatingChange.objects.exists()
    play(session, "7C", {"Asha": ("declared", win), "Ben": ("shown", loose)})
    asha, ben = seat(session, "Asha"), seat(session, "Ben")
    assert (asha.won, asha.place, ben.won, ben.place) == (True, 1, False, 2)
    history = {c.player.name: c for c in RatingChange.objects.select_related("player")}
    assert history["Asha"].mu > 25 > history["Ben"].mu
    current = {r.player.name: r for r in Rating.objects.select_related("player")}
    assert current["Asha"].ordinal == pytest.approx(history["Asha"].ordinal)
    assert current["Asha"].sessions == 1

    # Deleting the last round reopens the session: its rating goes away again.
    delete_round(session.rounds.get(number=2), session.created_by)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_replay_rates_sessions_in_the_order_they_were_played(user: User) -> None:
    league = League.objects.create(name="Club", slug="club2", preset="13-pool-101")
    win = "AH 2H 3H | 9S 10S JS QS | 5D 6D 7D | KC KD KS"
    loose = "4C 8D 9H 2S | 5S 6H QH JD | 10C 3D 4H KH AS"
    for winner, loser in (("Asha", "Ben"), ("Ben", "Asha"), ("Asha", "Ben")):
        session = make_session(user, preset="13-pool-101", players=("Asha", "Ben"), league=league)
        for _ in range(2):
            play(session, "7C", {winner: ("declared", win), loser: ("shown", loose)})
    sequences = sorted(set(RatingChange.objects.values_list("sequence", flat=True)))
    assert sequences == [0, 1, 2]
    before = {r.player.name: r.mu for r in Rating.objects.select_related("player")}
    assert replay(league.pk) == 3  # a full replay gives the same ratings
    after = {r.player.name: r.mu for r in Rating.objects.select_related("player")}
    assert after == pytest.approx(before)
    assert after["Asha"] > after["Ben"]
