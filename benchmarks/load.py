"""Load test: the app under gunicorn on PostgreSQL, many phones at once.

    .venv/bin/python benchmarks/load.py --json            # 50 clients, 60 seconds

Creates a database of its own (``scorekeeper_load`` on 127.0.0.1, or --database
scorekeeper_load_…; dropped and recreated; never the dev or test database), starts
gunicorn on 127.0.0.1 (--port, 8765) with
production settings, and drives N concurrent clients through a realistic mix: view
a session page, preview a round being typed (HTMX), save a round, view a league's
standings. Each client scores its own table (as phones at different tables do) and
every client also reads a shared one; its person taps at random moments (--think-ms
apart, 1 s on average) whatever the server does, a tap due while an answer is
awaited being sent once it comes (late); the clients open the app over the first
such pause, and that first page open (for the CSRF cookie) is not measured, as
signing in is not. Then it prints requests/s, p50/p99 latency
and errors, per action and overall, and checks consistency: every round a client
saw saved is in the database exactly once, numbers are gapless, and every stored
score and total equals a recomputation by the rules service. The report gives the
mix's p99 and the save's, the throughput beside what the clients asked for (every
tap before the deadline; a save is two requests, the page and the POST: the share
is of the taps answered), errors and inconsistencies, each against its target.

The floor, measured first in the same run: a bare "hello" view on the same server
(the whole middleware stack, no database, no template), asked for by the same
clients at the same pace (--hello-seconds), with the server's CPU per request.
``"floor"`` holds its figures and ``"ratio"`` the mix's beside them, percentile to
percentile (the mix's p50 and p99 and the save's p99 in hellos), which another
machine can compare; the poll run's ratios are the server's CPU per poll to its
CPU per hello, and the unchanged polls a second to the hellos a second when asked
for as fast: what a poll costs beyond the framework's own work.

It also says what shared the cores: the CPU the server (gunicorn's processes) and
this generator used over the measured run, and where each ran. ``--pin`` runs the
server on every CPU but the last and the generator on the last (the default for
--poll on two cores or more: one worker, and clients that would otherwise take CPU
from it); PostgreSQL, Redis and other programs are never pinned.

    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python benchmarks/load.py --poll --workers 1
    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python benchmarks/load.py --poll --workers 2

The poll run (--poll) measures what a table's live view costs: every client holds
its session page's poll address with the stamp the page gave it and asks it again
and again without pausing, as phones whose table has not changed do every few
seconds; the server answers 204 (unchanged) from the cache, without the database
(games/live.py). It prints unchanged polls per second, the database's transactions
per poll (0 when the cache answers) and the server's CPU per poll. It needs the
shared cache: REDIS_URL (or --cache-url) names the Redis server and database, and
every worker and this script's own set-up use it (a per-process memory cache would
never hold the stamps the set-up wrote, so every poll would go to the database). The
mix uses it too when given.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, and benchmarks/http.py
# would hide the standard library's http package: the folder makes way.
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import http.client
import json
import os
import random
import re
import secrets
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.floor import ratio  # noqa: E402

DATABASE = "scorekeeper_load"
PG = "postgres://postgres@127.0.0.1:5432"

# Valid 21-points rounds under cut 8S (docs/rules §7 and the rules tests), seat order.
WIN = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H"
SHOWN = "2D 3D 4D | 9C 10C JC | QD QS QC | KH KH | 5D 9D | AS 7S | 6H 6D 4C 2S JH 8C"
PLAIN = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H JH | 3D 3C 3H"
LOOSE = "2C 4D 6H | 10S QC KD | 3S 5H 9C | JH AD 2D | 4C 6D 10C | QS KH 3H | 5C 9D JD"
ROUNDS = [
    ("8S", [("declared", WIN), ("shown", SHOWN), ("first_drop", "")]),
    ("8S", [("middle_drop", ""), ("declared", PLAIN), ("shown", LOOSE)]),
    ("8S", [("shown", LOOSE), ("first_drop", ""), ("declared", WIN)]),
    ("5H", [("declared", PLAIN), ("middle_drop", ""), ("shown", LOOSE)]),
]
MIX = [("view", 40), ("preview", 30), ("save", 15), ("standings", 15)]
# Requests per action: a save first opens the page for its form's hidden fields.
REQUESTS_PER_ACTION = 1 + dict(MIX)["save"] / sum(weight for _, weight in MIX)
# The targets for a club's evening on a quiet 2-core machine.
TARGETS = {
    "mix_p99_ms": 200,
    "save_p99_ms": 250,
    "throughput_share": 0.95,
    "unchanged_polls_per_s": 600,
}
STAMPED_POLL = re.compile(r'hx-get="([^"]*/scoreboard/\?v=[^"]+)"')


def environment(static_root: str, cache_url: str | None, database: str) -> dict[str, str]:
    cache = {}
    if cache_url:
        # A prefix of this run's own: other runs' keys in that Redis stay apart.
        cache = {"REDIS_URL": cache_url, "DJANGO_CACHE_PREFIX": f"load-{secrets.token_hex(4)}"}
    return {
        **os.environ,
        **cache,
        "DJANGO_ENV": "production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_HSTS_SECONDS": "0",
        "DJANGO_STATIC_ROOT": static_root,
        "DATABASE_URL": f"{PG}/{database}",
        "DATABASE_CONN_MAX_AGE": "60",
        "DJANGO_LOG_LEVEL": "WARNING",
        # /hello/, the floor the report compares against: not routed in production
        # unless asked for.
        "DJANGO_BENCHMARK_ROUTES": "1",
    }


def forget_cache_keys(env: dict[str, str]) -> None:
    """Deletes this run's keys (its own prefix) from the shared Redis, and only them:
    other runs and other apps may use the same database."""
    prefix = env.get("DJANGO_CACHE_PREFIX")
    if not env.get("REDIS_URL") or not prefix:
        return
    import redis

    client = redis.Redis.from_url(env["REDIS_URL"])
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    for first in range(0, len(keys), 1000):
        client.delete(*keys[first : first + 1000])


def recreate_database(database: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{database}"')


@dataclass
class Table:
    """One client's own session: its seat ids in order and its cookies."""

    session_pk: int
    seats: list[int]
    cookie: str


