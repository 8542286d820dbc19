"""Entering a round through the services (games/services/rounds.py): checking it with
the rules service while it is typed, saving what the rules service computed, and
refusing stale edits and rounds of a finished session."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.models import GameSession, HandEntry, Round, RoundChange
from games.rules import (
    PRESETS,
    PlayerHand,
    arrange,
    format_groups,
    parse_card,
    parse_cards,
    score_round,
)
from games.services import rounds
from games.services.errors import EntryRejected
from games.services.rounds import (
    RoundConflict,
    check_round,
    delete_round,
    initial_values,
    new_round_entry,
    round_entry_for_edit,
    save_round,
)
from games.services.scoreboard import fold_start
from tests.support.builders import by_seat, make_session, play, seat_pk
from tests.support.hands import (
    FIVE_DUBLEES,
    LOOSE_148,
    ROUND_1,
    SEED_BEN,
    SHOWN_8S,
    THREE_PURE,
    VALUE_C,
    WIN_8S,
    ZERO_COUNT,
    shuffled,
)

pytestmark = pytest.mark.django_db


def test_saved_entries_keep_what_the_rules_service_computed(table: GameSession) -> None:
    played = play(table, "8S", ROUND_1)

    ben = played.entries.get(player__name="Ben")
    assert (ben.hand_points, ben.value_points, ben.score) == (102, 10, -92)
    assert ben.groups[0] == ["2D", "3D", "4D"]
    assert ben.breakdown["groups"][0] == {
        "cards": ["2D", "3D", "4D"],
        "kind": "pure_sequence",
        "counted": 0,
        "left_out": True,
    }
    assert "count 102" in ben.breakdown["lines"]
    asha = played.entries.get(player__name="Asha")
    assert (asha.declaration, asha.score) == ("three_pure", 122)
    assert played.cut_joker == "8S"


def test_check_round_previews_each_hand_while_typing(table: GameSession) -> None:
    entry = new_round_entry(table)
    check = check_round(
        entry,
        "8s",
        {
            seat_pk(table, "Asha"): ("declared", "2H 3H 4H | 5C 6C"),
            seat_pk(table, "Ben"): ("shown", ""),
        },
        final=False,
    )

    assert check.jokers == ("8C", "8D", "8H", "8S", "7S", "9S", "PJ")
    asha = check.players[0]
    assert [str(g.kind) for g in asha.assessment.groups] == ["pure_sequence", "invalid"]
    assert asha.assessment.problems == ("must show all 21 cards, not 5",)
    assert check.result is None and not check.has_errors  # nothing is wrong yet, only unfinished


def test_check_round_scores_once_every_hand_is_complete(table: GameSession) -> None:
    entry = new_round_entry(table)
    check = check_round(entry, "8S", by_seat(table, ROUND_1), final=False)

    assert check.valid
    assert [p.result.score for p in check.players] == [122, -92, -30]


def arranged(text: str, outcome: str, name: str) -> PlayerHand:
    """A hand as the rules service's solver groups its cards (21-points, cut 8S)."""
    best = arrange(PRESETS["21-points"], parse_card("8S"), parse_cards(text))
    return PlayerHand(name, outcome, best.groups)


