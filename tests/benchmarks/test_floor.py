"""benchmarks/floor.py: the hello view the in-process benchmarks measure beside their
figures, and the ratio a reader on another machine compares."""

from __future__ import annotations

from django.test import Client

from benchmarks import floor


def test_the_hello_view_is_timed_through_the_client_it_is_given() -> None:
    figures = floor.hello_in_process(Client(), requests=5, warmup=1)

    assert figures["view"] == "/hello/" and figures["requests"] == 5
    assert figures["median_ms"] > 0 and figures["cpu_median_ms"] > 0


def test_a_ratio_is_the_figure_in_floors_or_nothing_without_a_floor() -> None:
    assert floor.ratio(30.0, 0.2) == 150.0
    assert floor.ratio(1.0, 3.0) == 0.3
    assert floor.ratio(None, 0.2) is None
    assert floor.ratio(30.0, None) is None
    assert floor.ratio(30.0, 0.0) is None  # too quick for the clock: no ruler