def set_up(clients: int) -> tuple[list[Table], int, str]:
    """Users, a league, a session per client (and a shared one) with a few rounds."""
    import django

    django.setup()
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User

    # The app's session store: a sign-in made here, as a browser's would be.
    session_store = import_module(settings.SESSION_ENGINE).SessionStore

    from games.models import League, Membership
    from games.services.round_checks import check_round
    from games.services.round_entries import new_round_entry
    from games.services.round_saves import save_round
    from games.services.sessions import create_session

    league = League.objects.create(name="Load club", slug="load-club", preset="21-points")
    tables = []
    shared = None
    for n in range(clients + 1):
        user = User.objects.create_user(f"phone{n}", password=secrets.token_urlsafe(12))
        Membership.objects.create(league=league, user=user, role=Membership.Role.SCORER)
        store = session_store()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "axes.backends.AxesBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        players = [f"P{n}-{k}" for k in range(3)]
        session = create_session(
            user, preset="21-points", overrides={}, players=players, league=league
        )
        for cut, hands in ROUNDS[:2]:
            entry = new_round_entry(session)
            typed = {seat.pk: hand for seat, hand in zip(entry.seats, hands, strict=True)}
            check = check_round(entry, cut, typed, final=True)
            save_round(entry, check, user)
        seats = list(session.seats.order_by("position").values_list("pk", flat=True))
        table = Table(session.pk, seats, store.session_key)
        if shared is None:
            shared = table.session_pk
        else:
            tables.append(table)
    return tables, shared, league.slug


HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')


@dataclass
class Result:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter = field(default_factory=Counter)
    statuses: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    # Actions the clients' people tapped before the deadline, and those answered: a
    # tap due while the previous answer is awaited is sent once it comes (late).
    asked: int = 0
    served: int = 0
    late_ms: list[float] = field(default_factory=list)
    saved: dict[int, int] = field(default_factory=dict)  # session pk → rounds it saved


