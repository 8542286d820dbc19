"""Server-rendered SVG line charts: a session's running totals and league ratings
over time. No JavaScript and no chart library: the markup is built here, escaped,
and shown inline (or served as an image), so a phone without scripts sees it too.

Every value plotted comes from the rules service (`SessionState.lines`) or from the
ratings `games.services.ratings` stored; this module only maps them to coordinates.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from html import escape as escape_html
from typing import NamedTuple

from django.conf import settings
from django.utils import formats
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from games import figures
from games.names import xml_text
from games.queries.standings import RatingPoint
from games.rules import SessionState, speech


def escape(text: str) -> str:
    """Text for the SVG, escaped; characters XML does not allow at all (in names
    stored before games/names.py refused them) are left out."""
    return escape_html(xml_text(text))


# Okabe-Ito colours: told apart with the common kinds of colour blindness, and
# dark enough on white. Past seven lines the dash pattern changes too.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#7A5A00", "#56B4E9", "#1b1f24")
# The charts' dark theme (the same hues lightened, and the grid, axes and legend):
# static/css/charts-dark.css, which pages drawing charts inline link. An SVG served as
# an image cannot see the page's stylesheets, so it carries the file's text itself
# (``own_style``).
DARK_CSS = (settings.BASE_DIR / "static" / "css" / "charts-dark.css").read_text()
DASHES = ("", "6 3", "2 3")
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"

# The drawing's own units: about a phone's width, so text at 12 units reads at
# roughly 12 px on a 375 px screen and scales up on wider ones.
WIDTH = 360
PLOT_LEFT = 48  # room for a y label of five characters (`_tick_labels`)
PLOT_RIGHT = 12
PLOT_TOP = 14
PLOT_HEIGHT = 180
AXIS_BELOW = 24
LEGEND_ROW = 20
LEGEND_FITS = 20  # characters of a legend entry that fit in half the width
LEGEND_WHOLE = 2 * LEGEND_FITS + 2  # and in the whole width (one column)
DENSE = 40  # points in a line above which only its ends and events are marked
MAX_POINTS = 160  # per line: more would not be told apart at this width


@dataclass(frozen=True)
class Style:
    colour: str
    dash: str
    series: int  # which of COLOURS (charts-dark.css's in the dark): the theme picks


def style(index: int) -> Style:
    series = index % len(COLOURS)
    return Style(COLOURS[series], DASHES[(index // len(COLOURS)) % len(DASHES)], series)


class Mark(NamedTuple):
    """A point of a line, with what hovering (or a screen reader) says about it. A
    named tuple: a standings page makes hundreds, and a frozen dataclass costs
    several times as much to make."""

    x: float
    y: float
    label: str  # "" for a point not drawn as a mark (`drawn`)
    kind: str = "point"  # "point", "out" (eliminated here) or "rejoin"


def drawn(number: int, count: int, kind: str = "point") -> bool:
    """Whether the ``number``-th point (from 0) of a line's segment of ``count`` is
    drawn as a mark: every point of a short line; of a dense one only its ends and
    where something happened (an elimination, a rejoin)."""
    return count <= DENSE or kind != "point" or number == 0 or number == count - 1


@dataclass(frozen=True)
class Line:
    name: str
    segments: tuple[tuple[Mark, ...], ...]  # broken where the player sat out
    legend: str  # e.g. "Asha 142 (winner)"
    # Written beside the line's last mark, drawn larger, where a lone dot says nothing
    # by itself: a chart of one point (e.g. "3.4", a rating), or a line of one point
    # among longer ones (a newcomer's "Chen −2.1": named, as its colour is one of
    # several).
    value: str = ""


@dataclass(frozen=True)
class Scale:
    lo: float
    hi: float
    start: float  # drawing coordinate of lo
    end: float  # drawing coordinate of hi

    def __call__(self, value: float) -> float:
        if self.hi == self.lo:
            return (self.start + self.end) / 2
        return self.start + (value - self.lo) * (self.end - self.start) / (self.hi - self.lo)


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round values (1, 2 or 5 times a power of ten apart) covering lo..hi."""
    if hi < lo:
        lo, hi = hi, lo
    if hi == lo:
        hi = lo + 1
    raw = (hi - lo) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(lo / step) * step
    ticks = []
    value = first
    while value < hi + step * 0.999:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _number(value: float) -> str:
    """A tick label: whole numbers without decimals, grouped as the page's language
    groups digits, minus signs typographic."""
    if float(value).is_integer():
        return figures.whole(int(value))
    return figures.points(figures.fixed(value))


