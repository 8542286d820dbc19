"""Running totals, the ceiling row of docs/rules §5, eliminations and the deal."""

from __future__ import annotations

import random

import pytest

from games.rules import PRESETS
from games.rules.totals import session_state

ABC = ["Asha", "Ben", "Chen"]


def test_totals_are_running_sums_of_round_scores():
    state = session_state(
        PRESETS["21-points"],
        ABC,
        [{"Asha": 122, "Ben": -92, "Chen": -30}, {"Asha": -20, "Ben": 50, "Chen": -30}],
    )
    assert [line.totals for line in state.lines] == [
        {"Asha": 122, "Ben": -92, "Chen": -30},
        {"Asha": 102, "Ben": -42, "Chen": -60},
    ]
    assert not state.finished  # no ceiling in 21-points


def test_kodai_game_ends_after_the_round_a_total_reaches_500():
    # Ben reaches 480 + 30 = 510 in round 2: the session ends; the lowest total wins.
    rounds = [{"Asha": 0, "Ben": 480, "Chen": 100}, {"Asha": 40, "Ben": 30, "Chen": 0}]
    state = session_state(PRESETS["21-kodai"], ABC, rounds)
    assert state.finished
    assert state.winners == ("Asha",)
    assert state.totals == {"Asha": 40, "Ben": 510, "Chen": 100}
    assert state.eliminated_in == {}
    assert state.next_dealer is None


def test_kodai_goes_on_below_the_ceiling():
    state = session_state(PRESETS["21-kodai"], ABC, [{"Asha": 0, "Ben": 499, "Chen": 60}])
    assert not state.finished
    assert state.distance_to_ceiling("Ben") == 1


def test_pool_101_eliminates_a_player_who_reaches_101_and_the_last_one_wins():
    # Round 1: Ben 80 + 21 = 101 in round 2 → out. Round 3: Chen 60 + 41 → out: Asha wins.
    rounds = [
        {"Asha": 0, "Ben": 80, "Chen": 20},
        {"Asha": 30, "Ben": 21, "Chen": 0},
        {"Asha": 0, "Chen": 81},
    ]
    state = session_state(PRESETS["13-pool-101"], ABC, rounds)
    assert state.eliminated_in == {"Ben": 2, "Chen": 3}
    assert [line.eliminated for line in state.lines] == [(), ("Ben",), ("Chen",)]
    assert state.lines[2].scores["Ben"] is None  # Ben sat out round 3
    assert state.finished and state.winners == ("Asha",)


def test_pool_201_uses_its_own_ceiling_and_a_session_may_choose_another():
    rounds = [{"Asha": 0, "Ben": 150, "Chen": 10}]
    assert session_state(PRESETS["13-pool-201"], ABC, rounds).eliminated_in == {}
    assert session_state(PRESETS["13-pool-201"], ABC, rounds, ceiling=150).eliminated_in == {
        "Ben": 1
    }


def test_when_everyone_left_reaches_the_ceiling_the_lowest_stays_and_wins():
    rounds = [{"Asha": 90, "Ben": 90}, {"Asha": 20, "Ben": 40}]
    state = session_state(PRESETS["13-pool-101"], ["Asha", "Ben"], rounds)
    assert state.eliminated_in == {"Ben": 2}
    assert state.winners == ("Asha",)


def test_net_ceiling_limits_what_a_player_may_lose():
    state = session_state(
        PRESETS["13-points"], ABC, [{"Asha": 134, "Ben": -54, "Chen": -80}], ceiling=80
    )
    assert state.finished
    assert state.winners == ("Asha",)  # the highest net total
    assert state.distance_to_ceiling("Ben") == 26
    # Shown as a total: what a net total may fall to, so 26 to go from -54 reads right.
    assert state.ceiling_total == -80


def test_a_penalty_ceiling_is_shown_as_itself():
    assert session_state(PRESETS["13-pool-101"], ABC, []).ceiling_total == 101
    assert session_state(PRESETS["13-points"], ABC, []).ceiling_total is None


def test_the_deal_passes_clockwise_to_the_next_player_still_in():
    preset = PRESETS["13-pool-101"]
    assert session_state(preset, ABC, [], first_dealer="Ben").next_dealer == "Ben"
    rounds = [{"Asha": 0, "Ben": 101, "Chen": 20}]
    # Asha dealt round 1; Ben is out, so Chen deals next.
    assert session_state(preset, ABC, rounds, dealers=["Asha"]).next_dealer == "Chen"
    # Chen dealt: the deal wraps round to Asha.
    assert session_state(preset, ABC, rounds, dealers=["Chen"]).next_dealer == "Asha"