class Client(threading.Thread):
    def __init__(
        self, port, table, shared, slug, deadline, result, lock, only=None, seed=0, think=0.0
    ):
        super().__init__(daemon=True)
        self.think = think
        self.port, self.table, self.shared, self.slug = port, table, shared, slug
        self.deadline, self.result, self.lock, self.only = deadline, result, lock, only
        self.rng = random.Random(seed)
        self.cookies = {"sessionid": table.cookie} if table else {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.saved = 0

    def call(
        self, action: str, method: str, path: str, data=None, headers=None, record: bool = True
    ) -> str | None:
        headers = dict(headers or {})
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        started = time.perf_counter()
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode()
                break
            except (OSError, http.client.HTTPException) as error:
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                # A keep-alive connection the server closed while the client was idle
                # fails before the request is read: browsers send it again, once.
                idle_closed = isinstance(
                    error, http.client.RemoteDisconnected | BrokenPipeError | ConnectionResetError
                )
                if attempt == 1 and idle_closed:
                    started = time.perf_counter()
                    continue
                with self.lock:
                    self.result.errors[f"{action}: {type(error).__name__}"] += 1
                return None
        elapsed = (time.perf_counter() - started) * 1000
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        if not record:
            return text if response.status < 400 else None
        with self.lock:
            self.result.latencies[action].append(elapsed)
            self.result.statuses[action][response.status] += 1
            if response.status >= 400 and not (action == "save" and response.status == 409):
                self.result.errors[f"{action}: HTTP {response.status}"] += 1
        return text if response.status < 400 else None

    def round_data(self, form_html: str) -> dict:
        cut, hands = self.rng.choice(ROUNDS)
        data = dict(HIDDEN.findall(form_html))
        data["cut_joker"] = cut
        for seat, (outcome, groups) in zip(self.table.seats, hands, strict=True):
            data[f"outcome_{seat}"] = outcome
            data[f"groups_{seat}"] = groups
        return data

    def poll(self, page: str) -> None:
        """The live view of a table that does not change: the poll address the page
        holds (with its stamp), asked again and again without a pause."""
        html = self.call("view", "GET", page, record=False) or ""
        found = STAMPED_POLL.search(html)
        if found is None:
            with self.lock:
                self.result.errors["poll: no stamped poll address on the page"] += 1
            return
        url = found.group(1).replace("&amp;", "&")
        while time.monotonic() < self.deadline:
            self.call("poll", "GET", url, headers={"HX-Request": "true"})

    def run(self) -> None:
        actions, weights = zip(*MIX, strict=True)
        page = f"/sessions/{self.table.session_pk}/" if self.table else "/hello/"
        if self.think:
            # Phones open the app over the first moments, not all in one millisecond.
            time.sleep(
                self.rng.uniform(0, min(self.think, max(0.0, self.deadline - time.monotonic())))
            )
        if self.table and self.only is None:
            # Opening the page for the CSRF cookie: setup, like signing in, not measured.
            self.call("view", "GET", page, record=False)
        if self.only == "poll":
            self.poll(page)
            return
        due = time.monotonic()
        asked = served = 0
        late: list[float] = []
        while True:
            if self.think:
                # A person between two taps: exponential pauses with this mean, kept
                # whatever the server does (an open loop), so a slow answer does not
                # lower what is asked for: the tap waits, and counts as late.
                due += self.rng.expovariate(1 / self.think)
                if due >= self.deadline:
                    break
                asked += 1
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                else:
                    late.append(-wait * 1000)
            elif time.monotonic() >= self.deadline:
                break
            served += 1
            if self.only == "hello":
                self.call("hello", "GET", "/hello/")
                continue
            action = self.rng.choices(actions, weights)[0]
            if action == "view":
                pk = self.table.session_pk if self.rng.random() < 0.7 else self.shared
                self.call("view", "GET", f"/sessions/{pk}/")
            elif action == "standings":
                self.call("standings", "GET", f"/leagues/{self.slug}/standings/")
            elif action == "preview":
                cut, hands = self.rng.choice(ROUNDS)
                data = {"cut_joker": cut}
                for seat, (outcome, groups) in zip(self.table.seats, hands, strict=True):
                    data[f"outcome_{seat}"] = outcome
                    data[f"groups_{seat}"] = groups[: self.rng.randint(0, len(groups))]
                self.call(
                    "preview",
                    "POST",
                    f"/sessions/{self.table.session_pk}/rounds/preview/",
                    data,
                    {"HX-Request": "true"},
                )
            else:
                form = self.call("view", "GET", page)
                if form is None:
                    continue
                text = self.call(
                    "save",
                    "POST",
                    f"/sessions/{self.table.session_pk}/rounds/",
                    self.round_data(form),
                    {"HX-Request": "true"},
                )
                if text is not None and "saved." in text:
                    self.saved += 1
        with self.lock:
            self.result.asked += asked
            self.result.served += served
            self.result.late_ms.extend(late)
            if self.table:
                self.result.saved[self.table.session_pk] = self.saved


def drive(port, tables, shared, slug, seconds, only=None, think=0.0) -> tuple[Result, float]:
    result, lock = Result(), threading.Lock()
    deadline = time.monotonic() + seconds
    threads = [
        Client(port, table, shared, slug, deadline, result, lock, only=only, seed=n, think=think)
        for n, table in enumerate(tables)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return result, time.monotonic() - started


def summary(result: Result, elapsed: float) -> dict:
    every = [ms for values in result.latencies.values() for ms in values]

    def figures(values: list[float]) -> dict:
        ordered = sorted(values)
        return {
            "requests": len(ordered),
            "p50_ms": round(statistics.median(ordered), 1) if ordered else None,
            "p99_ms": round(ordered[max(0, int(0.99 * len(ordered)) - 1)], 1) if ordered else None,
        }

    return {
        **figures(every),
        "requests_per_s": round(len(every) / elapsed, 1),
        "errors": sum(result.errors.values()),
        "error_kinds": dict(result.errors),
        "by_action": {action: figures(v) for action, v in sorted(result.latencies.items())},
        "statuses": {
            action: {str(code): n for code, n in sorted(counts.items())}
            for action, counts in sorted(result.statuses.items())
        },
    }


def asked_per_s(result: Result, elapsed: float) -> float | None:
    """What the clients ask for: every tap their people made before the deadline
    (one action each; a save is two requests), as requests a second; None without
    pauses (they ask for all the server gives). The taps keep their own schedule, so
    a server that keeps up answers all of them, however long each answer took: the
    share falls below 100% only when answers fall behind the taps."""
    if not result.asked or elapsed <= 0:
        return None
    return round(result.asked * REQUESTS_PER_ACTION / elapsed, 1)


# --- Who used the cores --------------------------------------------------------------


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU the processes have used so far (Linux /proc; 0 elsewhere)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


class CoreUse:
    """The CPU the server (gunicorn's master and workers) and this load generator
    used over a run, to print beside its figures: on a small machine they share the
    cores unless pinned apart (--pin)."""

    def __init__(self, server_pid: int) -> None:
        self.server = [server_pid, *_children(server_pid)]
        self.began = (time.monotonic(), cpu_seconds(self.server), time.process_time())

    def done(self) -> dict:
        wall = time.monotonic() - self.began[0]
        server = cpu_seconds(self.server) - self.began[1]
        generator = time.process_time() - self.began[2]
        return {
            "seconds": round(wall, 1),
            "server_cpu_s": round(server, 1),
            "generator_cpu_s": round(generator, 1),
            "server_cores_busy": round(server / wall, 2),
            "generator_cores_busy": round(generator / wall, 2),
        }


def per_request_us(cpu_seconds: float, requests: int) -> int | None:
    """The server's CPU microseconds a request, over a run of ``requests``."""
    return round(cpu_seconds / requests * 1e6) if requests else None


def cores_for(pin: str, poll: bool) -> tuple[set[int], set[int]] | None:
    """(the server's CPUs, the generator's) when pinned apart, else None. ``auto``
    pins the poll run (one worker and the clients, one core each) on two cores or
    more; the mix keeps every core for its workers."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if pin == "no" or (pin == "auto" and not poll) or len(cpus) < 2:
        return None
    return set(cpus[:-1]), {cpus[-1]}


def database_transactions(database: str) -> int:
    """Transactions the load database has committed or rolled back so far. Django
    runs each query outside a transaction in its own, so this counts queries too.
    The server publishes its counts within a second or so of the work."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
            (database,),
        ).fetchone()
    return int(row[0])


def consistency(tables: list[Table], result: Result) -> dict:
    """Every round a client saw saved is there once, numbered without gaps, and every
    stored figure equals the rules service's recomputation."""
    from games.models import GameSession, Round
    from games.rules import PlayerHand, get_ruleset, parse_card, score_round
    from games.rules.totals import session_state

    report = Counter()
    for table in tables:
        session = GameSession.objects.get(pk=table.session_pk)
        rounds = list(Round.objects.filter(session=session).order_by("number"))
        expected = 2 + result.saved.get(table.session_pk, 0)
        report["rounds_expected"] += expected
        report["rounds_found"] += len(rounds)
        report["missing_or_extra"] += abs(len(rounds) - expected)
        report["gaps"] += int([r.number for r in rounds] != list(range(1, len(rounds) + 1)))
        ruleset = get_ruleset(session.preset, session.overrides)
        names = list(session.seats.order_by("position").values_list("player__name", flat=True))
        scores = []
        for played in rounds:
            entries = list(played.entries.select_related("player"))
            by_name = {e.player.name: e for e in entries}
            hands = [
                PlayerHand(
                    name,
                    by_name[name].outcome,
                    tuple(tuple(parse_card(c) for c in g) for g in by_name[name].groups),
                )
                for name in names
            ]
            recomputed = score_round(ruleset, parse_card(played.cut_joker), hands)
            for player in recomputed.players:
                report["entry_mismatches"] += int(by_name[player.name].score != player.score)
            scores.append({p.name: p.score for p in recomputed.players})
        totals = session_state(ruleset, names, scores).totals
        stored = dict(session.seats.values_list("player__name", "total"))
        report["total_mismatches"] += sum(int(stored[n] != totals[n]) for n in names)
    report["sessions"] = len(tables)
    report["inconsistencies"] = (
        report["missing_or_extra"]
        + report["gaps"]
        + report["entry_mismatches"]
        + report["total_mismatches"]
    )
    return dict(report)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--hello-seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--think-ms",
        type=float,
        default=1000,
        help="mean pause of a client between requests (0: as fast as the server answers)",
    )
    parser.add_argument(
        "--poll",
        action="store_true",
        help="the poll run: unchanged live polls without pauses instead of the mix "
        "(--clients defaults to 8, --think-ms is not used)",
    )
    parser.add_argument(
        "--cache-url",
        default=os.environ.get("REDIS_URL") or os.environ.get("DJANGO_CACHE_URL"),
        help="the shared cache, e.g. redis://127.0.0.1:6379/13 (default: $REDIS_URL; "
        "none: each process its own memory)",
    )
    parser.add_argument(
        "--database",
        default=DATABASE,
        help="its own database, dropped and made again (the name must start with "
        "scorekeeper_load: two runs at once need two names)",
    )
    parser.add_argument(
        "--pin",
        choices=("auto", "yes", "no"),
        default="auto",
        help="run the server on all CPUs but the last and this load generator on the "
        "last, so it takes no CPU from the server (auto: for --poll on 2+ cores)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not re.fullmatch(r"scorekeeper_load\w*", args.database):
        parser.error("--database must start with scorekeeper_load (it is dropped)")
    if args.poll and "--clients" not in sys.argv:
        args.clients = 8  # enough connections to keep one worker's threads busy
    if args.poll and not args.cache_url:
        # The set-up saves the sessions in this process: their stamps reach the
        # workers only through a shared cache (each worker's own memory never holds
        # them, and every poll would go to the database).
        parser.error(
            "the poll run needs the shared cache the workers read the stamps from: "
            "give --cache-url redis://127.0.0.1:6379/N (or set REDIS_URL)"
        )

    # What else the machine was doing before this run added its own load.
    load_before = [round(load, 2) for load in os.getloadavg()]
    static_root = tempfile.mkdtemp(prefix="scorekeeper-static-")
    env = environment(static_root, args.cache_url, args.database)
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    recreate_database(args.database)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
    tables, shared, slug = set_up(args.clients)

    pinned = cores_for(args.pin, args.poll)
    server = subprocess.Popen(
        [
            # The repository's configuration (as in production); the options given
            # here override it.
            sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"),
            "--bind", f"127.0.0.1:{args.port}",
            "--workers", str(args.workers), "--threads", str(args.threads),
            "--log-level", "warning",
            "--keep-alive", "75",
        ],
        env=env, cwd=ROOT,
        preexec_fn=(lambda: os.sched_setaffinity(0, pinned[0])) if pinned else None,
    )  # fmt: skip
    if pinned:
        os.sched_setaffinity(0, pinned[1])  # the client threads, started later, inherit it
    think = args.think_ms / 1000
    try:
        for _ in range(100):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=2)
                conn.request("GET", "/hello/")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        if args.poll:
            # The floor as the polls meet it: as fast as the server answers.
            hello_cores = CoreUse(server.pid)
            hello, hello_elapsed = drive(
                args.port, tables, shared, slug, args.hello_seconds, only="hello"
            )
            hello_core_use = hello_cores.done()
            # Every table opened once (not measured), then the stamped polls.
            before = database_transactions(args.database)
            cores = CoreUse(server.pid)
            run, run_elapsed = drive(args.port, tables, shared, slug, args.seconds, only="poll")
            core_use = cores.done()
            time.sleep(2)  # the server publishes its counts a moment later
            transactions = database_transactions(args.database) - before
        else:
            hello_cores = CoreUse(server.pid)
            hello, hello_elapsed = drive(
                args.port, tables, shared, slug, args.hello_seconds, only="hello", think=think
            )
            hello_core_use = hello_cores.done()
            cores = CoreUse(server.pid)
            run, run_elapsed = drive(args.port, tables, shared, slug, args.seconds, think=think)
            core_use = cores.done()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        forget_cache_keys(env)

    from django.db import connections

    connections.close_all()
    report = {
        "server": {
            "gunicorn_workers": args.workers,
            "threads_per_worker": args.threads,
            "cpus": os.cpu_count(),
            "cache": "redis (shared)" if args.cache_url else "memory of each process",
            "load_average_before": load_before,
            "load_average_after": [round(load, 2) for load in os.getloadavg()],
            # What shared the cores during the measured run: the server's CPUs and
            # this generator's (None: not pinned, both on every core), and the CPU
            # each used; PostgreSQL and Redis are never pinned.
            "pinned": {"server": sorted(pinned[0]), "generator": sorted(pinned[1])}
            if pinned
            else None,
            "core_use": core_use,
        },
        "clients": args.clients,
        "seconds": args.seconds,
        "hello": summary(hello, hello_elapsed),
        "targets": TARGETS,
    }
    hello_figures = report["hello"]
    report["floor"] = {
        "view": "/hello/",
        "p50_ms": hello_figures["p50_ms"],
        "p99_ms": hello_figures["p99_ms"],
        "requests_per_s": hello_figures["requests_per_s"],
        "server_cpu_us_per_request": per_request_us(
            hello_core_use["server_cpu_s"], hello_figures["requests"]
        ),
        "server_cores_busy": hello_core_use["server_cores_busy"],
    }
    if args.poll:
        polls = summary(run, run_elapsed)
        unchanged = run.statuses["poll"][204]
        report["poll"] = polls | {
            "unchanged_per_s": round(unchanged / run_elapsed, 1),
            "unchanged_per_s_per_worker": round(unchanged / run_elapsed / args.workers, 1),
            "database_transactions_per_poll": (
                round(transactions / polls["requests"], 3) if polls["requests"] else None
            ),
            # The server's CPU (gunicorn and the app) per poll: unlike polls a second,
            # it hardly moves with what else runs on the machine.
            "server_cpu_us_per_poll": per_request_us(core_use["server_cpu_s"], polls["requests"]),
        }
        report["ratio"] = {
            "server_cpu_per_poll": ratio(
                report["poll"]["server_cpu_us_per_poll"],
                report["floor"]["server_cpu_us_per_request"],
            ),
            "unchanged_per_s": ratio(
                report["poll"]["unchanged_per_s"], report["floor"]["requests_per_s"]
            ),
        }
        ok = polls["errors"] == 0 and unchanged == polls["requests"] > 0
    else:
        mix = summary(run, run_elapsed)
        asked = asked_per_s(run, run_elapsed)
        late = sorted(run.late_ms)
        report["think_ms"] = args.think_ms
        report["mix"] = mix | {
            "save_p99_ms": mix["by_action"].get("save", {}).get("p99_ms"),
            "asked_per_s": asked,
            "throughput_share": round(run.served / run.asked, 3) if run.asked else None,
            "taps_late": len(late),
            "late_p99_ms": round(late[max(0, int(0.99 * len(late)) - 1)], 1) if late else None,
        }
        report["consistency"] = consistency(tables, run)
        report["p99_ratio_to_hello"] = ratio(mix["p99_ms"], report["hello"]["p99_ms"])
        report["ratio"] = {
            "mix_p50": ratio(mix["p50_ms"], report["floor"]["p50_ms"]),
            "mix_p99": ratio(mix["p99_ms"], report["floor"]["p99_ms"]),
            "save_p99": ratio(report["mix"]["save_p99_ms"], report["floor"]["p99_ms"]),
        }
        ok = mix["errors"] == 0 and report["consistency"]["inconsistencies"] == 0
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print_report(report, args)
    return 0 if ok else 1


