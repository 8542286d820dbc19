"""benchmarks/polls.py at a tiny size, on the test database: the script keeps working
as the app changes, and every poll it measures is answered "nothing new"."""

from __future__ import annotations

import pytest

from benchmarks import polls

pytestmark = pytest.mark.django_db


def test_every_poll_measured_is_an_unchanged_one() -> None:
    report = polls.run(batches=1, repeats=2, in_test=True)

    assert list(report) == list(polls.POLLS)
    assert report["hello"]["status"] == 200
    for name in polls.POLLS[1:]:
        assert report[name]["status"] == 204, (name, report[name]["url"])
    for row in report.values():
        assert row["cpu_us"] > 0
    assert "session" in polls.table(report)
