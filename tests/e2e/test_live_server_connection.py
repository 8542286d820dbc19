"""On SQLite the browser tests' own thread and the live server's threads share one
connection to the in-memory test database (tests/e2e/conftest.py): the test's thread
waits its turn while a request is answered, so that neither's transaction ends inside
the other's."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.core.signals import request_finished, request_started
from django.db import connection, connections, transaction

from games.models import Player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def in_a_block() -> None:
    """What the tests' builders and the app's services do: an atomic block."""
    with transaction.atomic():
        Player.objects.create(name="Asha")
        Player.objects.filter(name="Asha").update(name="Asha")


def alone() -> None:
    """One query outside a block (a model without parents saves so)."""
    Player.objects.create(name="Asha")


@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="PostgreSQL gives each thread its own connection"
)
@pytest.mark.parametrize("write", [in_a_block, alone], ids=["in-a-block", "alone"])
def test_what_the_test_writes_while_a_request_is_answered_waits_for_its_end(
    write: Callable[[], None],
) -> None:
    answering = threading.Event()
    seen_by_the_request: list[bool] = []
    errors: list[BaseException] = []
    shared = connections["default"]

    def request() -> None:
        """A request of the live server's (a page's poll) whose transaction stays
        open for a moment: out of turn, the test's write would land inside it (or, in
        a block, become a savepoint that the request's blocks take away: "no such
        savepoint", test_accessibility's table-handed-in-gone-reloaded)."""
        connections["default"] = shared  # as Django's live server thread does
        request_started.send(sender=None)
        try:
            with transaction.atomic():
                Player.objects.create(name="Polled")
                answering.set()
                time.sleep(0.3)
                seen_by_the_request.append(Player.objects.filter(name="Asha").exists())
        except BaseException as error:
            errors.append(error)
        finally:
            request_finished.send(sender=None)

    # The live server's threads are named so (tests/e2e/conftest.py's _serving).
    server = threading.Thread(target=request, name="Thread-1 (process_request_thread)")
    server.start()
    assert answering.wait(timeout=5)
    write()
    server.join(timeout=5)
    assert not server.is_alive()
    assert errors == []
    assert seen_by_the_request == [False]
    assert set(Player.objects.values_list("name", flat=True)) == {"Polled", "Asha"}
