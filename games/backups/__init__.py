"""The whole site in one file and back: `manage.py backup` and `manage.py restore`.

A backup is a tar of three members (archive.py): the manifest (manifest.py: the
app's version, the schema's last migration of each app, the row count of each table,
the engine), the database engine's own snapshot (PostgreSQL's pg_dump in its custom
format, or a copy of the SQLite file made by SQLite's online backup API), and a
portable copy (Django's dumpdata) that loads into the other engine. snapshot.py
writes one, restore.py reads one back. All three are read in one transaction, so
they agree with each other whatever the site was doing meanwhile.
"""

from __future__ import annotations

from games.backups.errors import BackupError

__all__ = ["BackupError"]
