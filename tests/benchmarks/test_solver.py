"""benchmarks/solver.py at a tiny size: each set's figures come with the reference's,
measured on the same hands in the same run, and the ratio of the two."""

from __future__ import annotations

from benchmarks import solver


def test_each_set_is_timed_beside_the_reference_on_the_same_hands() -> None:
    report, differences = solver.run(3, seed=1, sets=["13-points", solver.HEAVY])

    assert differences == []
    assert list(report) == ["13-points", solver.HEAVY]
    for row in report.values():
        assert row["hands"] == 3 and row["disagreements"] == 0
        assert row["floor"]["median_ms"] == row["reference_median_ms"] > 0
        assert row["ratio"] > 0
        # The ratio is the speedup turned round: ours in references. Both are rounded
        # (to 0.001 and 0.1), so their product is 1 only within what rounding moves.
        ratio, speedup = row["ratio"], row["speedup"]
        assert (ratio - 0.0005) * (speedup - 0.05) <= 1 <= (ratio + 0.0005) * (speedup + 0.05)
