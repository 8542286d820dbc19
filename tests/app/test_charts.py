"""Charts (games/charts.py): server-drawn SVG of a session's running totals and of
ratings over time, checked point by point against the figures they plot, and the
include that shows a chart with its figures in words."""

from __future__ import annotations

import datetime
import itertools

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games.charts import nice_ticks, rating_history_svg, running_totals_svg, thin
from games.figures import points
from games.models import GameSession
from games.queries.standings import RatingPoint
from games.rules import get_ruleset
from games.rules.totals import session_state
from games.services.scoreboard import load_scoreboard
from tests.support.builders import play
from tests.support.hands import ROUND_1
from tests.support.svg import SVG, assert_linear, label_spans, lines_of, parse

POOL = get_ruleset("13-pool-101")


# 13-card pool 101: Ben passes 101 in round 3 and is out; Asha and Chen play on.
POOL_ROUNDS = [
    {"Asha": 0, "Ben": 40, "Chen": 20},
    {"Asha": 30, "Ben": 45, "Chen": 0},
    {"Asha": 20, "Ben": 20, "Chen": 0},
    {"Asha": 0, "Chen": 80},
]


def test_each_players_line_follows_their_running_totals() -> None:
    state = session_state(POOL, ("Asha", "Ben", "Chen"), POOL_ROUNDS)
    root = parse(running_totals_svg(state))
    drawn = lines_of(root)
    assert set(drawn) == {"Asha", "Ben", "Chen"}
    values, ys, xs = [], [], []
    for name in ("Asha", "Chen"):
        (points,) = drawn[name]
        expected = [0] + [line.totals[name] for line in state.lines]
        assert len(points) == len(expected)
        values += expected
        ys += [y for _, y in points]
        xs.append([x for x, _ in points])
    a, _ = assert_linear(values, ys)
    assert a < 0  # higher totals are drawn higher up
    # One step to the right per round, the same for everyone.
    steps = {round(xs[0][i + 1] - xs[0][i], 1) for i in range(len(xs[0]) - 1)}
    assert len(steps) == 1 and xs[0] == xs[1]


def test_an_eliminated_players_line_stops_at_the_round_that_put_them_out() -> None:
    state = session_state(POOL, ("Asha", "Ben", "Chen"), POOL_ROUNDS)
    assert state.eliminated_in == {"Ben": 3}
    root = parse(running_totals_svg(state))
    (ben,) = lines_of(root)["Ben"]
    assert len(ben) == 4  # before round 1, then rounds 1 to 3
    crosses = [p for p in root.iter(f"{SVG}path") if p.get("class") == "chart-out"]
    assert len(crosses) == 1
    assert "Ben after round 3: 105 (out)" in crosses[0].find(f"{SVG}title").text


