"""The benchmarks that run as scripts on PostgreSQL still work with the app as it is
now, each at a tiny size: benchmarks/http.py fills a tiny league and measures every
page and write it reports (its fill writes rows with COPY, so a model change it does
not know of, a new required column, fails here rather than on the day someone needs
the figures); share.py serves a short session's share page, poll and chart;
import_league.py imports a small league file. PostgreSQL only: each benchmark makes
and drops a database of its own on the local server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from games.services.scoreboard import LATEST_ROUNDS

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the benchmark copies rows into PostgreSQL (make test-pg, CI)",
)


def run_benchmark(script: str, *options: str) -> dict:
    """The script's JSON report, run on a database of this test process's own."""
    database = f"scorekeeper_bench_smoke_{os.getpid()}"
    command = [
        sys.executable, str(ROOT / "benchmarks" / script), *options,
        "--database", database, "--json",
    ]  # fmt: skip
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=600, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout)


def test_http_benchmark_fills_a_small_league_and_measures_its_pages_and_writes():
    report = run_benchmark(
        "http.py",
        *("--players", "12", "--sessions", "30", "--entries", "1500", "--pool", "8"),
        *("--requests", "2", "--repeats", "2"),
    )

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
    # Each timing beside the hello view, measured in the same run by the same client.
    floor = report["floor"]
    assert floor["view"] == "/hello/" and floor["median_ms"] > 0
    for figures in (*report["pages"].values(), *report["writes"].values()):
        assert figures["ratio"] == round(figures["median_ms"] / floor["median_ms"], 1)
        assert figures["cpu_ratio"] > 0


def test_share_benchmark_serves_a_short_sessions_share_page_poll_and_chart():
    report = run_benchmark("share.py", "--rounds", "12", "--requests", "2")

    # The latest rounds are rows of the page a stranger with the link sees, the older
    # ones a tap away.
    assert (report["rounds"], report["share_page_rows"]) == (12, LATEST_ROUNDS)
    assert set(report["pages"]) == {
        "share_page",
        "share_poll_changed",
        "share_chart_svg",
        "replay_only",
    }
    floor = report["floor"]
    assert floor["view"] == "/hello/" and floor["median_ms"] > 0
    for figures in report["pages"].values():
        assert figures["ratio"] == round(figures["median_ms"] / floor["median_ms"], 1)
        assert figures["cpu_ratio"] > 0


def test_import_benchmark_imports_a_small_league_file_whole_each_time():
    report = run_benchmark(
        "import_league.py", "--rounds", "40", "--per-session", "10", "--runs", "2"
    )

    assert (report["rounds"], report["sessions"]) == (40, 4)
    assert report["hand_entries"] == 40 * report["players_per_table"]
    assert report["through"] == "the import page"
    assert len(report["seconds"]) == 2
    # The floor: the rules service scoring the same rounds alone, in the same run.
    assert report["floor"]["rounds"] == 40 and len(report["floor"]["seconds"]) == 2
    assert report["ratio"] > 1 and report["cpu_ratio"] > 1
