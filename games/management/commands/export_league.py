"""Write a league as JSON, for import_league here or on another server (a backup, or
a move to PostgreSQL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import League
from games.transfer.league_export import dumps, export_league


class Command(BaseCommand):
    help = "Export a league (every session, round and hand) as JSON for import_league."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the league's slug")
        parser.add_argument(
            "-o", "--output", help="the file to write (default: standard output)", default=None
        )

    def handle(self, *args: Any, slug: str, output: str | None, **options: Any) -> None:
        league = League.objects.filter(slug=slug).first()
        if league is None:
            raise CommandError(f"There is no league with the slug {slug!r}.")
        text = dumps(export_league(league))
        if output is None:
            self.stdout.write(text, ending="")
            return
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot write {output}: {error.strerror}.") from None
        self.stderr.write(f"Wrote {league.name} ({league.sessions.count()} sessions) to {output}.")
