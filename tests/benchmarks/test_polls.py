"""benchmarks/polls.py at a tiny size, on the test database: the script keeps working
as the app changes, and every poll it measures is answered "nothing new"."""

from __future__ import annotations

import pytest

from benchmarks import polls

pytestmark = pytest.mark.django_db


def test_every_poll_measured_is_an_unchanged_one() -> None:
    report = polls.run(batches=1, repeats=2, in_test=True)

    assert list(report) == [*polls.POLLS, "floor"]
    assert report["hello"]["status"] == 200
    for name in polls.POLLS[1:]:
        assert report[name]["status"] == 204, (name, report[name]["url"])
    for name in polls.POLLS:
        assert report[name]["cpu_us"] > 0
    assert "session" in polls.table(report)


def test_each_poll_is_measured_against_the_hello_view_of_the_same_run() -> None:
    report = polls.run(batches=1, repeats=2, in_test=True)

    assert report["floor"] == {
        "poll": "hello",
        "cpu_us": report["hello"]["cpu_us"],
        "url": "/hello/",
    }
    assert report["hello"]["ratio"] == 1.0
    for name in polls.POLLS:
        assert report[name]["ratio"] == round(report[name]["cpu_us"] / report["floor"]["cpu_us"], 1)
    assert "× hello" in polls.table(report)
