"""Restore a backup written by `manage.py backup` (games/backups/restore.py says
when it refuses and how it restores)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.backups import BackupError
from games.backups.restore import ENGINES, restore_backup


class Command(BaseCommand):
    help = (
        "Restore a backup into an empty database (or, with --replace, over one that holds "
        "data), then migrate it to this code's schema."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="a scorekeeper-YYYYMMDD-HHMMSS.tar")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="replace everything the database holds (it is lost) with the backup",
        )

    def handle(self, *args: Any, file: Path, replace: bool, **options: Any) -> None:
        try:
            restored = restore_backup(file, replace=replace)
        except BackupError as error:
            raise CommandError(str(error)) from None
        manifest = restored.manifest
        engine = ENGINES.get(manifest.engine, manifest.engine)
        source = f"{engine} snapshot" if restored.way == "snapshot" else "portable copy"
        self.stdout.write(
            f"Restored {file.name} (taken {manifest.created_at:%Y-%m-%d %H:%M:%S} UTC by "
            f"version {manifest.app_version}, {engine} {manifest.engine_version}) from its "
            f"{source} in {restored.seconds:.1f} s."
        )
        if restored.replaced:
            self.stdout.write(
                f"Replaced what the database held: {sum(restored.replaced.values()):,} rows "
                f"in {len(restored.replaced)} tables."
            )
        check = restored.check
        self.stdout.write(
            f"Checked: {check.tables} tables hold the {check.rows:,} rows the manifest counts."
            + (
                f" Not compared (written by migrate): {', '.join(check.not_compared)}."
                if check.not_compared
                else ""
            )
        )
        if restored.migrated:
            self.stdout.write(f"Migrated to this code's schema: {', '.join(restored.migrated)}.")
        self.stdout.write("Live pages answer from the restored database: nothing cached before.")
        self.stdout.write(self.style.SUCCESS("Done."))
