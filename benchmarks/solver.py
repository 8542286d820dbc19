"""Speed and exactness of the best-arrangement solver against a CP-SAT reference.

    .venv/bin/python benchmarks/solver.py --hands 1000 --seed 1 --json

Deals N random hands per preset from a shuffled shoe (a random cut joker each), plus a
joker-heavy set (21-card hands holding 8 or more jokers, under a random 21-card
preset), solves each with ``games.rules.arrange`` and with the integer programs of
``benchmarks/reference.py``, and prints per set: hands, median/p99/max milliseconds
of ours, the reference's median, disagreements (hands where the two optima differ:
whether the hand declares, what it costs when shown, the fewest counted points) and
the speedup (reference median / ours). ``--sets meld-rich`` adds hands built mostly
of melds, about half of which declare, to check the declaration search as well.

The floor, measured in the same run on the same hands: the reference. Each set's
``"floor"`` holds its median and its ``"ratio"`` ours to it, median to median (the
inverse of the speedup), which another machine can compare. Ours is pure Python;
the reference builds its programs in Python and solves them in CP-SAT's compiled
code, so the ratio follows the machine's speed less closely than a Python floor
would, but it is exact work of the same kind on the same hands.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.reference import optimum
from games.rules import PRESETS, get_ruleset
from games.rules.arrange import arrange
from games.rules.cards import ACE, SUITS, Card, all_cards
from games.rules.melds import joker_roles

# The same rules with the count laid bare: no cap, no two-point hands, no free hands,
# and no declaration that can hold, so that the solver reports its fewest points.
BARE_COUNT = dict(
    hand_cap=10_000,
    zero_count_becomes=0,
    two_point_three_pure=False,
    two_point_dublees=None,
    two_point_jokers=None,
    two_point_tunnelas=None,
    two_point_marriages=None,
    free_hand_doubles=None,
    free_hand_jokers=None,
    declarations=["jokers"],
    jokers_needed=99,
)
HEAVY = "joker-heavy"
# Opt-in (``--sets meld-rich``): hands built mostly of melds, so that about half of
# them declare; random hands rarely do, and this set checks the declaration search.
MELD_RICH = "meld-rich"


def deal(rng: random.Random, preset: str, least_jokers: int = 0):
    """A random cut and hand from a shuffled shoe; with ``least_jokers``, a hand drawn
    uniformly among those holding at least that many jokers (the number of jokers is
    drawn from its hypergeometric law cut off below, then the cards)."""
    rules = PRESETS[preset]
    cut = rng.choice(all_cards())
    shoe = [card for card in all_cards() for _ in range(rules.decks)]
    shoe.remove(cut)
    if not least_jokers:
        rng.shuffle(shoe)
        return cut, shoe[: rules.hand_size]
    roles = joker_roles(rules, cut)
    jokers = [card for card in shoe if roles.is_joker(card)]
    others = [card for card in shoe if not roles.is_joker(card)]
    size = rules.hand_size
    counts = range(least_jokers, min(len(jokers), size) + 1)
    weights = [math.comb(len(jokers), k) * math.comb(len(others), size - k) for k in counts]
    k = rng.choices(counts, weights)[0]
    hand = rng.sample(jokers, k) + rng.sample(others, size - k)
    rng.shuffle(hand)
    return cut, hand


def deal_meld_rich(rng: random.Random, preset: str):
    """A random cut and a hand made mostly of melds taken from the shoe (pure and
    impure runs, sets, tunnelas, dublees, jokers), filled up at random, with up to two
    cards then swapped for random ones from the shoe."""
    rules = PRESETS[preset]
    cut = rng.choice(all_cards())
    shoe = [card for card in all_cards() for _ in range(rules.decks)]
    shoe.remove(cut)
    roles = joker_roles(rules, cut)
    jokers = sorted({card for card in shoe if roles.is_joker(card)})
    hand: list = []
    for _ in range(60):
        if len(hand) == rules.hand_size:
            break
        kind = rng.choice(["run", "run", "run", "impure", "set", "set", "identical", "jokers"])
        suit = rng.choice(SUITS)
        if kind in ("run", "impure"):
            length = rng.choice([3, 3, 4, 5, 6])
            start = rng.randint(1, 15 - length)
            meld = [Card(ACE if p == 14 else p, suit) for p in range(start, start + length)]
            if kind == "impure" and jokers:
                meld[rng.randrange(length)] = rng.choice(jokers)
        elif kind == "set":
            rank = rng.randint(1, 13)
            meld = [Card(rank, s) for s in rng.sample(SUITS, rng.choice([3, 4]))]
            if jokers and rng.random() < 0.3:
                meld[0] = rng.choice(jokers)
        elif kind == "identical":
            meld = [rng.choice(all_cards())] * rng.choice([2, 3])
        else:
            meld = [rng.choice(jokers) for _ in range(rng.choice([1, 2, 3]))]
        left = Counter(shoe)
        if len(hand) + len(meld) <= rules.hand_size and not Counter(meld) - left:
            for card in meld:
                shoe.remove(card)
            hand += meld
    rng.shuffle(shoe)
    while len(hand) < rules.hand_size:
        hand.append(shoe.pop())
    for _ in range(rng.choice([0, 0, 1, 2])):
        index = rng.randrange(len(hand))
        shoe.append(hand[index])
        rng.shuffle(shoe)
        hand[index] = shoe.pop()
    rng.shuffle(hand)
    return cut, hand


def hands_for(set_name: str, count: int, seed: int):
    rng = random.Random(f"{seed}-{set_name}")
    for _ in range(count):
        if set_name == MELD_RICH:
            preset = rng.choice(list(PRESETS))
            yield preset, *deal_meld_rich(rng, preset)
        elif set_name == HEAVY:
            preset = rng.choice(["21-points", "21-paplu", "21-kodai"])
            yield preset, *deal(rng, preset, least_jokers=8)
        else:
            yield set_name, *deal(rng, set_name)


def compare(preset: str, cut, hand) -> tuple[float, float, str | None]:
    """Milliseconds of ours and of the reference, and what differs (or None)."""
    rules = PRESETS[preset]
    started = time.perf_counter()
    ours = arrange(rules, cut, hand)
    ours_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    reference = optimum(rules, cut, hand)
    reference_ms = (time.perf_counter() - started) * 1000
    bare = arrange(get_ruleset(preset, BARE_COUNT), cut, hand)
    got = (ours.declaration is not None, ours.hand_points, bare.count)
    expected = (reference.declares, reference.hand_points, reference.count)
    difference = None
    if got != expected:
        difference = (
            f"{preset} cut {cut.code} hand {' '.join(c.code for c in hand)}: "
            f"ours (declares, points, count) = {got}, reference = {expected}"
        )
    return ours_ms, reference_ms, difference


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def run(count: int, seed: int, sets: list[str]) -> tuple[dict, list[str]]:
    report, differences = {}, []
    for set_name in sets:
        ours, reference, disagreements = [], [], 0
        for preset, cut, hand in hands_for(set_name, count, seed):
            ours_ms, reference_ms, difference = compare(preset, cut, hand)
            ours.append(ours_ms)
            reference.append(reference_ms)
            if difference:
                disagreements += 1
                differences.append(f"[{set_name}] {difference}")
        report[set_name] = {
            "hands": count,
            "median_ms": round(statistics.median(ours), 3),
            "p99_ms": round(percentile(ours, 0.99), 3),
            "max_ms": round(max(ours), 3),
            "reference_median_ms": round(statistics.median(reference), 3),
            "disagreements": disagreements,
            "speedup": round(statistics.median(reference) / statistics.median(ours), 1),
            "floor": {
                "solver": "the CP-SAT reference (benchmarks/reference.py)",
                "median_ms": round(statistics.median(reference), 3),
            },
            "ratio": round(statistics.median(ours) / statistics.median(reference), 3),
        }
    return report, differences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--sets",
        nargs="*",
        default=[*PRESETS, HEAVY],
        choices=[*PRESETS, HEAVY, MELD_RICH],
        help=f"sets to run (default: every preset and {HEAVY}; {MELD_RICH} is opt-in)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    report, differences = run(args.hands, args.seed, args.sets)
    for difference in differences:
        print("disagreement:", difference, file=sys.stderr)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"Python {platform.python_version()}, {args.hands} hands per set, seed {args.seed}")
        print(
            "set          median ms  p99 ms  max ms  reference ms  disagree  speedup  × reference"
        )
        for name, row in report.items():
            print(
                f"{name:12} {row['median_ms']:9.3f} {row['p99_ms']:7.3f} {row['max_ms']:7.3f} "
                f"{row['reference_median_ms']:13.3f} {row['disagreements']:9d} "
                f"{row['speedup']:7.1f}x {row['ratio']:12.3f}"
            )
        print("floor: the CP-SAT reference on the same hands, in the same run (median to median)")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
