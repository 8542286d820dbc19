"""The benchmarks still run against the app as it is now: benchmarks/http.py fills
a tiny league and measures every page and write it reports. Its fill writes rows
with COPY, so a model change it does not know of (a new required column) fails here
rather than on the day someone needs the figures. PostgreSQL only: the benchmark
makes and drops a database of its own on the local server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the benchmark copies rows into PostgreSQL (make test-pg, CI)",
)


def test_http_benchmark_fills_a_small_league_and_measures_its_pages_and_writes():
    database = f"scorekeeper_bench_smoke_{os.getpid()}"
    command = [
        sys.executable, str(ROOT / "benchmarks" / "http.py"),
        "--players", "12", "--sessions", "30", "--entries", "1500", "--pool", "8",
        "--requests", "2", "--repeats", "2", "--database", database, "--json",
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=600, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(done.stdout)

    big = report["data"]["leagues"]["big-club"]
    made = report["fill"]["made"]["big-club"]
    assert (big["sessions"], big["hand_entries"]) == (30, made["entries"])
    assert made["entries"] >= 1500
    # The standings' months and the ratings were built by the app's own code.
    assert big["standing_months"] > 0
    assert big["rating_changes"] > 0 and big["rated_players"] > 0
    assert set(report["pages"]) == {
        "standings",
        "standings_date_range",
        "standings_small_league",
        "session",
        "session_chart_svg",
        "player",
    }
    assert report["standings_queries_constant"] is True
    for write in ("close_latest", "edit_halfway_back"):
        assert report["writes"][write]["runs"] == 2
        assert report["writes"][write]["median_ms"] > 0
    assert set(report["targets_met"]) == {"standings", "player", "session", "close"}
