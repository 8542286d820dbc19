"""Back up the whole site into one file (games/backups/: what it holds, and how)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.backups import BackupError
from games.backups.snapshot import write_backup


class Command(BaseCommand):
    help = (
        "Write a snapshot of the whole site (database and manifest) to "
        "DIR/scorekeeper-YYYYMMDD-HHMMSS.tar, print its path, and delete the oldest "
        "backups there beyond the number kept."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dir",
            type=Path,
            default=None,
            help="the folder of the backups (default: BACKUP_DIR, else backups/ in the project)",
        )
        parser.add_argument(
            "--keep",
            type=int,
            default=None,
            help="how many backups to keep there, this one included (default: BACKUP_KEEP, 14)",
        )

    def handle(self, *args: Any, dir: Path | None, keep: int | None, **options: Any) -> None:
        directory = Path(dir or settings.BACKUP_DIR).absolute()
        keep = settings.BACKUP_KEEP if keep is None else keep
        try:
            backup = write_backup(directory, keep)
        except BackupError as error:
            raise CommandError(str(error)) from None
        manifest = backup.manifest
        self.stderr.write(
            f"Backed up {manifest.rows:,} rows of {len(manifest.row_counts)} tables "
            f"({manifest.engine} {manifest.engine_version}, app {manifest.app_version}) in "
            f"{backup.seconds:.1f} s: {backup.size / 1_000_000:.1f} MB."
        )
        for path in backup.removed:
            self.stderr.write(f"Deleted {path.name}: more than {keep} kept.")
        self.stdout.write(str(backup.path))
