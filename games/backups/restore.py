"""Restoring a backup into the database Django is configured with.

Nothing is changed until the backup has been read and found fit: a schema newer
than this code's migrations is refused, naming the migration this code lacks, and so
is a database that holds data, unless the caller asked to replace it. "Holds data":
a row in any table, the content types, permissions and record of migrations that
`migrate` writes by itself excepted. So a database just made by `migrate` is empty,
and one with a single account in it is not.

On the engine the backup was taken from, its own snapshot is restored (pg_restore;
SQLite's backup API, page by page into the open database). On the other engine, the
portable copy is loaded into the migrated schema (loaddata), and PostgreSQL's id
sequences are set past the ids loaded. Then the restored rows are counted against
the manifest, `migrate` brings an older schema up to date, and what the live pages
keep in the cache about the database replaced is retired (games/live.py's epoch).
"""

from __future__ import annotations

import gzip
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder

from games import live
from games.backups import postgres
from games.backups.archive import OpenedBackup, open_archive
from games.backups.errors import BackupError
from games.backups.manifest import (
    Manifest,
    model_tables,
    outdated_against_code,
    row_counts,
    unknown_migrations,
)
from games.backups.portable import LEFT_TO_MIGRATE

ENGINES = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}


@dataclass(frozen=True)
class RowCheck:
    """The tables whose rows were counted against the manifest, and those left out
    because `migrate` writes them on each database by itself."""

    tables: int
    rows: int
    not_compared: tuple[str, ...]


@dataclass(frozen=True)
class Restored:
    manifest: Manifest
    way: str  # "snapshot": the engine's own; "portable copy": across engines
    replaced: dict[str, int]  # the tables that held rows before, and how many
    check: RowCheck
    migrated: tuple[str, ...]  # migrations applied after the restore, "app.name"
    seconds: float


def restore_backup(path: Path, *, replace: bool) -> Restored:
    """Restore the backup at ``path``; ``replace``: even over a database that holds
    data, which is then lost."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="scorekeeper-restore-") as work:
        opened = open_archive(path, Path(work))
        manifest = opened.manifest
        refuse_newer_schema(manifest)
        native = manifest.engine == connection.vendor
        if not native:
            refuse_other_schema(manifest)
        if connection.vendor == "postgresql":
            postgres.require("pg_restore")
        held = tables_holding_data()
        if held and not replace:
            listed = ", ".join(f"{table} {rows}" for table, rows in held.items())
            raise BackupError(
                f"The database holds data (rows: {listed}). Restore into an empty database, "
                "or pass --replace to replace everything in it with the backup."
            )
        if native:
            restore_snapshot(opened)
        else:
            load_portable(opened, emptied=bool(held))
    check = check_rows(manifest, native=native)
    migrated = migrate()
    forget_live_cache()
    return Restored(
        manifest=manifest,
        way="snapshot" if native else "portable copy",
        replaced=held,
        check=check,
        migrated=migrated,
        seconds=time.perf_counter() - started,
    )


def refuse_newer_schema(manifest: Manifest) -> None:
    unknown = unknown_migrations(manifest)
    if unknown:
        raise BackupError(
            f"This backup's schema is newer than this code: it has the migration "
            f"{', '.join(unknown)}, which this code does not know. Restore it with the app's "
            f"version {manifest.app_version} (which made it) or a newer one."
        )


def refuse_other_schema(manifest: Manifest) -> None:
    """Across engines the portable copy loads into this code's models, so only a
    backup of this code's schema can: an older one is restored on its own engine
    first (which migrates it), then backed up again."""
    outdated = outdated_against_code(manifest)
    if outdated:
        engine = ENGINES.get(manifest.engine, manifest.engine)
        raise BackupError(
            f"This backup was taken at an older schema ({'; '.join(outdated)}), and moves "
            f"to another engine only at this code's. Restore it on {engine} with this code "
            "first (the restore migrates it), back that up, and restore the new backup here."
        )


def tables_holding_data() -> dict[str, int]:
    """The tables that hold rows, and how many: what a restore would replace. The
    content types, permissions and applied migrations are `migrate`'s, not the
    site's; any other table counts, whether a model of this code has it or not."""
    present = set(connection.introspection.table_names()) - written_by_migrate()
    counts = row_counts(sorted(present))
    return {table: rows for table, rows in counts.items() if rows}