def test_a_round_typed_card_by_card_saves_as_the_solver_arranges_it(
    table: GameSession,
) -> None:
    hands = {
        "Asha": ("declared", shuffled(WIN_8S)),
        "Ben": ("shown", shuffled(SEED_BEN)),
        "Chen": ("shown", shuffled(FIVE_DUBLEES)),
    }
    solved = [arranged(text, outcome, name) for name, (outcome, text) in hands.items()]
    expected = score_round(PRESETS["21-points"], parse_card("8S"), solved)

    check = check_round(new_round_entry(table), "8S", by_seat(table, hands), final=True)
    played = save_round(new_round_entry(table), check, table.created_by)

    assert [p.arranged for p in check.players] == [True, True, True]
    assert [p.arranged_text for p in check.players] == [format_groups(h.groups) for h in solved]
    saved = {entry.player.name: entry for entry in played.entries.all()}
    assert {name: entry.score for name, entry in saved.items()} == {
        player.name: player.score for player in expected.players
    }
    assert (saved["Asha"].declaration, saved["Ben"].hand_points) == ("three_pure", 81)
    assert saved["Chen"].hand_points == 101  # 120 (capped) as one group of loose cards
    for hand in solved:
        assert saved[hand.name].groups == [[card.code for card in g] for g in hand.groups]
    # The audit trail and the edit form show the round as it was saved.
    after = RoundChange.objects.get(round=played).after
    assert [entry["groups"] for entry in after["entries"]] == [saved[name].groups for name in hands]
    seat_of = {seat.pk: seat.player.name for seat in table.seats.all()}
    shown = {seat_of[pk]: text for pk, (_, text) in initial_values(played)[1].items()}
    assert shown == {hand.name: format_groups(hand.groups) for hand in solved}


def check_ben(table: GameSession, outcome: str, text: str, asha: str = WIN_8S):
    """Ben's part of round 1 (Asha declares, Chen drops), checked for saving."""
    typed = {
        seat_pk(table, "Asha"): ("declared", asha),
        seat_pk(table, "Ben"): (outcome, text),
        seat_pk(table, "Chen"): ("first_drop", ""),
    }
    return check_round(new_round_entry(table), "8S", typed, final=True)


def test_a_hand_with_cards_left_loose_is_arranged_when_that_costs_less(
    table: GameSession,
) -> None:
    check = check_ben(table, "shown", SEED_BEN)  # 102 as grouped, 81 grouped best

    ben = check.players[1]
    assert ben.arranged and ben.arranged_text == format_groups(
        arranged(SEED_BEN, "shown", "Ben").groups
    )
    assert (ben.result.hand_points, ben.result.score) == (81, -71)
    assert check.players[0].result.score == 101  # 81 + 30 from Chen - 10 to Ben


def test_a_hand_with_cards_left_loose_is_kept_when_no_grouping_costs_less(
    table: GameSession,
) -> None:
    check = check_ben(table, "shown", SHOWN_8S)

    ben = check.players[1]
    assert not ben.arranged and ben.arranged_text == ""
    assert ben.hand.groups[4] == tuple(parse_cards("5S 9D"))  # as typed
    assert ben.result.hand_points == 102


def test_a_grouping_of_valid_groups_is_kept_as_typed(table: GameSession) -> None:
    check = check_ben(table, "shown", VALUE_C)  # the dublee KC KC counts 20

    ben = check.players[1]
    assert not ben.arranged
    assert ben.result.hand_points == 20
    assert (ben.best.hand_points, ben.best.saving) == (10, 10)  # the hint still says so


def test_the_solver_runs_for_a_hand_grouped_in_full_only_when_its_hint_is_asked_for(
    table: GameSession, monkeypatch
) -> None:
    # A save that goes through never shows the hint: a grouping the rules keep as
    # typed, whatever the solver finds, costs it no solver run.
    solved = []
    real = rounds._solve
    monkeypatch.setattr(rounds, "_solve", lambda *args: solved.append(args[2].name) or real(*args))

    check = check_ben(table, "shown", VALUE_C)

    assert solved == []  # Asha's WIN_8S and Ben's VALUE_C: every group a group
    assert check.valid and check.players[1].best.saving == 10
    assert solved == ["Ben"]


def test_a_declarer_whose_grouping_fails_is_arranged_when_the_cards_declare(
    table: GameSession,
) -> None:
    # ZERO_COUNT ends in a group of two jokers (no group), so as typed it is no
    # declaration; its cards make a three-pure one.
    check = check_ben(table, "shown", SHOWN_8S, asha=ZERO_COUNT)

    asha = check.players[0]
    assert check.valid and asha.arranged
    assert asha.result.declaration == "three_pure"
    assert asha.hand.groups == arranged(ZERO_COUNT, "declared", "Asha").groups


