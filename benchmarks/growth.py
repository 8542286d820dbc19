"""How a save, the session page and a full poll grow with a session's length, on
PostgreSQL.

    .venv/bin/python benchmarks/growth.py                 # 10, 100, 500, 2,000 rounds
    .venv/bin/python benchmarks/growth.py --sizes 10,100 --json

Creates a database of its own (the one DATABASE_URL names, by default
``scorekeeper_growth`` on 127.0.0.1; dropped and recreated, so its name must start
with ``scorekeeper_growth`` or ``scorekeeper_bench``), migrates it and, for each size,
starts a 21-points session of six players and fills it with that many rounds: six
real rounds scored by the rules service and saved through ``save_round``, then copied
row for row, as a save stores them (hands, groups, breakdowns, the dealer moving
round by round), so that every replay below is a real one.

Then, in-process through Django's test client (server time, no network) and signed
in as the session's scorer, it measures

- **save**: POST a new round over htmx from the page's current table (the answer a
  phone gets after Save);
- **page**: GET the session page;
- **poll**: the live score table when something changed (no stamp, so never the
  cached 204).

Each figure is the median CPU time (``time.process_time``: this process only, so
another program on the machine slows it less than the wall clock) over --repeats
requests after a warm-up, and the SQL queries of one request. The floor, measured in
the same run by the same signed-in client: the bare "hello" view's median CPU
(benchmarks/floor.py); each figure carries its ``ratio`` to it, which another
machine can compare. A table goes to stdout, the targets beside it; --json prints
only ``{"save": {"10": {"cpu_ms": …, "queries": …, "ratio": …}, …}, "page": {…},
"poll": {…}, "floor": {"view": "/hello/", "cpu_median_ms": …, …}}``.

``run()`` works on whatever database Django is set up with: the test suite runs it
at a tiny size (tests/benchmarks/) so this script never rots.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, this file's folder comes first on sys.path, and benchmarks/http.py
# would hide the standard library's http package: the folder makes way.
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))

from benchmarks.floor import hello_in_process, ratio  # noqa: E402
from benchmarks.http import set_up_django  # noqa: E402
from benchmarks.long_sessions import copy_rounds  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/scorekeeper_growth"
SIZES = (10, 100, 500, 2000)
PLAYERS = ("Asha", "Ben", "Chen", "Dev", "Esi", "Femi")
# The targets, so that a long evening's session answers about as quickly as a short
# one: a save's CPU at 10 rounds, how much more it may cost at 500, how much more the
# page may cost at 500 than at 10; query counts do not grow at all.
SAVE_AT_10_MS = 30.0
SAVE_GROWTH_AT_500 = 1.5
PAGE_GROWTH_AT_500 = 2.0

# Valid 21-points hands under cut 8S (the rules tests' hands): one winner declaring,
# one loser showing 21 cards, the others dropping (three decks hold each card three
# times: two shown hands would hold too many kings of hearts). The winner moves round
# the table so the totals stay near each other and nobody reaches a ceiling.
WIN = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H"
PLAIN = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H JH | 3D 3C 3H"
SHOWN = "2D 3D 4D | 9C 10C JC | QD QS QC | KH KH | 5D 9D | AS 7S | 6H 6D 4C 2S JH 8C"
DROPS = ("first_drop", "middle_drop")
MEASURED = ("save", "page", "poll")


def hands_of_round(number: int) -> list[tuple[str, str]]:
    """Round ``number``'s hands in seat order: player ``number % 6`` declares, the one
    after shows, the rest drop (first or middle, by turn)."""
    winner = number % len(PLAYERS)
    hands = []
    for seat in range(len(PLAYERS)):
        after = (seat - winner) % len(PLAYERS)  # 0 for the winner, then clockwise
        if after == 0:
            hands.append(("declared", WIN if number % 2 else PLAIN))
        else:
            drop = DROPS[(after + number) % len(DROPS)]
            hands.append(("shown", SHOWN) if after == 1 else (drop, ""))
    return hands


def log(message: str) -> None:
    print(f"[growth-bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --- Filling a session -------------------------------------------------------------------


def save_real_round(session, user) -> None:
    """One round as the round form saves it: checked and scored by the rules service."""
    from games.services.round_checks import check_round
    from games.services.round_entries import new_round_entry
    from games.services.round_saves import save_round

    entry = new_round_entry(session)
    typed = {
        seat.pk: hand for seat, hand in zip(entry.seats, hands_of_round(entry.number), strict=True)
    }
    check = check_round(entry, "8S", typed, final=True)
    assert check.valid, (check.errors, [p.errors for p in check.players])
    save_round(entry, check, user)


def fill(user, rounds: int, name: str):
    """A session of six players with ``rounds`` rounds: six saved for real, the rest
    copied from them row for row in bulk (the dealer moving on), then refreshed once
    as any save would."""
    from games.services.sessions import create_session

    session = create_session(
        user, preset="21-points", overrides={}, players=list(PLAYERS), name=name
    )
    for _ in range(min(rounds, len(PLAYERS))):
        save_real_round(session, user)
    copy_rounds(session, user, rounds)
    session.refresh_from_db()
    return session


# --- Measuring ---------------------------------------------------------------------------


def measure(call: Callable[[], object], repeats: int, before: Callable[[], None] | None = None):
    """Median CPU ms of ``call`` over ``repeats`` calls after one warm-up, and the SQL
    queries of one more. ``before`` runs ahead of each call, outside the timing."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def once() -> float:
        if before:
            before()
        began = time.process_time()
        call()
        return (time.process_time() - began) * 1000

    once()  # warm-up: templates compiled, connection open, caches filled
    times = [once() for _ in range(repeats)]
    if before:
        before()
    with CaptureQueriesContext(connection) as queries:
        call()
    return {"cpu_ms": round(statistics.median(times), 2), "queries": len(queries)}


