"""benchmarks/outage.py runs and reports each phase (its figures are read by people,
not asserted: tests never assert on time)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_the_outage_benchmark_times_each_request_in_each_phase() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/outage.py", "--rounds", "1", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    for phase in ("redis answering", "redis hanging", "redis back"):
        assert set(report[phase]) == {"page", "session poll", "share poll", "save"}
        assert all(figures["max_ms"] > 0 for figures in report[phase].values())
    # The floor is the same requests with Redis answering, measured in the same run.
    assert report["floor"] == {"phase": "redis answering", **report["redis answering"]}
    for phase in ("redis hanging", "redis back"):
        assert set(report["ratio"][phase]) == {"page", "session poll", "share poll", "save"}
        # One request of each kind a phase here, so a ratio can round to 0.0 when the
        # floor's one sample was slow: the script's figure is a number, not its size.
        assert all(
            isinstance(ratio, float) and ratio >= 0 for ratio in report["ratio"][phase].values()
        )
        assert set(report["extra_ms"][phase]) == set(report["ratio"][phase])
