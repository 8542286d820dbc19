"""The SQLite test database: migrated once, then copied into every test process.

pytest-django builds each test process's in-memory database by running every
migration, about 1.3 s of CPU, and `make test` starts three processes a run. Here
the first process to need a database migrates as usual and keeps a copy in pytest's
cache (.pytest_cache/d/test-schema/); the others, and later runs, copy it in with
SQLite's backup API (as Django's parallel test runner copies its databases). The
copy is named by a digest of every migration file and of the Django and SQLite
versions, so a new or changed migration is migrated afresh. PostgreSQL, a file
database and --reuse-db go Django's usual way.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import django
from django.apps.registry import Apps
from django.conf import settings
from django.core.management import call_command
from django.db.backends.sqlite3.creation import DatabaseCreation
from django.db.migrations.loader import MigrationLoader


def schema_digest() -> str:
    """What a migrated database depends on: each migration's source, and the versions
    of what runs them."""
    digest = hashlib.sha256(f"{django.__version__} {sqlite3.sqlite_version}".encode())
    loader = MigrationLoader(None, load=False)
    loader.load_disk()
    for key, migration in sorted(loader.disk_migrations.items()):
        source = Path(sys.modules[type(migration).__module__].__file__).read_bytes()
        digest.update(repr(key).encode() + source)
    return digest.hexdigest()[:16]


def copy_migrated_schema(cache_dir: Path) -> Callable[[], None]:
    """Make each in-memory SQLite test database a copy of one migrated once and kept
    in ``cache_dir``. Returns what undoes it."""
    migrate = DatabaseCreation.create_test_db  # Django's: create, then migrate

    def create_test_db(self, verbosity=1, autoclobber=False, serialize=True, keepdb=False):
        name = self._get_test_db_name()
        if keepdb or not self.is_in_memory_db(name):
            return migrate(self, verbosity, autoclobber, serialize, keepdb)
        connection = self.connection
        kept = cache_dir / f"{connection.alias}-{schema_digest()}.sqlite3"
        if not kept.exists():
            name = migrate(self, verbosity, autoclobber, serialize, keepdb)
            partial = kept.with_suffix(f".{os.getpid()}.part")
            target = sqlite3.connect(partial)
            try:
                connection.connection.backup(target)
            finally:
                target.close()
            os.replace(partial, kept)  # whole, even when two processes race
            return name
        # Django's create_test_db, with the copy where it runs `migrate`.
        connection.close()
        settings.DATABASES[connection.alias]["NAME"] = name
        connection.settings_dict["NAME"] = name
        connection.ensure_connection()
        source = sqlite3.connect(kept)
        try:
            source.backup(connection.connection)
        finally:
            source.close()
        if serialize:
            connection._test_serialized_contents = self.serialize_db_to_string()
        call_command("createcachetable", database=connection.alias)
        return name

    DatabaseCreation.create_test_db = create_test_db

    def undo() -> None:
        del DatabaseCreation.create_test_db  # the base class's again

    return undo


@contextmanager
def migrated_back_to(migration: str) -> Iterator[Apps]:
    """The test database migrated back to games' ``migration`` while the block runs,
    with the app registry of that moment (its historical models) to write old rows
    with; then migrated forward to the latest migrations again, even when the block
    fails, so the tests after it find the schema the code expects."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("games", migration)]
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    try:
        yield executor.loader.project_state(before).apps
    finally:
        # A new executor: the first one's loader still has the latest applied.
        MigrationExecutor(connection).migrate(latest)
