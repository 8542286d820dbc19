"""Restore a league from a file export_league (or the league page) wrote, as a new
league: every round is scored again by the rules service, and a file that does not
score, or whose slug is taken, is refused with nothing written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import exports


class Command(BaseCommand):
    help = "Import a league from a JSON file written by export_league."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file export_league wrote")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            raw = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        try:
            league = exports.import_league(raw).league
        except exports.ImportRefused as error:
            raise CommandError(f"{file}: {error}") from None
        self.stdout.write(
            f"Imported {league.name} ({league.slug}): {league.sessions.count()} sessions."
        )