def test_a_short_hand_is_never_arranged(table: GameSession) -> None:
    check = check_ben(table, "shown", shuffled(SHOWN_8S).rsplit(" ", 1)[0])

    ben = check.players[1]
    assert not ben.arranged and len(ben.hand.groups) == 1
    assert ben.groups_errors == ["must show all 21 cards, not 20"]


def test_a_card_error_names_the_token_and_where_it_is(table: GameSession) -> None:
    entry = new_round_entry(table)
    check = check_round(
        entry, "8S", {seat_pk(table, "Ben"): ("shown", "2D 3D 4D | 9C 1C JC")}, final=False
    )

    assert check.players[1].groups_errors == [
        "'1C' is not a card (group 2, card 2): write 10 or T for a ten, A for an ace"
    ]


def test_two_winners_are_told_beside_each_winner(table: GameSession) -> None:
    entry = new_round_entry(table)
    typed = {
        seat_pk(table, "Asha"): ("declared", WIN_8S),
        seat_pk(table, "Ben"): ("shown", SHOWN_8S),
        seat_pk(table, "Chen"): ("declared", THREE_PURE),
    }

    check = check_round(entry, "8S", typed, final=True)

    assert not check.valid
    asha, ben, chen = check.players
    assert "more than one winner" in asha.outcome_errors[0]
    assert "more than one winner" in chen.outcome_errors[0]
    assert ben.errors == []


def test_save_round_refuses_a_new_round_on_a_finished_session(user: User) -> None:
    session = make_session(user, players=("Asha", "Ben"), ceiling=100)
    round_1 = {"Asha": ("declared", WIN_8S), "Ben": ("shown", LOOSE_148)}  # Ben loses 120
    play(session, "8S", round_1)
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED

    entry = new_round_entry(session)
    assert entry.finished and entry.winners == ("Asha",)
    check = check_round(entry, "8S", by_seat(session, round_1), final=True)
    with pytest.raises(EntryRejected, match="over"):
        save_round(entry, check, user)
    assert Round.objects.count() == 1


def test_save_round_refuses_an_edit_of_a_changed_round(table: GameSession, user: User) -> None:
    played = play(table, "8S", ROUND_1)
    entry = round_entry_for_edit(played)
    edited = ROUND_1 | {"Asha": ("declared", THREE_PURE)}  # valid under a 9S cut too
    typed = by_seat(table, edited)
    check = check_round(entry, "9S", typed, final=True)

    save_round(entry, check, user, version=1)
    # Another form opened at version 1, with other hands: refused. (The same form sent
    # again is a retry whose answer was lost: test_round_conflicts.py.)
    other = check_round(
        entry, "9S", typed | {seat_pk(table, "Chen"): ("middle_drop", "")}, final=True
    )
    with pytest.raises(RoundConflict, match="saved on another device") as clash:
        save_round(entry, other, user, version=1)  # still at version 1
    assert clash.value.theirs.version == 2  # their version, to show

    played.refresh_from_db()
    assert (played.cut_joker, played.version) == ("9S", 2)


def test_delete_round_renumbers_later_rounds_without_gaps(table: GameSession) -> None:
    rounds = [play(table, "8S", ROUND_1) for _ in range(4)]

    delete_round(rounds[1], table.created_by)

    assert list(table.rounds.order_by("number").values_list("pk", "number")) == [
        (rounds[0].pk, 1),
        (rounds[2].pk, 2),
        (rounds[3].pk, 3),
    ]
    assert HandEntry.objects.filter(round=rounds[1]).count() == 0