def test_toss_seats_from_the_highest_card_and_the_lowest_deals():
    from games.rules.cards import parse_card
    from games.rules.toss import toss, toss_strength

    order = toss(["Asha", "Ben", "Chen", "Dev"], random.Random(7), decks=3)
    cards = [card for _, card in order]
    assert sorted(name for name, _ in order) == ["Asha", "Ben", "Chen", "Dev"]
    assert cards == sorted(cards, key=toss_strength, reverse=True)
    assert len(set(cards)) == 4  # identical cards are dealt again
    assert not any(card.is_printed_joker for card in cards)
    # Ace high; on equal ranks spades beat hearts beat diamonds beat clubs.
    ranked = sorted(map(parse_card, ["KS", "AC", "3S", "3D"]), key=toss_strength)
    assert [c.code for c in ranked] == ["3D", "3S", "KS", "AC"]


def test_a_toss_names_the_ties_its_suits_decided():
    from games.rules.cards import parse_card
    from games.rules.toss import ties_by_suit

    dealt = [
        (name, parse_card(code))
        for name, code in [
            ("Asha", "AH"),
            ("Ben", "AC"),
            ("Chen", "9S"),
            ("Dev", "9D"),
            ("Esha", "9C"),
            ("Farid", "2S"),
        ]
    ]

    assert ties_by_suit(dealt) == [dealt[0:2], dealt[2:5]]
    assert ties_by_suit([dealt[0], dealt[2], dealt[5]]) == []


class _Stacked(random.Random):
    """A shuffle that stacks the shoe: ``top`` comes off first, in that order, and the
    rest of the shoe (unshuffled) after it."""

    def __init__(self, top: list[str]) -> None:
        super().__init__(0)
        self.top = top

    def shuffle(self, x) -> None:
        from games.rules.cards import parse_card

        wanted = [parse_card(code) for code in self.top]
        rest = list(x)
        for card in wanted:
            rest.remove(card)
        x[:] = rest + wanted[::-1]  # toss pops from the end


def test_a_toss_says_who_drew_the_very_same_card_and_drew_again():
    from games.rules import deal_toss
    from games.rules.cards import parse_card

    # Two decks: Asha and Ben are both dealt the ace of hearts, then draw again.
    tossed = deal_toss(["Asha", "Ben", "Chen"], _Stacked(["AH", "AH", "5D", "KS", "2C"]), 2)

    (redraw,) = tossed.redraws
    assert redraw.players == ("Asha", "Ben") and redraw.card == parse_card("AH")
    assert dict(tossed.seats) == {
        "Asha": parse_card("KS"),
        "Ben": parse_card("2C"),
        "Chen": parse_card("5D"),
    }
    # A tie on rank alone is no redraw: the suit decides it.
    suited = deal_toss(["Asha", "Ben"], _Stacked(["AH", "AC"]), 2)
    assert suited.redraws == () and [name for name, _ in suited.seats] == ["Asha", "Ben"]


# --- Pool rules: reaching or passing the ceiling, rejoining, splitting the pot ----------

POOL_101 = PRESETS["13-pool-101"]


def test_out_on_passing_keeps_a_player_who_only_reaches_the_ceiling():
    from games.rules import get_ruleset

    rounds = [{"Asha": 0, "Ben": 101, "Chen": 20}]
    assert session_state(POOL_101, ABC, rounds).eliminated_in == {"Ben": 1}
    passing = get_ruleset("13-pool-101", {"ceiling_mode": "out_passing"})
    assert session_state(passing, ABC, rounds).eliminated_in == {}
    assert session_state(passing, ABC, [{"Asha": 0, "Ben": 102, "Chen": 20}]).eliminated_in == {
        "Ben": 1
    }


def test_an_eliminated_player_rejoins_at_the_highest_total_still_in_plus_one():
    # Round 1: Ben 105 → out. Asha 40, Chen 60: nobody above 79, so Ben may rejoin at 61.
    rounds = [{"Asha": 40, "Ben": 105, "Chen": 60}, {"Asha": 20, "Ben": 0, "Chen": 0}]
    state = session_state(POOL_101, ABC, rounds[:1])
    assert state.rejoin_problem("Ben") is None
    assert state.rejoin_total() == 61
    state = session_state(POOL_101, ABC, rounds, rejoins=[("Ben", 1)])
    assert state.lines[0].rejoined == {"Ben": 61}
    assert state.totals == {"Asha": 60, "Ben": 61, "Chen": 60}
    assert state.eliminated_in == {}


