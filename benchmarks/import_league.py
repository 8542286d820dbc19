"""Time and memory of a league import, on PostgreSQL.

    .venv/bin/python benchmarks/import_league.py --json              # 10,000 rounds
    .venv/bin/python benchmarks/import_league.py --rounds 40000 --json
    .venv/bin/python benchmarks/import_league.py --rounds 40000 --minimal --json

Creates a database of its own (``scorekeeper_bench_import`` on 127.0.0.1, dropped
and recreated; the name must start with ``scorekeeper_bench``), migrates it, and
writes a league file as ``export_league`` writes it: N rounds of 21-card points in
sessions of --per-session rounds, 4 players a table out of 12. The rounds are real:
the winner's hand is dealt to declare the three-pure way, the others are dealt at
random and shown (or drop), and the file's figures are the rules service's. Each
session's history holds every round's entry, by whom and when (format version 4;
--no-history leaves it out, as files before version 4 had none). With --minimal,
every round is the smallest a file can hold (two players, one drops, the other wins
by default): the most rounds per megabyte, as a hostile file would be.

Then it imports the file --runs times through the import page (the test client
posts it as a browser would, signed in; the league's slug changes between runs),
or through ``import_league`` as ``manage.py import_league`` does when the
file is over the page's upload limit. Each import re-scores every round with the
rules service, checks the whole file, and writes in one transaction. One JSON
object goes to stdout: rounds, file size, seconds per run (median and each), the
peak Python memory of one more run (tracemalloc, which slows that run, so it is
not timed) and the process's peak resident memory.

The floor, measured in the same run: the rules service alone scoring every round
of the same file (``score_round`` on hands already read, in this process, with no
file to read, nothing to check and no database), the least any import must do;
``"floor"`` holds its seconds (the median of --runs, on the clock and in CPU) and
``"ratio"`` the imports' median to it (``"cpu_ratio"``: CPU to CPU), which another
machine can compare.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import re
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, this file's folder comes first on sys.path, and benchmarks/http.py
# would hide the standard library's http package (which Django imports).
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))

from benchmarks.floor import ratio  # noqa: E402
from benchmarks.http import (  # noqa: E402
    declaring_hand,
    drop_database,
    recreate_database,
    set_up_django,
    shoe,
)

PRESET = "21-points"
TARGET_SECONDS = 10  # 10,000 rounds, well inside the worker timeout
WORKER_TIMEOUT = 30  # gunicorn's default worker timeout


def log(message: str) -> None:
    print(f"[import-bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --- The league file ---------------------------------------------------------------------


def dealt_round(rng: random.Random, ruleset, names: list[str]) -> dict | None:
    """One round as the export writes it: the winner declares, the others show a
    random hand or drop; figures from the rules service."""
    from games.rules import PlayerHand, RulesError, score_round

    available = shoe(ruleset.decks)
    winning = declaring_hand(rng, available, ruleset)
    if winning is None:
        return None
    deck = list(available.elements())
    rng.shuffle(deck)
    cut = deck.pop()
    winner = rng.randrange(len(names))
    hands = []
    for position, name in enumerate(names):
        if position == winner:
            hands.append(PlayerHand(name, "declared", tuple(tuple(g) for g in winning)))
        elif rng.random() < 0.25:
            hands.append(PlayerHand(name, rng.choice(["first_drop", "middle_drop"])))
        else:
            cards = [deck.pop() for _ in range(ruleset.hand_size)]
            groups = tuple(tuple(cards[i : i + 3]) for i in range(0, len(cards), 3))
            hands.append(PlayerHand(name, "shown", groups))
    try:
        result = score_round(ruleset, cut, hands)
    except RulesError:
        return None
    return {
        "cut_joker": cut.code,
        "entries": [
            {
                "player": hand.name,
                "outcome": scored.outcome,
                "groups": [[card.code for card in group] for group in hand.groups],
                # As the export writes a hand: no declaration, value points or claims
                # where there are none.
                **({"declaration": scored.declaration} if scored.declaration else {}),
                "hand_points": scored.hand_points,
                **({"value_points": scored.value_points} if scored.value_points else {}),
                **({"claims": scored.claims} if scored.claims else {}),
                "score": scored.score,
            }
            for hand, scored in zip(hands, result.players, strict=True)
        ],
    }


def minimal_round(names: list[str]) -> dict:
    """The smallest round: one player drops, the other wins by default."""
    return {
        "cut_joker": "8S",
        "entries": [
            {"player": names[0], "outcome": "default_win", "groups": []},
            {"player": names[1], "outcome": "first_drop", "groups": []},
        ],
    }


def entered(played_on: str, number: int) -> str:
    """When round ``number`` of an evening was entered: every three minutes from 19:00,
    to the microsecond as the export writes it."""
    evening = datetime.datetime.fromisoformat(f"{played_on}T19:00:07+00:00")
    return (evening + datetime.timedelta(minutes=3 * number, microseconds=number)).isoformat()


def league_file(
    rounds: int, per_session: int, minimal: bool, seed: int, history: bool = True
) -> dict:
    from games.rules import get_ruleset
    from games.transfer.league_file import FORMAT, VERSION

    rng = random.Random(seed)
    ruleset = get_ruleset(PRESET)
    players = [f"Player {number:02d}" for number in range(1, 13)]
    size = 2 if minimal else 4
    pool: list[dict] = []
    if not minimal:
        while len(pool) < 300:  # rounds dealt for tables of "P0".."P3", renamed per table
            played = dealt_round(rng, ruleset, [f"P{i}" for i in range(size)])
            if played is not None:
                pool.append(played)
    sessions = []
    for day, start in enumerate(range(0, rounds, per_session), start=1):
        table = rng.sample(players, size)
        count = min(per_session, rounds - start)
        played_rounds = []
        for number in range(1, count + 1):
            if minimal:
                played = minimal_round(table)
            else:
                played = json.loads(json.dumps(rng.choice(pool)))
                for entry in played["entries"]:
                    entry["player"] = table[int(entry["player"][1:])]
            dealer = table[(number - 1) % size]
            played_rounds.append(
                {"number": number, "dealer": dealer, "entered_by": "bench", **played}
            )
        played_on = f"{2000 + day // 365:04d}-{1 + day % 365 // 31:02d}-{1 + day % 28:02d}"
        # The history export_league writes: each round's entry, by whom and when (the
        # round after it is the round as the file holds it, and is left out).
        changes = [
            {
                "round": number,
                "number": number,
                "action": "created",
                "changed_by": "bench",
                "changed_at": entered(played_on, number),
            }
            for number in range(1, count + 1)
        ]
        sessions.append(
            {
                "name": f"Evening {len(sessions) + 1}",
                "preset": PRESET,
                "overrides": {},
                "ceiling": None,
                "played_on": played_on,
                "created_at": f"{played_on}T19:00:00+00:00",
                "closed_at": f"{played_on}T23:00:00+00:00",
                "money_per_point": None,
                "buy_in": None,
                "share_token": None,
                "created_by": "bench",
                "first_dealer": table[0],
                "seats": [
                    {"player": name, "position": position}
                    for position, name in enumerate(table, start=1)
                ],
                "rejoins": [],
                "seat_changes": [],
                "rounds": played_rounds,
                **({"changes": changes} if history else {}),
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": "2024-01-01T00:00:00+00:00",
        "league": {
            "name": "Benchmark club",
            "slug": "bench",
            "preset": PRESET,
            "overrides": {},
            "money_per_point": None,
        },
        "members": [{"username": "bench", "role": "owner"}],
        "players": [{"name": name, "user": None} for name in players],
        "sessions": sessions,
    }


# --- Importing it ------------------------------------------------------------------------


def import_once(data: dict, slug: str, user, through_page: bool) -> tuple[float, float]:
    """Import the file as a new league with this slug; the seconds it took, on the
    clock and in this process's CPU time (the clock counts the other processes on a
    busy machine; the CPU time leaves out PostgreSQL's)."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    from games.models import League
    from games.transfer.league_export import dumps
    from games.transfer.league_import import import_league

    # A name of its own too: a league imported beside one of its importer's of the same
    # name is named by the day, and its address follows that name, not the file's.
    data["league"]["name"] = data["league"]["slug"] = slug
    raw = dumps(data).encode()
    if through_page:
        client = Client()
        client.force_login(user)
        upload = SimpleUploadedFile("league.json", raw, "application/json")
        started, cpu = time.perf_counter(), time.process_time()
        response = client.post(reverse("games:league_import"), {"file": upload})
        if response.status_code != 302:
            raise SystemExit(f"the import page refused the file: {response.status_code}")
    else:
        started, cpu = time.perf_counter(), time.process_time()
        import_league(raw, owner=user)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert League.objects.filter(slug=slug).exists()
    return seconds, cpu


