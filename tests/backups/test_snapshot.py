"""`manage.py backup`: one file holding the manifest, the engine's own snapshot and
the portable copy, which agree with each other; the oldest backups beyond the number
kept deleted; a failure said in words, leaving no file behind."""

from __future__ import annotations

import datetime
import gzip
import json
import os
import sqlite3
import tarfile
import time
from collections import Counter
from pathlib import Path

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.loader import MigrationLoader

import scorekeeper
from games.backups.snapshot import prune
from tests.support.whole_site import BackedUp, Postgres, manage, sqlite_url, start_writing

on_sqlite = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the SQLite run's (PostgreSQL's: its own tests)"
)


@on_sqlite
def test_a_backup_holds_a_manifest_a_sqlite_copy_and_a_portable_copy_that_agree(
    sqlite_site: BackedUp, tmp_path: Path
) -> None:
    with tarfile.open(sqlite_site.backup) as tar:
        assert tar.getnames() == ["manifest.json", "database.sqlite3.gz", "data.jsonl.gz"]
        tar.extractall(tmp_path, filter="data")
    manifest = sqlite_site.manifest

    created = datetime.datetime.fromisoformat(manifest["created_at"])
    assert sqlite_site.backup.name == f"scorekeeper-{created:%Y%m%d-%H%M%S}.tar"
    assert (manifest["engine"], manifest["app_version"]) == ("sqlite", scorekeeper.__version__)
    latest = dict(MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes())
    assert manifest["migrations"] == latest
    counts = manifest["row_counts"]
    assert counts["games_league"] == len(sqlite_site.described["league_files"]) == 3
    assert counts["auth_user"] == len(sqlite_site.described["accounts"]) == 9
    assert counts["games_tablehand"] == 3  # the table mode's hands handed in
    # The copy holds the rows the manifest counts, table by table.
    with gzip.open(tmp_path / "database.sqlite3.gz") as packed:
        (tmp_path / "database.sqlite3").write_bytes(packed.read())
    copy = sqlite3.connect(tmp_path / "database.sqlite3")
    try:
        copied = {table: copy.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
                  for table in counts}  # fmt: skip
    finally:
        copy.close()
    assert copied == counts
    # And so does the portable copy, model by model, but for the content types and
    # permissions `migrate` writes on every database.
    with gzip.open(tmp_path / "data.jsonl.gz", "rt", encoding="utf-8") as portable:
        rows = Counter(json.loads(line)["model"] for line in portable)
    expected = {
        model._meta.label_lower: counts[model._meta.db_table]
        for model in apps.get_models()
        if counts[model._meta.db_table]
    }
    del expected["contenttypes.contenttype"], expected["auth.permission"]
    assert rows == expected


@on_sqlite
def test_the_oldest_backups_beyond_the_number_kept_are_deleted(tmp_path: Path) -> None:
    database = sqlite_url(tmp_path / "site.sqlite3")
    assert manage(database, "migrate").returncode == 0
    folder = tmp_path / "backups"
    folder.mkdir()
    older = [f"scorekeeper-2024010{day}-000000.tar" for day in (1, 2, 3)]
    others = ["notes.txt", "scorekeeper-latest.tar"]
    for name in older + others:
        (folder / name).write_text("")

    done = manage(database, "backup", "--dir", str(folder), "--keep", "2")

    assert done.returncode == 0, done.stderr
    made = Path(done.stdout.strip())
    assert sorted(path.name for path in folder.iterdir()) == sorted([older[2], made.name, *others])
    assert "Deleted scorekeeper-20240101-000000.tar" in done.stderr

    # BACKUP_DIR and BACKUP_KEEP when no option says otherwise.
    time.sleep(1.0)  # a backup's name is its second
    done = manage(database, "backup", BACKUP_DIR=str(folder), BACKUP_KEEP="1")
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        [Path(done.stdout.strip()).name, *others]
    )