# What a character of the drawing's 12-unit text is reckoned to take: a digit of the
# common system fonts is 6.6 (Roboto) to 7.6 (DejaVu Sans) units wide; the reckoning
# errs wide, so labels placed by it never touch.
CHAR_WIDTH = 7.7
LABEL_GAP = 6
# The y axis's labels end 6 units left of the plot: this many characters fit there.
Y_LABEL_FITS = int((PLOT_LEFT - 6) // CHAR_WIDTH)


def _tick_labels(values: Sequence[float]) -> list[str]:
    """The y axis's labels, short enough for the room left of the plot: where one
    would not fit (−20000 ran off the drawing's left edge, and a phone showed
    "20000"), all of them count in thousands (−20k, −10k, 0, 10k, 20k), or millions."""
    texts = [_number(value) for value in values]
    if all(len(text) <= Y_LABEL_FITS for text in texts):
        return texts
    furthest = max(abs(value) for value in values)
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if furthest >= size:
            return [_number(value / size) + suffix if value else "0" for value in values]
    return texts  # both axes start from 0: long labels only come with large values


def label_width(text: str) -> float:
    """The drawing units a label of 12-unit text is reckoned to take."""
    return len(text) * CHAR_WIDTH


def _coord(value: float) -> str:
    return f"{value:.1f}"


def thin(points: Sequence, limit: int = MAX_POINTS) -> list:
    """At most ``limit`` points, evenly picked, always keeping the first and last."""
    if len(points) <= limit:
        return list(points)
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


def _thin_marks(marks: list[Mark]) -> list[Mark]:
    """A line of a long session drawn with at most about MAX_POINTS marks, so the
    chart's size stops growing with the session; an elimination or a rejoin is never
    thinned away."""
    if len(marks) <= MAX_POINTS:
        return marks
    keep = {id(mark) for mark in thin(marks)}
    return [mark for mark in marks if id(mark) in keep or mark.kind != "point"]


def _x_scale(lo: float, hi: float) -> Scale:
    # Inset from the plot's edges, so the first and last marks are drawn whole.
    return Scale(lo, hi, PLOT_LEFT + 6, WIDTH - PLOT_RIGHT - 6)


def _render(
    lines: Sequence[Line],
    x: Scale,
    x_ticks: Sequence[tuple[float, str]],
    y_ticks: Sequence[float],
    *,
    title: str,
    description: str,
    id_prefix: str,
    rules: Sequence[tuple[float, str]] = (),
    x_caption: str = "",
    own_style: bool = False,
) -> SafeString:
    """The SVG of a line chart: axes, grid, horizontal rules (e.g. the ceiling),
    the lines with a mark per point, and a legend under the plot. The y axis spans
    ``y_ticks``, the x axis is ``x`` (from `_x_scale`); a line's ``value`` is written
    beside its last mark (`_value_labels`). With ``own_style`` the SVG
    carries its dark theme (`DARK_CSS`): for a chart served as an image. A chart
    inlined in a page must not (the Content-Security-Policy refuses inline styles);
    the page links charts-dark.css instead."""
    # Two legend columns when every entry fits in half the width, else one.
    columns = 2 if all(len(line.legend) <= LEGEND_FITS for line in lines) else 1
    legend_rows = math.ceil(len(lines) / columns)
    plot_bottom = PLOT_TOP + PLOT_HEIGHT
    y = Scale(y_ticks[0], y_ticks[-1], plot_bottom, PLOT_TOP)
    height = plot_bottom + AXIS_BELOW + (14 if x_caption else 0) + legend_rows * LEGEND_ROW + 6
    title_id, desc_id = f"{id_prefix}-title", f"{id_prefix}-desc"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" '
        f'role="img" aria-labelledby="{title_id} {desc_id}" '
        f'font-family="{FONT}" font-size="12" data-chart="{escape(id_prefix)}">',
        f'<title id="{title_id}">{escape(title)}</title>',
        f'<desc id="{desc_id}">{escape(description)}</desc>',
    ]
    if own_style:
        out.append(f"<style><![CDATA[{DARK_CSS}]]></style>")  # XML: the text as it is
    # Grid and axis labels.
    out.append('<g class="chart-grid" stroke="#e4e0d8" stroke-width="1">')
    for value in y_ticks:
        at = _coord(y(value))
        out.append(f'<line x1="{PLOT_LEFT}" x2="{WIDTH - PLOT_RIGHT}" y1="{at}" y2="{at}"/>')
    out.append("</g>")
    out.append('<g class="chart-axis" fill="#5b6470">')
    for value, label in zip(y_ticks, _tick_labels(y_ticks), strict=True):
        out.append(
            f'<text class="chart-y" x="{PLOT_LEFT - 6}" y="{_coord(y(value) + 4)}" '
            f'text-anchor="end">'
            f"{label}</text>"
        )
    for index, (value, label) in enumerate(x_ticks):
        anchor = _anchor(index, len(x_ticks), label)
        out.append(
            f'<text class="chart-x" x="{_coord(x(value))}" y="{plot_bottom + 16}" '
            f'text-anchor="{anchor}">'
            f"{escape(label)}</text>"
        )
    if x_caption:
        out.append(
            f'<text x="{_coord((PLOT_LEFT + WIDTH - PLOT_RIGHT) / 2)}" y="{plot_bottom + 30}" '
            f'text-anchor="middle">{escape(x_caption)}</text>'
        )
    out.append("</g>")
    out.append(
        f'<line class="chart-baseline" x1="{PLOT_LEFT}" x2="{WIDTH - PLOT_RIGHT}" '
        f'y1="{plot_bottom}" y2="{plot_bottom}" stroke="#5b6470" stroke-width="1"/>'
    )
    for value, label in rules:
        text = (
            'fill="#c8102e" font-weight="600" stroke="#fff" stroke-width="3" paint-order="stroke"'
        )
        if y_ticks[0] <= value <= y_ticks[-1]:
            at = _coord(y(value))
            out.append(
                f'<g class="chart-rule" data-value="{value:g}">'
                f'<line x1="{PLOT_LEFT}" x2="{WIDTH - PLOT_RIGHT}" y1="{at}" y2="{at}" '
                f'stroke="#c8102e" stroke-width="1.5" stroke-dasharray="5 3"/>'
                f'<text x="{PLOT_LEFT + 4}" y="{_coord(y(value) - 4)}" {text}>'
                f"{escape(label)}</text></g>"
            )
        else:
            # A rule far beyond the lines (see `running_totals_svg`): its label at
            # the plot's edge on its side, pointing the way.
            below = value < y_ticks[0]
            at = plot_bottom - 6 if below else PLOT_TOP + 12
            out.append(
                f'<g class="chart-rule chart-rule-off" data-value="{value:g}">'
                f'<text x="{PLOT_LEFT + 4}" y="{at}" {text}>'
                f"{escape(label)} {'↓' if below else '↑'}</text></g>"
            )
    for index, line in enumerate(lines):
        look = style(index)
        dash = f' stroke-dasharray="{look.dash}"' if look.dash else ""
        out.append(
            f'<g class="chart-line" data-name="{escape(line.name)}" '
            f'data-series="{look.series}" color="{look.colour}">'
        )
        for segment in line.segments:
            coords = " ".join(f"{_coord(x(m.x))},{_coord(y(m.y))}" for m in segment)
            out.append(
                f'<polyline points="{coords}" fill="none" stroke="currentColor" '
                f'stroke-width="2" stroke-linejoin="round"{dash}/>'
            )
            for number, mark in enumerate(segment):
                if drawn(number, len(segment), mark.kind):
                    out.append(_mark(mark, x(mark.x), y(mark.y), "currentColor", bool(line.value)))
        out.append("</g>")
    out.extend(_value_labels(lines, x, y))
    # The legend: a swatch in the line's colour and dash, the name and its figure.
    top = plot_bottom + AXIS_BELOW + (14 if x_caption else 0)
    column_width = (WIDTH - 8) / columns
    out.append('<g class="chart-legend" font-size="13" fill="#1b1f24">')
    for index, line in enumerate(lines):
        look = style(index)
        left = 8 + (index % columns) * column_width
        middle = top + (index // columns) * LEGEND_ROW + 8
        dash = f' stroke-dasharray="{look.dash}"' if look.dash else ""
        out.append(
            f'<line x1="{_coord(left)}" x2="{_coord(left + 20)}" y1="{_coord(middle)}" '
            f'y2="{_coord(middle)}" data-series="{look.series}" color="{look.colour}" '
            f'stroke="currentColor" stroke-width="3"{dash}/>'
            f'<text x="{_coord(left + 26)}" y="{_coord(middle + 4)}">'
            f"{escape(_legend_text(line.name, line.legend, LEGEND_WHOLE))}"
            f"<title>{escape(line.legend)}</title></text>"
        )
    out.append("</g></svg>")
    return mark_safe("".join(out))  # every piece of text above is escaped


def _value_labels(lines: Sequence[Line], x: Scale, y: Scale) -> Iterator[str]:
    """Each line's ``value`` (if it has one) right of its last mark, in the line's
    colour, or left of it where it would run off the drawing (a newcomer's point at
    the last session); labels that would touch (lines ending at about the same
    rating) are moved apart, down, and the whole stack back up where it would run
    below the plot (onto the dates). Each is outlined in the background's colour, so
    a line it crosses does not run through its letters."""
    ends = sorted(
        (y(line.segments[-1][-1].y), x(line.segments[-1][-1].x), index, line.value)
        for index, line in enumerate(lines)
        if line.value and line.segments and line.segments[-1]
    )
    spaced: list[float] = []
    for at, *_ in ends:  # down, each below the one above
        spaced.append(max(at, spaced[-1] + VALUE_ROW) if spaced else at)
    lowest = PLOT_TOP + PLOT_HEIGHT - 4
    for number in reversed(range(len(spaced))):  # then up, each above the one below
        spaced[number] = lowest = min(spaced[number], lowest)
        lowest -= VALUE_ROW
    for at, (_, mark, index, value) in zip(spaced, ends, strict=True):
        look = style(index)
        fits = mark + 9 + label_width(value) <= WIDTH
        side = f'x="{_coord(mark + 9)}"' if fits else f'x="{_coord(mark - 9)}" text-anchor="end"'
        yield (
            f'<text class="chart-value" {side} y="{_coord(at + 4)}" '
            f'data-series="{look.series}" color="{look.colour}" fill="currentColor" '
            f'font-weight="600" stroke="#fff" stroke-width="3" paint-order="stroke">'
            f"{escape(value)}</text>"
        )


# The height a value written beside a mark takes, with a gap (`_value_labels`).
VALUE_ROW = 14


def _mark(mark: Mark, cx: float, cy: float, colour: str, large: bool = False) -> str:
    tip = f"<title>{escape(mark.label)}</title>"
    if mark.kind == "out":
        # A cross where a player was knocked out.
        d = 4
        return (
            f'<path class="chart-out" d="M{cx - d:.1f},{cy - d:.1f}L{cx + d:.1f},{cy + d:.1f}'
            f'M{cx - d:.1f},{cy + d:.1f}L{cx + d:.1f},{cy - d:.1f}" stroke="{colour}" '
            f'stroke-width="2.5">{tip}</path>'
        )
    if mark.kind == "rejoin":
        return (
            f'<circle class="chart-rejoin" cx="{cx:.1f}" cy="{cy:.1f}" r="4.5" fill="#fff" '
            f'stroke="{colour}" stroke-width="2">{tip}</circle>'
        )
    radius = 4.5 if large else 2.5
    return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius}" fill="{colour}">{tip}</circle>'