def scoring_alone(data: dict, runs: int) -> dict:
    """Seconds (the median of ``runs``) the rules service takes to score every round
    of the file, its hands already read into cards."""
    from games.rules import PlayerHand, get_ruleset, parse_card, score_round

    rulesets = {preset: get_ruleset(preset) for preset in {s["preset"] for s in data["sessions"]}}
    rounds = [
        (
            rulesets[session["preset"]],
            parse_card(played["cut_joker"]),
            [
                PlayerHand(
                    entry["player"],
                    entry["outcome"],
                    tuple(tuple(parse_card(code) for code in group) for group in entry["groups"]),
                )
                for entry in played["entries"]
            ],
        )
        for session in data["sessions"]
        for played in session["rounds"]
    ]
    timings, cpu = [], []
    for _ in range(runs):
        started, began_cpu = time.perf_counter(), time.process_time()
        for ruleset, cut, hands in rounds:
            score_round(ruleset, cut, hands)
        timings.append(time.perf_counter() - started)
        cpu.append(time.process_time() - began_cpu)
    return {
        "what": "the rules service scoring every round of the file alone",
        "rounds": len(rounds),
        "seconds": [round(seconds, 3) for seconds in timings],
        "median_seconds": round(statistics.median(timings), 3),
        "cpu_seconds": [round(seconds, 3) for seconds in cpu],
        "cpu_median_seconds": round(statistics.median(cpu), 3),
    }


