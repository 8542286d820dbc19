"""Requests at once: jobs run in threads released together, as phones tapping at
the same moment (real concurrent connections; the tests using it need PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections


def at_once(jobs: list[Callable[[], object]]) -> list[object]:
    """Run the jobs in threads released together; each result is what the job
    returned or the exception it raised."""
    barrier = threading.Barrier(len(jobs))
    results: list[object] = [None] * len(jobs)

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = jobs[index]()
        except Exception as error:  # the test looks at each outcome
            results[index] = error
        finally:
            connections.close_all()  # this thread's connection

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results
