"""Taking a backup: the manifest, the engine's own snapshot and the portable copy,
all read in one transaction so that they hold the same rows, written into one file;
then the oldest backups beyond the number kept are deleted."""

from __future__ import annotations

import datetime
import gzip
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from django.db import connection, transaction
from django.utils import timezone

from games.backups import portable as portable_copy
from games.backups import postgres
from games.backups.archive import (
    PARTIAL_PREFIX,
    PARTIAL_SUFFIX,
    PORTABLE,
    SNAPSHOTS,
    backup_name,
    backups_in,
    write_archive,
)
from games.backups.errors import BackupError
from games.backups.manifest import Manifest, take_manifest, unapplied_migrations

# A temporary file older than this is left from a backup that was killed.
STALE_PARTIAL = datetime.timedelta(days=1)


@dataclass(frozen=True)
class Backup:
    path: Path
    manifest: Manifest
    size: int  # bytes
    seconds: float
    removed: tuple[Path, ...]  # older backups deleted beyond the number kept


def write_backup(directory: Path, keep: int) -> Backup:
    """A backup of the whole site into ``directory`` (made if missing), keeping the
    ``keep`` newest backups there, this one among them."""
    if keep < 1:
        raise BackupError(f"The number of backups kept must be 1 or more, not {keep}.")
    started = time.perf_counter()
    moment = timezone.now().astimezone(datetime.UTC).replace(microsecond=0)
    target = directory / backup_name(moment)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if target.exists():
            raise BackupError(f"{target} exists already: one backup a second at most.")
        # Beside the backups, not in /tmp: a database as large as the disk allows
        # has room there, and the finished file is renamed, not copied, into place.
        with tempfile.TemporaryDirectory(dir=directory, prefix=f"{PARTIAL_PREFIX}work-") as work:
            manifest, members = take_snapshot(Path(work), moment)
            write_archive(target, manifest, members)
    except PermissionError as error:
        raise BackupError(
            f"Cannot write backups to {directory}: {error.strerror}. Give the user who runs "
            "the backup write access to it, or name another folder (--dir or BACKUP_DIR)."
        ) from None
    except OSError as error:
        raise BackupError(f"Cannot write the backup to {directory}: {error}.") from None
    removed = prune(directory, keep)
    return Backup(
        path=target,
        manifest=manifest,
        size=target.stat().st_size,
        seconds=time.perf_counter() - started,
        removed=tuple(removed),
    )


def take_snapshot(work: Path, moment: datetime.datetime) -> tuple[Manifest, dict[str, Path]]:
    """The manifest, and the snapshot's and portable copy's files written into
    ``work`` (name in the backup → file), read in one transaction."""
    vendor = connection.vendor
    if vendor not in SNAPSHOTS:
        raise BackupError(f"Backups know PostgreSQL and SQLite; this database is {vendor}.")
    snapshot, portable = work / SNAPSHOTS[vendor], work / PORTABLE
    connection.ensure_connection()
    # The portable copy is read with this code's models: on a schema behind them (the
    # code updated, `migrate` not run yet) it would fail, so then only the engine's
    # own snapshot is taken, which a restore migrates.
    current = not unapplied_migrations()
    with transaction.atomic():
        if vendor == "postgresql":
            with connection.cursor() as cursor:
                # Repeatable read: every statement of the transaction sees the same
                # rows; pg_dump joins it by the exported snapshot's name.
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                cursor.execute("SELECT pg_export_snapshot()")
                exported = cursor.fetchone()[0]
            manifest = take_manifest(moment, portable=current)
            postgres.dump(snapshot, exported)
        else:
            # The transaction began IMMEDIATE (settings.py): it holds SQLite's write
            # lock, so nobody else commits until the copies are made, and a second
            # connection reads what this transaction sees. (Through this one SQLite
            # would refuse: it is a writer's.)
            if connection.settings_dict["OPTIONS"].get("transaction_mode") != "IMMEDIATE":
                raise BackupError("SQLite backups need the transaction mode settings.py sets.")
            manifest = take_manifest(moment, portable=current)
            copy_sqlite(snapshot.with_suffix(""))
        if current:
            portable_copy.dump(portable)
    if vendor == "sqlite":
        gzip_file(snapshot.with_suffix(""), snapshot)  # after the lock is let go
    members = {SNAPSHOTS[vendor]: snapshot}
    if current:
        members[PORTABLE] = portable
    return manifest, members


def copy_sqlite(target: Path) -> None:
    """SQLite's online backup API: a copy of the database file, page by page."""
    source = sqlite3.connect(f"file:{connection.settings_dict['NAME']}?mode=ro", uri=True)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
    finally:
        copy.close()
        source.close()


def gzip_file(plain: Path, target: Path) -> None:
    with open(plain, "rb") as read, gzip.open(target, "wb", compresslevel=6) as write:
        shutil.copyfileobj(read, write)
    plain.unlink()


def prune(directory: Path, keep: int) -> list[Path]:
    """Delete the oldest backups in ``directory`` beyond the ``keep`` newest, and
    the temporary files of backups killed more than a day ago. Returns those
    deleted backups."""
    removed = backups_in(directory)[:-keep]
    for path in removed:
        path.unlink(missing_ok=True)
    stale = time.time() - STALE_PARTIAL.total_seconds()
    for path in directory.glob(f"{PARTIAL_PREFIX}*"):
        if path.stat().st_mtime >= stale:
            continue  # perhaps another backup's, still being written
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        elif path.name.endswith(PARTIAL_SUFFIX):
            path.unlink(missing_ok=True)
    return removed
