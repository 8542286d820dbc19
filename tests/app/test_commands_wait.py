"""`manage.py wait_for_database`: what the container's entrypoint runs before `migrate`,
so the app waits for a PostgreSQL that is still starting instead of failing."""

from __future__ import annotations

import socket
import sys
import time
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import OperationalError, connections

from games.management.commands import wait_for_database
from tests.support.processes import run_fresh


def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.django_db(transaction=True)
def test_a_database_that_answers_is_ready_at_once() -> None:
    out = StringIO()

    started = time.monotonic()
    call_command("wait_for_database", "--timeout", "5", stdout=out)

    assert time.monotonic() - started < 2
    assert "is ready" in out.getvalue()


def test_a_database_that_refuses_at_first_is_waited_for(monkeypatch) -> None:
    connection = connections["default"]
    attempts: list[int] = []

    def starting_up() -> None:
        attempts.append(1)
        if len(attempts) < 3:
            raise OperationalError("the database system is starting up")

    monkeypatch.setattr(connection, "ensure_connection", starting_up)
    monkeypatch.setattr(wait_for_database.time, "sleep", lambda seconds: None)
    out, err = StringIO(), StringIO()

    call_command("wait_for_database", "--timeout", "30", stdout=out, stderr=err)

    assert len(attempts) == 3
    assert "the database system is starting up" in err.getvalue()
    assert "is ready" in out.getvalue()


def test_a_database_that_never_answers_fails_naming_it_without_its_password() -> None:
    port = unused_port()

    started = time.monotonic()
    answer = run_fresh(
        [sys.executable, "manage.py", "wait_for_database", "--timeout", "1.5"],
        DATABASE_URL=f"postgres://club:s3cret-word@127.0.0.1:{port}/scores",
    )
    waited = time.monotonic() - started

    assert answer.returncode == 1
    assert f"The database scores at 127.0.0.1:{port} did not answer within 1.5 s" in answer.stderr
    assert "s3cret-word" not in answer.stderr + answer.stdout
    # It kept trying for the timeout, then gave up rather than waiting on.
    assert 1.5 <= waited < 15
