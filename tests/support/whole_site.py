"""A whole club's site for the backup tests, built in a real database (not the
test database: `manage.py backup` and `restore` run in processes of their own, as an
admin runs them), and what a club reads of it: every league's file, every CSV export,
the standings and the ratings.

Run as a script against the database DATABASE_URL names:

    python -m tests.support.whole_site build      migrate, then fill it
    python -m tests.support.whole_site describe   print what a club reads, as JSON

and from the tests through `build`, `describe` and `manage`, each a process of its
own against the database URL given; `Postgres` makes and drops databases on the
server the test run's own database is on.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import quote

import django

from tests.support.processes import run_fresh

EXPORTED_AT = datetime.datetime(2026, 11, 29, 12, 0, tzinfo=datetime.UTC)


def build_site() -> None:
    """Several leagues (an eventful one: edits, a deleted round, table mode, claims,
    a member since gone; the security tests' world: a league with every role, an
    invite link, a claim, a table in table mode with round 3's hands handed in from
    the seats' phones, and a second league), sessions outside any league (a pool in
    which Chen is out and rejoins, one ended by hand), accounts signed in."""
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test.utils import override_settings

    from tests.support.builders import finished_session, pool_with_chen_rejoined
    from tests.support.league_files import build_eventful_league
    from tests.support.world import FAST_HASHERS, PASSWORD, build_world

    call_command("migrate", interactive=False, verbosity=0)
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        asha = User.objects.create_user(username="asha", password=PASSWORD)
        build_eventful_league(asha)
        build_world(PASSWORD)
        kim = User.objects.create_user(username="kim", password=PASSWORD, email="kim@example.org")
        pool_with_chen_rejoined(kim, name="Kitchen pool")
        finished_session(kim, name="Kitchen points")


def describe_site() -> dict[str, Any]:
    """What a club reads of the site: each league's file (export_league, as the
    export_league command writes it), the CSV of each session's rounds and of each
    league's standings in each of its games, the standings' figures and the
    ratings, stored and as a replay of the league works them out again; and each
    account's sign-in."""
    from django.contrib.auth.models import User
    from django.db import transaction

    from games.models import GameSession, League, Rating, RatingChange
    from games.queries.standings import league_games, rating_history
    from games.services.ratings import replay
    from games.transfer.league_export import dumps, export_league
    from games.transfer.tables import session_history, standings_table, to_csv
    from tests.support.league_files import standings_snapshot

    leagues = list(League.objects.order_by("slug"))
    # A league file says when it was exported: the same moment on either side.
    with mock.patch("django.utils.timezone.now", return_value=EXPORTED_AT):
        league_files = {league.slug: dumps(export_league(league)) for league in leagues}
    site: dict[str, Any] = {
        "league_files": league_files,
        "session_csv": {
            f"{session.pk} {session.name}": to_csv(session_history(session)).decode()
            for session in GameSession.objects.order_by("pk")
        },
        "standings_csv": {
            f"{league.slug} {game.preset}": to_csv(standings_table(league, game=game)).decode()
            for league in leagues
            for game in league_games(league)
        },
        "standings": {league.slug: standings_snapshot(league) for league in leagues},
        "ratings": _ratings(),
        "rating_changes": list(
            RatingChange.objects.order_by("league__slug", "sequence", "player_id").values_list(
                "league__slug", "player__name", "sequence", "played_on", "mu", "sigma"
            )
        ),
        "rating_history": {
            league.slug: rating_history(
                league, Rating.objects.filter(league=league).values_list("player_id", flat=True)
            )
            for league in leagues
        },
        "accounts": list(
            User.objects.order_by("username").values_list(
                "username", "password", "email", "is_staff", "is_superuser"
            )
        ),
    }
    # The ratings worked out again from the restored sessions, then put back.
    with transaction.atomic():
        for league in leagues:
            replay(league.pk)
        site["ratings_replayed"] = _ratings()
        transaction.set_rollback(True)
    return site


def _ratings() -> list:
    from games.models import Rating

    return list(
        # A rating a game: the preset orders a player's ratings the same on any database.
        Rating.objects.order_by("league__slug", "player__name", "player_id", "preset").values_list(
            "league__slug", "player__name", "preset", "mu", "sigma", "ordinal", "sessions"
        )
    )


# --- From the tests --------------------------------------------------------------------


