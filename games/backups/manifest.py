"""What a backup says about itself: which version of the app made it, at which
schema (the last migration applied of each app), from which engine, when, and how
many rows each table held. A restore reads it to refuse a schema this code does not
know, and to check the rows it restored."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass

from django.apps import apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

import scorekeeper
from games.backups.errors import BackupError

# The manifest's own layout; a restore refuses one it cannot read.
FORMAT = "scorekeeper-backup"
VERSION = 1


@dataclass(frozen=True)
class Manifest:
    app_version: str
    engine: str  # Django's vendor name: "postgresql" or "sqlite"
    engine_version: str
    created_at: datetime.datetime  # UTC
    # app label → the name of the last migration applied to the database
    migrations: dict[str, str]
    # every table of the database (Django's and any other) → its rows
    row_counts: dict[str, int]
    # whether the backup holds a portable copy: not when the database's schema was
    # behind the code that took it (dumpdata reads with the code's models)
    portable: bool = True

    def to_json(self) -> str:
        return (
            json.dumps(
                {
                    "format": FORMAT,
                    "version": VERSION,
                    "app_version": self.app_version,
                    "engine": self.engine,
                    "engine_version": self.engine_version,
                    "created_at": self.created_at.isoformat(),
                    "migrations": self.migrations,
                    "row_counts": self.row_counts,
                    "portable": self.portable,
                },
                indent=2,
                sort_keys=True,
            )
            + "\n"
        )

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        try:
            data = json.loads(text)
            if data.get("format") != FORMAT:
                raise BackupError("Its manifest is not a scorekeeper backup's.")
            if data.get("version") != VERSION:
                raise BackupError(
                    f"Its manifest is of version {data.get('version')!r}; this code reads "
                    f"version {VERSION}: restore it with the version of the app that made it "
                    f"({data.get('app_version', 'unknown')})."
                )
            return cls(
                app_version=str(data["app_version"]),
                engine=str(data["engine"]),
                engine_version=str(data["engine_version"]),
                created_at=datetime.datetime.fromisoformat(data["created_at"]),
                migrations={str(k): str(v) for k, v in data["migrations"].items()},
                row_counts={str(k): int(v) for k, v in data["row_counts"].items()},
                portable=bool(data.get("portable", True)),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise BackupError(f"Its manifest cannot be read: {error}.") from None

    @property
    def rows(self) -> int:
        return sum(self.row_counts.values())


def take_manifest(created_at: datetime.datetime, *, portable: bool) -> Manifest:
    """The manifest of the database as the default connection sees it now: inside
    the backup's transaction, the same rows its snapshot holds."""
    return Manifest(
        app_version=scorekeeper.__version__,
        engine=connection.vendor,
        engine_version=engine_version(),
        created_at=created_at,
        migrations=last_migrations(),
        row_counts=row_counts(),
        portable=portable,
    )


def engine_version() -> str:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SHOW server_version")
        else:
            cursor.execute("SELECT sqlite_version()")
        # PostgreSQL adds the build in brackets: "15.20 (Debian 15.20-0+deb12u1)".
        return str(cursor.fetchone()[0]).split()[0]


def last_migrations() -> dict[str, str]:
    """Each app's last migration applied: the one that comes after the app's other
    applied ones in the code's migration graph, or, if the database has one the code
    does not know (a newer version's), that one, the last of them applied."""
    recorder = MigrationRecorder(connection)
    if not recorder.has_table():
        return {}
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    applied: dict[str, list[tuple[str, str]]] = {}
    for key in recorder.migration_qs.order_by("id").values_list("app", "name"):
        applied.setdefault(key[0], []).append(key)

    def rank(order: int, key: tuple[str, str]) -> tuple[bool, int, int]:
        known = key in graph.nodes
        return (not known, len(graph.forwards_plan(key)) if known else 0, order)

    return {
        app: max(enumerate(keys), key=lambda item: rank(*item))[1][1]
        for app, keys in sorted(applied.items())
    }


def row_counts(tables: list[str] | None = None) -> dict[str, int]:
    """The rows of each table of the database (of ``tables`` only, when given)."""
    names = sorted(connection.introspection.table_names() if tables is None else tables)
    counts = {}
    with connection.cursor() as cursor:
        for table in names:
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def unapplied_migrations() -> list[str]:
    """The code's migrations the database has yet to apply, as "app.name"."""
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _ in plan]


def unknown_migrations(manifest: Manifest) -> list[str]:
    """The migrations the backup's schema reached that this code does not have, as
    "app.name": a schema newer than the code, which it must not restore."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    known = set(loader.graph.nodes)
    return [
        f"{app}.{name}" for app, name in manifest.migrations.items() if (app, name) not in known
    ]


def outdated_against_code(manifest: Manifest) -> list[str]:
    """The apps whose last migration in the backup is not the code's latest, as
    "app: backup's → code's" (empty when the backup's schema is this code's)."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    latest = {app: name for app, name in loader.graph.leaf_nodes()}
    return [
        f"{app}: {manifest.migrations.get(app, 'none')} → {name}"
        for app, name in sorted(latest.items())
        if manifest.migrations.get(app) != name
    ]


def model_tables() -> dict[str, str]:
    """Every installed model's table (many-to-many tables too) → the model's label."""
    return {
        model._meta.db_table: model._meta.label
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    }