@pytest.mark.parametrize("count", [0, 1, 10, 11, 25])
def test_the_history_shows_exactly_the_changes_its_fold_counts(user: User, count: int) -> None:
    """changes_of picks its rows in the query, fold_start says what they are: for any
    ``?from=`` the two agree (the rows are changes first to last, newest first)."""
    session = make_session(user, ceiling=None)
    RoundChange.objects.bulk_create(
        RoundChange(session=session, number=n, action=RoundChange.Action.CREATED)
        for n in range(1, count + 1)
    )
    for first in (None, -1, 0, 1, 2, count - 10, count - 9, count, count + 1, 10**9):
        fold = rounds.changes_of(session, first=first)
        assert [change.number for change in fold.rows] == list(
            range(fold.last, fold.first - 1, -1)
        ), first
        start, pinned = fold_start(count, latest=rounds.LATEST_CHANGES, first=first)
        assert (fold.first, fold.pinned, fold.last) == (start, pinned, count), first


# --- What an edit changed (the history's first lines) -----------------------------------


def _snapshot(cut: str, dealer: str, *hands: tuple) -> dict:
    """A round as the audit trail keeps it (round_snapshot): each hand's player,
    outcome, groups, score and, optionally, a dict of what else it holds."""
    entries = []
    for name, outcome, groups, score, *extra in hands:
        hand = {"player": name, "outcome": outcome, "groups": groups, "score": score}
        entries.append(hand | (extra[0] if extra else {}))
    return {"cut_joker": cut, "dealer": dealer, "version": 1, "entries": entries}


def test_an_edit_says_what_changed_hand_by_hand() -> None:
    run, others = [["5H", "6H", "7H"]], [["9S", "9S", "9C"], ["KD", "2C"]]
    before = _snapshot(
        "5H",
        "Ben",
        ("Asha", "declared", run + others, 283),
        ("Esha", "shown", others, -12),
        ("Dev", "shown", [["2D", "3D", "4D"], ["KS", "QS"]], -25),
        ("Chen", "first_drop", [], -25),
    )
    after = _snapshot(
        "8S",
        "Ben",
        ("Asha", "declared", run + others, 229),
        ("Esha", "middle_drop", [], -70),
        ("Dev", "shown", [["2D", "3D", "4D", "KS"], ["QS"]], -25),
        ("Chen", "first_drop", [], -25),
    )

    assert rounds.round_changed(before, after) == rounds.RoundChanged(
        cut_joker=("5H", "8S"),
        hands=(
            rounds.HandChanged("Asha", score=(283, 229)),
            # The drop says the cards went: they are not listed as taken out.
            rounds.HandChanged("Esha", outcome=("Shown", "Middle drop"), score=(-12, -70)),
            rounds.HandChanged("Dev", cards=((), ())),  # the same cards grouped otherwise
        ),
    )


def test_an_edit_names_the_cards_swapped_and_who_entered_the_hand() -> None:
    phone = {"entered_by": "Ben's phone"}  # table mode's author of the hand
    before = _snapshot(
        "8S",
        "Asha",
        ("Ben", "shown", [["2D", "3D", "4D"], ["KS", "KS", "7C"]], -30, phone),
        ("Chen", "declared", [["5C", "6C", "7C"]], 30, {"on_deal": True}),
    )
    after = _snapshot(
        "8S",
        "Chen",
        ("Ben", "shown", [["2D", "3D", "4D"], ["KS", "9H", "7C"]], -30),
        ("Chen", "declared", [["5C", "6C", "7C"]], 30),
    )

    assert rounds.round_changed(before, after) == rounds.RoundChanged(
        dealer=("Asha", "Chen"),
        hands=(
            # One of two copies of K♠ gone: only that one is named.
            rounds.HandChanged("Ben", cards=(("KS",), ("9H",)), entered_by=("Ben's phone", "")),
            rounds.HandChanged("Chen", outcome=("Declared on the deal", "Declared")),
        ),
    )


def test_an_edit_that_changed_nothing_kept_says_nothing_changed() -> None:
    same = _snapshot("8S", "Asha", ("Ben", "shown", [["2D", "3D", "4D"]], -9))
    changed = rounds.round_changed(same, same | {"version": 2})
    assert changed == rounds.RoundChanged() and not changed