def _stamp(html: str) -> str:
    return re.search(r'<input type="hidden" name="shown" value="(\d+)">', html)[1]


def measure_session(client, session, repeats: int) -> dict[str, dict]:
    from django.urls import reverse

    page_url = reverse("games:session_detail", args=[session.pk])
    save_url = reverse("games:round_create", args=[session.pk])
    poll_url = reverse("games:session_scoreboard", args=[session.pk])
    seats = list(session.seats.order_by("position"))
    posted: dict = {}

    def next_round() -> None:
        # The round form as the phone would send it from the page it shows: the next
        # round's hands, a fresh submission token and the stamp of the table shown.
        html = client.get(page_url).content.decode()
        number = int(re.search(r'data-new-round="(\d+)"', html)[1])
        posted.clear()
        posted.update(
            cut_joker="8S",
            number=str(number),
            submission=secrets.token_hex(8),
            shown=_stamp(html),
        )
        for seat, (outcome, groups) in zip(seats, hands_of_round(number), strict=True):
            posted[f"outcome_{seat.pk}"] = outcome
            posted[f"groups_{seat.pk}"] = groups

    def save() -> None:
        response = client.post(save_url, posted, headers={"HX-Request": "true"})
        assert response.status_code == 200, response.content[:500]
        assert "saved." in response.content.decode()

    def page() -> None:
        assert client.get(page_url).status_code == 200

    def poll() -> None:
        assert client.get(poll_url).status_code == 200

    return {
        "save": measure(save, repeats, before=next_round),
        "page": measure(page, repeats),
        "poll": measure(poll, repeats),
    }


def run(sizes: list[int], repeats: int) -> dict[str, dict]:
    """Fill a session of each size and measure it: {"save": {"10": {...}}, ...,
    "floor": {...}}, each figure with its ratio to the floor."""
    from django.contrib.auth.models import User
    from django.test import Client

    user = User.objects.create_user(f"growth-{secrets.token_hex(4)}", password=None)
    client = Client()
    client.force_login(user)
    report: dict[str, dict] = {what: {} for what in MEASURED}
    for size in sizes:
        log(f"filling a session of {size} rounds")
        session = fill(user, size, name=f"{size} rounds")
        log(f"measuring {size} rounds")
        for what, figures in measure_session(client, session, repeats).items():
            report[what][str(size)] = figures
    floor = hello_in_process(client)
    for figures in report.values():
        for figure in figures.values():
            figure["ratio"] = ratio(figure["cpu_ms"], floor["cpu_median_ms"])
    report["floor"] = floor
    return report