@on_sqlite
def test_a_backup_that_cannot_be_written_says_why_and_leaves_nothing(tmp_path: Path) -> None:
    database = sqlite_url(tmp_path / "site.sqlite3")
    assert manage(database, "migrate").returncode == 0
    (tmp_path / "taken").write_text("a file, where the folder would be")

    done = manage(database, "backup", "--dir", str(tmp_path / "taken" / "backups"))

    assert done.returncode == 1
    assert f"Cannot write the backup to {tmp_path / 'taken' / 'backups'}" in done.stderr
    assert "Traceback" not in done.stderr
    refused = manage(database, "backup", "--dir", str(tmp_path), "--keep", "0")
    assert refused.returncode == 1
    assert "must be 1 or more" in refused.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["site.sqlite3", "taken"]


def test_a_backup_without_pg_dump_says_how_to_install_it(
    postgres: Postgres, postgres_target: str, tmp_path: Path
) -> None:
    assert manage(postgres_target, "migrate").returncode == 0

    done = manage(postgres_target, "backup", "--dir", str(tmp_path), PATH=str(tmp_path / "bin"))

    assert done.returncode == 1
    assert "pg_dump is not on PATH" in done.stderr
    assert "apt install postgresql-client" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_files_left_by_a_killed_backup_go_after_a_day(tmp_path: Path) -> None:
    stale, fresh = tmp_path / ".scorekeeper-a.1.partial", tmp_path / ".scorekeeper-b.2.partial"
    work = tmp_path / ".scorekeeper-work-x"
    work.mkdir()
    (work / "database.sqlite3").write_text("")
    for path in (stale, fresh):
        path.write_text("")
    day_ago = time.time() - 25 * 3600
    for path in (stale, work):
        os.utime(path, (day_ago, day_ago))

    assert prune(tmp_path, keep=1) == []

    assert [path.name for path in tmp_path.iterdir()] == [fresh.name]


def back_up_while_writing(database_url: str, tmp_path: Path) -> tuple[dict, Counter, int]:
    """A backup taken while another process makes accounts one a transaction: its
    manifest, the rows of its portable copy by model, and the accounts there were
    when the writer stopped, after the backup."""
    assert manage(database_url, "migrate").returncode == 0
    stop = tmp_path / "stop"
    writer = start_writing(database_url, stop)
    try:
        done = manage(database_url, "backup", "--dir", str(tmp_path / "backups"))
    finally:
        stop.touch()
        made, _ = writer.communicate(timeout=60)
    assert done.returncode == 0, done.stderr
    with tarfile.open(done.stdout.strip()) as tar:
        manifest = json.load(tar.extractfile("manifest.json"))
        with gzip.open(tar.extractfile("data.jsonl.gz"), "rt", encoding="utf-8") as portable:
            rows = Counter(json.loads(line)["model"] for line in portable)
    return manifest, rows, int(made)


@on_sqlite
def test_a_backup_taken_while_accounts_are_made_holds_one_moment_on_sqlite(
    tmp_path: Path,
) -> None:
    database = sqlite_url(tmp_path / "site.sqlite3")
    manifest, rows, made = back_up_while_writing(database, tmp_path)

    # The manifest and the portable copy count the same accounts; the writer went on
    # after the backup; and the copy restores with every table as the manifest counts.
    assert 20 <= manifest["row_counts"]["auth_user"] == rows["auth.user"] < made
    backup = next((tmp_path / "backups").iterdir())
    restored = manage(sqlite_url(tmp_path / "restored.sqlite3"), "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    assert "rows the manifest counts" in restored.stdout


def test_a_backup_taken_while_accounts_are_made_holds_one_moment_on_postgresql(
    postgres: Postgres, postgres_target: str, tmp_path: Path
) -> None:
    manifest, rows, made = back_up_while_writing(postgres_target, tmp_path)

    # pg_dump read the rows of the backup's own transaction: restored into a new
    # database, every table holds what the manifest counts, which the portable copy
    # holds too, though the writer made accounts all along.
    assert 20 <= manifest["row_counts"]["auth_user"] == rows["auth.user"] < made
    backup = next((tmp_path / "backups").iterdir())
    name = f"sk_backups_moment_{os.getpid()}"
    target = postgres.create(name)
    try:
        restored = manage(target, "restore", str(backup))
    finally:
        postgres.drop(name)
    assert restored.returncode == 0, restored.stderr
    assert "rows the manifest counts" in restored.stdout
