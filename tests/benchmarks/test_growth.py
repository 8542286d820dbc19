"""benchmarks/growth.py at a tiny size, on the test database: the script keeps working
as the app changes, and what it fills is a real session."""

from __future__ import annotations

import argparse

import pytest
from django.contrib.auth.models import User

from benchmarks import growth
from games.models import GameSession

pytestmark = pytest.mark.django_db


def test_growth_measures_a_save_the_page_and_a_poll_at_each_size() -> None:
    report = growth.run([3, 8], repeats=1)

    assert set(report) == {"save", "page", "poll", "floor"}
    for what in growth.MEASURED:
        assert set(report[what]) == {"3", "8"}
        for figure in report[what].values():
            assert figure["cpu_ms"] > 0 and figure["queries"] > 0
    # The query counts do not grow with the session (one of growth.py's targets).
    for what in growth.MEASURED:
        assert report[what]["3"]["queries"] == report[what]["8"]["queries"], what
    printed = growth.table(report)
    assert "save" in printed and "queries constant" in printed


def test_growth_measures_the_floor_in_the_same_run_and_each_figure_against_it() -> None:
    report = growth.run([3], repeats=1)

    floor = report["floor"]
    assert floor["view"] == "/hello/" and floor["cpu_median_ms"] > 0
    # A save does far more than the bare view: its ratio is its CPU in hellos.
    save = report["save"]["3"]
    assert save["ratio"] == round(save["cpu_ms"] / floor["cpu_median_ms"], 1)
    assert save["ratio"] > 1
    assert "floor: the hello view" in growth.table(report)


def test_the_filled_session_replays_like_a_played_one() -> None:
    user = User.objects.create_user("filler", password=None)
    session = growth.fill(user, 9, name="nine")  # six saved for real, three copied

    session = GameSession.objects.get(pk=session.pk)
    assert session.rounds.count() == 9
    # The deal moves round the table, in the copies too.
    dealers = [r.dealer_id for r in session.rounds.order_by("number")]
    assert dealers[6:] == dealers[:3] and len(set(dealers[:6])) == 6
    copied = session.rounds.get(number=7).entries.order_by("player_id")
    real = session.rounds.get(number=1).entries.order_by("player_id")
    assert [(e.outcome, e.score, e.groups) for e in copied] == [
        (e.outcome, e.score, e.groups) for e in real
    ]
    # The seats' stored totals are the rules service's replay of every round.
    assert sum(session.seats.values_list("total", flat=True)) == sum(
        e.score for e in session.rounds.all() for e in e.entries.all()
    )


@pytest.mark.parametrize("text", ["", "ten", "10,-1", "0"])
def test_growth_refuses_sizes_that_are_not_rounds(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        growth.parse_sizes(text)