def _legend_text(name: str, legend: str, limit: int) -> str:
    """A legend entry of at most ``limit`` characters (one that runs past the drawing's
    edge is cut off mid-word): a long name is shortened, never the figure and status
    after it, and is ended by a left-to-right mark (U+200E), so an Arabic name's
    figure is still drawn after it (Chromium's SVG text ignores the isolates U+2068
    and U+2069). The whole entry is its tooltip."""
    rest = legend.removeprefix(name)
    if rest == legend:  # a legend that does not start with the name
        return _shorten(legend, limit)
    return _shorten(name, max(limit - len(rest), 8)) + "\u200e" + rest


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- A session's running totals ---------------------------------------------------------


def running_totals_svg(
    state: SessionState,
    *,
    title: str | None = None,
    id_prefix: str = "totals",
    own_style: bool = False,
) -> SafeString:
    """Each player's running total after every round (from ``state.lines``) as a
    line from 0 before round 1, the ceiling as a marked rule when there is one (as a
    total: in net totals it bounds what a player may lose, -250 for 250), and a
    legend with each player's total now. A player's line stops where they are out
    (a cross) and starts again where they rejoin (a ring). ``title``: "Running totals"
    unless given."""
    rule_at = state.ceiling_total
    lines = []
    for name in state.players:
        start = gettext("{name} before round 1: 0").format(name=name)
        segments: list[list[Mark]] = [[Mark(0, 0, start)]]
        for line in state.lines:
            if line.scores.get(name) is not None:
                total = line.totals[name]
                out = name in line.eliminated
                if out:
                    label = gettext("{name} after round {number}: {total} (out)")
                else:
                    label = gettext("{name} after round {number}: {total}")
                label = label.format(name=name, number=line.number, total=_number(total))
                segments[-1].append(Mark(line.number, total, label, "out" if out else "point"))
            if name in line.rejoined:
                # The line stops at the total that put them out and starts again here.
                total = line.rejoined[name]
                rejoin = Mark(
                    line.number,
                    total,
                    gettext("{name} rejoined after round {number} at {total}").format(
                        name=name, number=line.number, total=_number(total)
                    ),
                    "rejoin",
                )
                segments.append([rejoin])
        said = {"name": name, "total": _number(state.totals[name])}
        if name in state.winners:
            legend = gettext("{name} {total} (winner)").format(**said)
        elif name in state.eliminated_in:
            legend = gettext("{name} {total} (out in round {number})").format(
                number=state.eliminated_in[name], **said
            )
        else:
            legend = f"{name} {said['total']}"
        kept = (_thin_marks(segment) for segment in segments if segment)
        lines.append(Line(name, tuple(tuple(segment) for segment in kept), legend))
    values = [0.0] + [
        float(v) for line in state.lines for v in (*line.totals.values(), *line.rejoined.values())
    ]
    if rule_at is not None and _near(rule_at, values):
        values.append(float(rule_at))
    y_ticks = nice_ticks(min(values), max(values))
    rounds = len(state.lines)
    x = _x_scale(0, max(rounds, 1))
    x_ticks = round_ticks(rounds, x)
    totals = (_total_of(name, _number(state.totals[name])) for name in state.players)
    summary = speech.list_words(totals)
    description = ngettext(
        "After {count} round: {summary}.", "After {count} rounds: {summary}.", rounds
    ).format(count=rounds, summary=summary)
    rules = []
    if rule_at is not None:
        ceiling = gettext("Ceiling {total}.").format(total=_number(rule_at))
        description = f"{description} {ceiling}"
        # Translators: the label of the ceiling's line on the running totals chart.
        rules = [(rule_at, gettext("ceiling {total}").format(total=_number(rule_at)))]
    return _render(
        lines,
        x,
        x_ticks,
        y_ticks,
        title=title or gettext("Running totals"),
        description=description,
        id_prefix=id_prefix,
        rules=rules,
        # Translators: the caption of the running totals chart's axis of rounds.
        x_caption=gettext("round"),
        own_style=own_style,
    )


