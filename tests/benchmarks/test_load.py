"""benchmarks/load.py's accounting, without a server: what the clients asked for is
every tap before the deadline, and what shared the cores is measured, not assumed."""

from __future__ import annotations

import os

import pytest

from benchmarks import load


def test_the_asked_throughput_is_every_tap_however_slow_the_answers() -> None:
    result = load.Result(asked=100, served=95)

    assert load.asked_per_s(result, elapsed=10) == round(100 * load.REQUESTS_PER_ACTION / 10, 1)
    assert load.asked_per_s(load.Result(), elapsed=10) is None  # no pauses: no schedule


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="Linux only")
def test_the_poll_run_pins_the_generator_to_a_core_of_its_own() -> None:
    cpus = sorted(os.sched_getaffinity(0))
    pinned = load.cores_for("auto", poll=True)
    if len(cpus) < 2:
        assert pinned is None
        return
    server, generator = pinned
    assert generator == {cpus[-1]} and server == set(cpus[:-1])
    assert load.cores_for("auto", poll=False) is None  # the mix keeps every core
    assert load.cores_for("no", poll=True) is None
    assert load.cores_for("yes", poll=False) == pinned


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="Linux /proc only")
def test_the_cpu_a_process_used_is_read_from_proc() -> None:
    use = load.CoreUse(os.getpid())
    sum(i * i for i in range(2_000_000))  # a tenth of a second or so of CPU

    figures = use.done()

    assert figures["server_cpu_s"] >= 0 and figures["generator_cpu_s"] > 0
    assert load.cpu_seconds([os.getpid()]) > 0