def print_report(report: dict, args) -> None:
    """The figures measured, each beside its target and the floor."""
    targets, floor, ratios = report["targets"], report["hello"], report["ratio"]
    server = report["server"]
    print(
        f"{args.clients} clients, {args.seconds:.0f} s, gunicorn {args.workers}×{args.threads}, "
        f"cache: {server['cache']}, load average before {server['load_average_before']}, "
        f"after {server['load_average_after']}"
    )
    use, pinned = server["core_use"], server["pinned"]
    where = (
        f"server on CPU {pinned['server']}, this load generator on CPU {pinned['generator']}"
        if pinned
        else f"server and this load generator share all {server['cpus']} CPUs"
    )
    print(
        f"cores: {where} (PostgreSQL, Redis and anything else running: unpinned); over "
        f"the run the server used {use['server_cores_busy']} of a core, the generator "
        f"{use['generator_cores_busy']}"
    )
    if args.poll:
        poll = report["poll"]
        print(
            f"poll:  {poll['unchanged_per_s']} unchanged polls/s "
            f"({poll['unchanged_per_s_per_worker']} per worker; target ≥ "
            f"{targets['unchanged_polls_per_s']} for one), p50 {poll['p50_ms']} ms, "
            f"p99 {poll['p99_ms']} ms, answers {poll['statuses'].get('poll', {})}, "
            f"errors {poll['errors']}, database transactions per poll "
            f"{poll['database_transactions_per_poll']}, server CPU per poll "
            f"{poll['server_cpu_us_per_poll']} µs"
        )
        print(
            f"       beside the floor: {ratios['server_cpu_per_poll']}× a hello's server CPU, "
            f"{ratios['unchanged_per_s']}× the hellos a second"
        )
    else:
        mix = report["mix"]
        share = mix["throughput_share"]
        print(
            f"mix:   p99 {mix['p99_ms']} ms (target ≤ {targets['mix_p99_ms']}), "
            f"p50 {mix['p50_ms']} ms; save p99 {mix['save_p99_ms']} ms "
            f"(target ≤ {targets['save_p99_ms']})"
        )
        print(
            f"       beside the floor: p50 {ratios['mix_p50']}× the hello's p50, "
            f"p99 {ratios['mix_p99']}× its p99; save p99 {ratios['save_p99']}× its p99"
        )
        print(
            f"       {mix['requests_per_s']} req/s of {mix['asked_per_s']} asked for"
            + (
                f" ({share:.0%} of the taps; target ≥ {targets['throughput_share']:.0%})"
                if share
                else ""
            )
            + f", {mix['taps_late']} taps late (p99 {mix['late_p99_ms']} ms), "
            f"errors {mix['errors']} {mix['error_kinds'] or ''}, "
            f"inconsistencies {report['consistency']['inconsistencies']}"
        )
        for action, row in mix["by_action"].items():
            timing = f"p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms"
            print(f"  {action:10} {row['requests']:6} req, {timing}")
        print("consistency:", report["consistency"])
    print(
        f"hello: {floor['requests_per_s']} req/s, p50 {floor['p50_ms']} ms, "
        f"p99 {floor['p99_ms']} ms, errors {floor['errors']}, server CPU "
        f"{report['floor']['server_cpu_us_per_request']} µs a request (the framework's "
        "floor, measured first)"
    )


if __name__ == "__main__":
    sys.exit(main())