def verdicts(report: dict[str, dict]) -> list[str]:
    """Each of the targets above that these sizes can judge, met or not."""
    lines = []
    save, page = report["save"], report["page"]
    if "10" in save:
        ms = save["10"]["cpu_ms"]
        lines.append(f"save at 10 rounds: {ms} ms CPU, {save['10']['ratio']}× the floor "
                     f"(target ≤ {SAVE_AT_10_MS:g} ms): "
                     + ("met" if ms <= SAVE_AT_10_MS else "MISSED"))  # fmt: skip
    if "10" in save and "500" in save:
        growth = save["500"]["cpu_ms"] / save["10"]["cpu_ms"]
        lines.append(f"save at 500 / at 10: {growth:.2f}× (target ≤ {SAVE_GROWTH_AT_500:g}×): "
                     + ("met" if growth <= SAVE_GROWTH_AT_500 else "MISSED"))  # fmt: skip
    if "10" in page and "500" in page:
        growth = page["500"]["cpu_ms"] / page["10"]["cpu_ms"]
        lines.append(f"page at 500 / at 10: {growth:.2f}× (target ≤ {PAGE_GROWTH_AT_500:g}×): "
                     + ("met" if growth <= PAGE_GROWTH_AT_500 else "MISSED"))  # fmt: skip
    for what in MEASURED:
        counts = sorted({f["queries"] for f in report[what].values()})
        lines.append(f"{what} queries {'constant' if len(counts) == 1 else 'GROW'}: {counts}")
    return lines


def table(report: dict[str, dict]) -> str:
    sizes = list(report["save"].keys())
    head = f"{'':6}" + "".join(f"{size + ' rounds':>30}" for size in sizes)
    lines = [
        head,
        f"{'':6}" + "".join(f"{'CPU ms':>12}{'× floor':>9}{'queries':>9}" for _ in sizes),
    ]
    for what in MEASURED:
        figures = report[what]
        cells = "".join(
            f"{figures[size]['cpu_ms']:>12.2f}{figures[size]['ratio']:>9}"
            f"{figures[size]['queries']:>9}"
            for size in sizes
        )
        lines.append(f"{what:6}{cells}")
    floor = report["floor"]
    lines.append(
        f"floor: the hello view, {floor['cpu_median_ms']} ms CPU (median of "
        f"{floor['requests']}, same run, same client)"
    )
    return "\n".join([*lines, "", *verdicts(report)])


# --- Running it on a database of its own ----------------------------------------------------


def _admin_url(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))


def recreate_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(_admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(_admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("sizes are whole numbers, e.g. 10,100") from None
    if not sizes or any(size < 1 for size in sizes):
        raise argparse.ArgumentTypeError("sizes are whole numbers of rounds, at least 1")
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", type=parse_sizes, default=list(SIZES), help="rounds per session, e.g. 10,100"
    )
    parser.add_argument("--repeats", type=int, default=15, help="timed requests per figure")
    parser.add_argument("--keep", action="store_true", help="leave the database afterwards")
    parser.add_argument("--json", action="store_true", help="print only the JSON object")
    args = parser.parse_args(argv)
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    name = urlsplit(url).path.lstrip("/")
    if not urlsplit(url).scheme.startswith("postgres"):
        parser.error("DATABASE_URL must name a PostgreSQL database")
    if not re.fullmatch(r"scorekeeper_(growth|bench)\w*", name):
        parser.error("the database's name must start with scorekeeper_growth (it is dropped)")
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")

    recreate_database(url)
    set_up_django(url)
    from django.core.management import call_command
    from django.db import connections

    try:
        call_command("migrate", verbosity=0, interactive=False)
        report = run(args.sizes, args.repeats)
    finally:
        connections.close_all()
        if not args.keep:
            drop_database(url)
    print(json.dumps(report) if args.json else table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
