"""On SQLite the browser tests' own thread and the live server's threads share one
connection to the in-memory test database (tests/e2e/conftest.py): the test's thread
waits its turn while a request is answered, so that neither's transaction ends inside
the other's."""

from __future__ import annotations

import threading

import pytest
from django.core.signals import request_finished, request_started
from django.db import connection, connections, transaction

from games.models import Player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="PostgreSQL gives each thread its own connection"
)
def test_a_block_the_test_opens_while_a_request_is_answered_waits_for_its_end(
    phone_page,  # a browser test, as those that meet a page's poll
) -> None:
    answering, test_began = threading.Event(), threading.Event()
    events: list[str] = []
    shared = connections["default"]

    def request() -> None:
        """A request of the live server's (a page's poll) with its transaction open
        until the test's block has begun, or for half a second."""
        connections["default"] = shared  # as Django's live server thread does
        request_started.send(sender=None)
        with transaction.atomic():
            Player.objects.create(name="Polled")
            answering.set()
            test_began.wait(timeout=0.5)
            events.append("the request ends")
        request_finished.send(sender=None)

    # The live server's threads are named so (tests/e2e/conftest.py's _serving).
    server = threading.Thread(target=request, name="Thread-1 (process_request_thread)")
    server.start()
    assert answering.wait(timeout=5)
    # Out of turn, this block began inside the request's transaction, as a savepoint
    # that the request's own blocks could release or commit away under it ("no such
    # savepoint" at its end: test_accessibility's table-handed-in-gone-reloaded).
    with transaction.atomic():
        events.append("the test's block begins")
        test_began.set()
        Player.objects.create(name="Asha")
    server.join(timeout=5)
    assert events == ["the request ends", "the test's block begins"]
    assert set(Player.objects.values_list("name", flat=True)) == {"Polled", "Asha"}
