"""`manage.py restore`: a club's whole site, backed up and restored into a fresh
database, reads the same to the byte (every league's file, every CSV export) and
gives the same standings and ratings, on SQLite and on PostgreSQL; a SQLite backup
moves to PostgreSQL and back; a schema newer than the code and a database that holds
data are refused, and an older schema is migrated. Each command runs in a process of
its own against real database files and servers, as an admin runs it."""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3
import tarfile
from pathlib import Path

import pytest
from django.db import connection

from tests.support.whole_site import BackedUp, Postgres, back_up, canonical, describe, manage
from tests.support.whole_site import sqlite_url as url_of

on_sqlite = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the SQLite run's (PostgreSQL's: its own tests)"
)


def restored(done) -> str:
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout


def live_epoch(database_url: str) -> int | None:
    """games/live.py's epoch in the SQLite database at ``database_url`` (None: none
    was ever written)."""
    database = sqlite3.connect(database_url.removeprefix("sqlite:///"))
    try:
        row = database.execute("SELECT value FROM games_livecacheepoch").fetchone()
    finally:
        database.close()
    return row and row[0]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@on_sqlite
def test_a_sqlite_backup_restores_the_whole_site_into_a_migrated_empty_database(
    sqlite_site: BackedUp, tmp_path: Path
) -> None:
    # "Empty" as `migrate` leaves a database: its tables made, its content types and
    # permissions written, no row of the site's.
    target = url_of(tmp_path / "restored.sqlite3")
    assert manage(target, "migrate").returncode == 0

    output = restored(manage(target, "restore", str(sqlite_site.backup)))

    rows = sum(sqlite_site.manifest["row_counts"].values())
    tables = len(sqlite_site.manifest["row_counts"])
    assert "from its SQLite snapshot" in output
    assert f"Checked: {tables} tables hold the {rows:,} rows the manifest counts." in output
    assert describe(target) == sqlite_site.described
    # The sign-ins came along (the four of the security world): those browsers are
    # signed in still.
    assert sqlite_site.manifest["row_counts"]["django_session"] == 4
    # What the live pages kept in the cache about the database replaced is retired:
    # a new epoch, which the site's never had.
    assert live_epoch(target) not in (None, live_epoch(sqlite_site.url))


def test_a_postgresql_backup_restores_the_whole_site_into_a_new_database(
    postgres_site: BackedUp, postgres_target: str
) -> None:
    output = restored(manage(postgres_target, "restore", str(postgres_site.backup)))

    rows = sum(postgres_site.manifest["row_counts"].values())
    assert "from its PostgreSQL snapshot" in output
    assert f"tables hold the {rows:,} rows the manifest counts." in output
    assert describe(postgres_target) == postgres_site.described
    # New rows follow the restored ones: the demo's user, players and sessions.
    assert manage(postgres_target, "demo").returncode == 0


def test_a_postgresql_backup_replaces_a_database_that_holds_data_when_asked(
    postgres_site: BackedUp, postgres: Postgres, postgres_target: str
) -> None:
    assert manage(postgres_target, "migrate").returncode == 0
    assert manage(postgres_target, "demo").returncode == 0
    # A table the backup does not know, as a newer version's `migrate` would leave.
    postgres.execute(postgres_target, "CREATE TABLE games_from_the_future (id integer)")
    refused = manage(postgres_target, "restore", str(postgres_site.backup))
    assert refused.returncode != 0
    assert "The database holds data (rows: auth_user 1, games_gamesession 2" in refused.stderr

    output = restored(manage(postgres_target, "restore", str(postgres_site.backup), "--replace"))

    assert "Replaced what the database held: 47 rows in 7 tables." in output
    assert describe(postgres_target) == postgres_site.described
    tables = postgres.execute(postgres_target, "SELECT tablename FROM pg_tables")
    assert ("games_from_the_future",) not in tables


def test_a_sqlite_backup_moves_to_postgresql_and_back(
    sqlite_site: BackedUp, postgres: Postgres, postgres_target: str, tmp_path: Path
) -> None:
    output = restored(manage(postgres_target, "restore", str(sqlite_site.backup)))

    assert "from its portable copy" in output
    assert "Not compared (written by migrate): auth_permission, django_content_type" in output
    on_postgres = describe(postgres_target)
    # Every CSV, the standings and the ratings to the byte; the league files hold
    # the same, the keys of stored JSON in PostgreSQL's order (jsonb's).
    sqlite_files = sqlite_site.described.pop("league_files")
    postgres_files = on_postgres.pop("league_files")
    assert on_postgres == sqlite_site.described
    assert (
        sorted(postgres_files) == sorted(sqlite_files) == ["club", "harbour-club", "tuesday-club"]
    )
    for slug, text in sqlite_files.items():
        assert canonical(postgres_files[slug]) == canonical(text)
    # Ids go on from the last one loaded (the sequences were reset).
    assert manage(postgres_target, "demo").returncode == 0

    # And back: PostgreSQL's backup onto SQLite, to the byte this time.
    moved = back_up(postgres_target, tmp_path / "backups")
    back = url_of(tmp_path / "back.sqlite3")
    output = restored(manage(back, "restore", str(moved.backup)))
    assert "from its portable copy" in output
    assert describe(back) == moved.described
    assert "demo" in [account[0] for account in moved.described["accounts"]]