def test_a_rejoin_keeps_the_total_that_put_the_player_out_in_its_round():
    # Ben 46 + 78 = 124 in round 2: out. He rejoins at 61; round 2 still adds up to 124,
    # and round 3 starts from 61.
    rounds = [
        {"Asha": 0, "Ben": 46, "Chen": 20},
        {"Asha": 0, "Ben": 78, "Chen": 40},
        {"Asha": 12, "Ben": 20, "Chen": 0},
    ]
    state = session_state(POOL_101, ABC, rounds, rejoins=[("Ben", 2)])
    second, third = state.lines[1:]
    assert second.totals["Ben"] == 124 and second.eliminated == ("Ben",)
    assert second.rejoined == {"Ben": 61}
    assert third.totals["Ben"] == 81


def test_a_player_sits_out_the_rounds_between_going_out_and_rejoining():
    from games.rules import out_before

    # Ben goes out in round 1, sits out round 2 and rejoins after it: in again in 3.
    rounds = [
        {"Asha": 40, "Ben": 105, "Chen": 60},
        {"Asha": 20, "Chen": 0},
        {"Asha": 0, "Ben": 20, "Chen": 12},
    ]
    state = session_state(POOL_101, ABC, rounds, rejoins=[("Ben", 2)])
    assert state.eliminated_in == {}  # out no more: it cannot tell round 2's table
    assert [out_before(state, number) for number in (1, 2, 3)] == [set(), {"Ben"}, set()]


def test_no_rejoining_once_a_player_still_in_is_above_the_cutoff():
    from games.rules import RulesError

    rounds = [{"Asha": 80, "Ben": 105, "Chen": 10}]
    state = session_state(POOL_101, ABC, rounds)
    assert state.rejoin_problem("Ben") == "Asha is still in at 80, above the cutoff of 79"
    with pytest.raises(RulesError) as error:
        session_state(POOL_101, ABC, rounds, rejoins=[("Ben", 1)])
    assert error.value.field == "rejoins[0]"
    assert state.rejoin_problem("Chen") == "Chen is still in"
    assert session_state(PRESETS["21-kodai"], ABC, []).rejoin_problem("Ben") == (
        "rejoining is not played under these rules"
    )


def test_the_cutoff_names_every_player_still_in_above_it_once():
    four = [*ABC, "Dev"]
    state = session_state(POOL_101, four, [{"Asha": 80, "Ben": 105, "Chen": 90, "Dev": 0}])
    assert state.rejoin_problem("Ben") == (
        "Asha (80) and Chen (90) are still in, above the cutoff of 79"
    )


def test_pool_201_rejoin_cutoff_is_174():
    assert PRESETS["13-pool-201"].rejoin_cutoff == 174
    rounds = [{"Asha": 174, "Ben": 210, "Chen": 0}]
    assert session_state(PRESETS["13-pool-201"], ABC, rounds).rejoin_problem("Ben") is None


def test_the_pot_is_split_by_remaining_drops():
    from games.rules.totals import pot_split, remaining_drops

    # Ceiling 101, first drop 20: Asha at 20 has (100 − 20) // 20 = 4 drops, Ben at 61
    # has 1, Chen at 95 has 0. A pot of 300 splits 4:1:0 → 240, 60, 0.
    state = session_state(POOL_101, ABC, [{"Asha": 20, "Ben": 61, "Chen": 95}])
    assert remaining_drops(state, POOL_101) == {"Asha": 4, "Ben": 1, "Chen": 0}
    assert pot_split(state, POOL_101, 300) == {"Asha": 240, "Ben": 60, "Chen": 0}
    # 100 split 4:1 → 80, 20; 101 → 80.8 and 20.2: the odd coin to the larger remainder.
    assert pot_split(state, POOL_101, 101) == {"Asha": 81, "Ben": 20, "Chen": 0}


def test_finishing_order_and_places():
    state = session_state(
        POOL_101, ABC, [{"Asha": 30, "Ben": 101, "Chen": 30}, {"Asha": 10, "Chen": 0}]
    )
    assert state.order == ("Chen", "Asha", "Ben")
    assert [state.place(p) for p in ("Chen", "Asha", "Ben")] == [1, 2, 3]
    tied = session_state(PRESETS["21-points"], ABC, [{"Asha": 10, "Ben": 10, "Chen": -20}])
    assert [tied.place(p) for p in ABC] == [1, 1, 3]


def test_closing_a_session_by_hand_makes_the_best_total_the_winner():
    state = session_state(
        PRESETS["21-points"], ABC, [{"Asha": 122, "Ben": -92, "Chen": -30}], closed=True
    )
    assert state.finished and state.winners == ("Asha",)
    assert state.next_dealer is None


