"""What a Redis that hangs costs a request: two gunicorn workers with production
settings, a Redis of this script's own, and a scorer's requests (the session page, its
poll, a share poll, a round saved) timed while Redis answers, while it is stopped
(SIGSTOP: connections are taken, nothing is answered) and after it is resumed.

    .venv/bin/python benchmarks/outage.py            # prints a table
    .venv/bin/python benchmarks/outage.py --json     # one JSON object

The docs promise a request at most half a second more with Redis hanging (the
client's timeout, settings.CACHES, paid once: scorekeeper/cache.py then passes Redis
over for two seconds). The floor beside it, measured in the same run: the same
requests with Redis answering, under ``"floor"``. ``"extra_ms"`` is what each request
took at most beyond its floor's most (the promise), and ``"ratio"`` each phase's
medians in floors, which another machine can compare. The database is a SQLite file
in a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))

# After the path is set.
from benchmarks.floor import ratio  # noqa: E402
from tests.support.servers import (  # noqa: E402
    PASSWORD,
    Browser,
    Club,
    gunicorn,
    manage,
    polls,
    private_redis,
    production_environment,
    save_round,
    set_up_club,
)

# The phases in the order they run; the first is the floor.
FLOOR = "redis answering"
PHASES = (FLOOR, "redis hanging", "redis back")


def timed(browser: Browser, club: Club, session_poll: str, share_poll: str) -> dict[str, float]:
    """One of each request, in seconds."""
    times = {}
    times["page"] = browser.get(f"/sessions/{club.pk}/").seconds
    times["session poll"] = browser.get(session_poll).seconds
    times["share poll"] = Browser(browser.port).get(share_poll).seconds
    started = time.monotonic()
    save_round(browser, club)
    times["save"] = time.monotonic() - started
    return times


def phase(browser: Browser, club: Club, rounds: int) -> dict[str, dict[str, float]]:
    samples: dict[str, list[float]] = {}
    for _ in range(rounds):
        session_poll, share_poll = polls(browser, club)
        for name, seconds in timed(browser, club, session_poll, share_poll).items():
            samples.setdefault(name, []).append(seconds * 1000)
    return {
        name: {"p50_ms": round(statistics.median(v), 1), "max_ms": round(max(v), 1)}
        for name, v in samples.items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="requests of each kind a phase")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder, private_redis() as redis:
        tmp = Path(folder)
        environ = production_environment(
            tmp, REDIS_URL=redis.url, DJANGO_CACHE_PREFIX=secrets.token_hex(4)
        )
        manage(environ, "collectstatic", "--noinput", "-v", "0")
        club = set_up_club(environ)
        with gunicorn(environ, tmp, workers=2) as server:
            scorer = Browser(server.port)
            scorer.sign_in("asha", PASSWORD)
            phase(scorer, club, 2)  # warm: both workers loaded
            report = {FLOOR: phase(scorer, club, args.rounds)}
            with redis.paused():
                report["redis hanging"] = phase(scorer, club, args.rounds)
            report["redis back"] = phase(scorer, club, args.rounds)
    report |= beside_the_floor(report)
    report["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    for name in PHASES:
        line = ", ".join(
            f"{k} p50 {v['p50_ms']} / max {v['max_ms']} ms" for k, v in report[name].items()
        )
        print(f"{name:16} {line}")
    for name in PHASES[1:]:
        line = ", ".join(
            f"{k} {report['ratio'][name][k]}× ({report['extra_ms'][name][k]:+} ms at most)"
            for k in report[name]
        )
        print(f"{name:16} beside the floor: {line}")
    print(f"floor: the same requests with {FLOOR}, in the same run")
    return 0


def beside_the_floor(report: dict[str, dict[str, dict[str, float]]]) -> dict:
    """The floor (Redis answering), each other phase's medians in floors, and the most
    each request took beyond the floor's most."""
    floor = report[FLOOR]
    return {
        "floor": {"phase": FLOOR, **floor},
        "ratio": {
            name: {k: ratio(v["p50_ms"], floor[k]["p50_ms"]) for k, v in report[name].items()}
            for name in PHASES[1:]
        },
        "extra_ms": {
            name: {k: round(v["max_ms"] - floor[k]["max_ms"], 1) for k, v in report[name].items()}
            for name in PHASES[1:]
        },
    }


if __name__ == "__main__":
    raise SystemExit(main())
