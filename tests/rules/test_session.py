"""Joining and leaving between rounds (docs/rules §5, "Joining and leaving"): the
latecomer's total, the leaver's, rejoin offers, the seats and the deal, the winner."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (
    JOIN,
    LEAVE,
    PRESETS,
    REJOIN,
    RejoinOffer,
    RulesError,
    SeatChange,
    Seating,
    get_ruleset,
    session_report,
    session_request,
    session_state,
)
from games.rules.rulesets import JOIN_TOTALS
from tests.support.profiles import examples

ABC = ["Asha", "Ben", "Chen"]
POOL = PRESETS["13-pool-101"]
# The seats kept as they are, so that the deal passes on without a toss.
KEEP_SEATS = {"toss_on_change": False}


def join(player: str, after: int) -> SeatChange:
    return SeatChange(JOIN, player, after)


def leave(player: str, after: int) -> SeatChange:
    return SeatChange(LEAVE, player, after)


def rejoin(player: str, after: int) -> SeatChange:
    return SeatChange(REJOIN, player, after)


# --- A latecomer's total ----------------------------------------------------------------


@pytest.mark.parametrize("preset", ["21-points", "21-paplu", "13-points"])
def test_a_latecomer_to_a_points_game_starts_at_zero(preset):
    rounds = [{"Asha": 122, "Ben": -92, "Chen": -30}, {"Asha": -20, "Ben": 50, "Dev": -30}]
    state = session_state(PRESETS[preset], ABC, rounds, changes=[join("Dev", 1)])
    assert state.lines[0].joined == {"Dev": 0}
    assert state.joined_after == {"Dev": 1}
    assert state.totals["Dev"] == -30  # 0, then round 2's -30
    assert state.players == ("Asha", "Ben", "Chen", "Dev")
    assert "Dev" not in state.lines[0].scores  # not at the table in round 1
    assert state.lines[1].scores["Dev"] == -30


def test_a_latecomer_to_kodai_starts_level_with_the_worst_total_still_in():
    state = session_state(
        PRESETS["21-kodai"], ABC, [{"Asha": 0, "Ben": 260, "Chen": 160}], changes=[join("Dev", 1)]
    )
    assert state.totals["Dev"] == 260


def test_a_latecomer_to_a_pool_joins_as_a_rejoin_at_the_highest_total_still_in_plus_one():
    # Ben is out at 101; the highest total still in is Chen's 40.
    rounds = [{"Asha": 0, "Ben": 101, "Chen": 40}]
    state = session_state(POOL, ABC, rounds, changes=[join("Dev", 1)])
    assert state.totals["Dev"] == 41
    assert state.lines[0].joined == {"Dev": 41}


def test_no_latecomer_joins_a_pool_once_rejoining_has_closed():
    rounds = [{"Asha": 0, "Ben": 80, "Chen": 40}]  # Ben is above the cutoff of 79
    state = session_state(POOL, ABC, rounds)
    assert state.join_problem() == "Ben is still in at 80, so rejoining has closed"
    with pytest.raises(RulesError) as error:
        session_state(POOL, ABC, rounds, changes=[join("Dev", 1)])
    assert error.value.field == "changes[0]"
    assert error.value.message == "Dev cannot join: Ben is still in at 80, so rejoining has closed"


def test_a_pool_may_let_a_latecomer_in_at_zero_or_the_worst_total_whatever_the_cutoff():
    rounds = [{"Asha": 0, "Ben": 80, "Chen": 40}]
    zero = session_state(get_ruleset("13-pool-101", {"join_total": "zero"}), ABC, rounds)
    worst = session_state(get_ruleset("13-pool-101", {"join_total": "worst"}), ABC, rounds)
    assert (zero.join_problem(), zero.join_total()) == (None, 0)
    assert (worst.join_problem(), worst.join_total()) == (None, 80)


def test_in_net_totals_the_worst_total_is_the_lowest():
    rules = get_ruleset("21-points", {"join_total": "rejoin"})
    state = session_state(rules, ABC, [{"Asha": 122, "Ben": -92, "Chen": -30}])
    assert state.join_total() == -93


def test_a_name_at_the_table_or_gone_from_it_cannot_join():
    rounds = [{"Asha": 10, "Ben": -10}, {"Asha": 5, "Ben": -5}]
    with pytest.raises(RulesError, match="Chen cannot join: already at the table"):
        session_state(PRESETS["13-points"], ABC, rounds, changes=[join("Chen", 1)])
    changes = [leave("Chen", 1), join("Chen", 2)]
    with pytest.raises(RulesError, match="left the table after round 1") as error:
        session_state(PRESETS["13-points"], ABC, rounds, changes=changes)
    assert error.value.field == "changes[1]"


# --- A leaver -----------------------------------------------------------------------------


def test_a_leaver_keeps_their_total_plays_no_later_round_and_is_still_settled():
    rounds = [{"Asha": 100, "Ben": -20, "Chen": -80}, {"Asha": -40, "Ben": 40}]
    state = session_state(PRESETS["13-points"], ABC, rounds, changes=[leave("Chen", 1)])
    assert state.totals["Chen"] == -80
    assert [line.totals["Chen"] for line in state.lines] == [-80, -80]
    assert "Chen" not in state.lines[1].scores
    assert state.left_after == {"Chen": 1}
    assert state.active == ("Asha", "Ben")
    assert state.seats == ("Asha", "Ben")
    # Settled with the rest: the totals an evening is settled from still hold Chen's.
    assert sum(state.totals.values()) == 0
    assert state.order == ("Asha", "Ben", "Chen")  # below everyone still in


def test_a_leaver_has_no_score_in_a_later_round():
    rounds = [{"Asha": 100, "Ben": -20, "Chen": -80}, {"Asha": -40, "Chen": 40}]
    with pytest.raises(RulesError) as error:
        session_state(PRESETS["13-points"], ABC, rounds, changes=[leave("Chen", 1)])
    assert error.value.field == "rounds[1].Chen"
    assert error.value.message == "Chen is not at the table in round 2"


def test_a_leaver_does_not_win_where_the_best_total_wins():
    # Asha leaves with 0; Ben passes 500: the lowest total at the table wins.
    rounds = [{"Asha": 0, "Ben": 260, "Chen": 160}, {"Ben": 250, "Chen": 0}]
    state = session_state(PRESETS["21-kodai"], ABC, rounds, changes=[leave("Asha", 1)])
    assert state.finished
    assert state.winners == ("Chen",)
    ended = session_state(
        PRESETS["13-points"],
        ABC,
        [{"Asha": 100, "Ben": -20, "Chen": -80}, {"Ben": 10, "Chen": -10}],
        changes=[leave("Asha", 1)],
        closed=True,
    )
    assert ended.winners == ("Ben",)


def test_when_everyone_else_leaves_the_last_player_in_wins():
    rounds = [{"Asha": 0, "Ben": 30, "Chen": 20}]
    state = session_state(POOL, ABC, rounds, changes=[leave("Ben", 1), leave("Chen", 1)])
    assert state.finished and state.winners == ("Asha",)
    assert state.next_dealer is None
    with pytest.raises(RulesError, match="the session is over after round 1"):
        session_state(
            POOL, ABC, rounds, changes=[leave("Ben", 1), leave("Chen", 1), join("Dev", 1)]
        )


def test_a_pool_ends_when_a_leave_leaves_one_player_in():
    rounds = [{"Asha": 0, "Ben": 101, "Chen": 20}]  # Ben is out
    state = session_state(POOL, ABC, rounds, changes=[leave("Chen", 1)])
    assert state.finished and state.winners == ("Asha",)
    assert state.rejoin_offers() == ()


def test_a_latecomer_cannot_leave_before_playing_a_round():
    rounds = [{"Asha": 0, "Ben": 10}]
    with pytest.raises(RulesError, match="Chen joined after round 1 and played no round"):
        session_state(POOL, ["Asha", "Ben"], rounds, changes=[join("Chen", 1), leave("Chen", 1)])


def test_nobody_leaves_twice_and_only_a_player_at_the_table_leaves():
    rounds = [{"Asha": 0, "Ben": 10, "Chen": 20}, {"Asha": 0, "Ben": 10}]
    with pytest.raises(RulesError, match="Chen left the table after round 1"):
        session_state(POOL, ABC, rounds, changes=[leave("Chen", 1), leave("Chen", 2)])
    with pytest.raises(RulesError, match="Dev is not at the table"):
        session_state(POOL, ABC, rounds, changes=[leave("Dev", 1)])


# --- Rejoin offers --------------------------------------------------------------------------


def test_a_player_who_is_out_is_offered_the_highest_total_still_in_plus_one():
    rounds = [{"Asha": 0, "Ben": 101, "Chen": 40}]
    state = session_state(POOL, ABC, rounds)
    assert state.rejoin_offers() == (RejoinOffer("Ben", 41),)
    rejoined = session_state(POOL, ABC, rounds, changes=[rejoin("Ben", 1)])
    assert rejoined.totals["Ben"] == 41 and rejoined.lines[0].rejoined == {"Ben": 41}


def test_an_offer_above_the_cutoff_says_why_not():
    state = session_state(POOL, ABC, [{"Asha": 0, "Ben": 101, "Chen": 80}])
    assert state.rejoin_offers() == (
        RejoinOffer("Ben", None, "Chen is still in at 80, above the cutoff of 79"),
    )


def test_a_player_who_is_out_and_leaves_is_offered_nothing_and_cannot_rejoin():
    rounds = [{"Asha": 0, "Ben": 101, "Chen": 40, "Dev": 10}]
    players = [*ABC, "Dev"]
    state = session_state(POOL, players, rounds, changes=[leave("Ben", 1)])
    assert state.rejoin_offers() == ()
    assert state.eliminated_in == {"Ben": 1}  # out in round 1, and gone since
    with pytest.raises(RulesError, match="Ben has left the table"):
        session_state(POOL, players, rounds, changes=[leave("Ben", 1), rejoin("Ben", 1)])


def test_points_games_offer_no_rejoin():
    state = session_state(PRESETS["13-points"], ABC, [{"Asha": 10, "Ben": -10}])
    assert state.rejoin_offers() == ()


# --- The seats and the deal -------------------------------------------------------------------


def test_a_join_calls_for_a_toss_and_the_next_dealer_waits_for_it():
    rounds = [{"Asha": 122, "Ben": -92, "Chen": -30}]
    state = session_state(
        PRESETS["21-points"], ABC, rounds, dealers=["Asha"], changes=[join("Dev", 1)]
    )
    assert state.toss_due and state.next_dealer is None
    assert state.seats == ("Asha", "Ben", "Chen", "Dev")


def test_after_the_toss_the_lowest_card_in_the_last_seat_deals():
    rounds = [{"Asha": 122, "Ben": -92, "Chen": -30}]
    tossed = Seating(1, ("Dev", "Chen", "Asha", "Ben"))
    state = session_state(
        PRESETS["21-points"], ABC, rounds, dealers=["Asha"], changes=[join("Dev", 1), tossed]
    )
    assert not state.toss_due
    assert state.seats == ("Dev", "Chen", "Asha", "Ben")
    assert state.next_dealer == "Ben"
    assert state.lines[0].seats == ("Dev", "Chen", "Asha", "Ben")
    # And from there the deal passes clockwise in the new seats.
    more = [*rounds, {"Asha": 10, "Ben": -10, "Chen": 0, "Dev": 0}]
    after = session_state(PRESETS["21-points"], ABC, more, changes=[join("Dev", 1), tossed])
    assert after.lines[1].dealer == "Ben"
    assert after.next_dealer == "Dev"


def test_a_leave_calls_for_a_toss_too_but_a_rejoin_does_not():
    rounds = [{"Asha": 0, "Ben": 101, "Chen": 40, "Dev": 10}]
    players = [*ABC, "Dev"]
    left = session_state(POOL, players, rounds, dealers=["Asha"], changes=[leave("Dev", 1)])
    assert left.toss_due and left.next_dealer is None
    back = session_state(POOL, players, rounds, dealers=["Asha"], changes=[rejoin("Ben", 1)])
    assert not back.toss_due and back.next_dealer == "Ben"


def test_a_rejoin_after_the_toss_leaves_the_deal_to_the_lowest_card():
    # Ben is out after round 1; Dev goes home, the toss seats Chen then Asha, and Ben
    # rejoins: he sits after them, but drew no card and so does not deal.
    rounds = [{"Asha": 0, "Ben": 101, "Chen": 40, "Dev": 10}]
    changes = [leave("Dev", 1), Seating(1, ("Chen", "Asha")), rejoin("Ben", 1)]
    state = session_state(POOL, [*ABC, "Dev"], rounds, dealers=["Asha"], changes=changes)
    assert state.seats == ("Chen", "Asha", "Ben")
    assert state.next_dealer == "Asha"
    # And from there the deal passes clockwise, to Ben.
    more = [*rounds, {"Asha": 20, "Ben": 0, "Chen": 20}]
    after = session_state(POOL, [*ABC, "Dev"], more, changes=changes)
    assert (after.lines[1].dealer, after.next_dealer) == ("Asha", "Ben")


def test_without_a_toss_a_latecomer_sits_last_and_the_deal_passes_on():
    rules = get_ruleset("21-points", KEEP_SEATS)
    rounds = [{"Asha": 10, "Ben": -5, "Chen": -5}]
    state = session_state(rules, ABC, rounds, dealers=["Chen"], changes=[join("Dev", 1)])
    assert not state.toss_due
    assert state.seats == ("Asha", "Ben", "Chen", "Dev")
    assert state.next_dealer == "Dev"  # clockwise after Chen: the new last seat


def test_without_a_toss_the_deal_passes_on_from_a_dealer_who_left():
    rules = get_ruleset("13-points", KEEP_SEATS)
    rounds = [{"Asha": 10, "Ben": -5, "Chen": -5, "Dev": 0}]
    players = [*ABC, "Dev"]
    state = session_state(rules, players, rounds, dealers=["Ben"], changes=[leave("Ben", 1)])
    assert state.next_dealer == "Chen"


def test_the_deal_passes_round_by_round_when_no_dealer_is_given():
    rounds = [{"Asha": 10, "Ben": -5, "Chen": -5}] * 4
    state = session_state(PRESETS["13-points"], ABC, rounds, first_dealer="Ben")
    assert [line.dealer for line in state.lines] == ["Ben", "Chen", "Asha", "Ben"]
    assert state.next_dealer == "Chen"


def test_a_seating_lists_every_player_still_in_once_and_nobody_else():
    rounds = [{"Asha": 0, "Ben": 101, "Chen": 40}]
    for seats, where, message in [
        (("Asha",), "changes[0].seats", "the seats must include Chen"),
        (("Asha", "Chen", "Asha"), "changes[0].seats[2]", "Asha is seated twice"),
        (("Asha", "Chen", "Dev"), "changes[0].seats[2]", "Dev is not at the table"),
    ]:
        with pytest.raises(RulesError) as error:
            session_state(POOL, ABC, rounds, changes=[Seating(1, seats)])
        assert (error.value.field, error.value.message) == (where, message)
    # Ben is out: he may be left off, and sits after the others.
    state = session_state(POOL, ABC, rounds, changes=[Seating(1, ("Chen", "Asha"))])
    assert state.seats == ("Chen", "Asha", "Ben")


def test_a_dealer_not_at_the_table_is_refused():
    rounds = [{"Asha": 10, "Ben": -10}, {"Asha": 10, "Ben": -10}]
    with pytest.raises(RulesError) as error:
        session_state(
            PRESETS["13-points"], ABC, rounds, dealers=["Asha", "Chen"], changes=[leave("Chen", 1)]
        )
    assert error.value.field == "dealers[1]"


# --- The winner --------------------------------------------------------------------------------


def test_a_pool_is_won_by_the_last_player_standing_latecomers_included():
    rounds = [
        {"Asha": 0, "Ben": 101, "Chen": 40},
        {"Asha": 101, "Chen": 0, "Dev": 20},
    ]
    state = session_state(POOL, ABC, rounds, changes=[join("Dev", 1)])
    assert state.eliminated_in == {"Ben": 1, "Asha": 2}
    assert not state.finished  # Chen and Dev are still in
    last = [*rounds, {"Chen": 0, "Dev": 60}]
    over = session_state(POOL, ABC, last, changes=[join("Dev", 1)])
    assert over.finished and over.winners == ("Chen",)  # Dev passed 101
    assert over.eliminated_in["Dev"] == 3


def test_a_points_game_without_a_ceiling_has_no_winner_until_the_table_ends_it():
    rounds = [{"Asha": 10, "Ben": -10}, {"Asha": -30, "Ben": 10, "Dev": 20}]
    state = session_state(PRESETS["13-points"], ["Asha", "Ben"], rounds, changes=[join("Dev", 1)])
    assert not state.finished and state.winners == ()
    ended = session_state(
        PRESETS["13-points"], ["Asha", "Ben"], rounds, changes=[join("Dev", 1)], closed=True
    )
    assert ended.winners == ("Dev",)


def test_changes_after_the_last_round_or_before_the_first_are_refused():
    rounds = [{"Asha": 10, "Ben": -10}]
    for change, message in [
        (join("Dev", 2), "there is no round 2 to come after"),
        (join("Dev", 0), "a change comes after a round: after_round is at least 1"),
        (rejoin("Ben", 3), "Ben cannot rejoin after round 3"),
    ]:
        with pytest.raises(RulesError) as error:
            session_state(PRESETS["13-points"], ABC, rounds, changes=[change])
        assert (error.value.field, error.value.message) == ("changes[0]", message)


def test_a_change_of_an_unknown_kind_is_refused():
    with pytest.raises(RulesError, match="not 'swap'"):
        session_state(
            PRESETS["13-points"], ABC, [{"Asha": 1}], changes=[SeatChange("swap", "Ben", 1)]
        )


# --- The options ----------------------------------------------------------------------------------


def test_each_preset_says_with_what_total_a_latecomer_joins_and_tosses_again():
    assert {name: rules.join_total for name, rules in PRESETS.items()} == {
        "21-points": "zero",
        "21-paplu": "zero",
        "21-kodai": "worst",
        "13-points": "zero",
        "13-pool-101": "rejoin",
        "13-pool-201": "rejoin",
    }
    assert all(rules.toss_on_change for rules in PRESETS.values())
    with pytest.raises(RulesError) as error:
        get_ruleset("21-points", {"join_total": "average"})
    assert error.value.field == "overrides.join_total"
    assert dataclasses.replace(PRESETS["21-points"], join_total="worst").join_total == "worst"


# --- Invariants on random sessions -------------------------------------------------------------

NAMES = ["Asha", "Ben", "Chen", "Dev", "Esha", "Farid", "Gita"]
NET_PRESETS = [name for name, rules in PRESETS.items() if rules.totals == "net"]


def _replays(rules, players, rounds, changes) -> bool:
    try:
        session_state(rules, players, rounds, changes=changes)
    except RulesError:
        return False
    return True


@st.composite
def sessions(draw):
    """A random session played as a table would: every player still in scores each
    round, and between rounds players join, leave, rejoin and are seated anew, each
    change one the rules allow. Pools with eliminations and rejoins, points games
    with and without a ceiling, under each way a latecomer may start."""
    preset = draw(st.sampled_from(list(PRESETS)))
    overrides: dict[str, object] = {
        "join_total": draw(st.sampled_from(JOIN_TOTALS)),
        "toss_on_change": draw(st.booleans()),
    }
    if preset in NET_PRESETS:
        overrides["ceiling"] = draw(st.sampled_from([None, 150, 300]))
    rules = get_ruleset(preset, overrides)
    net = rules.totals == "net"
    players = NAMES[: draw(st.integers(2, 4))]
    newcomers = iter(NAMES[len(players) :])
    rounds: list[dict[str, int]] = []
    changes: list[SeatChange | Seating] = []
    score = st.integers(-120, 120) if net else st.integers(0, 80)
    for number in range(1, draw(st.integers(0, 7)) + 1):
        state = session_state(rules, players, rounds, changes=changes)
        if state.finished:
            break
        rounds.append({player: draw(score) for player in state.active})
        for _ in range(draw(st.integers(0, 3))):
            state = session_state(rules, players, rounds, changes=changes)
            kind = draw(st.sampled_from([JOIN, LEAVE, REJOIN, "seats"]))
            change: SeatChange | Seating
            if kind == JOIN:
                name = next(newcomers, None)
                if name is None:
                    continue
                change = SeatChange(JOIN, name, number)
            elif kind == "seats":
                change = Seating(number, tuple(draw(st.permutations(state.active))))
            else:
                change = SeatChange(kind, draw(st.sampled_from(state.seats)), number)
            if _replays(rules, players, rounds, [*changes, change]):
                changes.append(change)
    return rules, players, rounds, changes


def _loss(total: int, net: bool) -> int:
    return -total if net else total


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_totals_are_each_start_plus_the_scores_since(session):
    rules, players, rounds, changes = session
    state = session_state(rules, players, rounds, changes=changes)
    start = {player: 0 for player in players}
    for line in state.lines:
        for player, total in line.totals.items():
            assert total == start[player] + (line.scores.get(player) or 0)
        start = {**line.totals, **line.joined, **line.rejoined}
    assert state.totals == start


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_a_leavers_total_never_changes_after_leaving(session):
    rules, players, rounds, changes = session
    state = session_state(rules, players, rounds, changes=changes)
    for player, after in state.left_after.items():
        gap = state.lines[after - 1]
        # The total after the round, or the one a rejoin just before leaving gave.
        kept = gap.rejoined.get(player, gap.totals[player])
        assert all(line.totals[player] == kept for line in state.lines[after:])
        assert all(player not in line.scores for line in state.lines[after:])
        assert state.totals[player] == kept
        assert player not in state.winners and player not in state.seats


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_a_pools_out_players_are_those_at_the_ceiling_who_did_not_rejoin(session):
    rules, players, rounds, changes = session
    state = session_state(rules, players, rounds, changes=changes)
    if state.ceiling is None or rules.ceiling_mode == "game_ends":
        assert state.eliminated_in == {}
        return
    for player in state.eliminated_in:
        assert _loss(state.totals[player], state.net) >= state.ceiling
    if not state.finished:
        assert all(_loss(state.totals[p], state.net) < state.ceiling for p in state.active)


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_the_next_dealer_and_the_winners_are_players_still_in(session):
    rules, players, rounds, changes = session
    state = session_state(rules, players, rounds, changes=changes)
    assert bool(state.winners) == state.finished
    assert set(state.winners) <= set(state.active)
    if state.finished or state.toss_due:
        assert state.next_dealer is None
    elif all(line.dealer for line in state.lines):
        assert state.next_dealer in state.active
    assert len(state.seats) == len(set(state.seats))
    assert set(state.active) <= set(state.seats)
    for offer in state.rejoin_offers():
        assert offer.player in state.eliminated_in
        assert (offer.total is None) == (offer.problem is not None)


@settings(max_examples=examples(200), suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_the_command_lines_session_is_the_function_the_app_calls(session):
    rules, players, rounds, changes = session
    request = {
        "ruleset": rules.preset,
        "overrides": rules.overrides_from(PRESETS[rules.preset]),
        "players": players,
        "rounds": rounds,
        "changes": [
            {"after_round": c.after_round, "seats": list(c.seats)}
            if isinstance(c, Seating)
            else {"after_round": c.after_round, c.kind: c.player}
            for c in changes
        ],
    }
    state = session_state(rules, players, rounds, changes=changes)
    assert session_request(json.loads(json.dumps(request))) == json.loads(
        json.dumps(session_report(state))
    )
