"""Who pays whom at the end of a net-format session, in as few transfers as possible.

Balances (money, in the smallest coin) sum to zero. A group of players whose
balances sum to zero can settle among themselves with one transfer fewer than its
size, so the fewest transfers is the number of players owed or owing minus the most
disjoint zero-sum groups they split into; that split is found exactly over subsets
(tables are small), and each group settles largest debtor to largest creditor.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import RulesError
from .speech import gettext as _

EXACT_UP_TO = 12  # players with a balance; beyond, one greedy group (no table is that big)


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    amount: int


def balances_from_totals(totals: Mapping[str, int], per_point: int) -> dict[str, int]:
    """Money each player wins (+) or owes (-): net totals times the value of a point."""
    return {name: total * per_point for name, total in totals.items()}


def settle(balances: Mapping[str, int]) -> list[Transfer]:
    """The fewest transfers that clear ``balances``; raises RulesError unless they sum
    to zero."""
    if sum(balances.values()) != 0:
        raise RulesError(_("balances must sum to zero to be settled"), "balances")
    names = [name for name, amount in balances.items() if amount]
    amounts = [balances[name] for name in names]
    exact = len(names) <= EXACT_UP_TO
    groups = _zero_sum_groups(amounts) if exact else [list(range(len(names)))]
    transfers: list[Transfer] = []
    for group in groups:
        transfers += _settle_group({names[i]: amounts[i] for i in group})
    return transfers


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """Split indexes into the most disjoint groups that each sum to zero."""
    n = len(amounts)
    full = (1 << n) - 1
    total = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask ^ (1 << low)] + amounts[low]
    # best[mask]: the most zero-sum groups that the players in mask split into, when
    # mask itself sums to zero; every zero-sum mask splits into at least one.
    best = [0] * (1 << n)
    choice = [0] * (1 << n)
    for mask in range(1, full + 1):
        if total[mask]:
            continue
        best[mask], choice[mask] = 1, mask
        # Peel off a zero-sum part holding the lowest member, then split the rest.
        low = mask & -mask
        rest = mask ^ low
        sub = rest
        while sub:
            part = sub | low
            if part != mask and total[part] == 0 and best[part] == 1:
                split = 1 + best[mask ^ part]
                if split > best[mask]:
                    best[mask], choice[mask] = split, part
            sub = (sub - 1) & rest
    groups: list[list[int]] = []
    mask = full
    while mask:
        part = choice[mask]
        groups.append([i for i in range(n) if part >> i & 1])
        mask ^= part
    return groups


def _settle_group(balances: dict[str, int]) -> list[Transfer]:
    debtors = {name: -amount for name, amount in balances.items() if amount < 0}
    creditors = {name: amount for name, amount in balances.items() if amount > 0}
    transfers = []
    while debtors:
        payer = max(debtors, key=lambda n: (debtors[n], n))
        payee = max(creditors, key=lambda n: (creditors[n], n))
        amount = min(debtors[payer], creditors[payee])
        transfers.append(Transfer(payer, payee, amount))
        for book, name in ((debtors, payer), (creditors, payee)):
            book[name] -= amount
            if not book[name]:
                del book[name]
    return transfers