def _round_steps() -> Iterator[int]:
    """1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, ...: steps a reader counts in."""
    yield from (1, 2, 5)
    for power in itertools.count(1):
        yield from (10**power, 2 * 10**power, 25 * 10 ** (power - 1), 5 * 10**power)


# A ceiling's rule stretches the axis while the lines keep at least this share of it.
NEAR = 5


def _near(rule: float, values: Sequence[float]) -> bool:
    """Whether the y axis stretches to show a ceiling's rule: not when the lines would
    keep less than 1/NEAR of the plot's height (a 42-round session of totals within
    ±500 under a ceiling of 20000 was a flat band at the top of the chart). Such a
    rule is named at the plot's edge instead (`_render`). Before any round the rule
    is all there is to show."""
    furthest = max(abs(value) for value in values)
    return furthest == 0 or abs(rule) <= NEAR * furthest


def round_ticks(rounds: int, x: Scale) -> list[tuple[float, str]]:
    """The x axis's round numbers: 0, then every 1, 2, 5, 10, 20, 25, 50, ... rounds,
    the smallest step whose labels (the widest of them and a gap) fit between
    neighbours, and the last round. The last round takes the place of the tick
    before it where both would not fit: at 25 rounds a step of 3 ended in "24 25",
    drawn over each other."""
    room = label_width(str(rounds)) + LABEL_GAP
    per_round = abs(x(1) - x(0))
    step = next(step for step in _round_steps() if step * per_round >= room or step >= rounds)
    ticks: list[tuple[float, str]] = [(n, str(n)) for n in range(0, rounds + 1, step)]
    end = (rounds, str(rounds))
    if ticks[-1] != end:
        while len(ticks) > 1 and not _clear(ticks[-1], len(ticks) - 1, end, x, last=True):
            ticks.pop()
        ticks.append(end)
    return ticks


