"""Real servers for the tests that need more than one process: gunicorn as production
runs it (several workers, production settings, static files collected), a Redis of
the test's own that it may pause, and a browser's worth of HTTP (cookies, the CSRF
token, a kept-alive connection) to talk to them."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

BASE_DIR = Path(__file__).resolve().parents[2]
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
STAMPED_POLL = re.compile(r'hx-get="([^"]*/scoreboard/\?v=[^"&]+)')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, what: str) -> None:
    for _ in range(600):
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited: {process.stderr.read() if process.stderr else ''}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {port}")


def production_environment(tmp_path: Path, **env: str) -> dict[str, str]:
    """Production settings on a SQLite file of the test's own, plain HTTP (no proxy in
    front), and nothing of this process's Django variables."""
    environ = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "GUNICORN_"))
        and k not in {"DATABASE_URL", "REDIS_URL", "FORWARDED_ALLOW_IPS"}
    }
    environ.update(
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
        DJANGO_ENV="production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_LOG_LEVEL="ERROR",
    )
    environ.update(env)
    return environ


def manage(environ: dict[str, str], *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=environ,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)}: {done.stderr}")
    return done.stdout


@dataclass
class Gunicorn:
    port: int
    access_log: Path

    def pids_of(self, marker: str) -> set[str]:
        """The worker processes that answered requests whose line names ``marker``."""
        lines = self.access_log.read_text().splitlines()
        return {line.split(" ", 1)[0] for line in lines if marker in line}


@contextlib.contextmanager
def gunicorn(environ: dict[str, str], tmp_path: Path, workers: int) -> Iterator[Gunicorn]:
    """gunicorn with the project's gunicorn.conf.py and ``workers`` workers; its
    access log names the worker (its pid) that answered each request."""
    port, access_log = free_port(), tmp_path / f"access-{secrets.token_hex(3)}.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(BASE_DIR / "gunicorn.conf.py"),
         "--bind", f"127.0.0.1:{port}", "--access-logfile", str(access_log),
         "--access-logformat", '%(p)s "%(r)s" %(s)s'],
        cwd=tmp_path,
        env={**environ, "GUNICORN_WORKERS": str(workers), "GUNICORN_THREADS": "2"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        wait_for_port(port, server, "gunicorn")
        yield Gunicorn(port, access_log)
    finally:
        server.terminate()
        server.wait(timeout=30)


@dataclass
class PrivateRedis:
    url: str
    process: subprocess.Popen

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Redis stopped in its tracks (SIGSTOP): connections are taken, nothing is
        answered, as when it hangs; resumed (SIGCONT) with its data as it was."""
        self.process.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            self.process.send_signal(signal.SIGCONT)


@contextlib.contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    """A Redis of the test's own on a free port: never the machine's, which other
    tests and programs use."""
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
         "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        wait_for_port(port, process, "redis-server")
        yield PrivateRedis(f"redis://127.0.0.1:{port}/0", process)
    finally:
        process.send_signal(signal.SIGCONT)
        process.terminate()
        process.wait(timeout=30)


@dataclass
class Answer:
    status: int
    body: str
    location: str
    seconds: float


@dataclass
class Browser:
    """One browser's cookies, over a kept-alive connection of its own (which gunicorn
    hands to one worker for as long as it stays open)."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, data: dict | None = None, **headers) -> Answer:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Referer"] = f"http://127.0.0.1:{self.port}/"
        started = time.monotonic()
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # Closed by the server while idle (its keep-alive ran out): sent again.
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        return Answer(
            response.status, text, response.getheader("Location") or "", time.monotonic() - started
        )

    def get(self, path: str, **headers) -> Answer:
        return self.request("GET", path, **headers)

    def post(self, path: str, data: dict, **headers) -> Answer:
        return self.request("POST", path, data, **headers)

    def sign_in(self, username: str, password: str) -> None:
        form = self.get("/accounts/login/")
        data = dict(HIDDEN.findall(form.body))
        answer = self.post("/accounts/login/", {**data, "username": username, "password": password})
        if answer.status != 302 or "sessionid" not in self.cookies:
            raise RuntimeError(f"not signed in: {answer.status} {answer.body[:300]}")

    def sign_out(self) -> None:
        page = self.get("/")
        data = dict(HIDDEN.findall(page.body))
        self.post("/accounts/logout/", data)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


# --- A club's table on a real server ---------------------------------------------------

PASSWORD = "a-long-club-password"
# A round of three under cut 8S (benchmarks/load.py): Asha declares.
WIN = "2H 3H 4H | 5C 6C 7C | 10D JD QD | KS KH KD | 4S 5S 6S | 9H 10H PJ | 3D 3C 8H"
SHOWN = "2D 3D 4D | 9C 10C JC | QD QS QC | KH KH | 5D 9D | AS 7S | 6H 6D 4C 2S JH 8C"

SET_UP = """
import json
import django
django.setup()
from django.contrib.auth.models import User
from games.services.sessions import create_session
user = User.objects.create_user("asha", password=PASSWORD)
session = create_session(user, preset="21-points", overrides={}, players=["Asha", "Ben", "Chen"])
seats = list(session.seats.order_by("position").values_list("pk", flat=True))
print(json.dumps({"pk": session.pk, "token": session.share_token, "seats": seats}))
""".replace("PASSWORD", repr(PASSWORD))


@dataclass
class Club:
    """Asha's session of three (no league), as the server's database holds it."""

    pk: int
    token: str
    seats: list[int]


def set_up_club(environ: dict[str, str]) -> Club:
    """The database of ``environ`` migrated, with Asha (PASSWORD) and her session."""
    manage(environ, "migrate", "--noinput", "-v", "0")
    found = json.loads(manage(environ, "shell", "-c", SET_UP).strip().splitlines()[-1])
    return Club(found["pk"], found["token"], found["seats"])


def save_round(browser: Browser, club: Club) -> None:
    """Round saved through the session page's form, as the scorer's phone does."""
    page = browser.get(f"/sessions/{club.pk}/")
    data = dict(HIDDEN.findall(page.body))
    data["cut_joker"] = "8S"
    for seat, (outcome, groups) in zip(
        club.seats, [("declared", WIN), ("shown", SHOWN), ("first_drop", "")], strict=True
    ):
        data[f"outcome_{seat}"] = outcome
        data[f"groups_{seat}"] = groups
    answer = browser.post(f"/sessions/{club.pk}/rounds/", data, **{"HX-Request": "true"})
    if answer.status != 200 or "saved." not in answer.body:
        raise RuntimeError(f"round not saved: {answer.status} {answer.body[:500]}")


def polls(browser: Browser, club: Club) -> tuple[str, str]:
    """The session page's and the share page's poll addresses, with their stamps."""
    session = STAMPED_POLL.search(browser.get(f"/sessions/{club.pk}/").body)
    shared = STAMPED_POLL.search(Browser(browser.port).get(f"/shared/{club.token}/").body)
    return session[1].replace("&amp;", "&"), shared[1].replace("&amp;", "&")
