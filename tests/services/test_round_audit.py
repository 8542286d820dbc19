"""What an edit changed, read back from the two rounds the audit trail keeps
(games/services/round_audit.py)."""

from __future__ import annotations

import pytest

from games.services import round_audit

pytestmark = pytest.mark.django_db


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

    assert round_audit.round_changed(before, after) == round_audit.RoundChanged(
        cut_joker=("5H", "8S"),
        hands=(
            round_audit.HandChanged("Asha", score=(283, 229)),
            # The drop says the cards went: they are not listed as taken out.
            round_audit.HandChanged("Esha", outcome=("Shown", "Middle drop"), score=(-12, -70)),
            round_audit.HandChanged("Dev", cards=((), ())),  # the same cards grouped otherwise
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

    assert round_audit.round_changed(before, after) == round_audit.RoundChanged(
        dealer=("Asha", "Chen"),
        hands=(
            # One of two copies of K♠ gone: only that one is named.
            round_audit.HandChanged(
                "Ben", cards=(("KS",), ("9H",)), entered_by=("Ben's phone", "")
            ),
            round_audit.HandChanged("Chen", outcome=("Declared on the deal", "Declared")),
        ),
    )


def test_an_edit_that_changed_nothing_kept_says_nothing_changed() -> None:
    same = _snapshot("8S", "Asha", ("Ben", "shown", [["2D", "3D", "4D"]], -9))
    changed = round_audit.round_changed(same, same | {"version": 2})
    assert changed == round_audit.RoundChanged() and not changed


def _counted(figures: dict) -> dict:
    return {"counted": True, "figures": figures}


def test_an_edit_says_a_hand_was_counted_at_the_table_instead_of_its_cards() -> None:
    cards = [["2D", "3D", "4D"], ["KS", "KS", "7C"]]
    before = _snapshot(
        "8S",
        "Asha",
        ("Ben", "shown", cards, -30),
        ("Chen", "shown", [], -96, _counted({"count": 96, "value_points": 10})),
        ("Dev", "shown", [], -40, _counted({"count": 40})),
        ("Esha", "middle_drop", [], -50),
    )
    after = _snapshot(
        "8S",
        "Asha",
        ("Ben", "shown", [], -102, _counted({"count": 102, "value_points": 10})),
        ("Chen", "shown", [], -102, _counted({"count": 102, "value_points": 10})),
        ("Dev", "shown", cards, -30),
        ("Esha", "shown", [], -2, _counted({"two_point": True})),
    )

    assert round_audit.round_changed(before, after).hands == (
        # Its cards are not listed as taken out: the count stands in their place.
        round_audit.HandChanged(
            "Ben",
            score=(-30, -102),
            entered=("cards", "counted at the table (count 102, value points 10)"),
        ),
        round_audit.HandChanged(
            "Chen",
            score=(-96, -102),
            figures=(round_audit.FigureChanged("count", "96", "102"),),
        ),
        round_audit.HandChanged(
            "Dev", score=(-40, -30), entered=("counted at the table (count 40)", "cards")
        ),
        # A drop had no cards: the count is said, not "instead of" anything.
        round_audit.HandChanged(
            "Esha",
            outcome=("Middle drop", "Shown"),
            score=(-50, -2),
            entered=("", "counted at the table (a two-point hand)"),
        ),
    )


def test_an_edit_names_each_figure_of_a_count_it_changed() -> None:
    before = _snapshot("8S", "Asha", ("Ben", "shown", [], -80, _counted({"count": 80})))
    after = _snapshot(
        "8S", "Asha", ("Ben", "shown", [], -2, _counted({"two_point": True, "value_points": 0}))
    )

    assert round_audit.round_changed(before, after).hands[0].figures == (
        round_audit.FigureChanged("count", "80", "none"),
        round_audit.FigureChanged("value points", "none", "0"),
        round_audit.FigureChanged("two-point hand", "no", "yes"),
    )