# --- Ratings over time --------------------------------------------------------------------


def rating_history_svg(
    series: Sequence[tuple[str, Sequence[RatingPoint]]],
    *,
    title: str | None = None,
    id_prefix: str = "ratings",
) -> SafeString:
    """Each named series of ratings (OpenSkill ordinal after each rated session) as a
    line. The x axis is the league's rated sessions in the order they were played
    (``RatingPoint.sequence``), labelled with their dates; long histories are
    thinned to what the width can show, keeping each line's first and last point.
    A chart of a single session has no line to draw: its point (one per series)
    stands in the middle, larger, with its rating written beside it and "one rated
    session" under its date (a league's only one, or the only one in the dates asked).
    A newcomer's one point among longer lines is drawn so too, with their name.
    ``title``: "Rating over time" unless given."""
    named = [(name, thin(points)) for name, points in series if points]
    everything = [point for _, points in named for point in points]
    if not everything:
        first = last = 0
        y_ticks = nice_ticks(0, 1)
    else:
        first = min(p.sequence for p in everything)
        last = max(p.sequence for p in everything)
        y_ticks = nice_ticks(
            min(0.0, *(p.ordinal for p in everything)), max(0.0, *(p.ordinal for p in everything))
        )
    one_session = bool(everything) and first == last
    x = _x_scale(first, first if one_session else max(last, first + 1))
    dates = {p.sequence: p.played_on for p in everything}
    x_ticks: list[tuple[float, str]] = []
    if everything:
        picks = sorted({first, last, *thin(sorted(dates), 4)})
        for sequence in picks:
            label = _short_date(dates[sequence])
            # Two sessions of one evening: the day is said once, under its first.
            if not x_ticks or x_ticks[-1][1] != label:
                x_ticks.append((sequence, label))
        x_ticks = _spread(x_ticks, x)
    lines = [
        Line(
            name,
            (
                tuple(
                    Mark(
                        p.sequence,
                        p.ordinal,
                        # Words only for the marks drawn: a long history draws two
                        # of its 160 points, and the dates were half the chart's time.
                        gettext("{name} on {day}: {rating}").format(
                            name=name, day=_long_date(p.played_on), rating=figures.rating(p.ordinal)
                        )
                        if drawn(number, len(points))
                        else "",
                    )
                    for number, p in enumerate(points)
                ),
            ),
            f"{name} {figures.rating(points[-1].ordinal)}",
            _beside(name, points, one_session),
        )
        for name, points in named
    ]
    summary = speech.list_words(_rating_summary(name, points) for name, points in named)
    if named:
        description = gettext("Rating after each rated session: {summary}.").format(summary=summary)
    else:
        description = gettext("No rated sessions yet.")
    if one_session:  # said as such, under its date and in words
        tick = gettext("{day} · one rated session").format(day=_short_date(dates[first]))
        x_ticks = [(first, tick)]
        said = speech.list_words(_total_of(line.name, line.value) for line in lines)
        if len(lines) == 1:
            said = gettext("rating {rating}").format(rating=lines[0].value)
        description = gettext("One rated session ({day}): {said}.").format(
            day=_long_date(dates[first]), said=said
        )
    return _render(
        lines,
        x,
        x_ticks,
        y_ticks,
        title=title or gettext("Rating over time"),
        description=description,
        id_prefix=id_prefix,
    )


