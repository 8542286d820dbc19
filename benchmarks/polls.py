"""What one "unchanged" live poll costs a worker, in-process.

    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python benchmarks/polls.py
    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python benchmarks/polls.py --profile session

Creates a database of its own (``scorekeeper_bench_polls`` on 127.0.0.1, or the one
DATABASE_URL names if it starts with ``scorekeeper_bench``; dropped and recreated),
with production settings as benchmarks/load.py starts gunicorn (DEBUG off, the
hardening middleware, Redis as the shared cache). It opens, as a browser would, a
signed-in scorer's session page, the share page, table mode's scorer panel and a
seat's phone, takes the stamped poll address each page holds, and then calls the
WSGI application itself (what a gunicorn worker calls, without the network) with
that poll again and again: every answer must be 204, nothing new.

For each poll it prints the CPU microseconds of one (``time.process_time``: this
process only, so other programs on the machine slow it less than the wall clock;
the median of --batches batches of --repeats polls), the SQL queries and the cache
(Redis) round trips of one, and the same for a bare "hello" view: the framework's
floor, measured in the same run the same way. Each poll carries its ``ratio`` to
the floor (CPU to CPU), which another machine can compare, and ``"floor"`` names the
hello view's figures. ``--profile NAME`` prints cProfile's top functions for one
poll instead.

``run()`` works on whatever database and cache Django is set up with: the test
suite runs it at a tiny size (tests/benchmarks/) so this script never rots.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, this file's folder comes first on sys.path, and benchmarks/http.py
# would hide the standard library's http package: the folder makes way.
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))

from benchmarks.floor import ratio  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/scorekeeper_bench_polls"
POLLS = ("hello", "session", "share", "table panel", "seat phone")
# The target: one worker answers at least 600 unchanged polls a second (every open
# page polls), so one costs well under 1,667 µs of a core (the network and gunicorn
# take their share too).
TARGET_PER_S = 600
STAMPED = re.compile(r'hx-get="([^"]*[?;]v=[^"]*)"')


def log(message: str) -> None:
    print(f"[polls-bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --- The pages a browser opens, and their poll addresses ---------------------------------


def _poll_address(html: str, path: str) -> str:
    """The stamped poll address of ``path`` that a page holds (as htmx reads it)."""
    for found in STAMPED.findall(html):
        url = found.replace("&amp;", "&")
        if urlsplit(url).path == path:
            return url
    raise AssertionError(f"no stamped poll of {path} on the page")


def set_up() -> dict[str, tuple[str, dict[str, str]]]:
    """A scorer, a session of three rounds with its table mode open and one seat on a
    phone: each poll's address and the cookies its browser sends."""
    from django.test import Client
    from django.urls import reverse

    from benchmarks.load import ROUNDS
    from games.models import League, Membership
    from games.services.round_checks import check_round
    from games.services.round_entries import new_round_entry
    from games.services.round_saves import save_round
    from games.services.sessions import create_session
    from games.services.table import open_table

    from django.contrib.auth.models import User  # isort: skip

    user = User.objects.create_user("poll-scorer", password=None)
    league = League.objects.create(name="Poll club", slug="poll-club", preset="21-points")
    Membership.objects.create(league=league, user=user, role=Membership.Role.SCORER)
    session = create_session(
        user, preset="21-points", overrides={}, players=["A", "B", "C"], league=league
    )
    for cut, hands in ROUNDS[:3]:
        entry = new_round_entry(session)
        typed = {seat.pk: hand for seat, hand in zip(entry.seats, hands, strict=True)}
        save_round(entry, check_round(entry, cut, typed, final=True), user)
    open_table(session)
    session.refresh_from_db()

    phone = Client()
    seat = session.seats.order_by("position").first()
    phone.post(reverse("games:table_seats", args=[session.table_token]), {"seat": seat.pk})
    hand = phone.get(reverse("games:table_hand", args=[session.table_token])).content.decode()
    scorer = Client()
    scorer.force_login(user)
    page = scorer.get(reverse("games:session_detail", args=[session.pk])).content.decode()
    share = Client().get(reverse("games:shared_session", args=[session.share_token]))

    def cookies(client: Client) -> dict[str, str]:
        return {name: morsel.value for name, morsel in client.cookies.items()}

    return {
        "hello": ("/hello/", {}),
        "session": (
            _poll_address(page, reverse("games:session_scoreboard", args=[session.pk])),
            cookies(scorer),
        ),
        "share": (
            _poll_address(
                share.content.decode(),
                reverse("games:shared_scoreboard", args=[session.share_token]),
            ),
            {},
        ),
        "table panel": (
            _poll_address(page, reverse("games:table_panel", args=[session.pk])),
            cookies(scorer),
        ),
        "seat phone": (
            _poll_address(hand, reverse("games:table_hand_status", args=[session.table_token])),
            cookies(phone),
        ),
    }


# --- Calling the worker's application ----------------------------------------------------


