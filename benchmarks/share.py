"""The public share page of a very long session, on PostgreSQL: time and memory.

    .venv/bin/python benchmarks/share.py --json             # 10,000 rounds, 4 players

Creates a database of its own (``scorekeeper_bench_share`` on 127.0.0.1, dropped
and recreated; the name must start with ``scorekeeper_bench``), migrates it and
fills one 21-points session of four players with --rounds rounds: four real rounds
saved through ``save_round`` (scored by the rules service, dealer moving
round by round), then copied row for row, as a save stores them, up to --rounds.

Then it measures in-process through Django's test client (server time, no network),
as an anonymous phone holding the link: the share page, its live poll when something
changed (the score table alone), the chart image the page shows, and the replay
alone (``load_scoreboard``: reading the saved scores and replaying them
through the rules service, which any page showing the totals pays). For each: the
median and maximum milliseconds over --requests requests, the peak memory one
request allocates (tracemalloc, measured on a request of its own, since tracing
slows Python down) and its SQL queries. The floor, measured in the same run by the
same (anonymous) client: the bare "hello" view (benchmarks/floor.py), under
``"floor"``; each figure carries its ``"ratio"`` to it, median to median (and its
``"cpu_ratio"``, CPU to CPU), which another machine can compare (the replay alone is
no request, but the same process's hello is still the ruler). One JSON object goes
to stdout.

The script uses only what the app had before the share page folded its rounds, so
running it (with benchmarks/floor.py beside it) from a checkout of an older commit
measures "before".
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import re
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, this file's folder comes first on sys.path, and benchmarks/http.py
# would hide the standard library's http package: the folder makes way.
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))

# The database and Django set-up the other benchmarks use (benchmarks/http.py had them
# before the share page folded its rounds, so "before" runs still work).
from benchmarks.floor import hello_in_process, ratio  # noqa: E402
from benchmarks.http import drop_database, recreate_database, set_up_django  # noqa: E402
from benchmarks.long_sessions import copy_rounds  # noqa: E402

PLAYERS = ("Asha", "Ben", "Chen", "Dev")
# Valid 21-points rounds under cut 8S (docs/rules §7 and the rules tests), seat order;
# the winner moves round the table, so the totals stay near zero and nobody finishes.
WIN = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H"
SHOWN = "2D 3D 4D | 9C 10C JC | QD QS QC | KH KH | 5D 9D | AS 7S | 6H 6D 4C 2S JH 8C"
PLAIN = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H JH | 3D 3C 3H"
LOOSE = "2C 4D 6H | 10S QC KD | 3S 5H 9C | JH AD 2D | 4C 6D 10C | QS KH 3H | 5C 9D JD"
ROUNDS = [
    [("declared", WIN), ("shown", SHOWN), ("first_drop", ""), ("middle_drop", "")],
    [("middle_drop", ""), ("declared", PLAIN), ("shown", LOOSE), ("first_drop", "")],
    [("shown", LOOSE), ("first_drop", ""), ("middle_drop", ""), ("declared", WIN)],
    [("first_drop", ""), ("middle_drop", ""), ("declared", PLAIN), ("shown", SHOWN)],
]


def log(message: str) -> None:
    print(f"[share-bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def fill(rounds: int):
    """One session of ``rounds`` rounds; returns it."""
    from django.contrib.auth.models import User

    from games.services.round_checks import check_round
    from games.services.round_entries import new_round_entry
    from games.services.round_saves import save_round
    from games.services.sessions import create_session

    user = User.objects.create_user("bench", password=None)
    session = create_session(
        user, preset="21-points", overrides={}, players=list(PLAYERS), name="A long night"
    )
    seats = list(session.seats.order_by("position"))
    for hands in ROUNDS:
        entry = new_round_entry(session)
        typed = {seat.pk: hand for seat, hand in zip(seats, hands, strict=True)}
        check = check_round(entry, "8S", typed, final=True)
        assert check.valid, (check.errors, [p.errors for p in check.players])
        save_round(entry, check, user)
    log(f"copying {rounds} rounds")
    copy_rounds(session, user, rounds, batch=2000)
    return session


def measure(label: str, call, requests: int) -> dict:
    """Median and max ms over ``requests`` calls, then the peak memory and the SQL
    queries of one more call."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    call()  # warm up: templates compiled, connection open
    times, cpu = [], []
    for _ in range(requests):
        began, began_cpu = time.perf_counter(), time.process_time()
        call()
        times.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    call()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    with CaptureQueriesContext(connection) as queries:
        call()
    result = {
        "median_ms": round(statistics.median(times), 1),
        "max_ms": round(max(times), 1),
        # This process's CPU alone: less moved by other work on a busy machine.
        "cpu_median_ms": round(statistics.median(cpu), 1),
        "peak_mb": round(peak / 2**20, 2),
        "queries": len(queries),
    }
    log(f"{label}: {result}")
    return result


def run(args) -> dict:
    from django.test import Client
    from django.urls import reverse

    from games.models import GameSession
    from games.services.scoreboard import load_scoreboard

    session = fill(args.rounds)
    session = GameSession.objects.get(pk=session.pk)
    token = session.share_token
    client = Client()

    def get(url: str):
        def call():
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return response

        return call

    page_url = reverse("games:shared_session", args=[token])
    page = get(page_url)()
    html = page.content.decode()
    shown = len(re.findall(r"<tr data-round=", html))
    log(f"the share page shows {shown} rounds of {args.rounds}, {len(page.content):,} bytes")
    results = {
        # The poll without a stamp is what a phone gets after a save: the table alone.
        "share_page": measure("share page", get(page_url), args.requests),
        "share_poll_changed": measure(
            "poll", get(reverse("games:shared_scoreboard", args=[token])), args.requests
        ),
        "share_chart_svg": measure(
            "chart", get(reverse("games:shared_totals_chart", args=[token])), args.requests
        ),
        "replay_only": measure("replay", lambda: load_scoreboard(session), args.requests),
    }
    floor = hello_in_process(client)
    for figures in results.values():
        figures["ratio"] = ratio(figures["median_ms"], floor["median_ms"])
        figures["cpu_ratio"] = ratio(figures["cpu_median_ms"], floor["cpu_median_ms"])
    return {
        "database": args.database,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "rounds": args.rounds,
        "players": len(PLAYERS),
        "share_page_rows": shown,
        "share_page_bytes": len(page.content),
        "requests": args.requests,
        "load_average": [round(load, 2) for load in os.getloadavg()],
        "floor": floor,
        "pages": results,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=10, help="timed requests per page")
    parser.add_argument("--database", default="scorekeeper_bench_share")
    parser.add_argument("--keep", action="store_true", help="leave the database afterwards")
    parser.add_argument("--json", action="store_true", help="print only the JSON object")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"scorekeeper_bench\w*", args.database):
        parser.error("--database must start with scorekeeper_bench (it is dropped)")
    if args.rounds < len(ROUNDS):
        parser.error(f"--rounds must be at least {len(ROUNDS)}")

    recreate_database(args.database)
    set_up_django(args.database)
    from django.core.management import call_command
    from django.db import connections

    try:
        call_command("migrate", verbosity=0, interactive=False)
        report = run(args)
    finally:
        connections.close_all()
        if not args.keep:
            drop_database(args.database)
    print(json.dumps(report) if args.json else json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