def run(args: argparse.Namespace) -> dict:
    from django.contrib.auth.models import User

    from games.models import HandEntry, Round
    from games.transfer.league_export import dumps
    from games.uploads import MAX_UPLOAD_BYTES

    log(f"building a file of {args.rounds:,} rounds")
    data = league_file(args.rounds, args.per_session, args.minimal, args.seed, args.history)
    size = len(dumps(data).encode())
    through_page = size <= MAX_UPLOAD_BYTES
    user = User.objects.create_user("bench", password=None)
    timings, cpu = [], []
    for number in range(1, args.runs + 1):
        log(f"import {number} of {args.runs}")
        seconds, cpu_seconds = import_once(data, f"bench-{number}", user, through_page)
        timings.append(seconds)
        cpu.append(cpu_seconds)
    log("the floor: scoring the file's rounds alone")
    floor = scoring_alone(data, args.runs)
    log("one more import, under tracemalloc")
    tracemalloc.start()
    import_once(data, "bench-memory", user, through_page)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rounds = Round.objects.filter(session__league__slug="bench-1").count()
    return {
        "rounds": rounds,
        "sessions": len(data["sessions"]),
        "hand_entries": HandEntry.objects.filter(round__session__league__slug="bench-1").count(),
        "players_per_table": 2 if args.minimal else 4,
        "minimal_rounds": args.minimal,
        "history": args.history,
        "file_mb": round(size / 2**20, 2),
        "through": "the import page"
        if through_page
        else "import_league (over the page's upload limit: manage.py import_league)",
        "seconds": [round(seconds, 2) for seconds in timings],
        "median_seconds": round(statistics.median(timings), 2),
        "floor": floor,
        "ratio": ratio(statistics.median(timings), floor["median_seconds"]),
        # CPU to CPU: this process's alone, so other programs on a busy machine move
        # it less than the clock (PostgreSQL's share of the import is left out).
        "cpu_ratio": ratio(statistics.median(cpu), floor["cpu_median_seconds"]),
        "cpu_seconds": [round(seconds, 2) for seconds in cpu],
        "load_average": [round(load, 1) for load in os.getloadavg()],
        "cpus": os.cpu_count(),
        "peak_python_mb": round(peak / 2**20, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "python": platform.python_version(),
        "target_seconds_for_10000_rounds": TARGET_SECONDS,
        "within_worker_timeout": max(timings) < WORKER_TIMEOUT,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--per-session", type=int, default=25, help="rounds per session")
    parser.add_argument("--minimal", action="store_true", help="two players, no cards")
    parser.add_argument(
        "--no-history",
        dest="history",
        action="store_false",
        help="no changes in the file (as before format version 4)",
    )
    parser.add_argument("--runs", type=int, default=3, help="timed imports")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--database", default="scorekeeper_bench_import")
    parser.add_argument("--keep", action="store_true", help="leave the database afterwards")
    parser.add_argument("--json", action="store_true", help="print only the JSON object")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"scorekeeper_bench\w*", args.database):
        parser.error("--database must start with scorekeeper_bench (it is dropped)")

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