def wsgi_call(url: str, cookies: dict[str, str], in_test: bool = False) -> Callable[[], int]:
    """One poll as gunicorn hands it to the application: an htmx GET with the
    browser's cookies. Returns the status. ``in_test``: inside a test's transaction,
    which the application's closing of old connections would end, it keeps the
    connection, as Django's test client does."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from scorekeeper.wsgi import application

    path, _, query = url.partition("?")
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8765",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_HX_REQUEST": "true",
        "HTTP_COOKIE": "; ".join(f"{name}={value}" for name, value in cookies.items()),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    status: list[str] = []

    def start_response(line: str, headers, exc_info=None) -> None:
        status.append(line)

    def call() -> int:
        status.clear()
        if in_test:
            request_started.disconnect(close_old_connections)
            request_finished.disconnect(close_old_connections)
        try:
            response = application(dict(environ), start_response)
            for _ in response:
                pass
            response.close()
        finally:
            if in_test:
                request_started.connect(close_old_connections)
                request_finished.connect(close_old_connections)
        return int(status[0].split()[0])

    return call


@contextmanager
def counting_round_trips():
    """Counts the commands sent to the Redis server (a get_many is one)."""
    from redis import Redis

    counted = [0]
    original = Redis.execute_command

    def execute_command(self, *args, **options):
        counted[0] += 1
        return original(self, *args, **options)

    Redis.execute_command = execute_command
    try:
        yield counted
    finally:
        Redis.execute_command = original


def measure(call: Callable[[], int], batches: int, repeats: int) -> dict:
    """Median CPU µs of one poll over ``batches`` batches of ``repeats``, its status,
    and the SQL queries and cache round trips of one more."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(20):  # warm-up: connection open, URL resolver and templates loaded
        call()
    per_poll = []
    for _ in range(batches):
        began = time.process_time()
        for _ in range(repeats):
            call()
        per_poll.append((time.process_time() - began) / repeats * 1e6)
    with CaptureQueriesContext(connection) as queries, counting_round_trips() as trips:
        status = call()
    return {
        "cpu_us": round(statistics.median(per_poll)),
        "cpu_us_range": [round(min(per_poll)), round(max(per_poll))],
        "status": status,
        "queries": len(queries),
        "cache_round_trips": trips[0],
    }


def run(batches: int = 5, repeats: int = 400, in_test: bool = False) -> dict[str, dict]:
    """Each poll's figures (see ``measure``), with its ratio to the hello view's CPU;
    every one must answer 204 (hello 200). Under ``"floor"``, the hello view's."""
    polls = set_up()
    report: dict[str, dict] = {}
    for name in POLLS:
        url, cookies = polls[name]
        call = wsgi_call(url, cookies, in_test)
        report[name] = measure(call, batches, repeats) | {"url": url}
    floor = report["hello"]
    for name in POLLS:
        report[name]["ratio"] = ratio(report[name]["cpu_us"], floor["cpu_us"])
    report["floor"] = {"poll": "hello", "cpu_us": floor["cpu_us"], "url": floor["url"]}
    return report


def profile(name: str, repeats: int) -> str:
    url, cookies = set_up()[name]
    call = wsgi_call(url, cookies)
    for _ in range(20):
        call()
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for _ in range(repeats):
        call()
    profiler.disable()
    out = io.StringIO()
    order = os.environ.get("PROFILE_SORT", "cumulative")  # or tottime
    pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(45)
    return out.getvalue()


def table(report: dict[str, dict]) -> str:
    heading = ("poll", "CPU µs", "(range)", "× hello", "status", "queries", "cache trips")
    lines = ["{:12} {:>7} {:>13} {:>7} {:>6} {:>7} {:>11}".format(*heading)]
    for name in POLLS:
        row = report[name]
        low, high = row["cpu_us_range"]
        lines.append(
            f"{name:12} {row['cpu_us']:7} {f'({low}–{high})':>13} {row['ratio']:>7} "
            f"{row['status']:6} {row['queries']:7} {row['cache_round_trips']:11}"
        )
    lines.append(
        "floor: the hello view, measured in the same run the same way (× hello: CPU to CPU)"
    )
    lines.append(
        f"target: ≥ {TARGET_PER_S} unchanged polls/s per worker, i.e. well under "
        f"{1e6 / TARGET_PER_S:.0f} µs of CPU each with the network and gunicorn's share"
    )
    return "\n".join(lines)


# --- Set-up as load.py's server has it -----------------------------------------------------


def _admin_url(url: str) -> str:
    parts = urlsplit(url)
    return parts._replace(scheme="postgresql", path="/postgres").geturl()


def _recreate(url: str, drop_only: bool = False) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(_admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=400, help="polls per batch")
    parser.add_argument("--profile", choices=POLLS, help="cProfile one poll instead")
    parser.add_argument(
        "--cache-url",
        default=os.environ.get("REDIS_URL") or os.environ.get("DJANGO_CACHE_URL"),
        help="the shared cache, e.g. redis://127.0.0.1:6379/13 (default: $REDIS_URL)",
    )
    parser.add_argument("--json", action="store_true", help="print only the JSON object")
    args = parser.parse_args(argv)
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    if not re.fullmatch(r"scorekeeper_bench\w*", urlsplit(url).path.lstrip("/")):
        parser.error("the database's name must start with scorekeeper_bench (it is dropped)")
    if not args.cache_url:
        parser.error("give the shared cache the workers use: --cache-url or REDIS_URL")

    from benchmarks.load import environment, forget_cache_keys

    env = environment(tempfile.mkdtemp(prefix="scorekeeper-static-"), args.cache_url, "unused")
    # The test client (set-up) calls itself "testserver"; the polls come as load.py's.
    env |= {
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,testserver",
    }
    os.environ.update(env)
    _recreate(url)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    try:
        call_command("migrate", verbosity=0, interactive=False)
        call_command("collectstatic", verbosity=0, interactive=False)  # the pages' manifest
        log(f"load average before: {os.getloadavg()}")
        if args.profile:
            print(profile(args.profile, args.repeats))
            return 0
        report = run(args.batches, args.repeats)
    finally:
        connections.close_all()
        forget_cache_keys(env)
        _recreate(url, drop_only=True)
    print(json.dumps(report, indent=1) if args.json else table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