def test_hands_after_elimination_names_the_rounds_an_edit_left_behind() -> None:
    from games.rules.totals import hands_after_elimination

    ruleset = PRESETS["13-pool-101"]
    # Chen reaches 101 in round 1 (out) but has a score in round 2; Ben never goes out.
    rounds = [{"Ben": 20, "Chen": 101}, {"Ben": 20, "Chen": 20}]
    state = session_state(ruleset, ["Asha", "Ben", "Chen"], [{"Asha": 0} | r for r in rounds])
    assert hands_after_elimination(state) == [("Chen", 2)]


def test_a_join_or_a_leave_may_be_taken_back_only_until_the_next_round_is_played():
    from games.rules import JOIN, LEAVE, SeatChange, change_take_back_problem

    rounds = [{"Asha": 20, "Ben": -10, "Chen": -10}, {"Asha": 0, "Ben": 10, "Dev": -10}]
    changes = [SeatChange(LEAVE, "Chen", 1), SeatChange(JOIN, "Dev", 1)]
    points = PRESETS["21-points"]
    state = session_state(points, ABC, rounds[:1], changes=changes)
    assert change_take_back_problem(state, changes[1]) is None
    assert change_take_back_problem(state, changes[0]) is None
    played_on = session_state(points, ABC, rounds, changes=changes)
    assert change_take_back_problem(played_on, changes[1]) == "round 2 has been played since"
    assert change_take_back_problem(played_on, changes[0]) == "round 2 has been played since"
    # A leave that ended the session (one player left in) may be: the table plays on.
    gone = SeatChange(LEAVE, "Ben", 1)
    two = session_state(points, ["Asha", "Ben"], [{"Asha": 5, "Ben": -5}], changes=[gone])
    assert two.finished and change_take_back_problem(two, gone) is None
    # A change the replay did not count: nothing was dealt on it.
    assert change_take_back_problem(played_on, SeatChange(LEAVE, "Asha", 1)) is None


def test_a_latecomer_buys_into_the_pot_as_a_rejoin_does():
    from games.rules import JOIN, SeatChange, buy_ins, pot_of

    # Ben out in round 1 rejoins; Dev comes late: everyone bought in once, Ben twice.
    rounds = [{"Asha": 40, "Ben": 105, "Chen": 60}]
    state = session_state(
        POOL_101, ABC, rounds, rejoins=[("Ben", 1)], changes=[SeatChange(JOIN, "Dev", 1)]
    )
    assert buy_ins(state) == {"Asha": 1, "Ben": 2, "Chen": 1, "Dev": 1}
    assert pot_of(1000, sum(buy_ins(state).values())) == 5000


def test_a_player_out_who_goes_home_leaves_no_stray_hand_behind() -> None:
    from games.rules import LEAVE, SeatChange
    from games.rules.totals import hands_after_elimination

    # Ben is out after round 1 and goes home rather than wait for a rejoin: round 2
    # has no place for him, which is no hand after his elimination either.
    rounds = [{"Asha": 0, "Ben": 110, "Chen": 20}, {"Asha": 20, "Chen": 0}]
    state = session_state(POOL_101, ABC, rounds, changes=[SeatChange(LEAVE, "Ben", 1)])
    assert (state.eliminated_in, state.left_after) == ({"Ben": 1}, {"Ben": 1})
    assert hands_after_elimination(state) == []


def test_a_rejoin_may_be_taken_back_only_until_the_next_round_is_played():
    from games.rules import take_back_problem

    # Ben out in round 1, rejoined at 61 after it.
    rounds = [{"Asha": 40, "Ben": 105, "Chen": 60}, {"Asha": 20, "Ben": 0, "Chen": 0}]
    state = session_state(POOL_101, ABC, rounds[:1], rejoins=[("Ben", 1)])
    assert take_back_problem(state, 1, "Ben") is None
    played_on = session_state(POOL_101, ABC, rounds, rejoins=[("Ben", 1)])
    assert take_back_problem(played_on, 1, "Ben") == "round 2 has been played since"
    # Round 3 puts Asha and Ben out: Chen wins, and nothing is taken back any more.
    over = session_state(
        POOL_101, ABC, [*rounds, {"Asha": 50, "Ben": 50, "Chen": 0}], rejoins=[("Ben", 1)]
    )
    assert over.finished and take_back_problem(over, 1, "Ben") == "the session is over"
    # A rejoin the replay did not count (not in any round's rejoins): nothing was dealt
    # on it, so it may be taken back whenever.
    assert take_back_problem(played_on, 1, "Chen") is None