@on_sqlite
def test_a_backup_of_a_newer_schema_is_refused_naming_the_migration(
    sqlite_site: BackedUp, tmp_path: Path
) -> None:
    newer = tmp_path / "newer.tar"
    manifest = dict(sqlite_site.manifest)
    manifest["migrations"] = {**manifest["migrations"], "games": "0099_from_the_future"}
    rewrite_manifest(sqlite_site.backup, newer, manifest)
    target = tmp_path / "target.sqlite3"
    assert manage(url_of(target), "migrate").returncode == 0
    before = digest(target)

    done = manage(url_of(target), "restore", str(newer), "--replace")

    assert done.returncode != 0
    assert "newer than this code" in done.stderr
    assert "games.0099_from_the_future" in done.stderr
    assert digest(target) == before


@on_sqlite
def test_a_database_that_holds_data_is_replaced_only_when_asked(
    sqlite_site: BackedUp, tmp_path: Path
) -> None:
    target = tmp_path / "demo.sqlite3"
    assert manage(url_of(target), "migrate").returncode == 0
    assert manage(url_of(target), "demo").returncode == 0
    before = digest(target)

    refused = manage(url_of(target), "restore", str(sqlite_site.backup))

    assert refused.returncode != 0
    assert "The database holds data (rows: auth_user 1, games_gamesession 2" in refused.stderr
    assert "pass --replace" in refused.stderr
    assert digest(target) == before

    output = restored(manage(url_of(target), "restore", str(sqlite_site.backup), "--replace"))

    assert "Replaced what the database held: 47 rows in 7 tables." in output
    assert describe(url_of(target)) == sqlite_site.described


@on_sqlite
def test_a_backup_of_an_older_schema_is_restored_and_migrated(tmp_path: Path) -> None:
    # The schema of the release before games' latest migration.
    older = url_of(tmp_path / "older.sqlite3")
    assert manage(older, "migrate").returncode == 0
    assert manage(older, "migrate", "games", "0014").returncode == 0
    account = {
        "DJANGO_SUPERUSER_USERNAME": "asha",
        "DJANGO_SUPERUSER_EMAIL": "asha@example.org",
        "DJANGO_SUPERUSER_PASSWORD": "correct-horse-battery-staple",
    }
    assert manage(older, "createsuperuser", "--noinput", **account).returncode == 0
    done = manage(older, "backup", "--dir", str(tmp_path / "backups"))
    assert done.returncode == 0, done.stderr
    backup = Path(done.stdout.strip())
    with tarfile.open(backup) as tar:
        # The portable copy is read with the code's models: none from an older schema.
        assert sorted(tar.getnames()) == ["database.sqlite3.gz", "manifest.json"]
        manifest = json.load(tar.extractfile("manifest.json"))
    assert manifest["migrations"]["games"].startswith("0014_")
    assert manifest["portable"] is False

    target = url_of(tmp_path / "restored.sqlite3")
    output = restored(manage(target, "restore", str(backup)))

    assert "Migrated to this code's schema: games.0015_" in output
    assert "Checked: 30 tables hold the" in output
    check = manage(target, "migrate", "--check")
    assert check.returncode == 0, check.stdout
    read = "from django.contrib.auth.models import User; print(User.objects.get().email)"
    shell = manage(target, "shell", "--no-imports", "-c", read)
    assert shell.stdout.strip() == "asha@example.org"


def test_an_older_schema_does_not_move_to_another_engine(
    sqlite_site: BackedUp, postgres: Postgres, postgres_target: str, tmp_path: Path
) -> None:
    # The portable copy loads into this code's models: a backup at an older schema
    # (as its manifest says) is refused before anything is written.
    older = tmp_path / "older.tar"
    manifest = dict(sqlite_site.manifest)
    manifest["migrations"] = {**manifest["migrations"], "games": "0014_standing_months_per_game"}
    rewrite_manifest(sqlite_site.backup, older, manifest)

    refused = manage(postgres_target, "restore", str(older))

    assert refused.returncode != 0
    assert "older schema (games: 0014_standing_months_per_game → 00" in refused.stderr
    assert "Restore it on SQLite with this code first" in refused.stderr
    assert manage(postgres_target, "migrate", "--check").returncode != 0  # still bare


def rewrite_manifest(source: Path, target: Path, manifest: dict) -> None:
    """A copy of the backup ``source`` at ``target`` whose manifest is ``manifest``."""
    with tarfile.open(source) as old, tarfile.open(target, "w") as new:
        for member in old.getmembers():
            if member.name == "manifest.json":
                data = json.dumps(manifest).encode()
                member.size = len(data)
                new.addfile(member, io.BytesIO(data))
            else:
                new.addfile(member, old.extractfile(member))