def written_by_migrate() -> set[str]:
    tables = {apps.get_model(label)._meta.db_table for label in LEFT_TO_MIGRATE}
    return tables | {MigrationRecorder.Migration._meta.db_table}


def restore_snapshot(opened: OpenedBackup) -> None:
    if connection.vendor == "postgresql":
        # Tables the backup does not have (a newer `migrate` made them here) would
        # stand in the way of `migrate` afterwards, and hold no data of the backup's.
        extra = sorted(
            set(connection.introspection.table_names()) - set(opened.manifest.row_counts)
        )
        with transaction.atomic(), connection.cursor() as cursor:
            for table in extra:
                cursor.execute(f"DROP TABLE IF EXISTS {connection.ops.quote_name(table)} CASCADE")
        postgres.restore(opened.snapshot)
    else:
        # SQLite's backup API the other way: the open database becomes a page-by-page
        # copy of the snapshot, in one transaction that other connections wait for.
        plain = opened.snapshot.with_suffix("")
        with gzip.open(opened.snapshot, "rb") as read, open(plain, "wb") as write:
            shutil.copyfileobj(read, write)
        connection.ensure_connection()
        source = sqlite3.connect(f"file:{plain}?mode=ro", uri=True)
        try:
            source.backup(connection.connection)
        finally:
            source.close()
    # Whatever Django's connection remembered of the database before is gone.
    connection.close()


def load_portable(opened: OpenedBackup, *, emptied: bool) -> None:
    if opened.portable is None:
        raise BackupError("This backup holds no portable copy: restore it on its own engine.")
    call_command("migrate", interactive=False, verbosity=0)
    if emptied:
        # Every table emptied; flush then writes migrate's content types and
        # permissions again.
        call_command("flush", interactive=False, verbosity=0)
    call_command("loaddata", str(opened.portable), verbosity=0)
    if connection.vendor == "postgresql":
        # New rows must get ids past the ones loaded: what `sqlsequencereset` prints,
        # for every model, run.
        present = set(connection.introspection.table_names())
        models = [
            model
            for model in apps.get_models(include_auto_created=True)
            if model._meta.db_table in present
        ]
        statements = connection.ops.sequence_reset_sql(no_style(), models)
        with transaction.atomic(), connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)


def check_rows(manifest: Manifest, *, native: bool) -> RowCheck:
    """Count the restored rows of each table against the manifest: every table after
    a snapshot, the tables of the portable copy after loading it. Raises when one
    differs."""
    if native:
        tables = set(manifest.row_counts)
    else:
        tables = (set(manifest.row_counts) & set(model_tables())) - written_by_migrate()
    present = set(connection.introspection.table_names())
    missing = sorted(tables - present)
    found = row_counts(sorted(tables & present))
    wrong = [
        f"{table}: {manifest.row_counts[table]} in the backup, {rows} here"
        for table, rows in found.items()
        if rows != manifest.row_counts[table]
    ]
    wrong += [f"{table}: missing here" for table in missing]
    if wrong:
        raise BackupError(
            "The restored rows differ from the backup's manifest: " + "; ".join(wrong) + "."
        )
    return RowCheck(
        tables=len(found),
        rows=sum(found.values()),
        not_compared=tuple(sorted(set(manifest.row_counts) - tables)),
    )


def migrate() -> tuple[str, ...]:
    """`migrate`, bringing a backup taken at an older schema up to this code's.
    Returns the migrations it applied."""
    before = set(MigrationRecorder(connection).applied_migrations())
    call_command("migrate", interactive=False, verbosity=0)
    after = set(MigrationRecorder(connection).applied_migrations())
    return tuple(f"{app}.{name}" for app, name in sorted(after - before))


def forget_live_cache() -> None:
    """What games/live.py keeps in the cache describes the database replaced: a new
    epoch (written into the restored database) keeps any of it from answering a poll
    again. The cache holds nothing else read from the database: sign-ins are the
    database's own."""
    live.forget_everything()