def manage(database_url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``manage.py`` with ``args`` against the database at ``database_url``, in a
    process of its own, as an admin runs it. Never against a Redis the environment
    names: a restore empties the cache."""
    return run_fresh(
        [sys.executable, "manage.py", *args],
        hide=("REDIS_URL",),
        DATABASE_URL=database_url,
        **env,
    )


# Accounts made one a transaction, as sign-ups come, until the file WRITER_STOP names
# exists; "writing" is printed after the first 20, the count when it stops.
WRITER = """
import os
from pathlib import Path
from django.contrib.auth.models import User
stop, made = Path(os.environ["WRITER_STOP"]), 0
while not stop.exists() and made < 100_000:
    User.objects.create(username=f"writer-{made}")
    made += 1
    if made == 20:
        print("writing", flush=True)
print(made, flush=True)
"""


def start_writing(database_url: str, stop: Path) -> subprocess.Popen[str]:
    """A process making accounts in the database at ``database_url`` until ``stop``
    exists, returned once it has made its first 20."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    environ.pop("REDIS_URL", None)
    environ.update(DATABASE_URL=database_url, WRITER_STOP=str(stop))
    writer = subprocess.Popen(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", WRITER],
        cwd=Path(__file__).resolve().parents[2],
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert writer.stdout is not None and writer.stdout.readline() == "writing\n"
    return writer


def build(database_url: str) -> None:
    done = run_fresh(
        [sys.executable, "-m", "tests.support.whole_site", "build"],
        hide=("REDIS_URL",),
        DATABASE_URL=database_url,
    )
    assert done.returncode == 0, done.stderr[-4000:]


def describe(database_url: str) -> dict[str, Any]:
    done = run_fresh(
        [sys.executable, "-m", "tests.support.whole_site", "describe"],
        hide=("REDIS_URL",),
        DATABASE_URL=database_url,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout)


@dataclass(frozen=True)
class BackedUp:
    """A site built, then backed up: its database, the backup file and its manifest,
    and what a club read of the site."""

    url: str
    backup: Path
    manifest: dict[str, Any]
    described: dict[str, Any]


def back_up(database_url: str, directory: Path) -> BackedUp:
    done = manage(database_url, "backup", "--dir", str(directory))
    assert done.returncode == 0, done.stderr[-4000:]
    backup = Path(done.stdout.strip())
    with tarfile.open(backup) as tar:
        manifest = json.load(tar.extractfile("manifest.json"))
    return BackedUp(database_url, backup, manifest, describe(database_url))


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def canonical(league_file: str) -> str:
    """A league file with the keys of every object in one order: PostgreSQL keeps a
    JSON column's keys in an order of its own (jsonb), so the same league read from
    the two engines is written with the keys of its stored JSON in two orders."""
    return json.dumps(json.loads(league_file), ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class Postgres:
    """The PostgreSQL server of the test run's database (its settings), on which the
    backup tests make databases of their own."""

    host: str
    port: str
    user: str
    password: str

    @classmethod
    def of(cls, settings_dict: dict) -> Postgres:
        return cls(
            host=settings_dict["HOST"] or "127.0.0.1",
            port=str(settings_dict["PORT"] or 5432),
            user=settings_dict["USER"] or "postgres",
            password=settings_dict["PASSWORD"] or "",
        )

    def url(self, name: str) -> str:
        login = quote(self.user) + (f":{quote(self.password)}" if self.password else "")
        return f"postgres://{login}@{self.host}:{self.port}/{name}"

    def create(self, name: str) -> str:
        """A new, empty database ``name`` (dropped first if it is left from a run
        that was killed); returns its URL."""
        self.drop(name)
        self._run(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop(self, name: str) -> None:
        self._run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def execute(self, database_url: str, sql: str) -> list[tuple]:
        """Run ``sql`` in the database at ``database_url``; returns its rows."""
        import psycopg

        with psycopg.connect(database_url, autocommit=True) as database:
            cursor = database.execute(sql)
            return cursor.fetchall() if cursor.description else []

    def _run(self, sql: str) -> None:
        self.execute(self.url("postgres"), sql)


def main(action: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    django.setup()
    if action == "build":
        build_site()
    elif action == "describe":
        sys.stdout.write(json.dumps(describe_site(), default=str, sort_keys=True))
    else:
        raise SystemExit(f"usage: python -m tests.support.whole_site build|describe, not {action}")


if __name__ == "__main__":
    main(*sys.argv[1:])