def test_the_ceiling_is_a_marked_line_at_its_value() -> None:
    state = session_state(POOL, ("Asha", "Ben", "Chen"), POOL_ROUNDS)
    root = parse(running_totals_svg(state))
    (rule,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-rule"]
    assert rule.get("data-value") == "101"
    assert "ceiling 101" in "".join(rule.itertext())
    rule_y = float(rule.find(f"{SVG}line").get("y1"))
    # The same mapping as the totals: the rule sits where a total of 101 would.
    drawn = lines_of(root)
    values = [0] + [line.totals["Asha"] for line in state.lines] + [101]
    ys = [y for _, y in drawn["Asha"][0]] + [rule_y]
    assert_linear(values, ys)
    assert "Ceiling 101" in root.find(f"{SVG}desc").text


def test_no_ceiling_no_rule_and_in_net_totals_the_limit_is_below_zero() -> None:
    points = get_ruleset("21-points")
    state = session_state(points, ("Asha", "Ben"), [{"Asha": 120, "Ben": -120}])
    root = parse(running_totals_svg(state))
    assert not [g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-rule"]
    root = parse(running_totals_svg(session_state(points, ("Asha", "Ben"), [], ceiling=300)))
    (rule,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-rule"]
    assert rule.get("data-value") == "-300"
    # Labelled where it is drawn: the total it limits, with its minus sign.
    assert "ceiling \u2212300" in "".join(rule.itertext())


def test_a_rejoin_starts_a_new_piece_of_line_at_the_rejoining_total() -> None:
    rounds = [{"Asha": 0, "Ben": 80, "Chen": 20}, {"Asha": 20, "Ben": 30, "Chen": 0}]
    state = session_state(POOL, ("Asha", "Ben", "Chen"), rounds, rejoins=[("Ben", 2)])
    assert state.lines[1].rejoined == {"Ben": 21}
    root = parse(running_totals_svg(state))
    ben = lines_of(root)["Ben"]
    assert len(ben) == 2  # up to round 2, where he went out, then from the rejoin on
    assert len(ben[0]) == 3  # 0, 80, then 110 (out), before the rejoin at 21
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert "Ben after round 2: 110 (out)" in titles
    rings = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "chart-rejoin"]
    assert "Ben rejoined after round 2 at 21" in rings[0].find(f"{SVG}title").text


def test_names_are_escaped_and_the_chart_is_labelled() -> None:
    name = '<script>alert("x")</script> & Co'
    state = session_state(POOL, (name, "Ben"), [{name: 0, "Ben": 40}])
    svg = str(running_totals_svg(state, title="Friday <night>"))
    assert "<script>" not in svg
    root = parse(svg)  # still well-formed XML
    assert root.get("role") == "img"
    title_id, desc_id = root.get("aria-labelledby").split()
    assert root.find(f"{SVG}desc").get("id") == desc_id
    assert root.find(f"{SVG}title").get("id") == title_id
    assert root.find(f"{SVG}title").text == "Friday <night>"
    assert name in root.find(f"{SVG}desc").text
    assert name in lines_of(root)
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-legend")
    assert f"{name} 0" in "".join(legend.itertext())


def test_the_legend_gives_each_players_total_and_the_winner() -> None:
    rounds = [*POOL_ROUNDS, {"Asha": 80, "Chen": 0}]
    state = session_state(POOL, ("Asha", "Ben", "Chen"), rounds)
    assert state.winners == ("Chen",)
    root = parse(running_totals_svg(state))
    legend = "".join(
        next(g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-legend").itertext()
    )
    assert f"Chen {state.totals['Chen']} (winner)" in legend
    assert f"Ben {state.totals['Ben']} (out in round 3)" in legend


def long_session(rounds: int, ceiling: int | None = None):
    """A 21-points session of eight of ``rounds`` rounds, totals swinging by hundreds."""
    names = tuple(f"Player {n}" for n in range(1, 9))
    scores = [
        {
            name: (150 if (i - n) % 8 == 0 else -30 if (i - n) % 3 else -100)
            for i, name in enumerate(names)
        }
        for n in range(rounds)
    ]
    return session_state(get_ruleset("21-points"), names, scores, ceiling=ceiling)


@pytest.mark.parametrize("rounds", [9, 25, 40, 42, 99, 100, 1000, 1234, 5001])
def test_the_round_numbers_under_a_long_session_do_not_run_into_each_other(rounds: int) -> None:
    root = parse(running_totals_svg(long_session(rounds)))
    spans = label_spans(root, "chart-x")
    width = float(root.get("width"))
    assert spans[0][2] == "0" and spans[-1][2] == str(rounds)
    assert len(spans) >= 5  # still a scale to read
    for (_, right, text), (left, _, after) in itertools.pairwise(spans):
        assert right + 2 <= left, f"{text!r} and {after!r} overlap"
    assert spans[0][0] >= 0 and spans[-1][1] <= width


def test_large_totals_keep_their_minus_sign_on_the_drawing() -> None:
    # −20000 was drawn 4 units left of the drawing's edge: a phone showed "20000".
    state = session_state(
        get_ruleset("21-points"), ("Asha", "Ben"), [{"Asha": 15000, "Ben": -15000}], ceiling=20000
    )
    root = parse(running_totals_svg(state))
    spans = label_spans(root, "chart-y")
    assert min(left for left, *_ in spans) >= 0, spans
    texts = [text for *_, text in spans]
    assert "−20k" in texts and "20k" in texts and "0" in texts


def test_a_ceiling_far_beyond_the_totals_is_named_at_the_edge_not_drawn_to_scale() -> None:
    # 42 rounds within ±600 under a ceiling of 20000: drawn to scale, the lines were
    # a flat band; they now fill the plot and the ceiling is named at its bottom edge.
    state = long_session(42, ceiling=20000)
    root = parse(running_totals_svg(state))
    (rule,) = [g for g in root.iter(f"{SVG}g") if "chart-rule" in g.get("class")]
    assert rule.get("data-value") == "-20000"
    assert rule.find(f"{SVG}line") is None
    assert (
        "".join(rule.itertext()) == "ceiling −20,000 ↓"
    )  # a net ceiling, said as the total it limits
    ys = [y for pieces in lines_of(root).values() for piece in pieces for _, y in piece]
    assert max(ys) - min(ys) > 90  # the lines use at least half the plot's 180 units
    assert "Ceiling −20,000" in root.find(f"{SVG}desc").text


def history(name: str, ordinals: list[float], start: int = 0) -> tuple[str, list[RatingPoint]]:
    day = datetime.date(2024, 1, 1)
    return name, [
        RatingPoint(start + i, day + datetime.timedelta(days=i), value, start + i)
        for i, value in enumerate(ordinals)
    ]


def test_a_long_sessions_chart_stays_small_and_keeps_its_ends() -> None:
    # 5,000 rounds of a points game without a ceiling: the chart of the share page
    # must not grow with the session, so a long session's share page stays light on a
    # phone.
    points = get_ruleset("21-points")
    rounds = [{"Asha": 3, "Ben": -1, "Chen": -2} for _ in range(5_000)]
    state = session_state(points, ("Asha", "Ben", "Chen"), rounds)
    svg = str(running_totals_svg(state))
    root = parse(svg)
    (asha,) = lines_of(root)["Asha"]
    assert len(asha) <= 160
    # Its ends stay: 0 before round 1 and the total after the last round.
    assert "Asha before round 1: 0" in svg and "Asha after round 5000: 15,000" in svg
    assert "Asha 15,000" in svg
    assert len(svg) < 60_000


def test_rating_lines_follow_the_ordinals_in_session_order() -> None:
    asha = history("Asha", [1.5, 3.0, 2.0, 6.5])
    ben = history("Ben", [-2.0, -4.5], start=1)
    root = parse(rating_history_svg([asha, ben]))
    drawn = lines_of(root)
    values = [p.ordinal for p in asha[1] + ben[1]]
    ys = [y for _, y in drawn["Asha"][0] + drawn["Ben"][0]]
    assert_linear(values, ys)
    xs_by_sequence = {p.sequence: x for p, (x, _) in zip(asha[1], drawn["Asha"][0], strict=True)}
    # Ben's two sessions sit above sessions 1 and 2 of the league's order.
    assert [x for x, _ in drawn["Ben"][0]] == [xs_by_sequence[1], xs_by_sequence[2]]
    assert "Asha from 1.5 to 6.5" in root.find(f"{SVG}desc").text


def test_a_long_rating_history_is_thinned_but_keeps_its_ends() -> None:
    ordinals = [i / 10 for i in range(2000)]
    root = parse(rating_history_svg([history("Asha", ordinals)]))
    (points,) = lines_of(root)["Asha"]
    assert len(points) <= 160
    marks = [c.find(f"{SVG}title").text for c in root.iter(f"{SVG}circle")]
    assert marks[0].endswith(": 0.0") and marks[-1].endswith(": 199.9")
    assert thin(list(range(10)), 4) == [0, 3, 6, 9]


def test_an_empty_rating_history_says_so() -> None:
    root = parse(rating_history_svg([("Asha", [])]))
    assert root.find(f"{SVG}desc").text == "No rated sessions yet."
    assert not lines_of(root)


def test_a_rating_history_of_one_session_writes_the_rating_beside_its_point() -> None:
    # Was a lone dot at the plot's left edge, which read as a broken chart.
    root = parse(rating_history_svg([history("Asha", [-1.3])]))
    assert root.find(f"{SVG}desc").text == "One rated session (1 Jan 2024): rating −1.3."
    (dot,) = root.iter(f"{SVG}circle")
    (value,) = (t for t in root.iter(f"{SVG}text") if t.get("class") == "chart-value")
    assert value.text == "−1.3"
    # The rating beside its point, the point in the middle with its date under it.
    assert float(value.get("x")) > float(dot.get("cx"))
    assert float(value.get("y")) == pytest.approx(float(dot.get("cy")) + 4, abs=0.2)
    grid = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-grid")
    plot = next(grid.iter(f"{SVG}line"))
    middle = (float(plot.get("x1")) + float(plot.get("x2"))) / 2
    assert float(dot.get("cx")) == pytest.approx(middle, abs=1)
    ((left, right, date),) = label_spans(root, "chart-x")
    assert date == "1 Jan 24 · one rated session" and left < float(dot.get("cx")) < right


def test_ratings_of_one_session_are_each_written_apart_and_longer_histories_are_not() -> None:
    day = datetime.date(2024, 1, 1)
    evening = [(name, [RatingPoint(0, day, value, 1)]) for name, value in [("A", 2.0), ("B", 2.1)]]
    root = parse(rating_history_svg(evening))
    assert root.find(f"{SVG}desc").text == "One rated session (1 Jan 2024): A 2.0, B 2.1."
    values = {
        t.text: float(t.get("y"))
        for t in root.iter(f"{SVG}text")
        if t.get("class") == "chart-value"
    }
    assert set(values) == {"2.0", "2.1"} and abs(values["2.0"] - values["2.1"]) >= 12
    longer = rating_history_svg([history("Asha", [1.0, 2.0])])
    assert "chart-value" not in longer and "one rated session" not in longer


def test_a_newcomers_one_rating_among_longer_lines_is_named_and_written_beside_it() -> None:
    # Was a small dot among the others' lines, unlabelled: whose, and worth what?
    # Asha was rated in the first session only, Chen in the last only, Ben in all three.
    asha, ben = history("Asha", [3.4]), history("Ben", [-1.8, 0.5, 1.6])
    chen = ("Chen", [RatingPoint(2, datetime.date(2024, 1, 3), -2.1, 2)])
    root = parse(rating_history_svg([asha, ben, chen]))
    assert root.find(f"{SVG}desc").text == (
        "Rating after each rated session: Asha 3.4 after one rated session (1 Jan 2024), "
        "Ben from −1.8 to 1.6, Chen −2.1 after one rated session (3 Jan 2024)."
    )
    spans = {text: (left, right) for left, right, text in label_spans(root, "chart-value")}
    assert set(spans) == {"Asha\u200e 3.4", "Chen\u200e −2.1"}  # Ben's line needs none
    for name in ("Asha", "Chen"):
        line = next(g for g in root.iter(f"{SVG}g") if g.get("data-name") == name)
        (dot,) = line.iter(f"{SVG}circle")
        assert float(dot.get("r")) > 2.5  # drawn larger, as in a chart of one session
        (label,) = (
            t
            for t in root.iter(f"{SVG}text")
            if t.get("class") == "chart-value" and t.text.startswith(name)
        )
        assert label.get("data-series") == line.get("data-series")  # in the line's colour
        assert float(label.get("y")) == pytest.approx(float(dot.get("cy")) + 4, abs=0.2)
        # Beside the dot, not over it, and inside the drawing: Chen's, at the last
        # session, on its left.
        left, right = spans[label.text]
        cx = float(dot.get("cx"))
        assert left >= 0 and right <= float(root.get("width"))
        assert (left >= cx + 4) if name == "Asha" else (right <= cx - 4)


def test_ratings_of_one_session_bunched_at_the_bottom_stay_inside_the_plot() -> None:
    # The standings chart draws up to five players: four just above 0, one far above.
    day = datetime.date(2024, 1, 1)
    ratings = [("A", 0.1), ("B", 0.2), ("C", 0.3), ("D", 0.4), ("E", 20.0)]
    root = parse(
        rating_history_svg([(name, [RatingPoint(0, day, value, 1)]) for name, value in ratings])
    )
    texts = list(root.iter(f"{SVG}text"))
    values = sorted(float(t.get("y")) for t in texts if t.get("class") == "chart-value")
    baseline = next(e for e in root.iter(f"{SVG}line") if e.get("class") == "chart-baseline")
    bottom = float(baseline.get("y1"))
    dates = [float(t.get("y")) for t in texts if t.get("class") == "chart-x"]
    # Each label apart from the next, every one above the plot's bottom and its date;
    # the one far above stays beside its point.
    assert all(b - a >= 12 for a, b in itertools.pairwise(values)), values
    assert values[-1] <= bottom < min(dates), (values, bottom, dates)
    (top,) = (c for c in root.iter(f"{SVG}circle") if float(c.get("cy")) < bottom / 2)
    assert values[0] == pytest.approx(float(top.get("cy")) + 4, abs=0.2)


def test_ticks_are_round_numbers_covering_the_range() -> None:
    ticks = nice_ticks(-37, 212)
    assert ticks[0] <= -37 and ticks[-1] >= 212
    steps = {round(b - a, 6) for a, b in itertools.pairwise(ticks)}
    assert steps == {100.0} or steps == {50.0}
    assert nice_ticks(5, 5)[0] <= 5 <= nice_ticks(5, 5)[-1]


@pytest.mark.django_db
def test_the_include_shows_the_chart_with_its_figures_in_words(table: GameSession) -> None:
    assert "<img" not in render_to_string(
        "partials/session_chart.html", {"board": load_scoreboard(table)}
    )
    play(table, "8S", ROUND_1)
    board = load_scoreboard(table)
    html = render_to_string("partials/session_chart.html", {"board": board})
    src = reverse("games:session_totals_chart", args=[table.pk])
    assert f'src="{src}?rounds=1&amp;totals=' in html
    for column in board.columns:
        assert f"{column.name} {points(column.total)}" in html  # the alt text
    shared = render_to_string("partials/session_chart.html", {"board": board, "shared": True})
    assert reverse("games:shared_totals_chart", args=[table.share_token]) in shared
    # Another round: another address, so a swapped-in scoreboard shows a new chart.
    play(table, "8S", ROUND_1)
    again = render_to_string("partials/session_chart.html", {"board": load_scoreboard(table)})
    assert f'src="{src}?rounds=2&amp;totals=' in again


def test_a_chart_served_as_an_image_carries_its_dark_theme_and_an_inline_one_does_not() -> None:
    # An <img> cannot see the page's stylesheets; a page's inline <style> would be
    # refused by the Content-Security-Policy.
    state = session_state(POOL, ("Asha", "Ben", "Chen"), POOL_ROUNDS)
    image = parse(running_totals_svg(state, own_style=True))
    (style,) = image.iter(f"{SVG}style")
    assert "prefers-color-scheme: dark" in style.text
    assert not list(parse(rating_history_svg([])).iter(f"{SVG}style"))
    # Each line and its legend swatch take their colour from one series attribute.
    lines = [g for g in image.iter(f"{SVG}g") if g.get("class") == "chart-line"]
    assert [g.get("data-series") for g in lines] == ["0", "1", "2"]
    assert {p.get("stroke") for g in lines for p in g.iter(f"{SVG}polyline")} == {"currentColor"}


@pytest.mark.parametrize("sessions", [3, 5, 12, 40, 400])
def test_the_dates_under_a_rating_history_do_not_run_into_each_other(sessions: int) -> None:
    root = parse(rating_history_svg([history("Asha", [i / 3 for i in range(sessions)])]))
    spans = label_spans(root, "chart-x")
    for (_, right, text), (left, _, after) in itertools.pairwise(spans):
        assert right + 2 <= left, f"{text!r} and {after!r} overlap"
    assert spans[0][0] >= 0 and spans[-1][1] <= float(root.get("width"))
    assert spans[0][2] == "1 Jan 24"  # the first and the last session are always dated
    assert len(spans) >= 2


def test_two_sessions_of_one_day_are_dated_once() -> None:
    # Was "26 Nov 26 26 Nov 26": the same day under each of the evening's sessions.
    day = datetime.date(2026, 11, 26)
    evening = [RatingPoint(0, day, 1.0, 1), RatingPoint(1, day, 2.5, 2)]
    week = [*evening, RatingPoint(2, day + datetime.timedelta(days=1), 3.0, 3)]

    def dates_under(points: list[RatingPoint]) -> list[str]:
        svg = parse(rating_history_svg([("Asha", points)]))
        return [text for *_, text in label_spans(svg, "chart-x")]

    assert dates_under(evening) == ["26 Nov 26"]
    assert dates_under(week) == ["26 Nov 26", "27 Nov 26"]


def test_a_long_name_in_the_legend_is_shortened_but_its_total_and_status_are_whole() -> None:
    # "Venkataraghavan Subramaniam 120 (out in round 3)" ran off the drawing's edge at
    # "(out in round": the name gives way instead, the whole entry is its tooltip.
    long = "Venkataraghavan Subramaniam"
    rounds = [{long: 40, "Ben": 0}, {long: 40, "Ben": 20}, {long: 40, "Ben": 20}]
    state = session_state(POOL, (long, "Ben"), rounds)
    root = parse(running_totals_svg(state))
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-legend")
    entry = next(t for t in legend.iter(f"{SVG}text") if "Venkat" in "".join(t.itertext()))
    shown = entry.text
    assert shown.endswith(" 120 (out in round 3)") and "…" in shown
    assert len(shown.replace("\u200e", "")) <= 42
    assert entry.find(f"{SVG}title").text == f"{long} 120 (out in round 3)"


def test_a_right_to_left_name_keeps_its_total_after_it() -> None:
    # Without isolating the name, "محمد 40" was laid out as "40 محمد" on the page.
    name = "محمد الأحمد"
    state = session_state(POOL, (name, "Ben"), [{name: 40, "Ben": 0}])
    root = parse(running_totals_svg(state))
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-legend")
    assert f"{name}\u200e 40" in "".join(legend.itertext())
