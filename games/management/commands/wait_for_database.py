"""Wait until the database accepts connections: the container's entrypoint runs it
before `migrate`, since compose starts the app and PostgreSQL side by side and a
database that is still initialising refuses connections for a few seconds."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections

# Often enough that the app starts within a second of the database, rarely enough
# that the database's log is not filled with refused connections.
INTERVAL_SECONDS = 1.0
# How often a retry is reported: the admin reading the log sees it is waiting and on
# what, without a line a second.
REPORT_EVERY_SECONDS = 5.0


class Command(BaseCommand):
    help = "Wait until the database accepts connections, or fail after --timeout seconds."
    # Nothing the system checks look at matters for connecting, and they cost a second.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--timeout",
            type=float,
            default=60.0,
            help="Seconds to keep trying (default 60).",
        )
        parser.add_argument(
            "--database",
            default=DEFAULT_DB_ALIAS,
            help="The connection to wait for (default: the default one).",
        )

    def handle(self, *args: Any, timeout: float, database: str, **options: Any) -> None:
        connection = connections[database]
        where = describe(connection.settings_dict)
        started = time.monotonic()
        reported: float | None = None
        while True:
            try:
                connection.ensure_connection()
            except OperationalError as error:
                # A failed attempt can leave a half-open connection behind.
                connection.close()
                now = time.monotonic()
                if now - started >= timeout:
                    raise CommandError(
                        f"The database {where} did not answer within {timeout:g} s: {error}"
                    ) from error
                if reported is None or now - reported >= REPORT_EVERY_SECONDS:
                    self.stderr.write(f"Waiting for the database {where}: {error}".rstrip())
                    reported = now
                time.sleep(INTERVAL_SECONDS)
                continue
            connection.close()
            waited = time.monotonic() - started
            self.stdout.write(f"The database {where} is ready (waited {waited:.1f} s).")
            return


def describe(settings: dict[str, Any]) -> str:
    """Where the database is, without its password: what the admin set, to check."""
    if "sqlite" in settings["ENGINE"]:
        return str(settings["NAME"])
    host = settings.get("HOST") or "localhost"
    port = settings.get("PORT")
    return f"{settings['NAME']} at {host}:{port}" if port else f"{settings['NAME']} at {host}"
