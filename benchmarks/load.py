"""Load test: the app under gunicorn on PostgreSQL, many phones at once.

    .venv/bin/python benchmarks/load.py --json            # 50 clients, 60 seconds

Creates a database of its own (``scorekeeper_load`` on 127.0.0.1, dropped and
recreated; never the dev or test database), starts gunicorn on 127.0.0.1 with
production settings, and drives N concurrent clients through a realistic mix: view
a session page, preview a round being typed (HTMX), save a round, view a league's
standings. Each client scores its own table (as phones at different tables do) and
every client also reads a shared one; between two requests a client pauses like a
person tapping (--think-ms, 1 s on average), the clients open the app over the
first such pause, and that first page open (for the CSRF cookie) is not measured,
as signing in is not. Then it prints requests/s, p50/p99 latency
and errors, per action and overall, and checks consistency: every round a client
saw saved is in the database exactly once, numbers are gapless, and every stored
score and total equals a recomputation by the rules service. It also measures a
bare "hello" view on the same server: the framework's floor.
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

DATABASE = "scorekeeper_load"
PG = "postgres://postgres@127.0.0.1:5432"

# Valid 21-points rounds under cut 8S (RULES.md §7 and the rules tests), seat order.
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


def environment(static_root: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_ENV": "production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_HSTS_SECONDS": "0",
        "DJANGO_STATIC_ROOT": static_root,
        "DATABASE_URL": f"{PG}/{DATABASE}",
        "DATABASE_CONN_MAX_AGE": "60",
        "DJANGO_LOG_LEVEL": "WARNING",
    }


def recreate_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DATABASE}")


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
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    from games.models import League, Membership
    from games.services.rounds import check_round, new_round_entry, save_round
    from games.services.sessions import create_session

    league = League.objects.create(name="Load club", slug="load-club", preset="21-points")
    tables = []
    shared = None
    for n in range(clients + 1):
        user = User.objects.create_user(f"phone{n}", password=secrets.token_urlsafe(12))
        Membership.objects.create(league=league, user=user, role=Membership.Role.SCORER)
        store = SessionStore()
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
        while time.monotonic() < self.deadline:
            if self.think:
                # A person between two taps: exponential pauses with this mean.
                pause = self.rng.expovariate(1 / self.think)
                time.sleep(max(0.0, min(pause, self.deadline - time.monotonic())))
            if time.monotonic() >= self.deadline:
                break
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
    }


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
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    static_root = tempfile.mkdtemp(prefix="scorekeeper-static-")
    env = environment(static_root)
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    recreate_database()
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
    tables, shared, slug = set_up(args.clients)

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
    )  # fmt: skip
    try:
        for _ in range(100):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=2)
                conn.request("GET", "/hello/")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        think = args.think_ms / 1000
        hello, hello_elapsed = drive(
            args.port, tables, shared, slug, args.hello_seconds, only="hello", think=think
        )
        mix, mix_elapsed = drive(args.port, tables, shared, slug, args.seconds, think=think)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    from django.db import connections

    connections.close_all()
    report = {
        "server": {
            "gunicorn_workers": args.workers,
            "threads_per_worker": args.threads,
            "cpus": os.cpu_count(),
        },
        "clients": args.clients,
        "seconds": args.seconds,
        "think_ms": args.think_ms,
        "mix": summary(mix, mix_elapsed),
        "hello": summary(hello, hello_elapsed),
        "consistency": consistency(tables, mix),
    }
    report["p99_ratio_to_hello"] = (
        round(report["mix"]["p99_ms"] / report["hello"]["p99_ms"], 1)
        if report["hello"]["p99_ms"]
        else None
    )
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        mixed, floor = report["mix"], report["hello"]
        print(
            f"{args.clients} clients, {args.seconds:.0f} s, gunicorn {args.workers}×{args.threads}"
        )
        print(
            f"mix:   {mixed['requests_per_s']} req/s, p50 {mixed['p50_ms']} ms, "
            f"p99 {mixed['p99_ms']} ms, errors {mixed['errors']}"
        )
        for action, row in mixed["by_action"].items():
            timing = f"p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms"
            print(f"  {action:10} {row['requests']:6} req, {timing}")
        print(
            f"hello: {floor['requests_per_s']} req/s, p50 {floor['p50_ms']} ms, "
            f"p99 {floor['p99_ms']} ms, errors {floor['errors']}"
        )
        print("consistency:", report["consistency"])
    ok = report["mix"]["errors"] == 0 and report["consistency"]["inconsistencies"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
