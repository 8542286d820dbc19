"""The floor a benchmark measures beside its figures, in the same run.

A timing alone says how fast the machine was that day: the same script gave a save
of 19 ms on one machine and 31 ms on another, with the same code. Beside the least
the same machine took, in the same run, for the smallest thing of the same kind, it
becomes a ratio that another machine can compare. The benchmarks that time requests
in-process (http.py, growth.py, share.py) take Django's test client to the bare
"hello" view (``scorekeeper/urls.py``: the whole middleware stack, no database, no
template) with ``hello_in_process``; load.py and polls.py time the same view their
own way (over HTTP, or through the WSGI application); solver.py's floor is the
CP-SAT reference, import_league.py's the rules service scoring the file's rounds
alone, outage.py's the same requests with Redis answering. Each script's docstring
says which.
"""

from __future__ import annotations

import statistics
import time

# Routed outside production, and in production with DJANGO_BENCHMARK_ROUTES=1.
HELLO = "/hello/"


def ratio(value: float | None, floor: float | None) -> float | None:
    """``value`` in floors (one decimal), or None when either is missing or the floor
    is zero (too small for the clock to see)."""
    if value is None or not floor:
        return None
    return round(value / floor, 1)


def hello_in_process(client, requests: int = 200, warmup: int = 20) -> dict:
    """The hello view through ``client`` (a Django test client, signed in or not: the
    view reads neither the session nor the user): the median wall and CPU
    milliseconds (``time.process_time``, this process only) of one request over
    ``requests`` after ``warmup``. Each is a few tenths of a millisecond, so many
    requests cost little and steady the median."""
    for _ in range(warmup):
        response = client.get(HELLO)
        assert response.status_code == 200, (HELLO, response.status_code)
    wall, cpu = [], []
    for _ in range(requests):
        began, began_cpu = time.perf_counter(), time.process_time()
        response = client.get(HELLO)
        wall.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
        assert response.status_code == 200, (HELLO, response.status_code)
    return {
        "view": HELLO,
        "requests": requests,
        "median_ms": round(statistics.median(wall), 3),
        "cpu_median_ms": round(statistics.median(cpu), 3),
    }