def _total_of(name: str, figure: str) -> str:
    # Translators: a player and their figure (a total, a rating) in a chart's
    # description, one item of a list ("Asha 122, Ben −92").
    return gettext("{name} {figure}").format(name=name, figure=figure)


def _rating_summary(name: str, points: Sequence[RatingPoint]) -> str:
    """A player's line in words: from its first rating to its last, or its one."""
    if len(points) == 1:
        return gettext("{name} {rating} after one rated session ({day})").format(
            name=name, rating=figures.rating(points[0].ordinal), day=_long_date(points[0].played_on)
        )
    return gettext("{name} from {first} to {last}").format(
        name=name,
        first=figures.rating(points[0].ordinal),
        last=figures.rating(points[-1].ordinal),
    )


def _beside(name: str, points: Sequence[RatingPoint], one_session: bool) -> str:
    """What is written beside a rating line's last point (`Line.value`) where it is
    the line's only one: in a chart of one session, its rating; a newcomer's among
    the others' lines, their name and rating as their legend entry has them (a small
    dot in one colour of several said neither whose it was nor what)."""
    rating = figures.rating(points[-1].ordinal)
    if one_session:
        return rating
    if len(points) == 1:
        return _legend_text(name, f"{name} {rating}", LEGEND_FITS)
    return ""


