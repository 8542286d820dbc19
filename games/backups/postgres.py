"""PostgreSQL's own tools, pg_dump and pg_restore, run against the database Django
is configured with (host, port, user, password and TLS settings as `dbshell` passes
them to psql)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from django.db import connection
from django.db.backends.postgresql.client import DatabaseClient

from games.backups.errors import BackupError

# Debian and Ubuntu ship both tools in this package; its major version must be the
# server's or newer.
CLIENT_PACKAGE = "postgresql-client"


def dump(target: Path, snapshot: str) -> None:
    """pg_dump in its custom format (compressed, restored table by table) into
    ``target``, reading the exported transaction snapshot ``snapshot``: the rows the
    backup's transaction sees, whatever is written meanwhile."""
    run("pg_dump", ["--format=custom", f"--snapshot={snapshot}", f"--file={target}"])


def restore(source: Path) -> None:
    """pg_restore of a custom-format dump over the database, in one transaction: the
    objects the dump holds are dropped where they exist and made anew, or, when
    anything fails, nothing changes. Owners and grants are the connecting role's, so
    that a dump restores on another server under another user."""
    run(
        "pg_restore",
        [
            "--clean",
            "--if-exists",
            "--single-transaction",
            "--exit-on-error",
            "--no-owner",
            "--no-privileges",
            "--dbname",
        ],
        after=[str(source)],
    )


def require(tool: str) -> str:
    """The path of ``tool``, or an error saying how to install it."""
    executable = shutil.which(tool)
    if executable is None:
        raise BackupError(
            f"{tool} is not on PATH: install PostgreSQL's client tools (Debian and Ubuntu: "
            f"apt install {CLIENT_PACKAGE}), of the server's major version or newer."
        )
    return executable


def run(tool: str, options: list[str], after: tuple[str, ...] | list[str] = ()) -> None:
    executable = require(tool)
    args, env = DatabaseClient.settings_to_cmd_args_env(connection.settings_dict, options)
    done = subprocess.run(
        [executable, *args[1:], *after],
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        said = done.stderr.strip() or f"exit status {done.returncode}"
        raise BackupError(f"{tool} failed: {said}")
