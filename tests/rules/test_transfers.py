"""Who pays whom, in the fewest transfers."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import RulesError
from games.rules.transfers import balances_from_totals, settle
from tests.support.profiles import examples
from tests.support.rules import partitions


def apply(balances, transfers):
    left = dict(balances)
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return left


def test_net_totals_times_the_stake_are_settled():
    # 21-points example totals (122, −92, −30) at 5 coins a point.
    balances = balances_from_totals({"Asha": 122, "Ben": -92, "Chen": -30}, 5)
    transfers = settle(balances)
    assert {(t.payer, t.payee, t.amount) for t in transfers} == {
        ("Ben", "Asha", 460),
        ("Chen", "Asha", 150),
    }


def test_pairs_that_cancel_settle_apart():
    # A owes 10 to B, C owes 7 to D: two transfers, not three.
    transfers = settle({"A": -10, "B": 10, "C": -7, "D": 7})
    assert len(transfers) == 2
    assert {(t.payer, t.payee) for t in transfers} == {("A", "B"), ("C", "D")}


def test_balances_must_sum_to_zero():
    with pytest.raises(RulesError):
        settle({"A": 5, "B": -4})


def fewest_transfers(amounts: list[int]) -> int:
    """Brute force: the most zero-sum blocks over all set partitions."""
    items = [a for a in amounts if a]
    best = max(
        sum(1 for block in p if sum(block) == 0)
        for p in partitions(items)
        if all(sum(block) == 0 for block in p)
    )
    return len(items) - best


@settings(max_examples=examples(150))
@given(st.lists(st.integers(-60, 60), min_size=1, max_size=7))
def test_settle_clears_every_balance_in_the_fewest_transfers(values):
    amounts = [*values, -sum(values)]
    names = [f"P{i}" for i in range(len(amounts))]
    balances = dict(zip(names, amounts, strict=True))
    transfers = settle(balances)
    assert all(v == 0 for v in apply(balances, transfers).values())
    assert len(transfers) == fewest_transfers(amounts)


def test_a_big_table_still_settles():
    amounts = [5 * i - 40 for i in range(17)]
    amounts.append(-sum(amounts))
    balances = {f"P{i}": a for i, a in enumerate(amounts)}
    transfers = settle(balances)
    assert all(v == 0 for v in apply(balances, transfers).values())
    assert len(transfers) < len([a for a in amounts if a])
    assert list(itertools.islice(transfers, 1))