def _spread(ticks: list[tuple[float, str]], x: Scale) -> list[tuple[float, str]]:
    """Drop date labels that would overlap a neighbour, anchored as `_render` draws
    them: the first and the last date are always kept."""
    if len(ticks) <= 2:
        return ticks
    first, *middle, last = ticks
    kept = [first]
    for tick in middle:
        if _clear(kept[-1], len(kept) - 1, tick, x) and _clear(tick, 1, last, x, last=True):
            kept.append(tick)
    return [*kept, last]


def _clear(
    left: tuple[float, str], index: int, right: tuple[float, str], x: Scale, *, last: bool = False
) -> bool:
    """Whether two x labels (the left one ``index``-th) stand apart."""
    count = index + 2 if last else index + 3
    _, ends = _span(x(left[0]), left[1], _anchor(index, count, left[1]))
    starts, _ = _span(x(right[0]), right[1], _anchor(index + 1, count, right[1]))
    return ends + LABEL_GAP <= starts


def _anchor(index: int, count: int, label: str) -> str:
    """Where an x label stands on its point: long labels at the ends hang inwards,
    so none runs off the drawing."""
    if count == 1:
        return "middle"  # a chart of one point draws it in the middle
    if len(label) > 3 and index == 0:
        return "start"
    if len(label) > 3 and index == count - 1:
        return "end"
    return "middle"


def _span(at: float, label: str, anchor: str) -> tuple[float, float]:
    """The left and right end of an x label, as reckoned (`CHAR_WIDTH`)."""
    width = label_width(label)
    left = {"start": at, "middle": at - width / 2, "end": at - width}[anchor]
    return left, left + width


def _short_date(day) -> str:
    """A day on an axis, as the page's language writes a short one: 5 Jan 24."""
    return formats.date_format(day, "SHORT_DATE_FORMAT")


def _long_date(day) -> str:
    return figures.day(day)
